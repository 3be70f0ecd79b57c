"""Form fields (engine/read/form_fields.py) and comparison-table revisions (engine/read/revisions.py)."""
from __future__ import annotations

import docx
import pytest

from engine.model import Cell, Document, Source
from engine.read.formats.base import DocumentBuilder
from engine.read.parse import parse_path
from engine.read.revisions import revisions_for_table, revisions_for_text
from engine.read.form_fields import extract_structure, normalise_date
from tests.corpus import CORPUS, requires_corpus


def _doc(lines: list[str], tables: list[list[list[str]]] = ()) -> tuple[Document, DocumentBuilder]:
    """A readable Document of paragraphs, then tables (rows of cell texts)."""
    doc = Document(doc_id="sha256:test", source=Source(filename="t.hwpx", format="hwpx", bytes=1))
    builder = DocumentBuilder(doc, "test")
    for line in lines:
        builder.add_block("paragraph", line, page=1)
    for grid in tables:
        cells = [Cell(row=r, col=c, text=text) for r, row in enumerate(grid) for c, text in enumerate(row)]
        builder.add_table(len(grid), max(len(row) for row in grid), cells, page=1)
    return doc, builder


LETTER = [
    "농림축산식품부",
    "수신  수신자 참조",
    "(경유)",
    "제목  2026년 해외농업자원개발 융자사업 시행공고",
    "1. 관련: 해외농업·산림자원 개발협력법 제5조",
    "2. 2026년 해외농업자원개발 융자사업을 다음과 같이 공고하오니 많은 참여 바랍니다.",
    "붙임  1. 시행공고문 1부.  끝.",
    "수신자  한국농어촌공사사장(글로벌농업개발부), (사)해외농업자원개발협회장",
    "농림축산식품부장관",
    "주무관 홍길동  사무관 김영희  국제협력총괄과장 박철수",
    "시행  국제협력총괄과-174  (2023. 1. 10.)  접수",
    "우 30110 세종특별자치시 다솜2로 94 / http://www.mafra.go.kr",
]


def test_official_letter_fields():
    doc, _ = _doc(LETTER)
    extract_structure(doc)
    s = doc.structure
    assert s.title == "2026년 해외농업자원개발 융자사업 시행공고"
    assert s.doc_number == "국제협력총괄과-174"
    assert s.issued_date == "2023-01-10"
    assert s.issuer == "농림축산식품부"
    assert s.recipient == "수신자 참조"
    assert s.recipients == ["한국농어촌공사사장(글로벌농업개발부)", "(사)해외농업자원개발협회장"]
    assert s.attachments == ["시행공고문 1부"]


WRAPPED = [
    "강북구",
    "수신  수신자 참조",
    "제목  가을밤 음악축제 개최 협조 요청",
    "1. 귀 기관의 무궁한 발전을 기원합니다.",
    "2. 우리 구에서 개최하는 음악축제를 붙임과 같이 알려 드리니 협조하여 주시기 바랍니다.",
    "붙임  1. 행사 개최계획 1부.",
    "2. 교통 통제 구간도 1부.",
    "3. 협조 요청 사항 1부.  끝.",
    "4. 이 줄은 다른 목록이다.",
    "강 북 구 청 장 (직인생략)",
    "수신자  서울특별시장(문화정책과장), 서울특별시경찰청장(교통안전",
    "과장), 강북경찰서장, 서울교통공사사장,",
    "국립4·19민주묘지관리소장",
    "주무관 이순신  문화관광체육과장 김유신",
    "시행  문화관광체육과-5210  (2023. 7. 5.)",
]


def test_a_wrapped_recipient_list_and_a_numbered_attachment_list():
    doc, _ = _doc(WRAPPED)
    extract_structure(doc)
    s = doc.structure
    assert s.recipients == ["서울특별시장(문화정책과장)", "서울특별시경찰청장(교통안전과장)", "강북경찰서장",
                            "서울교통공사사장", "국립4·19민주묘지관리소장"]
    assert s.attachments == ["행사 개최계획 1부", "교통 통제 구간도 1부", "협조 요청 사항 1부"]
    assert (s.doc_number, s.issued_date, s.issuer) == ("문화관광체육과-5210", "2023-07-05", "강북구")


