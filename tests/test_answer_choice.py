"""How engine/answer/ chooses a line: form fields, table captions, the document's own name, deeper hits,
and the question cues behind them (engine/answer/question_cues.py)."""
from __future__ import annotations

import io
import math

import docx
import pytest

from engine.answer import extract, scoring
from engine.answer.choice import choose_lines
from engine.answer.documents import Documents
from engine.answer.extract import answer
from engine.answer.lines import table_row
from engine.answer.span import answer_span
from engine.library.tenant import Tenant
from engine.answer.question_cues import analyze, field_weight, full_cues, line_cues


def _rfp_bytes() -> bytes:
    """A small request for proposals: prose about submitting, the fields that answer, a captioned table."""
    document = docx.Document()
    document.add_heading("가을 음악회 행사대행 용역 제안요청서", level=1)
    document.add_heading("1. 사업자 선정", level=2)
    document.add_paragraph("입찰참가자로부터 제안서를 제출받아 평가위원회에서 평가한 뒤 협상 대상자를 선정한다.")
    document.add_paragraph("제안서 평가위원회는 외부 전문가 위원 7명으로 구성한다.")
    document.add_heading("2. 제안서 제출", level=2)
    document.add_paragraph("제출장소: 서초구청 문화체육과")
    document.add_paragraph("제출일시: 2024. 7. 25.(목) 9:00 ~ 17:00까지")
    document.add_heading("3. 행사 개요", level=2)
    document.add_paragraph("용역기간: 계약체결일 ~ 2024. 11. 30.(토)까지")
    document.add_paragraph("행사일시: 2024. 10. 5.(토) 18:00 ~ 21:00")
    document.add_paragraph("지난해 음악회에는 모두 4,000명이 다녀갔다.")
    document.add_paragraph("< 권역별 예상 관객 수(명) >")
    table = document.add_table(rows=3, cols=3)
    for row, cells in zip(table.rows, [("구분", "강남권", "강북권"), ("2023년", "1,200", "900"),
                                        ("2024년", "1,500", "1,100")]):
        for cell, text in zip(row.cells, cells):
            cell.text = text
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


