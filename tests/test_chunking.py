"""Chunks: packing within a budget, sentence splits, tables with their header row, outline, anchors."""
from __future__ import annotations

import re

import pytest

from engine.search.chunking import Chunk, chunk_document, cut_within
from engine.korean import clean_text
from engine.model import Cell, Document, Source
from engine.read.formats.base import DocumentBuilder
from engine.read.parse import parse_path
from tests.corpus import corpus_params, requires_corpus, squash


def new_doc(filename: str = "공고.hwp", fmt: str = "hwp") -> tuple[Document, DocumentBuilder]:
    doc = Document(doc_id="sha256:abc", source=Source(filename, fmt, 100))
    return doc, DocumentBuilder(doc, f"{fmt}-native")


def grid(rows: int, cols: int, **kw) -> list[Cell]:
    return [Cell(r, c, f"머리{c}" if r == 0 else f"값{r}-{c}", **kw)
            for r in range(rows) for c in range(cols)]


def test_paragraphs_are_packed_in_order_within_the_budget():
    doc, b = new_doc()
    for i in range(30):
        b.add_block("paragraph", f"문단 {i:02d} 내용입니다. " * 3, page=1 + i // 10)
    chunks = chunk_document(doc, budget=200)
    assert len(chunks) > 1
    assert all(len(c.text) <= 200 for c in chunks)
    order = [int(n) for c in chunks for n in re.findall(r"문단 (\d\d)", c.text)]
    assert order == sorted(order) and len(set(order)) == 30
    assert [c.id for c in chunks] == [f"c{i:04d}" for i in range(1, len(chunks) + 1)]
    assert all(c.kind == "paragraph" and c.doc_id == "sha256:abc" for c in chunks)


def test_a_long_block_is_split_at_sentence_ends():
    doc, b = new_doc()
    sentence = "신청기간은 8월 28일까지입니다."
    b.add_block("paragraph", " ".join([sentence] * 40), page=3, bbox=[10.0, 20.0, 300.0, 400.0])
    chunks = chunk_document(doc, budget=120)
    assert len(chunks) > 5
    for c in chunks:
        assert len(c.text) <= 120
        assert c.text.endswith("입니다.")                      # never cut inside a sentence
        assert c.anchors == [{"page": 3, "bbox": [10.0, 20.0, 300.0, 400.0], "cell_range": None}]
        assert c.blocks == ["b00001"]


def test_cut_within_cuts_an_overlong_sentence_at_spaces():
    pieces = cut_within("가나다 " * 100, 50)
    assert all(len(p) <= 50 for p in pieces)
    assert " ".join(pieces).split() == ["가나다"] * 100


def test_table_chunks_repeat_the_header_row_and_use_cells_not_the_table_block():
    doc, b = new_doc()
    b.add_block("paragraph", "표 앞의 문단", page=1)
    b.add_table(40, 3, grid(40, 3, page=2), page=2, bbox=[50.0, 60.0, 500.0, 700.0])
    chunks = chunk_document(doc, budget=150)
    tables = [c for c in chunks if c.kind == "table"]
    assert len(tables) > 2
    for c in tables:
        assert c.text.split("\n")[0] == "머리0 | 머리1 | 머리2"
        assert len(c.text) <= 150
        assert c.blocks == ["b00002"]
    body = "\n".join(c.text for c in chunks)
    for r in range(1, 40):                                     # every row exactly once
        assert body.count(f"값{r}-0 | 값{r}-1 | 값{r}-2") == 1
    assert "표 앞의 문단" in chunks[0].text and chunks[0].kind == "paragraph"


def _quarterly_table() -> list[Cell]:
    """A statistics table: "구 분" over two header rows, a year over its quarters, and each country's
    label spanning its row of amounts and the row of their growth rates below."""
    cells = [Cell(0, 0, "구 분", row_span=2), Cell(0, 1, "2023년", col_span=2), Cell(0, 3, "2024년", col_span=2)]
    cells += [Cell(1, c, f"{q}분기") for c, q in ((1, 1), (2, 2), (3, 1), (4, 2))]
    for r, (country, amounts, growth) in enumerate((("미국", "68.5 | 60.6 | 64.8 | 37.9", "(9.6) | (△11.3) | (△5.2) | (△44.6)"),
                                                    ("캐나다", "9.6 | 3.6 | 6.6 | 13.3", "(30.6) | (1.8) | (△1.6) | (38.7)"))):
        top = 2 + 2 * r
        cells.append(Cell(top, 0, country, row_span=2))
        cells += [Cell(top, c, v) for c, v in enumerate(amounts.split(" | "), 1)]
        cells += [Cell(top + 1, c, v) for c, v in enumerate(growth.split(" | "), 1)]
    return cells


def test_a_header_of_two_rows_names_every_column_and_a_row_label_stands_in_each_row_it_spans():
    doc, b = new_doc()
    b.add_table(6, 5, _quarterly_table(), page=1)
    (chunk,) = chunk_document(doc)
    assert chunk.text.split("\n") == [
        "구 분 | 2023년 1분기 | 2023년 2분기 | 2024년 1분기 | 2024년 2분기",
        "미국 | 68.5 | 60.6 | 64.8 | 37.9", "미국 | (9.6) | (△11.3) | (△5.2) | (△44.6)",
        "캐나다 | 9.6 | 3.6 | 6.6 | 13.3", "캐나다 | (30.6) | (1.8) | (△1.6) | (38.7)"]


def test_a_row_label_spanning_past_the_last_row_stands_only_in_the_table_s_rows():
    cells = [c if c.text != "캐나다" else Cell(c.row, 0, "캐나다", row_span=9999) for c in _quarterly_table()]
    doc, b = new_doc()
    b.add_table(6, 5, cells, page=1)
    (chunk,) = chunk_document(doc)
    assert chunk.text.split("\n")[-2:] == ["캐나다 | 9.6 | 3.6 | 6.6 | 13.3", "캐나다 | (30.6) | (1.8) | (△1.6) | (38.7)"]


def test_a_form_whose_first_cell_spans_rows_keeps_its_rows_as_they_are():
    # "신청인" spans the rows of its fields: those rows are the form's content, not a header
    doc, b = new_doc()
    cells = [Cell(0, 0, "신청인", row_span=2), Cell(0, 1, "성명"), Cell(0, 2, "홍길동"),
             Cell(1, 1, "주소"), Cell(1, 2, "서울특별시 중구 세종대로 110"), Cell(2, 0, "신청 내용"),
             Cell(2, 1, "전기자동차 구매 지원", col_span=2)]
    b.add_table(3, 3, cells, page=1)
    (chunk,) = chunk_document(doc)
    assert chunk.text.split("\n") == ["신청인 | 성명 | 홍길동", "주소 | 서울특별시 중구 세종대로 110",
                                      "신청 내용 | 전기자동차 구매 지원"]


def test_table_anchors_are_the_cells_own():
    doc, b = new_doc("보고.pdf", "pdf")
    cells = [Cell(r, c, f"칸{r}{c}", page=4, bbox=[c * 100.0, r * 20.0, c * 100.0 + 90, r * 20.0 + 18])
             for r in range(3) for c in range(2)]
    b.add_table(3, 2, cells, page=4, bbox=[0.0, 0.0, 200.0, 60.0])
    (chunk,) = chunk_document(doc)
    assert chunk.anchors == [{"page": 4, "bbox": c.bbox, "cell_range": None} for c in cells]


def test_a_table_without_cell_boxes_points_at_the_table_box():
    doc, b = new_doc("보고.pdf", "pdf")
    b.add_table(2, 2, grid(2, 2, page=5), page=5, bbox=[1.0, 2.0, 3.0, 4.0])
    (chunk,) = chunk_document(doc)
    assert chunk.anchors == [{"page": 5, "bbox": [1.0, 2.0, 3.0, 4.0], "cell_range": None}]


def test_no_bbox_is_invented():
    doc, b = new_doc("공고.hwpx", "hwpx")
    b.add_block("paragraph", "좌표가 없는 문단", page=2)
    b.add_table(2, 2, grid(2, 2, page=2), page=2)
    chunks = chunk_document(doc)
    assert all(a["bbox"] is None for c in chunks for a in c.anchors)
    assert all(a["page"] == 2 for c in chunks for a in c.anchors)


def test_spreadsheet_chunks_narrow_the_cell_range_to_their_rows():
    doc, b = new_doc("통계.xlsx", "xlsx")
    b.add_block("heading", "시트1", level=1)
    cells = [Cell(r, c, f"{r}{c}" if r else f"항목{c}", cell_range=f"시트1!{'ABCD'[c]}{r + 3}")
             for r in range(30) for c in range(4)]
    b.add_table(30, 4, cells, cell_range="시트1!A3:D32")
    sheet, *chunks = chunk_document(doc, budget=120)
    assert sheet.text == "시트1" and sheet.kind == "paragraph"
    assert all(c.kind == "table" and c.outline == ["시트1"] for c in chunks)
    ranges = [c.anchors[0]["cell_range"] for c in chunks]
    assert ranges[0].startswith("시트1!A3:D") and ranges[-1].endswith(":D32")
    rows = []
    for rng in ranges:
        first, last = re.fullmatch(r"시트1!A(\d+):D(\d+)", rng).groups()
        rows.append((int(first), int(last)))
    assert all(a[1] + 1 == b[0] for a, b in zip(rows, rows[1:]))   # consecutive, no overlap
    for c, (first, last) in zip(chunks, rows):
        held = [line for line in c.text.split("\n")[1:]]
        assert len(held) == last - first + 1 - (1 if first == 3 else 0)


def test_outline_follows_heading_levels():
    doc, b = new_doc("계획.docx", "docx")
    b.add_block("heading", "추진 배경", level=1)
    b.add_block("paragraph", "배경 설명")
    b.add_block("heading", "세부 목표", level=2)
    b.add_block("paragraph", "목표 설명")
    b.add_block("heading", "추진 일정", level=1)
    b.add_block("paragraph", "일정 설명")
    chunks = {c.text.split("\n")[-1]: c for c in chunk_document(doc)}
    assert chunks["배경 설명"].outline == ["추진 배경"]
    assert chunks["목표 설명"].outline == ["추진 배경", "세부 목표"]
    assert chunks["일정 설명"].outline == ["추진 일정"]
    assert all(c.path == ["계획.docx"] for c in chunks.values())   # no title: the filename


def test_path_starts_with_the_title_or_the_filename():
    doc, b = new_doc("붙임/계획.hwp")
    b.add_block("paragraph", "본문")
    assert chunk_document(doc)[0].path == ["붙임/계획.hwp"]
    doc.structure.title = "2026년 지원사업 공고"
    assert chunk_document(doc)[0].path == ["2026년 지원사업 공고"]


def test_numbered_heading_lines_make_an_outline_without_heading_styles():
    doc, b = new_doc()
    for text in ["Ⅰ. 추진 배경", "예산은 1,000억 원이다.", "1. 신청 자격", "가. 개인", "만 19세 이상인 사람",
                 "2. 신청 방법", "온라인으로 신청한다.", "1. 이것은 문장으로 끝나는 항목입니다."]:
        b.add_block("paragraph", text)
    chunks = chunk_document(doc)
    by_last = {c.text.split("\n")[-1]: c.outline for c in chunks}
    assert by_last["예산은 1,000억 원이다."] == ["Ⅰ. 추진 배경"]
    assert by_last["만 19세 이상인 사람"] == ["Ⅰ. 추진 배경", "1. 신청 자격", "가. 개인"]
    assert by_last["1. 이것은 문장으로 끝나는 항목입니다."] == ["Ⅰ. 추진 배경", "2. 신청 방법"]


def test_headers_and_notes_are_chunked_apart_and_repeated_headers_once():
    doc, b = new_doc()
    for page in (1, 2, 3):
        b.add_block("header", "보도자료", page=page)
        b.add_block("paragraph", f"{page}쪽 본문", page=page)
        b.add_block("footnote", f"각주 {page}", page=page)
    chunks = chunk_document(doc)
    kinds = {c.kind: c for c in chunks}
    assert set(kinds) == {"paragraph", "header", "footnote"}
    assert kinds["header"].text == "보도자료" and kinds["header"].anchors[0]["page"] == 1
    assert kinds["paragraph"].text == "1쪽 본문\n2쪽 본문\n3쪽 본문"
    assert kinds["footnote"].text == "각주 1\n각주 2\n각주 3"


def test_a_footer_that_is_only_a_page_number_is_not_chunked():
    doc, b = new_doc()
    for page, number in ((1, "- 1 -"), (2, "- ii -"), (3, "3 / 35")):
        b.add_block("paragraph", f"{page}쪽 본문", page=page)
        b.add_block("footer", number, page=page)
        b.add_block("footer", "한국수자원공사 보도자료", page=page)
    footers = [c.text for c in chunk_document(doc) if c.kind == "footer"]
    assert footers == ["한국수자원공사 보도자료"]


def test_text_is_normalised():
    assert clean_text("지원\xa0사업\u3000공고\x07\x00 \t끝\u200b") == "지원 사업 공고 끝"
    assert clean_text(" 첫 줄 \r\n\r\n 둘째 줄 ") == "첫 줄\n둘째 줄"
    doc, b = new_doc()
    b.add_block("paragraph", "가\xa0나\x0b다")
    assert chunk_document(doc)[0].text == "가 나 다"


def test_an_unreadable_document_has_no_chunks():
    doc, b = new_doc()
    b.add_block("paragraph", "본문")
    doc.access.readable = False
    assert chunk_document(doc) == []


def test_chunk_dict_round_trip():
    doc, b = new_doc()
    b.add_block("paragraph", "본문입니다.", page=1, bbox=[1, 2, 3, 4])
    chunk = chunk_document(doc)[0]
    assert Chunk.from_dict(chunk.to_dict()) == chunk
    assert set(chunk.to_dict()) == {"id", "doc_id", "kind", "text", "path", "outline", "anchors",
                                    "extractors", "blocks"}
    assert chunk.extractors == ["hwp-native"]


@requires_corpus
@pytest.mark.parametrize("path,truth", corpus_params({"hwp", "hwpx", "docx", "xlsx", "pdf"}))
def test_chunks_keep_every_snippet_the_reader_found(path, truth):
    """Whatever text a reader got out of a real file is still findable in the chunks."""
    for doc in parse_path(str(path)):
        if not doc.access.readable:
            continue
        chunks = chunk_document(doc)
        assert chunks
        read = squash(clean_text(doc.all_text()))
        joined = squash(" ".join(c.text for c in chunks))
        for snippet in truth.get("snippets", []):
            if squash(snippet) in read:
                assert squash(snippet) in joined, snippet
        ids = [c.id for c in chunks]
        assert len(ids) == len(set(ids))


def test_noda_chunk_prints_the_document_and_its_chunks(tmp_path, capsys):
    import json

    import docx

    from noda_desktop.cli import main

    path = tmp_path / "계획.docx"
    d = docx.Document()
    d.add_heading("추진 배경", level=1)
    for i in range(6):
        d.add_paragraph(f"{i}번째 문단입니다. 예산은 {i},000원입니다.")
    d.save(str(path))
    assert main(["chunk", str(path), "--budget", "60", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["document"]["source"]["filename"] == "계획.docx"
    chunks = out["chunks"]
    assert len(chunks) >= 3 and all(len(c["text"]) <= 60 for c in chunks)
    assert chunks[-1]["outline"] == ["추진 배경"]
    assert main(["chunk", str(path)]) == 0
    assert "c0001" in capsys.readouterr().out
    assert main(["chunk", str(tmp_path / "없음.docx")]) == 2


def test_a_quoted_row_under_a_two_row_header_points_at_its_own_cells():
    from engine.answer.citations import narrow_anchors

    doc, b = new_doc("통계.pdf", "pdf")
    cells = _quarterly_table()
    for c in cells:
        c.page, c.bbox = 1, [c.col * 50.0, c.row * 10.0, c.col * 50.0 + 45, c.row * 10.0 + 8]
    b.add_table(6, 5, cells, page=1)
    (chunk,) = chunk_document(doc)
    anchors = narrow_anchors(doc, chunk.blocks, "미국 | (9.6) | (△11.3) | (△5.2) | (△44.6)")
    label = next(c for c in cells if c.text == "미국")
    growth = [c for c in cells if c.row == 3]
    assert [a["bbox"] for a in anchors] == [label.bbox] + [c.bbox for c in growth]


def test_an_empty_cell_of_a_plain_grid_keeps_its_place_in_its_row():
    doc, b = new_doc()
    texts = [("구분", "강남권", "강북권"), ("2023년", "", "900"), ("", "", "")]
    b.add_table(3, 3, [Cell(r, c, t) for r, row in enumerate(texts) for c, t in enumerate(row)], page=1)
    (chunk,) = chunk_document(doc)
    assert chunk.text.split("\n") == ["구분 | 강남권 | 강북권", "2023년 |  | 900"]     # a row of nothing is left out


def test_a_box_of_one_cell_keeps_its_paragraphs_as_lines():
    # a press release frames its key points in a one-cell table: each point stays a line of its own
    doc, b = new_doc()
    b.add_table(1, 1, [Cell(0, 0, "주요 내용\n○ 지원 대상: 초기 창업 기업\n○ 지원 금액: 최대 3천만 원")], page=1)
    (chunk,) = chunk_document(doc)
    assert chunk.text.split("\n") == ["주요 내용", "○ 지원 대상: 초기 창업 기업", "○ 지원 금액: 최대 3천만 원"]


def _task_table(b: DocumentBuilder, task: str) -> None:
    b.add_table(2, 2, [Cell(0, 0, "번호", page=1), Cell(0, 1, "과제", page=1),
                       Cell(1, 0, "2", page=1), Cell(1, 1, task, page=1)], page=1)


def test_a_note_that_opens_a_chunk_says_which_starred_word_it_explains():
    doc, b = new_doc()
    _task_table(b, "공공부문 마이데이터* 활성화")
    b.add_block("paragraph", "* 정보주체인 이용자 중심의 데이터 활용 패러다임", page=1)
    b.add_block("paragraph", "이어지는 본문입니다.", page=1)
    note = next(c for c in chunk_document(doc) if c.text.startswith("* 정보주체"))
    assert note.outline[-1] == "2 | 공공부문 마이데이터* 활성화"
    doc, b = new_doc()      # nothing starred before it: the note explains nothing named
    _task_table(b, "공공부문 활성화")
    b.add_block("paragraph", "* 별표가 붙은 말이 앞에 없는 주석", page=1)
    note = next(c for c in chunk_document(doc) if c.text.startswith("* 별표"))
    assert note.outline == []


def test_a_heading_drawn_as_a_one_row_table_opens_a_section():
    # 한글 templates draw section headings as a row of a mark cell and a title cell
    doc, b = new_doc()
    b.add_table(1, 3, [Cell(0, 0, "Ⅱ"), Cell(0, 1, ""), Cell(0, 2, "추진 일정")], page=1)
    b.add_block("paragraph", "상반기에 착수한다.", page=1)
    b.add_table(1, 4, [Cell(0, 0, "13"), Cell(0, 1, ""), Cell(0, 2, "사업설명회 개최 안내"), Cell(0, 3, "")], page=1)
    b.add_table(2, 2, [Cell(0, 0, "구 분"), Cell(0, 1, "내 용"),
                       Cell(1, 0, "일 시"), Cell(1, 1, "2026. 3. 25.(수) 10:00")], page=1)
    b.add_table(1, 3, [Cell(0, 0, "참 고"), Cell(0, 1, ""), Cell(0, 2, "해외직접투자 개념")], page=1)
    b.add_block("paragraph", "외국환거래법에 따른 투자를 말한다.", page=1)
    chunks = chunk_document(doc)
    outline = {c.text.split("\n")[-1]: c.outline for c in chunks}
    assert outline["상반기에 착수한다."] == ["Ⅱ 추진 일정"]
    assert outline["일 시 | 2026. 3. 25.(수) 10:00"] == ["Ⅱ 추진 일정", "13 사업설명회 개최 안내"]
    assert outline["외국환거래법에 따른 투자를 말한다."] == ["참 고 해외직접투자 개념"]
    assert not any(c.kind == "table" and "추진 일정" in c.text for c in chunks)


def test_a_one_row_table_of_values_is_no_heading():
    doc, b = new_doc()
    b.add_table(1, 3, [Cell(0, 0, "합계"), Cell(0, 1, "1,250"), Cell(0, 2, "")], page=1)
    b.add_table(1, 2, [Cell(0, 0, "2024"), Cell(0, 1, "예산 집행")], page=1)
    b.add_block("paragraph", "본문입니다.", page=1)
    chunks = chunk_document(doc)
    assert [c.kind for c in chunks] == ["table", "table", "paragraph"]
    assert chunks[-1].outline == []


def _two_pages(b: DocumentBuilder, second: str, extractor: str = "pymupdf") -> None:
    """A page that fills a chunk and ends mid-sentence, and the next page opening with ``second``."""
    filler = "오픈액세스 학술지의 수는 해마다 늘고 있다. " * 10
    b.add_block("paragraph", filler + "학술 소셜 네트워크에서 공유되는 오픈액세스 논", page=1, extractor=extractor)
    b.add_block("paragraph", second + " 이렇게 무료로 접근할 수 있는 논문의 비중도 커졌다.", page=2,
                extractor=extractor)


def test_a_sentence_a_pdf_page_break_cut_ends_in_the_chunk_it_began_in():
    doc, b = new_doc("논문.pdf", "pdf")
    _two_pages(b, "문도 눈에 띄게 증가하고 있다.")
    chunks = chunk_document(doc, budget=300)
    first = chunks[0].text
    assert "오픈액세스논문도눈에띄게증가하고있다." in re.sub(r"\s", "", first)
    assert {a["page"] for a in chunks[0].anchors} == {1, 2}           # the quote is cited on both pages
    assert chunks[1].text.startswith("이렇게 무료로")                 # nothing is said twice
    assert "문도" not in chunks[1].text


def test_a_syllable_and_full_stop_after_a_cut_line_end_the_sentence_unless_they_follow_a_lettered_list():
    doc, b = new_doc("논문.pdf", "pdf")
    _two_pages(b, "다. 또한 주목해야 할 내용이 있다.")
    assert chunk_document(doc, budget=300)[0].text.endswith("다.")
    doc, b = new_doc("계획.pdf", "pdf")
    b.add_block("paragraph", "가. 첫째 과제 추진", page=1)
    _two_pages(b, "나. 둘째 과제로 저장소 구축을 추진한다.")
    assert [c.text[:2] for c in chunk_document(doc, budget=300)][1:] == ["나."]


def test_paragraphs_of_a_word_processor_are_never_joined_across_chunks():
    doc, b = new_doc()
    _two_pages(b, "문도 눈에 띄게 증가하고 있다.", extractor="hwp-native")
    chunks = chunk_document(doc, budget=300)
    assert chunks[1].text.startswith("문도 눈에 띄게")