@pytest.mark.parametrize("line, items", [
    ("붙임  1. 시행공고문 1부.  2. 신청서 서식 1부.  끝.", ["시행공고문 1부", "신청서 서식 1부"]),
    ("붙 임  2024년 운영계획(안) 1부.  끝.", ["2024년 운영계획(안) 1부"]),
    ("첨부1 : 제안서 평가기준 및 작성양식(별도첨부)", ["제안서 평가기준 및 작성양식(별도첨부)"]),
    ("붙임 서류를 첨부하여 제출합니다.", []),               # prose, not the attachment field
    ("[첨부1] 소프트웨어 개발사업의 적정사업기간 종합산정서", []),   # an appendix heading
])
def test_attachment_lines(line, items):
    doc, _ = _doc(["제목  알림", line])
    extract_structure(doc)
    assert doc.structure.attachments == items


@pytest.mark.parametrize("lines, names", [
    (["수신자  서울특별시장, 부산광역시장", "1. 관련 근거를 알려 드립니다."], ["서울특별시장", "부산광역시장"]),
    (["수신자  서울특별시장, 부산광역시장", "강 북 구 청 장 (직인생략)"], ["서울특별시장", "부산광역시장"]),
    (["수신자", "서울특별시장, 부산광역시장,", "대구광역시장", "강 북 구 청 장 (직인생략)"],
     ["서울특별시장", "부산광역시장", "대구광역시장"]),            # a name like a signature, after a comma
])
def test_a_recipient_list_runs_on_only_while_it_wraps(lines, names):
    doc, _ = _doc(["수신  수신자 참조", *lines, "시행  총무과-12 (2024. 1. 2.)"])
    extract_structure(doc)
    assert doc.structure.recipients == names


def test_letter_in_tables_signed_by_the_head():
    """Header and footer drawn as tables, one addressee, a letter-spaced signature."""
    doc, _ = _doc(
        ["1. 귀 기관의 협조에 감사드립니다.", "2. 행사 안내문을 붙임과 같이 보냅니다.  끝.",
         "강 북 구 청 장 (직인생략)"],
        [[["수 신", "서울특별시장(문화정책과장)"], ["제 목", "가을밤 음악축제 개최 알림"]],
         [["기안자", "주무관 이순신", "검토자", "문화관광체육과장"],
          ["시행", "문화관광체육과-5210(2023.07.05.)", "접수", ""]]])
    # the header table belongs before the text: move its block first
    doc.blocks.insert(0, doc.blocks.pop(3))
    extract_structure(doc)
    s = doc.structure
    assert s.recipient == "서울특별시장(문화정책과장)"
    assert s.recipients == []
    assert s.title == "가을밤 음악축제 개최 알림"
    assert s.doc_number == "문화관광체육과-5210"
    assert s.issued_date == "2023-07-05"
    assert s.issuer == "강북구청장"


def test_a_fire_station_letter_addressed_to_the_list_at_its_foot():
    """The agency line is letter-spaced and ends in 소방서; 「수신 | 수신자 참조」 at the top names the list
    in the 「수신자」 row at the foot, and the approval row's titles are not the sender."""
    doc, _ = _doc(
        ["강 서 소 방 서"],
        [[["수신", "수신자 참조"], ["제목", "7월 구급차 정비 일정 알림"]],
         [["소 방 행 정 과 장"], ["수신자", "재난관리과장, 현장대응단장, 화곡119안전센터장"],
          ["소방장", "박태현", "장비회계팀장", "조성종", "소방행정과장", "06/26"],
          ["시행", "소방행정과-6828", "(", "2026. 6. 26.", ")", "접수"]]])
    extract_structure(doc)
    s = doc.structure
    assert s.issuer == "강서소방서"
    assert s.recipient == "수신자 참조"
    assert s.recipients == ["재난관리과장", "현장대응단장", "화곡119안전센터장"]
    assert s.doc_number == "소방행정과-6828"


def test_a_press_release_opening_with_its_release_table_takes_the_headline_box_under_it():
    doc, _ = _doc([], [[["보도일시", "2018. 9. 4.(화) 조간"], ["담당부서", "거대공공연구정책과"]],
                       [["국민이 정한 한국형발사체의 이름은 ｢누리｣"]]])
    extract_structure(doc)
    assert doc.structure.title == "국민이 정한 한국형발사체의 이름은 ｢누리｣"


def test_a_press_explanation_s_headline_follows_its_mark():
    doc, _ = _doc(["보 도 설 명 자 료", "보도시점 : 배포 즉시 보도 가능",
                   "택시 차령을 최대 2년 추가연장할 수 있도록 하고 있습니다.", "□ 국토교통부는 시행령을 개정하였습니다."])
    extract_structure(doc)
    assert doc.structure.title == "택시 차령을 최대 2년 추가연장할 수 있도록 하고 있습니다."


