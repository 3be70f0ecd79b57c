"""PDF reader: the corpus PDFs against their truth, and generated PDFs for each rule of the reader."""
from __future__ import annotations

import pymupdf
import pytest

from engine.read import ocr
from engine.read.parse import parse_bytes, parse_path
from tests.corpus import REASON_MATCH, corpus_params, requires_corpus, squash

needs_ocr = pytest.mark.skipif(not ocr.ocr_available(),
                               reason="OCR unavailable: no Tesseract kor.traineddata found (or NODA_OCR=0)")


def korean_pdf(*pages: list[tuple[float, float, str, float]], **save) -> bytes:
    """A PDF whose pages hold the given (x, y, text, font size) lines, in the built-in Korean font."""
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page()
        for x, y, text, size in lines:
            page.insert_text((x, y), text, fontname="korea", fontsize=size)
    return doc.tobytes(**save)


def scanned_page_png(text: str, size: float = 22) -> bytes:
    """A picture (PNG, 150 dpi) of an A4 page holding ``text`` in large Korean letters."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 120), text, fontname="korea", fontsize=size)
    return page.get_pixmap(dpi=150).tobytes("png")


def pdf_of_pictures(*pictures: bytes, text_first: str = "") -> bytes:
    """A PDF with an optional text page first, then one full-page picture per page."""
    doc = pymupdf.open()
    if text_first:
        doc.new_page().insert_text((72, 100), text_first, fontname="korea", fontsize=12)
    for png in pictures:
        page = doc.new_page()
        page.insert_image(page.rect, stream=png)
    return doc.tobytes()


def read(data: bytes, name: str = "문서.pdf"):
    return parse_bytes(data, name)[0]


# ---- the shared corpus -------------------------------------------------------

@requires_corpus
@pytest.mark.parametrize("path,truth", corpus_params({"pdf"}))
def test_corpus_pdf_agrees_with_truth(path, truth):
    doc = parse_path(str(path))[0]
    assert doc.readable == truth["readable"], doc.access.reason
    assert doc.access.reason in REASON_MATCH[truth["reason"]]
    assert doc.source.pages == truth["pages"]
    text = squash(doc.all_text())
    snippets = truth["snippets"]
    missing = [s for s in snippets if squash(s) not in text]
    assert 1 - len(missing) / len(snippets) >= 0.95, missing
    for block in doc.blocks:
        assert 1 <= block.page <= doc.source.pages
        x0, y0, x1, y1 = block.bbox
        assert 0 <= x0 <= x1 and 0 <= y0 <= y1 <= 842 + 1  # A4 points, top-left origin


@requires_corpus
def test_corpus_tables_are_not_repeated_as_paragraphs():
    path = next(p for p, _ in (c.values for c in corpus_params({"pdf"})) if "5.0" in p.name)
    doc = parse_path(str(path))[0]
    assert len(doc.tables) > 100  # the HWP 5.0 spec is mostly tables
    inside = []
    for block in doc.blocks:
        if block.type != "table":
            x, y = (block.bbox[0] + block.bbox[2]) / 2, (block.bbox[1] + block.bbox[3]) / 2
            inside += [block.text for t in doc.tables if t.page == block.page
                       and t.bbox[0] < x < t.bbox[2] and t.bbox[1] < y < t.bbox[3]]
    assert not inside  # text inside a table is only in its cells
    table = doc.tables[0]
    assert table.page and table.bbox and all(c.bbox and c.page == table.page for c in table.cells)


# ---- generated files -----------------------------------------------------------

def test_text_blocks_have_page_bbox_and_headings():
    data = korean_pdf([(72, 90, "사업 개요", 22), (72, 140, "올해 지원사업의 신청 기간은 3월 31일까지입니다.", 11),
                       (72, 160, "대상은 관내 농업인입니다.", 11)],
                      [(72, 100, "둘째 쪽의 본문입니다.", 11)])
    doc = read(data)
    assert doc.readable and doc.source.pages == 2
    heading = doc.blocks[0]
    assert (heading.type, heading.level, heading.text) == ("heading", 1, "사업 개요")
    body = [b for b in doc.blocks if b.type == "paragraph"]
    assert body[0].page == 1 and body[-1].page == 2
    assert "3월 31일까지" in body[0].text and body[0].extractor == "pymupdf" and body[0].confidence == 1.0
    x0, y0, x1, y1 = body[0].bbox
    assert 70 <= x0 < x1 <= 595 and 120 < y0 < y1 < 175  # points, measured from the top
    assert doc.structure.title == "사업 개요"


def test_a_row_drawn_out_of_order_reads_left_to_right():
    # some writers draw a row's Hangul first and its Latin letters and digits after it, each piece apart
    pieces = ["• DMD ", "소켓 구입", "(00", "개", "×0000", "원", ")"]
    font, x, placed = pymupdf.Font("korea"), 72.0, []
    for piece in pieces:
        placed.append((x, 100, piece, 11))
        x += font.text_length(piece, fontsize=11)
    doc = read(korean_pdf([*reversed(placed), (72, 130, "다음 줄", 11)]))
    assert doc.all_text() == "• DMD 소켓 구입(00개×0000원)\n다음 줄"


def test_a_heading_drawn_twice_for_a_shadow_is_read_once():
    doc = read(korean_pdf([(72, 100, "언어자원", 14), (73, 101, "언어자원", 14), (72, 130, "본문 첫 줄", 11)]))
    assert doc.all_text() == "언어자원\n본문 첫 줄"


def test_a_word_placed_glyph_by_glyph_is_read_whole_the_next_column_apart_and_a_row_of_numbers_whole():
    # some writers place every character of a table by itself; MuPDF gives each its own block
    doc = pymupdf.open()
    page = doc.new_page()
    x = 72.0
    for ch in "예비입주자":
        page.insert_text((x, 100), ch, fontname="korea", fontsize=11)
        page.draw_rect(pymupdf.Rect(x, 88, x + 11, 102), width=0.3)     # a drawing between the glyphs
        x += 11.0
    page.insert_text((300, 100), "중도포기", fontname="korea", fontsize=11)
    # a table drawn without rules, its numbers placed one by one far from the row's label
    for x, cell in ((72, "합"), (90, "계"), (250, "2"), (256, "2"), (262, ","), (266, "5"), (350, "10.3")):
        page.insert_text((x, 140), cell, fontname="korea", fontsize=11)
        page.draw_rect(pymupdf.Rect(x, 128, x + 5, 142), width=0.3)
    text = read(doc.tobytes()).all_text()
    assert {"예비입주자", "중도포기", "합 계 22,5 10.3"} <= set(text.split("\n"))


def test_metadata_title_is_used_only_when_meaningful():
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "본문 첫 줄", fontname="korea", fontsize=11)
    doc.set_metadata({"title": "2026년 업무계획"})
    assert read(doc.tobytes()).structure.title == "2026년 업무계획"
    doc.set_metadata({"title": "325-341(342)--14-.......hwp"})
    assert read(doc.tobytes()).structure.title == "본문 첫 줄"


def test_ruled_table_becomes_cells_with_bbox_and_no_duplicate_paragraphs():
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), "표 위의 문단입니다.", fontname="korea", fontsize=11)
    rows, cols, left, top, w, h = 3, 3, 72, 120, 150, 30
    for r in range(rows + 1):
        page.draw_line((left, top + r * h), (left + cols * w, top + r * h))
    for c in range(cols + 1):
        page.draw_line((left + c * w, top), (left + c * w, top + rows * h))
    texts = [["구분", "예산", "비고"], ["시설", "12억 원", "신규"], ["장비", "8억 원", "계속"]]
    for r in range(rows):
        for c in range(cols):
            page.insert_text((left + c * w + 6, top + r * h + 20), texts[r][c], fontname="korea", fontsize=11)
    result = read(doc.tobytes())
    assert len(result.tables) == 1
    table = result.tables[0]
    assert (table.rows, table.cols, table.page) == (3, 3, 1)
    assert table.grid() == texts
    cell = next(c for c in table.cells if c.text == "12억 원")
    assert (cell.row, cell.col, cell.row_span, cell.col_span, cell.page) == (1, 1, 1, 1, 1)
    assert cell.bbox == pytest.approx([left + w, top + h, left + 2 * w, top + 2 * h], abs=2)
    assert table.bbox == pytest.approx([left, top, left + cols * w, top + rows * h], abs=2)
    paragraphs = [b.text for b in result.blocks if b.type == "paragraph"]
    assert paragraphs == ["표 위의 문단입니다."]
    table_block = next(b for b in result.blocks if b.id == table.block)
    assert "시설 | 12억 원 | 신규" in table_block.text


def test_a_cell_written_glyph_by_glyph_reads_as_its_word():
    doc = pymupdf.open()
    page = doc.new_page()
    rows, cols, left, top, w, h = 2, 2, 72, 120, 150, 30
    for r in range(rows + 1):
        page.draw_line((left, top + r * h), (left + cols * w, top + r * h))
    for c in range(cols + 1):
        page.draw_line((left + c * w, top), (left + c * w, top + rows * h))
    texts = [["구분", "금액"], ["수급자로서", "12억 원"]]
    font = pymupdf.Font("korea")
    for r in range(rows):
        for c in range(cols):
            x = left + c * w + 6
            for ch in texts[r][c]:          # each character placed by itself, as some writers do
                page.insert_text((x, top + r * h + 20), ch, fontname="korea", fontsize=11)
                page.draw_rect(pymupdf.Rect(x, top + r * h + 8, x + 1, top + r * h + 9), width=0.2)
                x += font.text_length(ch, fontsize=11)
    table = read(doc.tobytes()).tables[0]
    assert table.grid() == texts


def _glyph_block(ch: str, x: float, y: float) -> dict:
    line = {"bbox": (x, y, x + 6, y + 15), "dir": (1.0, 0.0),
            "spans": [{"text": ch, "size": 10.0, "bbox": (x, y, x + 6, y + 15)}]}
    return {"type": 0, "bbox": line["bbox"], "lines": [line]}


def test_a_table_hunt_that_cut_between_glyphs_is_read_as_rows_of_text():
    # MuPDF's table hunt sometimes makes a column of every character ("(" "△" "1" "9" "." "5" ")")
    from engine.read.formats.pdf import _items
    rows, xs = [], []
    for r, (text, gap) in enumerate((("55.5 52.8 60.2 50.3 49.0 38.6", 30), ("(△19.5) (△3.6) (△11.1) (△4.2) (△11.8) (△26.9)", 12))):
        y, x, cells = 100 + 20 * r, 60.0, []
        for ch in text:
            if ch != " ":
                cells.append({"type": 2, "std": "TD", "bbox": (x, y, x + 6, y + 15), "blocks": [_glyph_block(ch, x, y)]})
            x += 6 if ch != " " else gap
        xs = sorted(set(xs) | {c["bbox"][0] for c in cells} | {c["bbox"][2] for c in cells})
        rows.append({"type": 2, "std": "TR", "bbox": (60, y, x, y + 15), "blocks": cells})
    hunt = {"type": 4, "xpos": [(x, 0) for x in xs], "ypos": [(100, 0), (120, 0), (140, 0)]}
    table = {"type": 2, "std": "Table", "bbox": (60, 100, 600, 140), "blocks": [hunt, *rows]}
    assert [item.text for item in _items([table], [])] == ["55.5 52.8 60.2 50.3 49.0 38.6",
                                                    "(△19.5) (△3.6) (△11.1) (△4.2) (△11.8) (△26.9)"]


def test_merged_cell_gets_its_span():
    doc = pymupdf.open()
    page = doc.new_page()
    left, top, w, h = 72, 100, 120, 30
    for r in range(4):  # rows lines
        x_end = left + 3 * w
        page.draw_line((left, top + r * h), (x_end, top + r * h))
    for c in range(4):  # column lines, the middle ones skip the first row (a merged header)
        page.draw_line((left + c * w, top if c in (0, 3) else top + h), (left + c * w, top + 3 * h))
    page.insert_text((left + 6, top + 20), "합친 제목", fontname="korea", fontsize=11)
    for r in (1, 2):
        for c in range(3):
            page.insert_text((left + c * w + 6, top + r * h + 20), f"칸{r}{c}", fontname="korea", fontsize=11)
    table = read(doc.tobytes()).tables[0]
    header = next(c for c in table.cells if c.text == "합친 제목")
    assert (header.row, header.col, header.col_span, header.row_span) == (0, 0, 3, 1)
    assert table.grid()[2] == ["칸20", "칸21", "칸22"]


def test_password_protected_pdf():
    data = korean_pdf([(72, 100, "비밀 문서", 12)],
                      encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")
    doc = read(data)
    assert not doc.readable and doc.access.reason == "PASSWORD_PROTECTED"
    assert doc.access.password_protected and "암호" in doc.access.reason_text


def test_empty_user_password_pdf_is_readable():
    data = korean_pdf([(72, 100, "누구나 여는 문서", 12)],
                      encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="", owner_pw="owner",
                      permissions=pymupdf.PDF_PERM_PRINT)
    doc = read(data)
    assert doc.readable and "누구나 여는 문서" in doc.all_text()


@pytest.mark.parametrize("keep", [0.3, 0.6, 0.9])
def test_truncated_pdf_never_crashes(keep):
    data = korean_pdf(*[[(72, 100 + 20 * i, f"{n}쪽 {i}번째 줄입니다.", 11) for i in range(30)]
                        for n in range(1, 6)], garbage=0, deflate=False)
    doc = read(data[: int(len(data) * keep)])
    assert doc.access.reason in (None, "CORRUPT")
    if doc.readable:
        assert doc.all_text().strip()


def test_not_a_pdf_at_all_is_corrupt():
    doc = read(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    assert not doc.readable and doc.access.reason == "CORRUPT"


def test_blank_page_is_not_reported_but_a_picture_page_without_text_is(monkeypatch):
    monkeypatch.setenv("NODA_OCR", "0")
    blank = korean_pdf([(72, 100, "첫 쪽", 12)], [])
    assert "PAGES_WITHOUT_TEXT" not in read(blank).warning_codes()
    mixed = read(pdf_of_pictures(scanned_page_png("그림으로 된 쪽"), text_first="글자가 있는 쪽"))
    assert mixed.readable
    assert "PAGES_WITHOUT_TEXT" in mixed.warning_codes() and "NO_OCR" in mixed.warning_codes()
    assert "2" in next(w.text for w in mixed.warnings if w.code == "PAGES_WITHOUT_TEXT")


def test_pdf_without_text_and_without_ocr_is_no_text(monkeypatch):
    monkeypatch.setenv("NODA_OCR", "0")
    doc = read(pdf_of_pictures(scanned_page_png("스캔한 공문")))
    assert not doc.readable and doc.access.reason == "NO_TEXT"
    assert "OCR" in doc.access.reason_text


@needs_ocr
def test_scanned_pdf_is_read_by_ocr():
    doc = read(pdf_of_pictures(scanned_page_png("예산 집행 계획"), scanned_page_png("사업 결과 보고")))
    assert doc.readable and doc.source.pages == 2
    assert "OCR_TEXT" in doc.warning_codes()
    bare = "".join(doc.all_text().split())
    assert "예산집행계획" in bare and "사업결과보고" in bare
    assert {b.page for b in doc.blocks} == {1, 2}
    for block in doc.blocks:
        assert block.extractor == "ocr" and block.confidence == ocr.CONFIDENCE < 1.0
        x0, y0, x1, y1 = block.bbox
        assert 50 < x0 < x1 < 595 and 80 < y0 < y1 < 160  # where the text was drawn, in points


@needs_ocr
def test_scanned_page_inside_a_text_pdf_is_read_by_ocr():
    doc = read(pdf_of_pictures(scanned_page_png("붙임 서식 사본"), text_first="본문은 글자로 되어 있습니다."))
    first = [b for b in doc.blocks if b.page == 1]
    second = [b for b in doc.blocks if b.page == 2]
    assert first[0].extractor == "pymupdf" and "본문은 글자로" in first[0].text
    assert second and all(b.extractor == "ocr" for b in second)
    assert "붙임서식사본" in "".join("".join(b.text.split()) for b in second)
    assert "OCR_TEXT" in doc.warning_codes() and "PAGES_WITHOUT_TEXT" not in doc.warning_codes()


def _line(text: str, x: float, y: float, width: float) -> dict:
    return {"bbox": (x, y, x + width, y + 16), "dir": (1.0, 0.0),
            "spans": [{"text": text, "size": 12.0, "bbox": (x, y, x + width, y + 16)}]}


def test_two_rows_placed_glyph_by_glyph_in_turn_read_as_their_two_lines():
    # a 한글-exported form sets two checklist rows close together and places their glyphs in turn: one of
    # the upper row, one of the lower (MuPDF gives each its own block; some blocks hold one of each)
    from engine.read.formats.pdf import _items
    upper, lower = (100.0, 264.0), (100.0, 280.0)
    blocks = [{"type": 0, "bbox": (100, 264, 190, 296),
               "lines": [_line("2026년 신청", *upper, 60), _line("개인 (", *lower, 36)]}]
    ends = {"upper": 160.0, "lower": 136.0}
    for row, ch in (("lower", "신"), ("upper", "서"), ("lower", "용"), ("both", "류"), ("lower", ")")):
        if row == "both":   # one block: a glyph of each row
            line_u, line_l = _line(ch, ends["upper"], upper[1], 12), _line("정", ends["lower"], lower[1], 12)
            blocks.append({"type": 0, "bbox": (ends["lower"], 264, ends["upper"] + 12, 296), "lines": [line_u, line_l]})
            ends["upper"] += 12
            ends["lower"] += 12
            continue
        y = upper[1] if row == "upper" else lower[1]
        blocks.append({"type": 0, "bbox": (ends[row], y, ends[row] + 12, y + 16), "lines": [_line(ch, ends[row], y, 12)]})
        ends[row] += 12
    assert [item.text for item in _items(blocks, [])] == ["2026년 신청서류\n개인 (신용정)"]


# ---- ruled tables MuPDF's hunt missed ----------------------------------------------
# Some writers' forms (a Mac's export of a 한글 form: every cell's text clipped to its cell) come out of the
# hunt as one paragraph per cell. Reading a generated page without the hunt gives the same paragraphs.

FORM = [[("신청자 성명", 90), ("홍길동", 150), ("성별", 60), ("남", 140)],
        [("사업화 과제명", 90), ("인공지능 교육 솔루션", 350)],
        [("기업명", 90), ("노다랩", 100), ("사업자등록번호", 110), ("123-45-67890", 140)],
        [("자택주소", 90), ("서울시 강북구", 350)]]


def _form_page(rows=FORM):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 90), "1. 신청자 기본 정보", fontname="korea", fontsize=12)
    for r, row in enumerate(rows):
        x, y = 72, 120 + 30 * r
        for text, width in row:
            box = pymupdf.Rect(x, y, x + width, y + 30)
            for start, end in ((box.tl, box.tr), (box.bl, box.br), (box.tl, box.bl), (box.tr, box.br)):
                page.draw_line(start, end, width=0.5)     # each cell's rules drawn apart, as forms are
            page.insert_text((x + 5, y + 20), text, fontname="korea", fontsize=10)
            x += width
    return doc, page


def _without_hunt(page):
    from engine.read.formats import pdf
    blocks = page.get_text("dict", flags=pdf.FLAGS & ~pymupdf.TEXT_TABLE_HUNT)["blocks"]
    rules = [b["bbox"] for b in blocks if b.get("type") == 3
             and min(b["bbox"][2] - b["bbox"][0], b["bbox"][3] - b["bbox"][1]) <= pdf.RULE_WIDTH]
    return pdf._items(blocks, rules), rules


def test_a_form_table_the_hunt_missed_is_read_as_a_table_with_its_rows():
    from engine.read.formats import pdf
    _doc, page = _form_page()
    items, rules = _without_hunt(page)
    assert all(isinstance(item, pdf.Paragraph) for item in items)     # a paragraph per cell, as the hunt left it
    assert pdf._missed_grid(items, rules)
    read = pdf._with_tables(items, pdf._ruled_tables(page, items))
    assert [type(item).__name__ for item in read] == ["Paragraph", "Grid"]   # the heading, then the table
    grid = read[1]
    by_row: dict[int, list[str]] = {}
    for cell in sorted(grid.cells, key=lambda c: (c.row, c.col)):
        by_row.setdefault(cell.row, []).append(cell.text)
    assert list(by_row.values()) == [[text for text, _w in row] for row in FORM]
    wide = next(c for c in grid.cells if c.text == "인공지능 교육 솔루션")
    assert wide.col_span == grid.cols - 1 and wide.bbox == pytest.approx([162, 150, 512, 180], abs=1)


def test_a_frame_around_two_passages_is_not_read_as_a_table():
    from engine.read.formats import pdf
    doc = pymupdf.open()
    page = doc.new_page()
    for x in (60, 300):        # an exam's two columns, each framed, many short lines in each
        page.draw_rect(pymupdf.Rect(x, 100, x + 230, 700), width=0.5)
        for n in range(12):
            page.insert_text((x + 8, 130 + 45 * n), f"{n + 1}. 다음 글을 읽고 답하시오.", fontname="korea", fontsize=10)
            page.insert_text((x + 8, 150 + 45 * n), f"① 보기 {n + 1}", fontname="korea", fontsize=10)
    for y in (300, 500):       # rules across the page between questions
        page.draw_line((60, y), (530, y), width=0.5)
    items, _rules = _without_hunt(page)
    read = pdf._with_tables(items, pdf._ruled_tables(page, items))
    assert not any(isinstance(item, pdf.Grid) for item in read)
    assert "".join(p.text for p in read).replace(" ", "") == "".join(p.text for p in items).replace(" ", "")


def test_a_found_table_missing_text_of_its_paragraphs_is_not_used():
    from engine.read.formats import pdf
    _doc, page = _form_page()
    items, _rules = _without_hunt(page)
    grids = pdf._ruled_tables(page, items)
    for cell in grids[0].cells:
        cell.text = cell.text.replace("홍길동", "")      # as if the finder had dropped a cell's text
    assert pdf._with_tables(items, grids) == items