@pytest.fixture(scope="module")
def tenant(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rfp") / "을"
    folder.mkdir()
    (folder / "제안요청서.docx").write_bytes(_rfp_bytes())
    t = Tenant(folder, cache_root=tmp_path_factory.mktemp("cache"), workers=1)
    t.refresh()
    yield t
    t.close()


def test_a_form_field_naming_the_question_beats_prose_with_the_same_words(tenant):
    result = answer(tenant, "가을 음악회 제안서는 어느 기관 어느 부서에 제출하나요?")
    assert result["answered"] is True
    assert result["lines"][0]["text"] == "제출장소: 서초구청 문화체육과"


def test_the_field_whose_label_holds_the_question_word_wins_over_another_date_field(tenant):
    result = answer(tenant, "가을 음악회는 언제 열리나요?")     # 열리다 → 행사, not 용역기간
    assert result["lines"][0]["text"] == "행사일시: 2024. 10. 5.(토) 18:00 ~ 21:00"


def test_a_table_row_is_found_through_its_caption(tenant):
    result = answer(tenant, "예상 관객 수 표에서 2024년 강북권은 몇 명인가요?")
    assert result["answered"] is True
    first = result["citations"][0]
    assert "1,100" in first["quote"] and first["quote"].startswith("2024년")


def test_the_answer_looks_at_more_hits_than_it_ranks(tenant):
    class Recording:
        """The tenant, noting the limits it is searched with."""

        def __init__(self, inner):
            self.inner, self.limits = inner, []

        def search(self, query, limit, principal=None, within=None):
            self.limits.append(limit)
            return self.inner.search(query, limit=limit, principal=principal, within=within)

        def __getattr__(self, name):
            return getattr(self.inner, name)

    recording = Recording(tenant)
    answer(recording, "가을 음악회는 언제 열리나요?", limit=5)
    assert recording.limits == [extract.SEARCH_HITS]


# ---- choose_lines on hits as the search gives them ----------------------------------------
def _hit(text: str, filename: str, kind: str = "paragraph", **extra) -> dict:
    return {"chunk_id": "c0001", "doc_id": "sha256:x", "filename": filename, "kind": kind, "text": text,
            "path": [], "outline": [], "anchors": [], "extractors": ["hwp-native"], **extra}


def test_a_caption_names_what_a_table_counts():
    rows = "구분 | 미국 | 저지\n증감률(%) | (△29.8) | (3,236.4)"
    question = analyze("국가별 동향 표에서 저지 투자는 몇 % 늘었나요?")
    hits = [_hit(rows, "가.hwp", "table"), _hit(rows, "나.hwp", "table", caption="< 국가별 동향(억 달러, %) >")]
    [best, *_] = choose_lines(question, hits)
    assert best.hit["filename"] == "나.hwp" and best.text.startswith("증감률")


def test_a_section_heading_is_no_answer_but_counts_for_the_lines_under_it():
    text = "13 사업설명회 개최 안내 및 문의처\n일시: 2026. 3. 25.(수) 10:00, 장소: 서울 웨스턴 조선 호텔"
    hit = _hit(text, "공고.hwp", outline=["13 사업설명회 개최 안내 및 문의처"])
    [best, *rest] = choose_lines(analyze("사업설명회는 언제 어디서 열리나요?"), [hit])
    assert best.text.startswith("일시:")
    assert all("문의처" not in line.text for line in rest)


def test_the_document_the_question_names_wins_a_tie():
    row = "개똥이 | 89 | 65 | 78"
    question = analyze("C반 기말고사에서 개똥이의 수학은 몇 점인가요?")
    hits = [_hit(f"이름 | 국어 | 영어 | 수학\n{row}", name, "table") for name in ("가.hwpx", "나.hwpx")]
    heads = {"가.hwpx": "가.hwpx\nB반 중간고사", "나.hwpx": "나.hwpx\nC반 기말고사"}
    best = choose_lines(question, hits, heads=heads)[0]
    assert best.hit["filename"] == "나.hwpx" and best.text == row
    assert choose_lines(question, hits) == []      # without the opening line "C반 기말고사": too little


def test_a_line_gains_from_the_line_after_it_that_goes_on_about_what_it_names():
    # the answer names the album; the next sentence says what the question asks of it
    text = ("여자친구는 2016년에 세 번째 미니앨범을 냈다.\n"
            "여자친구는 2015년에 첫 미니앨범 《Season of Glass》를 냈다.\n"
            "이 앨범의 타이틀 곡 유리구슬은 큰 인기를 얻었다.")
    lines = {l.text: l for l in scoring.rank_lines(analyze("타이틀 곡이 큰 인기를 얻은 여자친구의 첫 미니앨범은?"),
                                                   [_hit(text, "가.txt")])}
    first, third = lines["여자친구는 2015년에 첫 미니앨범 《Season of Glass》를 냈다."], lines[
        "여자친구는 2016년에 세 번째 미니앨범을 냈다."]
    assert first.features["in_after"] > third.features["in_after"]
    assert first.score > third.score


def test_a_quote_question_may_be_answered_by_the_question_words_themselves():
    hits = [_hit("미주입니다.\n미주 두 번째입니다.", "예제.hwp", "endnote")]
    [best, *_] = choose_lines(analyze("두 번째 미주에는 뭐라고 적혀 있나요?"), hits)
    assert best.text == "미주 두 번째입니다."
    [echo, *_] = choose_lines(analyze("두 번째 미주에는 무엇이 있나요?"), hits)   # the same words, a heading
    assert best.score - echo.score == pytest.approx(scoring.ECHO_PENALTY)


# ---- question cues ---------------------------------------------------------------------------
def test_the_organisation_asked_for_is_found_in_a_line_naming_one_without_the_word():
    hits = [_hit("발주기관 담당자는 점검 결과를 보고받는다.\n장소는 발주처인 한국건설기술연구원과 협의하여 정한다.", "과업.hwp")]
    [best, *_] = scoring.rank_lines(analyze("발주한 기관은 어디인가요?"), hits)
    assert best.text.startswith("장소는 발주처인")


def test_a_date_holding_the_year_the_question_names_is_still_a_date():
    question = analyze("2024년 1분기 보도자료는 언제 보도할 수 있나요?")
    assert "when" in full_cues(line_cues(question, "보도시점: 2024. 6. 21.(금) 11:00"))
    assert "when" not in line_cues(question, "2024년 1분기 보도자료")     # only the question's own words


def test_a_form_row_of_several_fields_is_worth_what_its_field_naming_the_question_is():
    question = analyze("보도자료는 언제 보도할 수 있나요?")
    one = field_weight(question, "보도시점: 2024. 6. 21.(금) 11:00")
    assert one > 0
    assert field_weight(question, "보도시점 | 2024. 6. 21.(금) 11:00 | 배포 | 2024. 6. 20.(목)") == one
    assert field_weight(question, "배포 | 2024. 6. 20.(목) | 보도시점 | 2024. 6. 21.(금) 11:00") == one
    assert field_weight(question, "보도 | 2024. 6. 21. | 8.9 | 0.6") == 0.0      # a data row, not fields


def test_a_verb_of_the_question_counts_where_a_line_holds_it_and_costs_nothing_where_none_does():
    hits = [_hit("통일 뒤에 드러난 문제점은 여럿이었다.\n통일 뒤에 떠안은 문제점은 동독지역 환경오염이었다.", "가.txt")]
    [best, *_] = choose_lines(analyze("통일하면서 떠안게 된 문제점은?"), hits)
    assert best.text.startswith("통일 뒤에 떠안은")
    # a verb no line holds leaves the scores as they were without it
    plain = {l.text: l.score for l in scoring.rank_lines(analyze("통일하면서 생긴 문제점은?"), hits)}
    absent = {l.text: l.score for l in scoring.rank_lines(analyze("통일하면서 물려받게 된 문제점은?"), hits)}
    assert absent == pytest.approx(plain)
    assert not any(t.verb for t in analyze("제안에 대한 문의는 어디로 하나요?").terms)   # 대하다 joins nouns


def test_a_document_number_or_address_in_the_question_is_looked_for():
    terms = {t.text for t in analyze("재삼46014-2330 질의회신은 며칠 자로 회신되었나요?").terms}
    assert "46014-2330" in terms      # Kiwi reads it as a serial number (W_SERIAL), not a noun
    assert "help@example.go.kr" in {t.text for t in analyze("help@example.go.kr 주소로 보내면 되나요?").terms}
    hits = [_hit("질의회신 재삼46015-1000 (1995.01.02)", "가.hwp"), _hit("질의회신 재삼46014-2330 (1994.08.29)", "나.hwp")]
    [best, *_] = choose_lines(analyze("재삼46014-2330 질의회신은 며칠 자로 회신되었나요?"), hits)
    assert best.hit["filename"] == "나.hwp"


def test_question_terms_mark_document_words_cue_words_and_glued_determiners():
    terms = {t.text: t for t in analyze("각주·미주 예제 문서에서 두 번째 미주에는 뭐라고 적혀 있나요?").terms}
    assert {"각주", "미주", "예제", "문서", "두번째"} <= set(terms)      # 각주: 각 (MM) + 주 read as one noun
    assert terms["문서"].generic and not terms["미주"].generic
    assert "quote" in analyze("본문에는 어떤 문장이 들어 있나요?").cues
    why = {t.text: t.asks for t in analyze("투자가 줄어든 원인을 기재부는 어떻게 보고 있나요?").terms}
    assert why["원인"] == "why" and why["기재부"] is None
    assert "why" in full_cues(line_cues(analyze("투자가 줄어든 원인은?"), "고금리 지속 등의 영향으로 풀이된다."))


def test_field_weight_needs_a_label_naming_the_question_and_a_value_of_the_asked_kind():
    when = analyze("가을 음악회는 언제 열리나요?")
    assert field_weight(when, "행사일시: 2024. 10. 5.(토) 18:00") == pytest.approx(0.15)   # 행사 + 일시
    assert field_weight(when, "용역기간: 계약체결일 ~ 2024. 11. 30.까지") == pytest.approx(0.05)  # only the kind
    assert field_weight(when, "행사장소: 서초구청 앞마당") == 0.0                           # no date after it
    assert field_weight(when, "행사는 다음과 같이 2024. 10. 5.에 열린다.") == 0.0          # not a field
    who = analyze("소프트웨어 영향평가 대상사업의 발주기관은 어디인가요?")
    assert field_weight(who, "발주기관 | 한국수자원공사") > 0                           # a two-cell table row


def test_cues_ignore_numbers_counted_like_the_question_and_count_spans():
    third = analyze("2025년 3분기 해외직접투자액은 얼마였나요?")
    assert "amount" not in line_cues(third, "1분기 | 2분기 | 3분기 | 4분기")            # quarters, not amounts
    assert "amount" in line_cues(third, "총투자 | 182.6 | 161.1")
    span = analyze("하자보수 기간은 얼마나 되나요?")
    assert "amount" in full_cues(line_cues(span, "하자보수기간은 준공검사 완료 후 1년으로 한다."))
    assert "amount" not in full_cues(line_cues(span, "‘24년 하자보수 실적"))


def test_a_month_and_day_with_its_weekday_is_a_date_not_an_amount():
    line = "예산안은 9.1(화) 국무회의를 거쳐 9.3(목)에 국회에 제출할 계획입니다."
    assert "amount" not in full_cues(line_cues(analyze("2021년 예산안의 총지출 규모는 얼마인가요?"), line))
    assert "when" in full_cues(line_cues(analyze("예산안은 국회에 언제 제출하나요?"), line))
    assert "amount" in full_cues(line_cues(analyze("경제성장률은 얼마인가요?"), "경제성장률 2.5 전망"))


def test_a_span_of_spaced_two_digit_year_dates_is_no_decimal_amount_but_spaced_letters_still_count():
    period = "□ 사업 기간 : ’26. 4. ∼ ’27. 3. (※ 사업추진 일정에 따라 변동 가능)"
    assert "amount" not in full_cues(line_cues(analyze("보조사업의 전체 사업비는 얼마인가요?"), period))
    assert "amount" in full_cues(line_cues(analyze("보조사업의 전체 사업비는 얼마인가요?"), "□ 사업 규모 : 일금 사억원(₩ 400,000,000)"))
    assert "who" in full_cues(line_cues(analyze("이 신청서는 누구 앞으로 내나요?"), "파주시장 귀 하"))


def test_a_year_and_month_is_a_time_and_a_change_asked_is_found_as_변경():
    renamed = analyze("국립국어연구원이 국립국어원으로 이름이 바뀐 건 언제인가요?")
    assert "변경" in [t.text for t in renamed.terms]
    line = "ㅇ 2004. 11. 국립국어연구원을 국립국어원으로 명칭 변경 및 기능 조정"
    assert "when" in line_cues(renamed, line)
    assert "when" not in line_cues(renamed, "총사업비 2004.5억 원")
    [best, *_] = choose_lines(renamed, [_hit("ㅇ 1991. 1. 국립국어연구원 개원(종로구 운니동)\n" + line, "연혁.pdf")])
    assert best.text == line


def test_a_count_is_held_with_a_korean_counter_and_a_counter_alike_answers_the_one_asked():
    photos = analyze("보도자료에 사진은 몇 장 붙어 있나요?")
    assert "unit" in line_cues(photos, "붙임 관련 사진 2매")          # 장 and 매 count the same sheets
    assert "unit" not in line_cues(photos, "사진 설명: 건설 현장")
    kinds = analyze("절차서는 몇 종인가요?")
    assert "amount" in full_cues(line_cues(kinds, "정비 절차서 | 56종"))


def test_a_table_row_comes_with_its_header_and_the_cell_the_question_names_is_the_answer(tenant):
    result = answer(tenant, "2024년 강북권 예상 관객 수는 몇 명인가요?")
    [line, *_] = result["lines"]
    assert line["text"] == "2024년 | 1,500 | 1,100"
    assert line["table"] == {"header": ["구분", "강남권", "강북권"], "cells": ["2024년", "1,500", "1,100"]}
    start, end = line["answer_span"]
    assert line["text"][start:end] == "1,100"        # under 강북권, not the first number of the row
    prose = answer(tenant, "가을 음악회 제안서는 어느 기관 어느 부서에 제출하나요?")["lines"][0]
    assert prose["table"] is None


def test_a_pdf_table_row_is_a_line_of_its_own():
    # a PDF's table rows are equally wide: they are not page-wrapped lines running on into each other
    rows = "구분 | 지원 금액 | 선정 규모\n예비 창업 | 최대 1천만 원 | 20개 팀\n초기 창업 | 최대 3천만 원 | 10개 기업"
    hit = _hit(rows, "공고.pdf", "table", extractors=["pymupdf"])
    [best, *_] = choose_lines(analyze("초기 창업 지원 금액은 얼마인가?"), [hit])
    assert best.text == "초기 창업 | 최대 3천만 원 | 10개 기업"


def test_a_table_row_is_not_put_under_headers_when_a_row_left_out_an_empty_cell():
    # "강남권" is empty in the 2023 row: the chunk left it out, so "900" would stand under the wrong header
    rows = "구분 | 강남권 | 강북권\n2023년 | 900\n2024년 | 1,500 | 1,100\n합계"
    [line, *_] = [l for l in scoring.rank_lines(analyze("2024년 강북권은?"), [_hit(rows, "가.hwp", "table")])
                  if l.text.startswith("2024년")]
    assert table_row(line) is None
    whole = "구분 | 강남권 | 강북권\n2023년 | 1,200 | 900\n2024년 | 1,500 | 1,100\n합계"   # a label row alone is fine
    [line, *_] = [l for l in scoring.rank_lines(analyze("2024년 강북권은?"), [_hit(whole, "가.hwp", "table")])
                  if l.text.startswith("2024년")]
    assert table_row(line) == {"header": ["구분", "강남권", "강북권"], "cells": ["2024년", "1,500", "1,100"]}


def test_a_piece_of_a_table_row_is_not_put_under_headers():
    # a note mark inside a cell ("00명 ※ 전년도 총 인원") starts a line of its own: the row's end alone
    rows = "KPI 선택 | 전년도 성과 | 목표 설정 | 가이드라인\n□ 고용 실적 | 00명 ※ 전년도 총 인원 | 00명 | 3명 이상"
    question = analyze("고용 실적 가이드라인은?")
    piece = next(l for l in scoring.rank_lines(question, [_hit(rows, "서식.pdf", "table")])
                 if l.text.startswith("※"))
    assert table_row(piece) is None


def test_a_number_with_an_ordinal_counter_is_not_found_in_any_number():
    # "2차" names the second period: the 2 of a date is not it
    text = "사업기간: 2021. 3. 1. ~ 2023. 2. 28.\n1차: 21.3.1.~21.12.31. / 2차: 22.1.1.~22.12.31."
    [best, *_] = choose_lines(analyze("예술활동 용역의 2차 기간은 언제인가요?"), [_hit(text, "개요.hwp")])
    assert best.text.startswith("1차:")


def test_the_day_an_act_dates_from_and_a_two_digit_year_date_answer_when():
    question = analyze("구세 조례 개정안은 언제부터 시행되나요?")
    assert "when" in full_cues(line_cues(question, "이 조례는 공포한 날부터 시행한다."))
    assert "when" in full_cues(line_cues(question, "2차: 22.1.1.~22.12.31."))
    assert "when" not in line_cues(question, "이 조례는 구세의 세목을 정한다.")
    assert "when" not in line_cues(question, "세율은 0.25.1.5 단위로 정한다")   # not a date


def test_a_form_tables_first_row_answers_with_its_own_fields():
    # a form's first row is a field like any other, not a header over the rows below it
    rows = ("정수장명 | 석성정수장 | 정수장위치 | 충남 부여군 석성면 정각리 166\n"
            "채수일시 | 2025. 11. 04. | 시험기관 | 수질검사센터\n"
            "1. 일반세균 | 100CFU/mL이하 | 0 | 30. 사염화탄소 | 0.002㎎/L이하 | 불검출")
    [best, *_] = choose_lines(analyze("석성정수장은 주소가 어디로 되어 있나요?"), [_hit(rows, "수질.hwp", "table")])
    assert best.text.startswith("정수장명 | 석성정수장")


def test_a_field_label_naming_the_kind_asked_makes_its_value_that_kind():
    where = analyze("조달청 물품 구매입찰은 개찰을 어디서 하나요?")
    assert field_weight(where, "④ 개찰장소: 국가종합전자조달시스템(나라장터)") > 0     # a system, not a town
    assert field_weight(where, "④ 개찰장소:") == 0.0                                   # no value
    text = "② 입찰(개찰) 일시: 추후 공지\n④ 개찰장소: 국가종합전자조달시스템(나라장터)"
    [best, *_] = choose_lines(where, [_hit(text, "조달청_물품구매입찰공고.hwpx")])
    assert best.text.startswith("④ 개찰장소")


def test_the_document_whose_opening_names_the_question_is_read_whole_though_its_hit_comes_third(tmp_path):
    # the hits' first two documents are read whole; so is a later one whose opening names more of the
    # question ("고용노동부 업무보고"): its staff table, far from its title, is where the answer is
    folder = tmp_path / "폴더"
    folder.mkdir()
    for name in ("가", "나"):
        (folder / f"{name}_고용안내.txt").write_text(f"{name} 고용 안내\n\n고용 지원금은 고용 유지 기업에 준다.\n", "utf-8")
    (folder / "업무보고.txt").write_text("고용노동부 업무보고\n\n" + "정책 과제를 차례로 보고드립니다. " * 80
                                     + "\n\n인원 현황 | 구 분 | 인 원\n본부 | 현 원 | 773\n", "utf-8")
    t = Tenant(folder, cache_root=tmp_path / "cache", workers=1)
    t.refresh()
    try:
        documents = Documents(t)
        first = {name: documents.chunks(name)[0] for name in ("가_고용안내.txt", "나_고용안내.txt", "업무보고.txt")}
        hits = list(first.values())             # the report's title chunk comes third
        question = analyze("고용노동부 본부 현원은 몇 명인가요?")
        assert not any("773" in hit["text"] for hit in documents.expanded(hits)[0])
        assert any("773" in hit["text"] for hit in documents.expanded(hits, question)[0])
    finally:
        t.close()


def test_how_often_is_asked_and_answered_by_a_frequency_not_an_amount():
    often = analyze("대중교통환승센터 표준데이터는 얼마나 자주 갱신하나요?")
    assert "often" in often.cues and "amount" not in often.cues
    assert "often" in full_cues(line_cues(often, "갱신주기 | 연간"))
    assert "often" in full_cues(line_cues(often, "품질관리 협의체 | 정기 | 1회/월"))
    assert "often" not in line_cues(often, "제공기관 | 국토교통부")
    text = "표준데이터 | 대중교통환승센터\n제공항목 수 | 36개\n갱신주기 | 연간"
    [best, *_] = choose_lines(often, [_hit(text, "표준.hwpx", "table")])
    assert best.text == "갱신주기 | 연간"


def _scores(question, table: str) -> dict[str, float]:
    """The hand-set score of each table row by how it starts (its label and first cell)."""
    return {" | ".join(line.text.split(" | ")[:2]): line.score
            for line in scoring.rank_lines(question, [_hit(table, "동향.hwp", "table")])}


def test_a_rate_is_asked_by_percent_and_answered_by_the_bracketed_row_an_amount_by_the_row_of_amounts():
    table = ("구 분 | 2024년 1분기 | 2024년 2분기\n미국 | 68.5 | 60.6\n미국 | (9.6) | (△11.3)\n"
             "일본 | 12.1 | 9.9\n일본 | (1.2) | (△3.4)")
    rate = analyze("2024년 2분기 미국 투자는 전년 대비 몇 퍼센트 늘었나요?")
    assert "rate" in rate.cues and "amount" not in rate.cues
    assert "rate" in full_cues(line_cues(rate, "전년 동기 대비 8.9% 감소"))
    assert _scores(rate, table)["미국 | (9.6)"] > _scores(rate, table)["미국 | 68.5"]
    amount = analyze("2024년 2분기 미국 투자액은 얼마인가요?")
    assert _scores(amount, table)["미국 | 68.5"] > _scores(amount, table)["미국 | (9.6)"]
    assert "amount" in full_cues(line_cues(amount, "일반지역 | (6) | 잔류염소"))     # a whole number in brackets counts


def test_an_organisation_asked_with_where_is_a_who_question_and_a_law_field_names_its_kind():
    who = analyze("환승센터 표준데이터의 소관 부처는 어디인가요?")
    assert "who" in who.cues
    assert field_weight(who, "소관기관 | 국토교통부") > 0
    law = analyze("환승센터 데이터의 근거 법률은 무엇인가요?")
    assert field_weight(law, "관련법령 | 국가통합교통체계효율화법") > 0


def test_a_phone_question_is_answered_by_a_number_to_call():
    phone = analyze("그린리모델링 시뮬레이터 보조사업 담당자 전화번호 좀 알려주세요.")
    assert "contact" in phone.cues
    assert "contact" in full_cues(line_cues(phone, "그린리모델링창조센터 | 055-771-4876(라선중 과장)"))
    assert "contact" in full_cues(line_cues(phone, "문의: yejin1210@korea.kr"))
    assert "contact" not in line_cues(phone, "사업 기간 : 2026. 4. ~ 2027. 3.")
    called = analyze("전자입찰 중 장비 문제가 생기면 어디로 연락하라고 되어 있나요?")
    assert "contact" in called.cues and "where" not in called.cues
    text = ("전자입찰 장비 문제는 입찰 공고문의 안내를 따른다.\n"
            "전자입찰 중 장비 문제가 생기면 정부조달콜센터(1588-0800)로 연락한다.")
    [best, *_] = choose_lines(called, [_hit(text, "공고.hwpx")])
    assert "1588-0800" in best.text


def test_a_fax_or_e_mail_asked_in_hangul_is_found_where_the_form_prints_latin_letters():
    text = "안심확인제 신청\n전 화 : 041-731-8200\nF A X : 041-731-8219\nE-mail : water@korea.kr"
    fax = choose_lines(analyze("안심확인제 신청 팩스 번호가 뭔가요?"), [_hit(text, "안내.hwp")])
    assert fax and fax[0].text == "F A X : 041-731-8219"
    mail = choose_lines(analyze("안심확인제 신청 이메일 주소는?"), [_hit(text, "안내.hwp")])
    assert mail and mail[0].text == "E-mail : water@korea.kr"


def test_which_unit_or_ministry_asks_who_and_the_noun_is_not_looked_for():
    unit = analyze("이 구매요구서는 어느 부대가 작성했나요?")
    assert "who" in unit.cues and "부대" not in [t.text for t in unit.terms]
    text = "8.2.6 현장 조사 시 부대 출입에 따른 행정사항은 현지부대의 조건에 따른다.\n작성기관 : 61전대 615대대"
    assert choose_lines(unit, [_hit(text, "구매요구서.hwp")])[0].text == "작성기관 : 61전대 615대대"


def test_how_long_is_asked_by_a_period_and_answered_by_a_span_not_by_the_word_during():
    period = analyze("시범 도입 사업은 얼마 동안 진행하나요?")
    assert "period" in period.cues
    assert "period" in full_cues(line_cues(period, "사업기간: 계약일로부터 6개월"))
    assert "period" in full_cues(line_cues(period, "□ 사업 기간 : ’26. 4. ∼ ’27. 3."))
    assert "period" not in line_cues(period, "교체 기간 동안 발생하는 업무의 안정화 방안을 제시")
    text = ("○ 투입인력 교체 기간 동안 발생하는 업무의 안정화 및 품질저하 방지대책을 제시하여야 함\n"
            "나. 사업기간: 계약일로부터 6개월")
    [best, *_] = choose_lines(period, [_hit(text, "시범도입_제안요청서.hwp")])
    assert best.text == "나. 사업기간: 계약일로부터 6개월"


def test_the_cell_answering_is_under_the_column_naming_most_of_the_question():
    # "2024년" stands over two columns and "2분기" over two: only one column names both
    header = ["구 분", "2023년 1분기", "2023년 2분기", "2024년 1분기", "2024년 2분기"]
    row = "미국 | 68.5 | 60.6 | 64.8 | 37.9"
    start, end = answer_span(analyze("2024년 2분기 미국 투자는 얼마인가요?"), row,
                             {"header": header, "cells": row.split(" | ")})
    assert row[start:end] == "37.9"
    tie = answer_span(analyze("2분기 미국 투자는 얼마인가요?"), row, {"header": header, "cells": row.split(" | ")})
    assert row[tie[0]:tie[1]] == "68.5"     # two columns name 2분기: no cell is addressed, the first amount is



def test_a_table_of_contents_is_never_an_answer_line():
    contents = ("1. 신청 방법 및 접수 기간 3 2. 제출 서류 4 3. 사업설명회 개최 안내 5 4. 과제 선정 이후 이행사항 6\n"
                "사업설명회 개최 안내 ·········· 5")
    body = "사업설명회는 2026. 3. 25.(수) 10:00 서울 웨스턴 조선 호텔에서 열린다."
    lines = scoring.rank_lines(analyze("사업설명회는 언제 열리나요?"), [_hit(contents, "공고.hwp"), _hit(body, "공고.hwp")])
    assert [line.text for line in lines] == [body]


def test_a_letter_quoted_in_the_question_is_looked_for():
    legend = "* 관련 분야 이해도 – A : 관련 분야에 종사하고 있는 자 – B : 관련 분야에 이해도가 있는 자\n– C : 관련 분야를 전혀 모르는 자"
    question = analyze("이 신청서에서 관련 분야 이해도 'C'는 무슨 뜻인가요?")
    assert "c" in [term.text.lower() for term in question.terms]
    chosen = choose_lines(question, [_hit(legend, "신청서.pdf")])
    assert any("C : 관련 분야를 전혀 모르는 자" in line.text for line in chosen)


def test_a_note_is_found_by_the_starred_word_it_explains():
    # "마이데이터*" in the text, "* 정보주체인 …" under it: the note is what the word means
    text = "공공부문 마이데이터* 활성화 과제를 추진한다\n* 정보주체인 이용자 중심의 데이터 활용 패러다임"
    lines = scoring.rank_lines(analyze("마이데이터는 무엇인가요?"), [_hit(text, "계획.hwp")])
    note = next(line for line in lines if line.text.startswith("* 정보주체"))
    assert note.features["in_line"] > 0 and note.text == "* 정보주체인 이용자 중심의 데이터 활용 패러다임"
    alone = scoring.rank_lines(analyze("마이데이터는 무엇인가요?"), [_hit("* 정보주체인 이용자 중심", "가.hwp")])
    assert alone[0].features["in_line"] == 0


def test_a_year_alone_answers_when():
    question = analyze("노트북 체제로 바꾸는 시점은 언제인가요?")
    for line in ("현행 2 PC → 1 노트북 체제로 개편(21년)", "1919년 이탈리아 밀라노에서 시작된다", "’21년 도입"):
        assert "when" in line_cues(question, line), line
    assert "when" not in line_cues(question, "3년간 지원한다")        # a length of years is not a time


def test_a_number_the_question_names_is_not_cut_out_of_other_numbers():
    # "2 PC": the question's "2" must not take the 2s out of "2019년 10월"
    assert "when" in line_cues(analyze("2 PC 환경은 언제 바뀌나요?"), "2019년 10월 전환")


def _letter_bytes() -> bytes:
    """An official letter whose 「시행」 row spreads the document number over cells among brackets, so
    no label stands next to it, above a schedule table whose header names 번호 columns."""
    document = docx.Document()
    document.add_paragraph("강  서  소  방  서")
    document.add_paragraph("수신  수신자 참조")
    document.add_paragraph("제목  2026년 7월 구급차 정비 일정 알림")
    document.add_paragraph("1. 우리서 7월 중 구급차 정비 일정을 다음과 같이 알려 드립니다.")
    rows = [("연번", "일자", "부서", "차량종류", "등록번호", "기관번호"),
            ("1", "7월3일", "방화119안전센터", "스타리아", "12가3456", "6-22호"),
            ("2", "7월8일", "개화119안전센터", "스타리아", "34나5678", "6-5")]
    table = document.add_table(rows=len(rows), cols=len(rows[0]))
    for row, cells in zip(table.rows, rows):
        for cell, text in zip(row.cells, cells):
            cell.text = text
    document.add_paragraph("붙임  정비 일정 1부.  끝.")
    footer = document.add_table(rows=1, cols=8)
    for cell, text in zip(footer.rows[0].cells, ("시행", "소방행정과-6828", "(", "2026. 6. 26.", ")", "접수", "(", ")")):
        cell.text = text
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_the_line_a_documents_number_was_read_from_answers_as_that_field(tmp_path):
    folder = tmp_path / "공문"
    folder.mkdir()
    (folder / "강서소방서_공문_정비일정.docx").write_bytes(_letter_bytes())
    t = Tenant(folder, cache_root=tmp_path / "cache", workers=1)
    t.refresh()
    try:
        assert t.structure("강서소방서_공문_정비일정.docx")["doc_number"] == "소방행정과-6828"
        result = answer(t, "이 공문의 문서번호는 무엇인가요?", document="강서소방서_공문_정비일정.docx")
        assert result["answered"]
        assert "소방행정과-6828" in result["text"].splitlines()[0]
    finally:
        t.close()


def test_a_second_line_is_one_the_hand_set_score_or_the_learned_order_holds_nearly_as_good():
    from engine.answer import choice, ranker
    text = ("□ 신청 기간 : 2026. 3. 3.(화) ~ 3. 25.(수) 18:00까지\n"
            "※ 신청 마감일에는 접속이 몰리므로 마감 2~3일 전에 신청하기를 권고함\n"
            "□ 신청 방법 : 누리집에서 온라인으로 신청\n"
            "□ 선정 결과 발표 : 2026. 4. 10.(금) 누리집 공지")
    hits = [_hit(text, "공고.hwp"), _hit("신청 기간은 공고일부터 3주이다.", "다른.hwp")]
    # the first by the hand-set score alone, the second by the learned order alone, the third by neither
    for asked in ("신청 기간은?", "마감 전에 신청하려면 언제까지 해야 하나요?", "마감일 며칠 전에 신청해야 하나요?"):
        question = analyze(asked)
        chosen = choose_lines(question, hits)
        order = scoring.rank_lines(question, hits)
        learned = ranker.reranked(list(order))
        top, first = order[0].score, learned[0].learned
        assert chosen and all(line.hit["filename"] == chosen[0].hit["filename"] for line in chosen)
        close = [line for line in learned[1:] if line.hit["filename"] == chosen[0].hit["filename"]
                 and line.flat not in chosen[0].flat and chosen[0].flat not in line.flat
                 and (line.score >= top - choice.SECOND_GAP
                      or line.learned >= first + math.log(choice.LEARNED_SECOND_SHARE))]
        assert (len(chosen) == 2) == bool(close), asked