def test_a_guessed_title_skips_notes_and_closes_up_letter_spacing(tmp_path):
    document = docx.Document()
    for line in ("※ 작성 요령은 홈페이지의 매뉴얼을 참고하시기 바랍니다.", "통 합 재 정 통 계", "1. 개요"):
        document.add_paragraph(line)
    document.save(tmp_path / "t.docx")
    assert parse_path(str(tmp_path / "t.docx"))[0].structure.title == "통합재정통계"


def test_a_document_drawn_whole_as_a_table_is_titled_by_its_merged_first_row(tmp_path):
    document = docx.Document()
    table = document.add_table(rows=3, cols=2)
    table.cell(0, 0).merge(table.cell(0, 1)).text = "정책연구과제 선정 결과보고서"
    for r, (label, value) in enumerate([("과제명", "새만금 신교통특구 추진방안연구"), ("신청부서", "산업단지조성과")], 1):
        table.cell(r, 0).text, table.cell(r, 1).text = label, value
    document.save(tmp_path / "t.docx")
    assert parse_path(str(tmp_path / "t.docx"))[0].structure.title == "정책연구과제 선정 결과보고서"


def test_a_form_opening_with_a_label_and_an_empty_value_has_no_guessed_title(tmp_path):
    # the 간이기안문 template: the first table's first row is a field to fill in, not a title
    document = docx.Document()
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(1, 0).text = "생산등록번호", "등록일"
    document.save(tmp_path / "간이기안문_서식.docx")
    assert parse_path(str(tmp_path / "간이기안문_서식.docx"))[0].structure.title is None


def test_a_letters_footer_spread_over_bracket_cells_and_a_schedule_header_row():
    """The 시행 date stands in cells of its own after the number; a schedule's header row naming 부서
    gives no 담당 부서 (its value is below it, per row); 연락처 stops at the /전송 (fax) cell."""
    doc, _ = _doc(
        ["1. 7월 구급차 정비 일정을 알려 드립니다.", "붙임  정비 일정 1부.  끝."],
        [[["연번", "일자", "부서", "차량종류", "등록번호"],
          ["1", "7월3일", "방화119안전센터", "스타리아", "12가3456"],
          ["2", "7월8일", "개화119안전센터", "스타리아", "34나5678"]],
         [["시행", "소방행정과-6828", "(", "2026. 6. 26.", ")", "접수", "(", ")"],
          ["전화", "02-6981-5190", "/전송", "02-2665-6119", "/", "fire@seoul.go.kr"]]])
    extract_structure(doc)
    s = doc.structure
    assert s.doc_number == "소방행정과-6828"
    assert s.issued_date == "2026-06-26"
    assert s.department is None
    assert s.phone == "02-6981-5190"


def test_press_release_gets_headline_and_no_letter_fields():
    doc, builder = _doc([])
    for text in ("보도자료", "‘25년 2분기 해외직접투자는 141.5억 달러로 전년동기비 13.4% 감소"):
        builder.add_table(1, 1, [Cell(0, 0, text)], page=1)
    builder.add_table(1, 4, [Cell(0, i, t) for i, t in enumerate(
        ["보도시점", "2025. 9. 19.(금) 11:00", "배포", "2025. 9. 19.(금) 08:00"])], page=1)
    builder.add_block("paragraph", "해외직접투자 신고 수신 건수는 전년보다 늘었다.", page=1)
    builder.add_table(2, 3, [Cell(0, 0, "담당 부서"), Cell(0, 1, "대외경제국"), Cell(0, 2, "과장 강병중"),
                             Cell(1, 1, "국제경제과"), Cell(1, 2, "사무관 황예진")], page=2)
    extract_structure(doc)
    s = doc.structure
    assert s.title == "‘25년 2분기 해외직접투자는 141.5억 달러로 전년동기비 13.4% 감소"
    assert (s.doc_number, s.issued_date, s.issuer, s.recipient, s.recipients) == (None, None, None, None, [])


def test_public_notice_gets_headline_its_own_number_date_and_signer_and_no_addressee():
    doc, _ = _doc(["농림축산식품부 공고 제2023-12호", "2026년 해외농업자원개발 융자사업 시행공고",
                   "해외농업·산림자원 개발협력법에 따라 다음과 같이 공고합니다.",
                   "2023. 1. 10.", "농림축산식품부장관"])
    doc.structure.title = "옛 서식 제목"   # a stale file-properties title loses to the face
    extract_structure(doc)
    s = doc.structure
    assert s.title == "2026년 해외농업자원개발 융자사업 시행공고"
    assert (s.doc_number, s.issued_date, s.issuer, s.recipient, s.recipients) == (
        "공고 제2023-12호", "2023-01-10", "농림축산식품부장관", None, [])


