"""HWPX reader: the real corpus against its truth, plus tiny HWPX files written here."""
from __future__ import annotations

import time
import zipfile
from functools import lru_cache

import pytest

from engine.read.parse import parse_path
from tests.documents import backslashed
from tests.corpus import REASON_MATCH, corpus_params, requires_corpus, squash
from tests.test_archive import set_declared_size, set_encrypted

HWPX_CORPUS = corpus_params({"hwpx"})

HP_2011 = "http://www.hancom.co.kr/hwpml/2011/paragraph"
HP_2016 = "http://www.hancom.co.kr/hwpml/2016/paragraph"
HS = "http://www.hancom.co.kr/hwpml/2011/section"
ODF = "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"


# ---- building tiny HWPX files ------------------------------------------------------

def sec(*paras: str, hp: str = HP_2011) -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?><hs:sec xmlns:hs="{HS}" xmlns:hp="{hp}">'
            + "".join(paras) + "</hs:sec>")


def p(*runs: str, vertpos=None, page_break: bool = False) -> str:
    lines = "" if vertpos is None else (
        "<hp:linesegarray>" + "".join(f'<hp:lineseg textpos="0" vertpos="{v}"/>' for v in vertpos)
        + "</hp:linesegarray>")
    return f'<hp:p pageBreak="{int(page_break)}">' + "".join(runs) + lines + "</hp:p>"


def t(text: str) -> str:
    return f"<hp:run><hp:t>{text}</hp:t></hp:run>"


def sub(*paras: str) -> str:
    return "<hp:subList>" + "".join(paras) + "</hp:subList>"


def tc(row: int, col: int, *paras: str, rows: int = 1, cols: int = 1) -> str:
    return (f"<hp:tc>{sub(*paras)}<hp:cellAddr colAddr=\"{col}\" rowAddr=\"{row}\"/>"
            f"<hp:cellSpan colSpan=\"{cols}\" rowSpan=\"{rows}\"/></hp:tc>")


def tbl(rows: int, cols: int, *trs: str, caption: str = "", height: int = 1000) -> str:
    cap = f"<hp:caption>{sub(p(t(caption)))}</hp:caption>" if caption else ""
    return (f'<hp:run><hp:tbl rowCnt="{rows}" colCnt="{cols}"><hp:sz height="{height}"/>{cap}'
            + "".join(f"<hp:tr>{tr}</hp:tr>" for tr in trs) + "</hp:tbl></hp:run>")


def ctrl(kind: str, *paras: str) -> str:
    return f"<hp:run><hp:ctrl><hp:{kind}>{sub(*paras)}</hp:{kind}></hp:ctrl></hp:run>"


def hpf(sections: list[str], title: str = "") -> str:
    items = "".join(f'<opf:item id="s{i}" href="Contents/{n}" media-type="application/xml"/>'
                    for i, n in enumerate(sections))
    refs = "".join(f'<opf:itemref idref="s{i}"/>' for i in range(len(sections)))
    return ('<opf:package xmlns:opf="http://www.idpf.org/2007/opf/"><opf:metadata>'
            f"<opf:title>{title}</opf:title></opf:metadata>"
            '<opf:manifest><opf:item id="header" href="Contents/header.xml"/>' + items
            + '</opf:manifest><opf:spine><opf:itemref idref="header"/>' + refs + "</opf:spine></opf:package>")


