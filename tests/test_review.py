"""Geometry warnings (side-by-side pages, tables cut by a page end, text boxes), the heading outline,
and which warnings put a document under review."""
from engine.library.tenant import REVIEW_CODES
from engine.model import Cell, Document, Source
from engine.read.formats.base import DocumentBuilder
from engine.read.outline import sections
from engine.read.parse import parse_bytes
from engine.read.review import review_warnings, side_by_side_pages, split_tables
from tests.documents import docx_bytes

LINE = "가나다라마바사아자차카타파하 " * 3


def _doc(fmt: str = "pdf") -> tuple[Document, DocumentBuilder]:
    doc = Document(doc_id="sha256:x", source=Source("a." + fmt, fmt, 10))
    return doc, DocumentBuilder(doc, "test")


def test_two_columns_of_text_side_by_side_are_found_and_one_column_is_not():
    doc, b = _doc()
    for i in range(6):
        b.add_block("paragraph", LINE, page=1, bbox=[50, 100 + 60 * i, 280, 150 + 60 * i])
        b.add_block("paragraph", LINE, page=1, bbox=[310, 100 + 60 * i, 540, 150 + 60 * i])
        b.add_block("paragraph", LINE, page=2, bbox=[50, 100 + 60 * i, 540, 150 + 60 * i])
    assert side_by_side_pages(doc) == [1]
    assert "LAYOUT_SIDE_BY_SIDE" in review_warnings(doc)
    # a label column beside its values, but no text beside the rest of the page, is one column
    doc, b = _doc()
    b.add_block("paragraph", "짧은 이름", page=1, bbox=[50, 100, 120, 110])
    for i in range(6):
        b.add_block("paragraph", LINE, page=1, bbox=[50, 130 + 60 * i, 540, 180 + 60 * i])
    assert side_by_side_pages(doc) == []


def test_a_table_ending_a_page_and_an_as_wide_one_starting_the_next_may_be_one_table():
    doc, b = _doc()
    cells = [Cell(0, 0, "구분"), Cell(0, 1, "금액")]
    b.add_block("paragraph", "표 앞 문단", page=1)
    first = b.add_table(1, 2, list(cells), page=1)
    second = b.add_table(1, 2, list(cells), page=2)
    b.add_block("paragraph", "표 뒤 문단", page=2)
    b.add_table(1, 3, [Cell(0, 0, "가"), Cell(0, 1, "나"), Cell(0, 2, "다")], page=3)
    assert split_tables(doc) == [(first.id, second.id)]
    assert "TABLE_MAY_BE_SPLIT" in review_warnings(doc)


def test_text_boxes_holding_much_of_the_text_are_noted():
    doc, b = _doc("hwpx")
    b.add_block("paragraph", "본문 한 줄입니다.")
    b.add_block("textbox", "글상자 안에 긴 안내 글이 들어 있습니다. " * 3)
    assert review_warnings(doc) == ["TEXT_BOXES"]


def test_only_measured_warnings_put_a_document_under_review():
    assert "OCR_TEXT" in REVIEW_CODES
    assert not REVIEW_CODES & {"LAYOUT_SIDE_BY_SIDE", "TABLE_MAY_BE_SPLIT", "TEXT_BOXES", "PAGE_APPROXIMATE"}


def test_sections_list_the_heading_outline():
    doc, b = _doc("text")
    b.add_block("title", "사업 계획")
    b.add_block("paragraph", "Ⅰ. 추진 배경")
    b.add_block("paragraph", "1. 현황")
    b.add_block("paragraph", "가. 신청은 온라인으로 함")      # a list item, not a heading
    b.add_block("paragraph", "본문은 여기에 적습니다.")
    assert [(s["level"], s["title"]) for s in sections(doc)] == [(0, "사업 계획"), (1, "Ⅰ. 추진 배경"), (2, "1. 현황")]


def test_sections_list_headings_drawn_as_one_row_tables():
    doc, b = _doc("hwp")
    b.add_table(1, 3, [Cell(0, 0, "Ⅰ"), Cell(0, 1, ""), Cell(0, 2, "추진 배경")])
    b.add_block("paragraph", "1. 현황")
    b.add_table(1, 2, [Cell(0, 0, "붙 임"), Cell(0, 1, "관련 사진")])
    b.add_table(1, 2, [Cell(0, 0, "합계"), Cell(0, 1, "1,250")])      # a row of values
    assert [(s["level"], s["title"]) for s in sections(doc)] == [(1, "Ⅰ 추진 배경"), (2, "1. 현황"),
                                                                (1, "붙 임 관련 사진")]


def test_a_parsed_document_carries_its_outline():
    [doc] = parse_bytes(docx_bytes("Ⅰ. 추진 배경", "본문 문단입니다.", "Ⅱ. 추진 계획", "다음 문단입니다."), "계획.docx")
    assert [s["title"] for s in doc.structure.sections] == ["Ⅰ. 추진 배경", "Ⅱ. 추진 계획"]
    assert all(s["block"].startswith("b") for s in doc.structure.sections)