def test_cover_line_with_date_and_agency():
    doc, builder = _doc([])
    builder.add_table(1, 1, [Cell(0, 0, "AI 기반 공사비 변경 LLM 서비스 프로토타입 개발 과업지시서 2026. 06. 한국건설기술연구원")])
    builder.add_block("paragraph", "1. 과업명")
    extract_structure(doc)
    assert doc.structure.title == "AI 기반 공사비 변경 LLM 서비스 프로토타입 개발 과업지시서"


def test_plain_text_keeps_nulls():
    doc, _ = _doc(["동해물과 백두산이 마르고 닳도록", "하느님이 보우하사 우리나라 만세",
                   "시행 중인 제도는 그대로 둔다."])
    doc.structure.title = "애국가"
    extract_structure(doc)
    s = doc.structure
    assert s.title == "애국가"
    assert (s.doc_number, s.issued_date, s.issuer, s.recipient, s.recipients, s.attachments, s.revisions) == (
        None, None, None, None, [], [], [])


@pytest.mark.parametrize("text, expected", [
    ("(2023. 1. 10.)", "2023-01-10"),
    ("2023년 1월 10일", "2023-01-10"),
    ("서면인터넷방문상담2팀-1138  (2004.06.02)", "2004-06-02"),
    ("2023-02-30 그리고 2023.3.1.", "2023-03-01"),
    ("2026. 06.", None),
    ("", None),
])
def test_normalise_date(text, expected):
    assert normalise_date(text) == expected


def test_parse_fills_structure_of_a_docx_letter(tmp_path):
    """engine/read/parse.py runs the extraction after a successful read."""
    path = tmp_path / "공문.docx"
    document = docx.Document()
    for line in LETTER:
        document.add_paragraph(line)
    document.save(path)
    doc = parse_path(str(path))[0]
    assert doc.readable
    assert doc.structure.doc_number == "국제협력총괄과-174"
    assert doc.structure.issued_date == "2023-01-10"
    assert doc.structure.recipients[1] == "(사)해외농업자원개발협회장"


@requires_corpus
@pytest.mark.parametrize("name, number, date, title, issuer", [
    ("nts_국제조세제도과-393.hwp", "국제조세제도과-393", "2022-11-02",
     "개별기업보고서 부표 중 요약손익계산서 미제출에 따른 과태료 부과 여부", "기획재정부"),
    ("nts_서면2팀-1138_접대비.hwp", "서면인터넷방문상담2팀-1138", "2004-06-02", "접대비 해당 여부", None),
])
def test_corpus_rulings(name, number, date, title, issuer):
    doc = parse_path(str(CORPUS / name))[0]
    if not doc.readable:
        pytest.skip(f"{name} not readable yet ({doc.reason})")
    s = doc.structure
    assert (s.doc_number, s.issued_date, s.title, s.issuer) == (number, date, title, issuer)
    assert (s.recipient, s.recipients) == (None, [])


@requires_corpus
@pytest.mark.parametrize("name, attached", [
    ("kwater_디지털플랫폼구축_제안요청서.hwp", ["제안서 평가기준 및 작성양식(별도첨부)"]),   # 「첨부1 : …」
    ("강북구_419가을밤음악축제_제안요청서.hwpx", []),     # 「… 붙임 서류를 첨부합니다」 only in prose
    ("nts_국제조세제도과-393.hwp", []),
])
def test_corpus_attachments(name, attached):
    doc = parse_path(str(CORPUS / name))[0]
    if not doc.readable:
        pytest.skip(f"{name} not readable yet ({doc.reason})")
    assert doc.structure.attachments == attached


@requires_corpus
def test_corpus_press_release():
    doc = parse_path(str(CORPUS / "moef_2025년2분기_해외직접투자_보도자료(최종).hwpx"))[0]
    s = doc.structure
    assert s.title == "‘25년 2분기 해외직접투자는 141.5억 달러로 전년동기비 13.4% 감소"
    assert (s.doc_number, s.issued_date, s.issuer, s.recipient, s.recipients) == (None, None, None, None, [])


# ---- revisions -------------------------------------------------------------------
COMPARISON = [
    ["현      행", "개   정   안"],
    ["제5조(정의) 이 법에서 “사업”이란 해외농업 개발을 말한다.",
     "제5조(정의) ----------------------- 해외농업·산림 개발을 말한다."],
    ["13. 법 제104조제1항에 따른 위법사실 통보의 수리", "<삭  제>"],
    ["<신  설>", "14. 법 제105조에 따른 자료의 제출"],
    ["제7조(보고) 매년 보고한다.", "제7조(보고) (현행과 같음)"],
    ["제8조(서식) 서식은 별표와 같다.", "제9조(서식) 서식은 별표와 같다."],
    ["제10조(벌칙) 위반한 자는 처벌한다.", "제10조(벌칙) -------------------"],
]


