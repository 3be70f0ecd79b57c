"""DOCX reader: the real corpus against its truth, and small documents made here."""
from __future__ import annotations

import io
import struct
import zipfile
import zlib

import docx
import pytest
from docx.enum.style import WD_STYLE_TYPE
from docx.oxml import parse_xml
from docx.shared import Inches

from engine.model import Document
from engine.read.parse import parse_bytes, parse_document, parse_path
from tests.corpus import REASON_MATCH, corpus_params, requires_corpus, squash
from tests.documents import backslashed, docx_bytes

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _bytes(document) -> bytes:
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


def _read(document, name: str = "시험.docx", **kw) -> Document:
    data = document if isinstance(document, bytes) else _bytes(document)
    return parse_document(data, name, **kw)


def _rezip(data: bytes, change) -> bytes:
    """Copy a zip, letting ``change(name, bytes)`` rewrite each member; it may return extra members."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        extra = {}
        for info in src.infolist():
            content, more = change(info.filename, src.read(info.filename))
            dst.writestr(info.filename, content)
            extra.update(more)
        for name, content in extra.items():
            dst.writestr(name, content)
    return out.getvalue()


def _append_body_xml(document, xml: str) -> None:
    body = document.element.body
    body.insert(len(body) - 1, parse_xml(xml))  # before the final sectPr


def test_entry_names_with_backslashes_are_read():
    doc = _read(backslashed(docx_bytes("거꾸로 빗금 문단")))
    assert doc.readable and doc.source.format == "docx"
    assert [b.text for b in doc.blocks] == ["거꾸로 빗금 문단"]


# ---- real corpus -----------------------------------------------------------
@requires_corpus
@pytest.mark.parametrize("path,truth", corpus_params({"docx"}))
def test_corpus_docx_agrees_with_truth(path, truth):
    doc = parse_path(str(path))[0]
    assert doc.readable == truth["readable"]
    assert doc.reason in REASON_MATCH[truth["reason"]]
    text = squash(doc.all_text())
    missing = [s for s in truth["snippets"] if squash(s) not in text]
    assert not missing
    if truth.get("table_count") is not None:
        assert len(doc.tables) == truth["table_count"]
    assert all(b.page is None and b.bbox is None for b in doc.blocks)


# ---- structure ------------------------------------------------------------
def test_headings_title_and_list_items():
    d = docx.Document()
    d.add_paragraph("2026년 업무 계획", style="Title")
    d.add_heading("1. 추진 배경", level=1)
    d.add_paragraph("배경 설명 문단")
    d.add_heading("가. 세부 내용", level=2)
    d.add_paragraph("첫째 항목", style="List Bullet")
    korean = d.styles.add_style("제목 3", WD_STYLE_TYPE.PARAGRAPH)  # named as Korean tools do
    d.add_paragraph("셋째 수준 제목", style=korean)
    outlined = d.add_paragraph("개요 수준만 준 문단")
    outlined._p.get_or_add_pPr().append(parse_xml(f'<w:outlineLvl {W} w:val="3"/>'))
    doc = _read(d)
    kinds = [(b.type, b.level, b.text) for b in doc.blocks]
    assert kinds == [
        ("title", None, "2026년 업무 계획"),
        ("heading", 1, "1. 추진 배경"),
        ("paragraph", None, "배경 설명 문단"),
        ("heading", 2, "가. 세부 내용"),
        ("list_item", 1, "첫째 항목"),
        ("heading", 3, "셋째 수준 제목"),
        ("heading", 4, "개요 수준만 준 문단"),
    ]
    assert doc.structure.title == "2026년 업무 계획"
    assert all(b.page is None and b.bbox is None for b in doc.blocks)


def test_tables_stay_where_they_are_in_the_body():
    d = docx.Document()
    d.add_paragraph("표 앞 문단")
    d.add_table(rows=1, cols=2).rows[0].cells[0].text = "표 안 글"
    d.add_paragraph("표 뒤 문단")
    doc = _read(d)
    assert [b.type for b in doc.blocks] == ["paragraph", "table", "paragraph"]
    assert doc.blocks[1].id == doc.tables[0].block
    assert doc.tables[0].grid() == [["표 안 글", ""]]


def test_merged_cells_become_one_cell_with_spans():
    d = docx.Document()
    t = d.add_table(rows=3, cols=3)
    for r in range(3):
        for c in range(3):
            t.cell(r, c).text = f"{r}{c}"
    t.cell(0, 0).merge(t.cell(0, 1)).text = "가로 병합"      # gridSpan
    t.cell(1, 2).merge(t.cell(2, 2)).text = "세로 병합"      # vMerge
    t.cell(1, 0).merge(t.cell(2, 1)).text = "네 칸 병합"     # both
    table = _read(d).tables[0]
    assert (table.rows, table.cols) == (3, 3)
    spans = {c.text: (c.row, c.col, c.row_span, c.col_span) for c in table.cells}
    assert spans == {"가로 병합": (0, 0, 1, 2), "02": (0, 2, 1, 1),
                     "세로 병합": (1, 2, 2, 1), "네 칸 병합": (1, 0, 2, 2)}
    assert table.grid()[1] == ["네 칸 병합", "", "세로 병합"]


def test_nested_table_has_its_own_table_and_block():
    d = docx.Document()
    outer = d.add_table(rows=2, cols=2)
    outer.cell(0, 0).text = "바깥 칸"
    outer.cell(1, 1).paragraphs[0].text = "안쪽 표를 담은 칸"
    inner = outer.cell(1, 1).add_table(rows=1, cols=2)
    inner.cell(0, 1).text = "안쪽 칸"
    doc = _read(d)
    assert len(doc.tables) == 2
    outer_t, inner_t = doc.tables
    assert inner_t.parent == outer_t.id and inner_t.parent_cell == [1, 1]
    block = {b.id: b for b in doc.blocks}
    assert block[inner_t.block].parent == outer_t.block
    assert inner_t.grid() == [["", "안쪽 칸"]]
    assert outer_t.grid()[1][1] == "안쪽 표를 담은 칸"   # the inner table's text is not repeated


def test_headers_footers_and_footnotes():
    d = docx.Document()
    d.sections[0].header.paragraphs[0].text = "대외비"
    letterhead = d.sections[0].header.add_table(rows=1, cols=2, width=Inches(6))
    letterhead.cell(0, 0).text = "행정안전부"
    letterhead.cell(0, 1).text = "보도자료"
    d.sections[0].footer.paragraphs[0].text = "- 1 -"
    cited = d.add_paragraph("각주가 달린 문장")
    cited._p.append(parse_xml(f'<w:r {W}><w:footnoteReference w:id="1"/></w:r>'))
    notes = (f'<w:footnotes {W}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/>'
             f'</w:r></w:p></w:footnote><w:footnote w:id="1"><w:p><w:r><w:t>각주 내용입니다</w:t>'
             f'</w:r></w:p></w:footnote></w:footnotes>').encode()

    def add_footnotes(name, content):
        if name == "word/_rels/document.xml.rels":
            content = content.replace(b"</Relationships>", (
                b'<Relationship Id="rIdNote" Target="footnotes.xml" Type="http://schemas.openxmlformats'
                b'.org/officeDocument/2006/relationships/footnotes"/></Relationships>'))
        if name == "[Content_Types].xml":
            content = content.replace(b"</Types>", (
                b'<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-'
                b'officedocument.wordprocessingml.footnotes+xml"/></Types>'))
        return content, {"word/footnotes.xml": notes} if name == "[Content_Types].xml" else {}

    doc = _read(_rezip(_bytes(d), add_footnotes))
    kinds = [(b.type, b.text) for b in doc.blocks]
    assert kinds == [("header", "대외비"), ("header", "행정안전부 | 보도자료"),
                     ("paragraph", "각주가 달린 문장"), ("footnote", "각주 내용입니다"),
                     ("footer", "- 1 -")]
    assert doc.tables == []  # a letterhead table is page furniture, not a table of the body
    assert doc.blocks[3].parent == doc.blocks[2].id


def test_content_controls_insertions_and_text_boxes_are_read():
    d = docx.Document()
    _append_body_xml(d, f'<w:sdt {W}><w:sdtContent><w:p><w:r><w:t>내용 컨트롤 안 문단</w:t></w:r>'
                        f'</w:p></w:sdtContent></w:sdt>')
    _append_body_xml(d, f'<w:p {W}><w:r><w:t>고친 </w:t></w:r><w:ins w:id="1" w:author="a">'
                        f'<w:r><w:t>넣은 글</w:t></w:r></w:ins><w:del w:id="2" w:author="a"><w:r>'
                        f'<w:delText>지운 글</w:delText></w:r></w:del></w:p>')
    _append_body_xml(d, f'<w:p {W}><w:r><w:t>글상자 곁 문단</w:t></w:r><w:r><w:pict><v:shape '
                        f'xmlns:v="urn:schemas-microsoft-com:vml"><v:textbox><w:txbxContent><w:p><w:r>'
                        f'<w:t>글상자 안 글</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape>'
                        f'</w:pict></w:r></w:p>')
    box = '<w:txbxContent><w:p><w:r><w:t>두 벌로 저장된 글상자</w:t></w:r></w:p></w:txbxContent>'
    _append_body_xml(d, f'<w:p {W}><w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/'
                        f'markup-compatibility/2006"><mc:Choice Requires="wps">{box}</mc:Choice>'
                        f'<mc:Fallback>{box}</mc:Fallback></mc:AlternateContent></w:r></w:p>')
    blocks = _read(d).blocks
    assert [(b.type, b.text) for b in blocks] == [
        ("paragraph", "내용 컨트롤 안 문단"), ("paragraph", "고친 넣은 글"),
        ("paragraph", "글상자 곁 문단"), ("textbox", "글상자 안 글"), ("textbox", "두 벌로 저장된 글상자")]
    assert blocks[3].parent == blocks[2].id


def test_title_from_document_properties_unless_placeholder():
    d = docx.Document()
    d.add_paragraph("첫 문단입니다")
    d.core_properties.title = "2026년 예산 편성 지침"
    assert _read(d).structure.title == "2026년 예산 편성 지침"
    d.core_properties.title = "Word Document"
    assert _read(d).structure.title == "첫 문단입니다"


# ---- unreadable and odd files ---------------------------------------------
def test_empty_document_is_empty():
    doc = _read(docx.Document())
    assert not doc.readable and doc.reason == "EMPTY"


def test_picture_only_document_has_no_text():
    d = docx.Document()
    d.add_picture(io.BytesIO(_png()))
    doc = _read(d)
    assert not doc.readable and doc.reason == "NO_TEXT"


def test_truncated_document_part_is_corrupt():
    d = docx.Document()
    d.add_paragraph("잘릴 문서의 본문")
    data = _rezip(_bytes(d), lambda name, content: (
        content[: len(content) // 2] if name == "word/document.xml" else content, {}))
    doc = _read(data)
    assert not doc.readable and doc.reason == "CORRUPT"


def test_truncated_file_is_corrupt():
    d = docx.Document()
    d.add_paragraph("잘릴 문서의 본문")
    data = _bytes(d)
    doc = parse_bytes(data[: len(data) - 200], "잘린.docx")[0]  # no zip directory left
    assert not doc.readable and doc.reason == "CORRUPT"


def test_docx_named_xlsx_is_read_as_docx_with_a_warning():
    d = docx.Document()
    d.add_paragraph("확장자가 틀린 워드 문서")
    doc = parse_bytes(_bytes(d), "예산.xlsx")[0]
    assert doc.readable and doc.source.format == "docx"
    assert doc.warning_codes() == ["EXTENSION_MISMATCH"]
    assert "확장자가 틀린 워드 문서" in doc.all_text()


def _png() -> bytes:
    """A 1x1 white PNG."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\xff\xff")) + chunk(b"IEND", b""))
