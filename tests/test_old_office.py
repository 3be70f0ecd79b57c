"""Office files from before 2007 (.xls, .doc) and .pptx: real files, generated files and bad input."""
import io
from pathlib import Path

import xlwt
from pptx import Presentation
from pptx.util import Inches

from engine.read.parse import parse_bytes, parse_path
from tests.legacy_writers import doc_bytes, ole_bytes

FIXTURES = Path(__file__).parent / "fixtures" / "legacy"


def _read(data: bytes, name: str):
    [doc] = parse_bytes(data, name)
    return doc


# ---- .xls ---------------------------------------------------------------------------
def _xls(merge: bool = True) -> bytes:
    book = xlwt.Workbook(encoding="utf-8")
    sheet = book.add_sheet("2024년 예산")
    if merge:
        sheet.write_merge(0, 0, 0, 2, "부서별 예산")
    for c, text in enumerate(["부서", "예산", "집행률"]):
        sheet.write(1, c, text)
    sheet.write(2, 0, "총무과")
    sheet.write(2, 1, 1500000)
    sheet.write(2, 2, 0.25)
    sheet.write(3, 0, "합계")
    sheet.write(3, 1, xlwt.Formula("B3*2"))
    book.add_sheet("빈 시트")
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_an_xls_sheet_is_a_table_with_merges_and_ranges():
    doc = _read(_xls(), "예산.xls")
    assert doc.access.readable and doc.source.format == "xls"
    assert [b.text for b in doc.blocks if b.type == "heading"] == ["2024년 예산"]
    [table] = doc.tables
    cells = {c.text: c for c in table.cells}
    assert cells["부서별 예산"].col_span == 3 and cells["부서별 예산"].cell_range == "'2024년 예산'!A1:C1"
    assert cells["1500000"].cell_range == "'2024년 예산'!B3" and "0.25" in cells
    assert table.cell_range == "'2024년 예산'!A1:C4"


def test_a_real_xls_keeps_dates_numbers_and_merged_cells():
    doc = parse_path(str(FIXTURES / "xlrd_Formate.xls"))[0]
    assert doc.access.readable and len(doc.tables) == 4   # four sheets with values
    texts = {c.text: c for t in doc.tables for c in t.cells}
    assert {"Huber", "Äcker", "1907-07-03", "-100"} <= set(texts)
    assert texts["MERGED CELLS"].row_span == 3 and texts["MERGED CELLS"].col_span == 3


def test_encrypted_and_broken_xls_have_reasons():
    locked = parse_path(str(FIXTURES / "msoffcrypto_rc4cryptoapi_password.xls"))[0]
    assert not locked.access.readable and locked.access.reason == "PASSWORD_PROTECTED"
    broken = _read(_xls()[:3000], "잘림.xls")
    assert not broken.access.readable and broken.access.reason == "CORRUPT"
    assert _read(ole_bytes({"Workbook": b"\x00" * 5000}), "빈.xls").access.reason == "CORRUPT"


# ---- .doc ---------------------------------------------------------------------------
PARAGRAPHS = [("추진 계획\r", {"style": 1}), ("본문 문단입니다. 예산은 1,000원입니다.\r", {}),
              ("구분\x07", {"in_table": 1}), ("금액\x07", {"in_table": 1}), ("\x07", {"in_table": 1, "row_end": 1}),
              ("인건비\x07", {"in_table": 1}), ("첫 줄\r", {"in_table": 1}), ("둘째 줄\x07", {"in_table": 1}),
              ("\x07", {"in_table": 1, "row_end": 1}),
              ("표 다음 \x13 HYPERLINK \"x\" \x14링크 글\x15 끝\r", {})]


def test_a_doc_reads_headings_paragraphs_tables_and_field_results():
    doc = _read(doc_bytes(PARAGRAPHS), "계획.doc")
    assert doc.access.readable and doc.source.format == "doc"
    kinds = [(b.type, b.text) for b in doc.blocks]
    assert kinds[0] == ("heading", "추진 계획") and doc.blocks[0].level == 1
    assert ("paragraph", "표 다음 링크 글 끝") in kinds      # the field's code is not text, its result is
    [table] = doc.tables
    assert table.grid() == [["구분", "금액"], ["인건비", "첫 줄\n둘째 줄"]]