def test_comparison_table_rows():
    doc, _ = _doc([], [COMPARISON])
    rows = revisions_for_table(doc.tables[0])
    assert [(r["row"], r["kind"], r["label"]) for r in rows] == [
        (1, "amended", "제5조"), (2, "deleted", "13."), (3, "added", "14."),
        (4, "unchanged", "제7조"), (5, "renumbered", "제8조 → 제9조"), (6, "unchanged", "제10조")]
    assert rows[1]["current"] == "13. 법 제104조제1항에 따른 위법사실 통보의 수리"
    assert rows[1]["revised"] == "<삭  제>"     # the document's words, untouched


def test_revisions_stored_and_found_for_a_quote():
    doc, _ = _doc(["신·구조문대비표"], [COMPARISON, [["구분", "내용"], ["현행", "그대로"]]])
    extract_structure(doc)
    stored = doc.structure.revisions
    assert len(stored) == 6
    assert {r["table"] for r in stored} == {"t0001"}
    assert stored[0]["block"] == doc.tables[0].block
    quote = "13. 법 제104조제1항에 따른 위법사실 통보의 수리 | <삭 제>"
    found = revisions_for_text(doc, [doc.tables[0].block], quote)
    assert found == [{"kind": "deleted", "label": "13.",
                      "current": "13. 법 제104조제1항에 따른 위법사실 통보의 수리", "revised": "<삭  제>"}]
    assert revisions_for_text(doc, ["b09999"], quote) == []
    assert Document.from_dict(doc.to_dict()).structure.revisions == stored


def test_ordinary_table_has_no_revisions():
    doc, _ = _doc([], [[["구분", "2023년", "2024년"], ["총투자", "182.6", "161.1"]]])
    assert revisions_for_table(doc.tables[0]) == []


def test_who_to_ask_and_the_release_time_come_from_their_labelled_cells():
    doc, _ = _doc(["보도자료", "2025년 2분기 해외직접투자 동향"],
                        [[["보도시점", "2025. 9. 19.(금) 11:00", "배포", "2025. 9. 19.(금) 08:00"]],
                         [["담당 부서", "국제경제과", "담당자", "사무관", "황예진", "(044-215-7630)"]]])
    extract_structure(doc)
    s = doc.structure
    assert s.department == "국제경제과"
    assert s.contact.startswith("사무관 황예진") and s.phone == "044-215-7630"
    assert s.release == "2025. 9. 19.(금) 11:00"           # the 배포 time after it is another label's


def test_a_document_without_contact_labels_states_none():
    doc, _ = _doc(["회의 결과를 알려 드립니다.", "다음 회의는 3월에 엽니다."])
    extract_structure(doc)
    assert (doc.structure.department, doc.structure.contact, doc.structure.phone, doc.structure.release) == \
        (None, None, None, None)


def test_a_title_box_is_the_title_and_a_date_line_is_not(tmp_path):
    # a report's title stands in a box (a table of one cell), the date of the report under it
    document = docx.Document()
    document.add_table(rows=1, cols=1).rows[0].cells[0].text = "고용노동부 업무보고"
    document.add_paragraph("2025. 12. 11.")
    document.add_paragraph("일반 현황을 차례로 보고드립니다.")
    document.save(tmp_path / "보고.docx")
    assert parse_path(str(tmp_path / "보고.docx"))[0].structure.title == "고용노동부 업무보고"
    without_box = docx.Document()
    without_box.add_paragraph("2025. 12. 11.")
    without_box.add_paragraph("일반 현황을 차례로 보고드립니다.")
    without_box.save(tmp_path / "날짜.docx")
    assert parse_path(str(tmp_path / "날짜.docx"))[0].structure.title == "일반 현황을 차례로 보고드립니다."


def test_the_signer_of_a_notice_is_not_its_title(tmp_path):
    document = docx.Document()
    for line in ("서울특별시 강남구 공고 제2023-745호", "2023년 3월 24일", "서울특별시 강남구청장",
                 "서울특별시 강남구 공무직 관리 규정 일부개정규칙안 입법예고", "1. 제정이유"):
        document.add_paragraph(line)
    document.save(tmp_path / "입법예고.docx")
    assert parse_path(str(tmp_path / "입법예고.docx"))[0].structure.title == \
        "서울특별시 강남구 공무직 관리 규정 일부개정규칙안 입법예고"
