"""Extractive answers (engine/answer/) over a real generated tenant: the right line, its citation and anchors."""
from __future__ import annotations

import io
import json
from contextlib import contextmanager
import unicodedata

import docx
import pymupdf
import pytest
from openpyxl import Workbook

from engine import wording
from engine.answer.extract import answer
from engine.answer.lines import split_lines
from engine.library.tenant import Tenant
from engine.answer.question_cues import analyze, line_cues
from noda_desktop import cli


def _docx_bytes() -> bytes:
    document = docx.Document()
    document.add_heading("2026년 청년 농업인 정착 지원사업 공고", level=1)
    document.add_paragraph("청년 농업인의 영농 정착을 돕기 위해 다음과 같이 지원사업을 공고합니다.")
    document.add_paragraph("신청기간은 8월 28일까지이며 기한 안에 읍면사무소에 신청서를 내야 합니다.")
    document.add_paragraph("지원 대상은 만 39세 이하의 청년 농업인입니다.")
    table = document.add_table(rows=3, cols=2)
    for row, (item, amount) in zip(table.rows, [("항목", "금액"), ("정착지원금", "월 110만 원"),
                                                 ("교육비", "연 50만 원")]):
        row.cells[0].text, row.cells[1].text = item, amount
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _xlsx_bytes() -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.title = "현황"
    sheet.append(["기관명", "소계", "2023년", "2024년"])
    sheet.append(["강남구", 5221, 430, 546])
    sheet.append(["강동구", 1879, 59, 144])
    sheet.append(["강북구", 1265, 74, 145])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _pdf_bytes() -> bytes:
    pdf = pymupdf.open()
    page = pdf.new_page(width=595, height=842)
    page.insert_text((72, 100), "청년 농업인 지원사업 안내", fontname="korea", fontsize=16)
    page.insert_text((72, 200), "사업 문의는 농림축산식품부 청년농업과에서 받습니다.", fontname="korea", fontsize=11)
    page.insert_text((72, 500), "선정 결과는 10월 중에 개별로 알려 드립니다.", fontname="korea", fontsize=11)
    return pdf.tobytes()