def test_a_real_doc_reads_its_paragraphs():
    doc = parse_path(str(FIXTURES / "textract_raw_text.doc"))[0]
    assert doc.access.readable
    text = doc.all_text()
    assert "I love word documents. They are lovely." in text
    assert "Oh. You need a little dummy text for your mockup? How quaint." in text
    assert len([b for b in doc.blocks if b.type == "paragraph"]) == 8


def test_encrypted_old_and_broken_docs_have_reasons():
    real = parse_path(str(FIXTURES / "msoffcrypto_rc4cryptoapi_password.doc"))[0]
    assert real.access.reason == "PASSWORD_PROTECTED" and real.access.password_protected
    assert _read(doc_bytes(PARAGRAPHS, encrypted=True), "잠김.doc").access.reason == "PASSWORD_PROTECTED"
    assert _read(doc_bytes(PARAGRAPHS, nfib=0x65), "워드95.doc").access.reason == "UNSUPPORTED_VERSION"
    assert _read(ole_bytes({"WordDocument": b"\x00" * 5000}), "빈.doc").access.reason == "CORRUPT"
    assert _read(doc_bytes(PARAGRAPHS)[:2000], "잘림.doc").access.reason == "CORRUPT"


# ---- .pptx --------------------------------------------------------------------------
def _pptx() -> bytes:
    presentation = Presentation()
    first = presentation.slides.add_slide(presentation.slide_layouts[1])
    first.shapes.title.text = "2024년 업무보고"
    first.placeholders[1].text_frame.text = "첫째 과제"
    second = presentation.slides.add_slide(presentation.slide_layouts[5])
    second.shapes.title.text = "예산 현황"
    below = second.shapes.add_textbox(Inches(1), Inches(5), Inches(3), Inches(1))
    below.text_frame.text = "아래에 놓인 상자"
    above = second.shapes.add_textbox(Inches(1), Inches(1.5), Inches(3), Inches(1))
    above.text_frame.text = "위에 놓인 상자"
    grid = second.shapes.add_table(3, 2, Inches(1), Inches(3), Inches(6), Inches(1.5)).table
    for (r, c), text in {(0, 0): "구분", (0, 1): "예산", (1, 0): "인건비", (1, 1): "100"}.items():
        grid.cell(r, c).text = text
    grid.cell(2, 0).merge(grid.cell(2, 1))
    grid.cell(2, 0).text = "합계는 100"
    second.notes_slide.notes_text_frame.text = "발표 메모: 예산은 확정 전입니다"
    out = io.BytesIO()
    presentation.save(out)
    return out.getvalue()


def test_pptx_slides_are_pages_read_top_to_bottom_with_tables_and_notes():
    doc = _read(_pptx(), "보고.pptx")
    assert doc.access.readable and doc.source.pages == 2 and doc.structure.title == "2024년 업무보고"
    second = [(b.type, b.text) for b in doc.blocks if b.page == 2]
    assert second[0] == ("heading", "예산 현황")
    texts = [t for _k, t in second]
    assert texts.index("위에 놓인 상자") < texts.index("아래에 놓인 상자")     # drawing order was the reverse
    assert ("memo", "발표 메모: 예산은 확정 전입니다") in second
    [table] = doc.tables
    assert table.page == 2 and {(c.text, c.col_span) for c in table.cells} >= {("합계는 100", 2), ("인건비", 1)}


def test_a_real_pptx_and_a_broken_one():
    doc = parse_path(str(FIXTURES / "textract_raw_text.pptx"))[0]
    assert doc.access.readable and doc.source.pages == 3
    assert [b.text for b in doc.blocks if b.type == "heading"][:2] == ["I love PowerPoint. A lot.", "hipsum"]
    assert _read(_pptx()[:4000], "잘림.pptx").access.reason == "CORRUPT"