def write_hwpx(path, sections: dict[str, str], *, spine=None, title: str = "",
               manifest=None) -> str:
    """An HWPX zip: mimetype, content.hpf (unless spine is False), sections, optional manifest."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("mimetype", "application/hwp+zip")
        if spine is not False:
            zf.writestr("Contents/content.hpf", hpf(spine or list(sections), title))
        zf.writestr("Contents/header.xml", '<hh:head xmlns:hh="x"/>')
        for name, xml in sections.items():
            zf.writestr(f"Contents/{name}", xml)
        if manifest is not None:
            zf.writestr("META-INF/manifest.xml", manifest)
    return str(path)


def read_one(path):
    (doc,) = parse_path(path)
    return doc


def blocks_of(doc, kind: str):
    return [b for b in doc.blocks if b.type == kind]


# ---- generated fixtures ----------------------------------------------------------------

def test_without_manifest_follows_spine_order(tmp_path):
    path = write_hwpx(tmp_path / "a.hwpx", {
        "section0.xml": sec(p(t("둘째 구역 글"))),
        "section1.xml": sec(p(t("첫째 구역 글"))),
    }, spine=["section1.xml", "section0.xml"], title="둘째 구역")
    doc = read_one(path)
    assert doc.readable, doc.reason
    assert [b.text for b in doc.blocks] == ["첫째 구역 글", "둘째 구역 글"]
    assert doc.structure.title == "둘째 구역"      # the package's title, which the body bears out


def test_without_content_hpf_sections_go_by_number(tmp_path):
    sections = {f"section{n}.xml": sec(p(t(f"구역 {n}"))) for n in (10, 2, 0, 1)}
    doc = read_one(write_hwpx(tmp_path / "b.hwpx", sections, spine=False))
    assert [b.text for b in doc.blocks] == ["구역 0", "구역 1", "구역 2", "구역 10"]


def test_placeholder_title_is_not_taken(tmp_path):
    doc = read_one(write_hwpx(tmp_path / "c.hwpx", {"section0.xml": sec(p(t("본문 첫 줄입니다")))},
                              title="제목"))
    assert doc.structure.title == "본문 첫 줄입니다"   # the engine's fallback, not "제목"


def test_a_template_title_the_body_does_not_bear_out_is_not_taken(tmp_path):
    doc = read_one(write_hwpx(tmp_path / "c.hwpx", {"section0.xml": sec(p(t("공무직 관리 규정 입법예고")))},
                              title="본문내용본문내용"))
    assert doc.structure.title == "공무직 관리 규정 입법예고"


def test_inline_markup_fields_and_2016_namespace(tmp_path):
    body = p('<hp:run><hp:ctrl><hp:fieldBegin type="CLICK_HERE"><hp:parameters>'
             '<hp:stringParam name="Command">숨은 지시문</hp:stringParam></hp:parameters>'
             "</hp:fieldBegin></hp:ctrl>"
             "<hp:t>가<hp:tab/>나<hp:lineBreak/>다<hp:fwSpace/>라</hp:t></hp:run>",
             '<hp:run><hp:t><hp:markpenBegin/>형광<hp:markpenEnd/>펜</hp:t></hp:run>')
    doc = read_one(write_hwpx(tmp_path / "d.hwpx", {"section0.xml": sec(body, hp=HP_2016)}))
    assert [b.text for b in doc.blocks] == ["가\t나\n다 라형광펜"]
    assert "숨은" not in doc.all_text()


def test_nested_table_with_spans_uses_cell_addresses(tmp_path):
    inner = tbl(1, 2, tc(0, 0, p(t("안1"))) + tc(0, 1, p(t("안2"))))
    # cells written out of order: the address decides where they go
    outer = tbl(2, 3,
                tc(0, 2, p(t("오른쪽")), rows=2) + tc(0, 0, p(t("합친 칸")), cols=2),
                tc(1, 1, p(t("바깥 글")), p(inner)) + tc(1, 0, p(t("왼쪽"))),
                caption="표 1. 예시")
    doc = read_one(write_hwpx(tmp_path / "e.hwpx", {"section0.xml": sec(p(outer, vertpos=[0]))}))
    assert len(doc.tables) == 2
    top, nested = doc.tables
    assert (top.rows, top.cols) == (2, 3)
    assert top.grid() == [["합친 칸", "", "오른쪽"], ["왼쪽", "바깥 글", ""]]
    merged = next(c for c in top.cells if c.text == "합친 칸")
    assert (merged.row, merged.col, merged.row_span, merged.col_span) == (0, 0, 1, 2)
    assert next(c for c in top.cells if c.text == "오른쪽").row_span == 2
    assert nested.parent == top.id and nested.parent_cell == [1, 1]
    nested_block = next(b for b in doc.blocks if b.id == nested.block)
    assert nested_block.parent == top.block
    assert nested.grid() == [["안1", "안2"]]
    assert "안1" not in top.grid()[1][1]            # the inner table is not mixed into its cell
    (caption,) = blocks_of(doc, "caption")
    assert caption.text == "표 1. 예시" and caption.parent == top.block
    assert "예시" not in next(b for b in doc.blocks if b.id == top.block).text


def test_footnote_endnote_header_footer_textbox(tmp_path):
    first = p(ctrl("header", p(t("머리말 글"))), ctrl("footer", p(t("꼬리말 글"))),
              t("본문 앞"), ctrl("footNote", p(t("각주 글"))), t(" 본문 뒤"), vertpos=[0])
    second = p(t("둘째 문단"), ctrl("endNote", p(t("미주 글"))),
               '<hp:run><hp:rect><hp:drawText>' + sub(p(t("글상자 글"))) + "</hp:drawText>"
               "<hp:shapeComment>사각형입니다.</hp:shapeComment></hp:rect></hp:run>", vertpos=[1000])
    doc = read_one(write_hwpx(tmp_path / "f.hwpx", {"section0.xml": sec(first, second)}))
    body = blocks_of(doc, "paragraph")
    assert [b.text for b in body] == ["본문 앞 본문 뒤", "둘째 문단"]
    kinds = {b.type: b for b in doc.blocks if b.type != "paragraph"}
    assert kinds["header"].text == "머리말 글" and kinds["footer"].text == "꼬리말 글"
    assert kinds["footnote"].text == "각주 글" and kinds["footnote"].parent == body[0].id
    assert kinds["endnote"].text == "미주 글" and kinds["endnote"].parent == body[1].id
    assert kinds["textbox"].text == "글상자 글" and kinds["textbox"].page == 1
    assert "사각형입니다" not in doc.all_text()


def test_pages_from_line_positions(tmp_path):
    s0 = sec(p(t("1쪽 위"), vertpos=[0]), p(t("1쪽 아래"), vertpos=[50000]),
             p(t("2쪽 (줄 위치가 처음으로)"), vertpos=[0, 1600, 0]),   # ends on page 3
             p(t("3쪽 이어서"), vertpos=[1600]),
             p(t("4쪽 (강제로 나눔)"), vertpos=[3200], page_break=True))
    s1 = sec(p(t("5쪽 새 구역"), vertpos=[0]))
    doc = read_one(write_hwpx(tmp_path / "g.hwpx", {"section0.xml": s0, "section1.xml": s1}))
    assert [b.page for b in doc.blocks] == [1, 1, 2, 3, 4, 5]
    assert doc.source.pages == 5
    assert "PAGE_APPROXIMATE" in doc.warning_codes()
    assert all(b.bbox is None for b in doc.blocks)


def test_table_taller_than_the_page_pushes_the_next_paragraph(tmp_path):
    page_setup = ('<hp:run><hp:secPr><hp:pagePr width="5000" height="10000"><hp:margin top="500" '
                  'bottom="500" header="0" footer="0"/></hp:pagePr></hp:secPr></hp:run>')
    cell = tc(0, 0, p(t("긴 표")))
    s0 = sec(p(page_setup, t("앞 글"), vertpos=[0]),
             p(tbl(1, 1, cell, height=20000), vertpos=[1000]),   # runs over pages 1-3
             p(t("표 다음 글"), vertpos=[4000]))
    doc = read_one(write_hwpx(tmp_path / "g2.hwpx", {"section0.xml": s0}))
    assert [(b.type, b.page) for b in doc.blocks] == [("paragraph", 1), ("table", 1), ("paragraph", 3)]


def test_no_line_positions_means_no_pages(tmp_path):
    doc = read_one(write_hwpx(tmp_path / "h.hwpx", {"section0.xml": sec(p(t("줄 정보 없음")))}))
    assert doc.blocks[0].page is None and doc.source.pages is None
    assert "PAGE_APPROXIMATE" not in doc.warning_codes()


def test_malformed_section_is_skipped_with_warning(tmp_path):
    path = write_hwpx(tmp_path / "i.hwpx", {
        "section0.xml": sec(p(t("멀쩡한 구역"))),
        "section1.xml": sec(p(t("깨진 구역"))).replace("</hs:sec>", "<hp:p>"),
    })
    doc = read_one(path)
    assert doc.readable
    assert [b.text for b in doc.blocks] == ["멀쩡한 구역"]
    assert "SECTION_SKIPPED" in doc.warning_codes()
    assert any("2번째 구역" in w.text for w in doc.warnings)


def test_all_sections_malformed_is_corrupt(tmp_path):
    doc = read_one(write_hwpx(tmp_path / "j.hwpx", {"section0.xml": "<hs:sec>끝이 없음"}))
    assert not doc.readable and doc.reason == "CORRUPT"
    assert "SECTION_SKIPPED" not in doc.warning_codes()


def test_encrypted_manifest_is_password_protected(tmp_path):
    manifest = (f'<odf:manifest xmlns:odf="{ODF}"><odf:file-entry full-path="Contents/section0.xml" '
                'media-type="application/xml"><odf:encryption-data checksum="x">'
                '<odf:algorithm algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc"/>'
                "</odf:encryption-data></odf:file-entry></odf:manifest>")
    path = tmp_path / "k.hwpx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/hwp+zip")
        zf.writestr("Contents/content.hpf", hpf(["section0.xml"]))
        zf.writestr("Contents/section0.xml", bytes(range(256)) * 4)   # ciphertext, not XML
        zf.writestr("META-INF/manifest.xml", manifest)
    doc = read_one(str(path))
    assert not doc.readable and doc.reason == "PASSWORD_PROTECTED"
    assert doc.access.password_protected


def test_empty_manifest_is_not_encryption(tmp_path):
    doc = read_one(write_hwpx(tmp_path / "l.hwpx", {"section0.xml": sec(p(t("평문 문서")))},
                              manifest=f'<odf:manifest xmlns:odf="{ODF}"/>'))
    assert doc.readable and doc.blocks[0].text == "평문 문서"


def test_oversized_part_is_refused(tmp_path):
    path = tmp_path / "m.hwpx"
    write_hwpx(path, {"section0.xml": sec(p(t("부풀린 크기")))})
    path.write_bytes(set_declared_size(path.read_bytes(), "Contents/section0.xml", 300 * 1024 * 1024))
    doc = read_one(str(path))
    assert not doc.readable and doc.reason == "TOO_LARGE"
    assert doc.warning_codes() == ["PART_TOO_LARGE"]


def test_entry_names_with_backslashes_are_read(tmp_path):
    path = tmp_path / "o.hwpx"
    write_hwpx(path, {"section0.xml": sec(p(t("거꾸로 빗금 구역 빗금 문서")))}, title="빗금 문서",
               manifest=f'<odf:manifest xmlns:odf="{ODF}"/>')
    path.write_bytes(backslashed(path.read_bytes()))
    assert "Contents\\section0.xml" in zipfile.ZipFile(path).namelist()
    doc = read_one(str(path))
    assert doc.readable, doc.reason
    assert doc.source.format == "hwpx"
    assert [b.text for b in doc.blocks] == ["거꾸로 빗금 구역 빗금 문서"]
    assert doc.structure.title == "빗금 문서"


def test_backslashed_part_still_counts_against_the_limits(tmp_path):
    path = tmp_path / "o2.hwpx"
    write_hwpx(path, {"section0.xml": sec(p(t("부풀린 크기")))})
    data = backslashed(path.read_bytes())
    path.write_bytes(set_declared_size(data, "Contents\\section0.xml", 300 * 1024 * 1024))
    doc = read_one(str(path))
    assert not doc.readable and doc.reason == "TOO_LARGE"
    assert doc.warning_codes() == ["PART_TOO_LARGE"]


PIC = '<hp:run><hp:pic id="1"><hp:img binaryItemIDRef="image1"/></hp:pic></hp:run>'
RECT = '<hp:run><hp:rect id="2"><hp:shapeComment>사각형입니다.</hp:shapeComment></hp:rect></hp:run>'


@pytest.mark.parametrize("body,stored", [
    (p(PIC), True),
    (p(RECT), False),
    (p(tbl(1, 1, tc(0, 0, p(PIC)))), True),
    (p(t("  ")), True),      # the picture is only stored (e.g. a page background)
], ids=["picture", "shape", "picture in a table cell", "stored picture only"])
def test_pictures_or_shapes_without_text_are_no_text_not_empty(tmp_path, body, stored):
    path = write_hwpx(tmp_path / "그림.hwpx", {"section0.xml": sec(body)})
    if stored:
        with zipfile.ZipFile(path, "a") as zf:
            zf.writestr("BinData/image1.png", b"\x89PNG\r\n\x1a\n" + bytes(64))
    doc = read_one(path)
    assert not doc.readable and doc.reason == "NO_TEXT"
    assert "그림" in doc.access.reason_text and "빈 파일" not in doc.access.reason_text


def test_a_document_with_nothing_in_it_stays_empty(tmp_path):
    doc = read_one(write_hwpx(tmp_path / "빈.hwpx", {"section0.xml": sec(p(t("")), p(tbl(1, 1, tc(0, 0, p()))))}))
    assert not doc.readable and doc.reason == "EMPTY"


def test_zip_encrypted_section_is_password_protected(tmp_path):
    path = tmp_path / "n.hwpx"
    write_hwpx(path, {"section0.xml": sec(p(t("잠긴 구역")))})
    path.write_bytes(set_encrypted(path.read_bytes(), "Contents/section0.xml"))
    doc = read_one(str(path))
    assert not doc.readable and doc.reason == "PASSWORD_PROTECTED"


# ---- the real corpus -------------------------------------------------------------------

@lru_cache(maxsize=None)
def _parsed(path: str):
    return read_one(path)


@requires_corpus
@pytest.mark.parametrize("path,truth", HWPX_CORPUS)
def test_corpus_file_agrees_with_truth(path, truth):
    doc = _parsed(str(path))
    assert doc.reason in REASON_MATCH[truth["reason"]], (doc.reason, truth["reason"])
    assert doc.readable == truth["readable"]
    if not doc.readable:
        return
    expected = truth.get("table_count")
    if expected is not None:
        assert abs(len(doc.tables) - expected) <= 0.1 * expected, (len(doc.tables), expected)
    block_ids = {b.id for b in doc.blocks}
    table_ids = {tb.id for tb in doc.tables}
    for table in doc.tables:
        assert table.block in block_ids
        assert table.parent is None or table.parent in table_ids
    for block in doc.blocks:
        assert block.bbox is None
        assert block.page is None or 1 <= block.page <= doc.source.pages
        assert block.parent is None or block.parent in block_ids


@requires_corpus
def test_corpus_snippets_found():
    wanted = found = 0
    missing = []
    for param in HWPX_CORPUS:
        path, truth = param.values
        doc = _parsed(str(path))
        text = squash(doc.all_text())
        for snippet in (truth.get("snippets") or []) + (truth.get("table_snippets") or []):
            wanted += 1
            if squash(snippet) in text:
                found += 1
            else:
                missing.append((path.name, snippet))
    assert wanted and found / wanted >= 0.98, missing


@requires_corpus
def test_corpus_throughput():
    paths = [str(param.values[0]) for param in HWPX_CORPUS]
    started = time.perf_counter()
    for path in paths:
        read_one(path)
    elapsed = time.perf_counter() - started
    print(f"\nHWPX throughput: {len(paths)} files in {elapsed:.2f} s = {len(paths) / elapsed:.1f} files/s")
    assert elapsed < 10 * len(paths)