@pytest.fixture(scope="module")
def tenant(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tenant") / "갑"
    folder.mkdir()
    (folder / "공고.docx").write_bytes(_docx_bytes())
    (folder / "현황.xlsx").write_bytes(_xlsx_bytes())
    (folder / "안내.pdf").write_bytes(_pdf_bytes())
    (folder / "빈파일.hwpx").write_bytes(b"")
    t = Tenant(folder, cache_root=tmp_path_factory.mktemp("cache"), workers=1)
    t.refresh()
    yield t
    t.close()


def _chunk_text(tenant, citation) -> str:
    return next(c.text for c in tenant.chunks(citation["filename"]) if c.id == citation["chunk_id"])


def test_a_when_question_finds_the_deadline_line_and_cites_it(tenant):
    result = answer(tenant, "언제까지 신청해야 하나요?")
    assert result["answered"] is True and result["reason"] is None
    assert result["made_by"] == wording.answer_text("made_by") == "발췌 (LLM 없음)"
    first = result["lines"][0]
    assert "8월 28일까지" in first["text"] and first["citations"] == [1]
    citation = result["citations"][0]
    assert citation["n"] == 1 and citation["filename"] == "공고.docx"
    assert citation["quote"] == first["text"] and citation["quote"] in _chunk_text(tenant, citation)
    assert citation["doc_id"].startswith("sha256:") and citation["path"][0]
    assert citation["anchors"] and "revisions" in citation and "python-docx" in citation["extractors"]
    assert 1 <= len(result["lines"]) <= 2 and result["text"].startswith(first["text"])


def test_an_amount_question_picks_the_table_row_and_narrows_the_cell_range(tenant):
    result = answer(tenant, "강남구 소계는 몇 대인가요?")
    assert result["answered"] is True
    citation = result["citations"][0]
    assert citation["filename"] == "현황.xlsx" and "5221" in citation["quote"]
    assert citation["quote"] in _chunk_text(tenant, citation)
    assert [a["cell_range"] for a in citation["anchors"]] == ["현황!A2:D2"]


def test_a_pdf_line_is_anchored_to_its_own_box_on_its_page(tenant):
    result = answer(tenant, "사업 문의는 어느 부서에서 받나요?")
    assert result["answered"] is True
    citation = result["citations"][0]
    assert citation["filename"] == "안내.pdf" and "청년농업과" in citation["quote"]
    [anchor] = citation["anchors"]
    assert anchor["page"] == 1
    x0, y0, x1, y1 = anchor["bbox"]
    assert 60 < x0 < x1 < 595 and 150 < y0 < y1 < 260      # the inquiry line, not the title or the later line


def test_a_question_the_documents_do_not_answer_is_refused_with_a_reason(tenant):
    result = answer(tenant, "직원 육아휴직 중 급여는 통상임금의 몇 퍼센트가 지급되나요?")
    assert result["answered"] is False and result["reason"] in ("NO_EVIDENCE", "NO_MATCH")
    assert result["reason_text"] == wording.evidence_text(result["reason"])
    assert result["text"] == "" and result["lines"] == [] and result["citations"] == []


def test_no_hits_at_all_is_no_match_and_lists_what_could_not_be_read(tenant):
    result = answer(tenant, "양자역학")
    assert result["answered"] is False and result["reason"] == "NO_MATCH"
    assert [s["filename"] for s in result["skipped"]] == ["빈파일.hwpx"]


def test_question_words_map_to_answer_cues():
    assert analyze("언제까지 신청해야 하나요?").cues == ["when"]
    assert analyze("예산은 얼마인가요?").cues == ["amount"]
    assert "who" in analyze("누구에게 내나요?").cues
    assert "where" in analyze("어디에 제출하나요?").cues
    assert "what" in analyze("대행사는 무엇을 뜻하나요?").cues
    assert analyze("과태료를 내야 하나요?").cues == ["yesno"]
    question = analyze("제안서는 최대 몇 쪽까지 쓸 수 있나요?")
    assert question.unit == "쪽"
    assert "unit" in line_cues(question, "기준쪽수 : A4 기준 80쪽 이내")
    when = analyze("언제 열리나요?")
    assert line_cues(when, "행사일시: 2023. 10. 21.(토) 15:00") == {"when": 0.15}    # a full date
    assert line_cues(when, "행사기간: 2023년 10월 중") == {"when": 0.075}           # only a sign of time
    assert line_cues(when, "행사 장소는 강북구청 앞마당입니다.") == {}


def test_question_terms_drop_particles_and_question_words():
    terms = {t.text: t.parts for t in analyze("K-water 디지털플랫폼 사업 예산이 총 얼마예요?").terms}
    assert set(terms) == {"k-water", "디지털플랫폼", "사업", "예산"}
    assert terms["디지털플랫폼"] == ["디지털", "플랫폼"]


def test_a_name_kiwi_misreads_before_a_particle_is_still_a_term():
    # Kiwi reads "헤이케의" as an interjection, an adverb and 의; a case particle follows only a noun
    assert "헤이케" in {t.text for t in analyze("헤이케의 압력을 받은 날은?").terms}
    assert "인제" in {t.text for t in analyze("인제에 유난히 많은 지명은?").terms}
    assert "실제로" not in {t.text for t in analyze("실제로는 어떤 구조인가요?").terms}   # 는 follows adverbs too


def test_lines_are_sentences_and_list_items_but_dates_stay_whole():
    text = "보도시점 | 2024. 6. 21.(금) 11:00\n순투자액은 늘었다. 회수금액은 줄었다. ※ 잠정치임 ○ 다음 발표는 9월"
    assert split_lines(text) == ["보도시점 | 2024. 6. 21.(금) 11:00", "순투자액은 늘었다.", "회수금액은 줄었다.",
                                 "※ 잠정치임", "○ 다음 발표는 9월"]


def test_a_line_does_not_end_inside_brackets_and_is_quoted_as_written():
    text = "타이틀 곡 <오!  해피>로 활동했다. 2집 《쇼! 음악중심》에 나왔다. 끝이다."
    assert split_lines(text) == ["타이틀 곡 <오!  해피>로 활동했다.", "2집 《쇼! 음악중심》에 나왔다.", "끝이다."]


def test_cli_answer_prints_json_and_korean_text(tenant, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("NODA_CACHE_DIR", str(tmp_path / "cache"))
    assert cli.main(["answer", str(tenant.folder), "언제까지 신청해야 하나요?", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["answered"] is True and "8월 28일까지" in result["text"]
    assert cli.main(["answer", str(tenant.folder), "언제까지 신청해야 하나요?"]) == 0
    out = capsys.readouterr().out
    assert "8월 28일까지" in out and "[1]" in out and "[1] 공고.docx" in out and "발췌 (LLM 없음)" in out


def test_the_answering_phrase_of_a_when_question_is_the_date_not_the_question_words(tenant):
    first = answer(tenant, "언제까지 신청해야 하나요?")["lines"][0]
    start, end = first["answer_span"]
    assert "8월 28일" in first["text"][start:end] and "신청" not in first["text"][start:end]


def test_a_question_scoped_to_one_document_answers_only_from_it(tenant):
    result = answer(tenant, "청년 농업인 지원사업은 누가 문의를 받나요?", document="안내.pdf")
    assert result["answered"] is True and result["document"] == "안내.pdf"
    assert {c["filename"] for c in result["citations"]} == {"안내.pdf"}
    assert result["skipped"] == []             # the folder's unreadable others were not looked in
    missing = answer(tenant, "언제까지 신청해야 하나요?", document="없는문서.hwp")
    assert missing["answered"] is False and missing["reason"] == "NO_DOCUMENT"
    assert missing["reason_text"] == wording.evidence_text("NO_DOCUMENT")


@pytest.mark.parametrize("written", ["안내", "안내.PDF", "./안내.pdf", "안내.pdf", "{folder}/안내.pdf",
                                     unicodedata.normalize("NFD", "안내.pdf")])
def test_a_scope_written_another_way_finds_the_one_document_it_names(tenant, written):
    result = answer(tenant, "사업 문의는 어디서 받나요?", document=written.format(folder=tenant.folder))
    assert result["answered"] is True and result["document"] == "안내.pdf"
    assert {c["filename"] for c in result["citations"]} == {"안내.pdf"}


def test_a_scope_that_fits_several_documents_or_none_is_refused(tmp_path):
    folder = tmp_path / "을"
    for name in ("가/공고.docx", "나/공고.docx"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(_docx_bytes())
    both = Tenant(folder, cache_root=tmp_path / "cache", workers=1)
    both.refresh()
    assert answer(both, "언제까지 신청해야 하나요?", document="나/공고")["document"] == "나/공고.docx"
    for written in ("공고", "공고.docx", "다/공고.docx", "/다른/폴더/나/공고.docx"):
        result = answer(both, "언제까지 신청해야 하나요?", document=written)
        assert result["answered"] is False and result["reason"] == "NO_DOCUMENT", written
    both.close()


def test_a_question_about_this_document_names_the_one_it_was_answered_from(tenant):
    result = answer(tenant, "이 공고의 신청기간은 언제까지인가요?")
    assert result["answered"] is True and result["document"] == "공고.docx"
    assert {c["filename"] for c in result["citations"]} == {"공고.docx"}


def test_cli_answers_one_document_and_a_questions_file_one_json_line_each(tenant, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("NODA_CACHE_DIR", str(tmp_path / "cache"))
    assert cli.main(["answer", str(tenant.folder), "사업 문의는 어디서 받나요?", "--document", "안내.pdf", "--json"]) == 0
    scoped = json.loads(capsys.readouterr().out)
    assert scoped["document"] == "안내.pdf" and {c["filename"] for c in scoped["citations"]} == {"안내.pdf"}
    questions = tmp_path / "questions.jsonl"
    questions.write_text("\n".join([json.dumps({"question": "언제까지 신청해야 하나요?"}, ensure_ascii=False),
                                    "이건 JSON이 아니다",
                                    json.dumps({"question": "사업 문의는 어디서 받나요?", "document": "안내.pdf"},
                                               ensure_ascii=False)]), encoding="utf-8")
    status = cli.main(["answer", str(tenant.folder), "--questions", str(questions), "--json"])
    lines = capsys.readouterr().out.splitlines()
    assert status == 1 and len(lines) == 3                    # one line each, the bad one said so
    first, bad, third = map(json.loads, lines)
    assert first["answered"] is True and "8월 28일까지" in first["text"]
    assert bad["answered"] is False and bad["reason"] == "BAD_QUESTION" and bad["line"] == 2
    assert third["document"] == "안내.pdf" and "청년농업과" in third["text"]
    assert set(first) >= {"tenant", "question", "answered", "lines", "citations", "document"}


def test_an_answer_parses_only_the_document_it_quotes(tenant, monkeypatch):
    """Titles, openings and the other chunks of the documents found come from the folder's state and
    index; the one Document read from the parse cache is the one the answer cites (its blocks)."""
    question = "청년 농업인 지원사업은 언제까지 신청하나요?"
    fresh = Tenant(tenant.folder, cache_root=tenant.cache_root, workers=1)
    read, get = [], fresh.cache.get
    monkeypatch.setattr(fresh.cache, "get", lambda sha, name: read.append(name) or get(sha, name))
    assert len({hit["filename"] for hit in fresh.search(question, limit=20)["hits"]}) > 1
    result = answer(fresh, question)
    fresh.close()
    assert result["answered"] is True
    assert set(read) == {c["filename"] for c in result["citations"]}


@contextmanager
def one_document(tmp_path, name: str, document):
    """A refreshed tenant of one folder holding ``document`` (python-docx) saved as ``name``."""
    out = io.BytesIO()
    document.save(out)
    folder = tmp_path / "폴더"
    folder.mkdir()
    (folder / name).write_bytes(out.getvalue())
    tenant = Tenant(folder, cache_root=tmp_path / "cache", workers=1)
    try:
        tenant.refresh()
        yield tenant
    finally:
        tenant.close()


def test_a_line_that_points_back_brings_the_line_naming_its_subject(tmp_path):
    document = docx.Document()
    document.add_paragraph("구청은 올해 주민 공모사업으로 '우리동네 정원 가꾸기'를 뽑았다. 이 사업은 4월 1일부터 "
                           "11월 30일까지 진행된다.")
    document.add_paragraph("참여 신청은 동 주민센터에서 받는다.")
    with one_document(tmp_path, "공모사업.docx", document) as tenant:
        result = answer(tenant, "공모사업은 언제 진행되나?")
        assert result["answered"] is True
        texts = [line["text"] for line in result["lines"]]
        assert texts == ["구청은 올해 주민 공모사업으로 '우리동네 정원 가꾸기'를 뽑았다.",
                         "이 사업은 4월 1일부터 11월 30일까지 진행된다."]
        for citation in result["citations"]:
            assert citation["quote"] in _chunk_text(tenant, citation)


def test_a_question_for_the_notice_s_number_gets_the_line_holding_it(tmp_path):
    document = docx.Document()
    document.add_paragraph("과학기술정보통신부 공고 제2024-108호")
    document.add_paragraph("2024년도 인공지능 핵심기술 개발 사업 신규과제 공고")
    document.add_paragraph("공고일: 2024년 3월 5일, 접수 마감: 2024년 4월 4일 18:00")
    document.add_paragraph("신청 자격은 국내 대학과 연구기관, 기업입니다.")
    with one_document(tmp_path, "신규과제공고.docx", document) as tenant:
        assert analyze("이 공고의 공고번호는 무엇인가요?").cues == ["number"]
        result = answer(tenant, "이 공고의 공고번호는 무엇인가요?")
        assert result["answered"] is True
        assert "제2024-108호" in result["lines"][0]["text"]


def test_a_notice_s_own_date_answers_when_it_was_posted_though_the_question_words_it_otherwise(tmp_path):
    document = docx.Document()
    document.add_paragraph("서울특별시 강남구 공고 제2023-745호")
    document.add_paragraph("「서울특별시 강남구 공무직 관리 규정」을 개정함에 있어 그 주요내용을 구민에게 알려 의견을 구하고자 "
                           "다음과 같이 입법예고합니다.")
    document.add_paragraph("2023년  3월  24일")
    document.add_paragraph("서울특별시 강남구청장")
    document.add_paragraph("1. 제정이유")
    document.add_paragraph("국민권익위원회 제도개선 권고사항을 반영하여 관리 규정을 개정하고자 함.")
    document.add_paragraph("이 개정안에 대하여 의견이 있는 단체 또는 개인은 2023년 4월 11일까지 의견서를 제출하여 주시기 바랍니다.")
    with one_document(tmp_path, "입법예고.docx", document) as tenant:
        structure = tenant.structure("입법예고.docx")
        assert (structure["doc_number"], structure["issued_date"], structure["issuer"]) == (
            "공고 제2023-745호", "2023-03-24", "서울특별시 강남구청장")
        # "게시됐나요": the document never says 게시; the date the notice states about itself answers
        result = answer(tenant, "이 공고는 며칠 자로 게시됐나요?", document="입법예고.docx")
        assert result["answered"] is True
        assert "2023년 3월 24일" in [line["text"] for line in result["lines"]]


def test_a_table_s_header_row_loses_to_the_row_holding_the_values(tmp_path):
    document = docx.Document()
    document.add_paragraph("국민임대주택 입주자 모집 안내")
    table = document.add_table(rows=3, cols=3)
    for r, row in enumerate([("단지명", "관할 사무소 주소", "신청문의 전화번호"),
                             ("금장로얄", "경상북도 포항시 남구 포스코대로 324", "1600-1004"),
                             ("옥길A1", "경기도 부천시 원미구 길주로 300", "1600-1004")]):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    with one_document(tmp_path, "입주자모집공고.docx", document) as tenant:
        result = answer(tenant, "금장로얄 단지의 관할 사무소 주소는 어디인가요?")
        assert result["answered"] is True
        assert "포스코대로 324" in result["lines"][0]["text"]


def test_a_page_wrapped_line_that_stops_inside_a_word_runs_on_though_a_wider_line_stands_in_the_chunk():
    text = ("국내연구자가 출판한 국제학술지 논문의 오픈액세스 현황은 다음과 같이 요약된다.\n"
            "브리드 OA수가 증가하고 있으나, 최근에는 브\n"
            "론즈 방식과 학술소셜네트워크인 ASN(Academic\n"
            "Social Networks)에서 공유되는 오픈액세스 논\n"
            "문도 눈에 띄게 증가하고 있다.")
    lines = [" ".join(line.split()) for line in split_lines(text, wrapped=True)]
    assert any(line.startswith("브리드 OA수가") and line.endswith("증가하고 있다.") for line in lines)


def test_a_syllable_and_full_stop_after_a_wrapped_line_end_its_sentence_but_a_lettered_item_stays_apart():
    broken = "라이센스, 표준화된 메타데이타를 부여해야 한\n다. 또한 주목해야 할 내용이 있다."
    assert len(split_lines(broken, wrapped=True)) == 1
    listed = "가. 첫째 과제로 디지털 아카이브를 구축하고\n나. 둘째 과제로 저장소 구축을 추진한다."
    assert len(split_lines(listed, wrapped=True)) == 2
