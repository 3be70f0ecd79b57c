"""The Korean text rules every stage takes from engine/korean.py: how text is compared, where lines break, list markers."""
from engine.korean import (LINE_BREAK, LIST_MARKER, LISTED_LINE, PROVISION_LABEL, QUESTION_NOUNS, QUESTION_WORDS,
                           compact, flat, one_line, split_sentences)


def test_flat_drops_thousands_commas_and_spaces_but_keeps_a_list_comma():
    assert flat("총 1,200 원") == flat("총1200원") == "총1200원"
    assert flat("１, ２") == "1,2"            # full width folded; a comma after a space is not a thousands comma
    assert flat("ABC 과") == "abc과"
    assert compact("해외직접투자 동향") == compact("해외직접투자동향")
    assert one_line("  수신자\n  내부결재 ") == "수신자 내부결재"


def test_an_answer_line_breaks_after_a_sentence_and_before_a_bullet_not_inside_a_date():
    pieces = [p for p in LINE_BREAK.split("신청은 2024. 6. 21.까지 받습니다. ○ 대상: 주민 ㅇ 장소: 구청") if p.strip()]
    assert pieces == ["신청은 2024. 6. 21.까지 받습니다.", "○ 대상: 주민", "ㅇ 장소: 구청"]
    assert split_sentences("첫 문장입니다. 2024. 6. 21.에 둘째\n셋째") == ["첫 문장입니다.", "2024. 6. 21.에 둘째", "셋째"]


def test_an_initial_or_an_item_mark_does_not_end_a_sentence():
    """Regression: "비. 리치(B. Rich)" was cut after "비.", so the answer line lost the name."""
    text = "그의 멘토인 비. 리치(B. Rich)를 만났다. 가. 목적은 지원이다. 그 후 E. Seymour가 왔다."
    assert split_sentences(text) == ["그의 멘토인 비. 리치(B. Rich)를 만났다.", "가. 목적은 지원이다.",
                                     "그 후 E. Seymour가 왔다."]


def test_list_markers_tell_items_from_prose_each_for_its_job():
    for item in ("○ 대상", "ㅇ 장소", "1. 목적", "(2) 기간", "가) 방법", "제3조 정의"):
        assert LIST_MARKER.match(item), item
    for prose in ("2024년 계획", "ㅇㅇ구청", "가나다 순서"):
        assert not LIST_MARKER.match(prose), prose
    assert LISTED_LINE.match("Ⅱ. 추진 배경") and not LISTED_LINE.match("2025년 업무계획")
    assert PROVISION_LABEL.match("제13조의2(정의)") and PROVISION_LABEL.match("① 시장은")
    assert not PROVISION_LABEL.match("2024.5 개정")


def test_question_words_and_nouns_are_apart_and_hold_no_content_word():
    assert {"언제", "얼마나", "어디"} <= QUESTION_WORDS
    assert {"경우", "내용", "것"} <= QUESTION_NOUNS
    assert not (QUESTION_WORDS & QUESTION_NOUNS)
    assert not ({"예산", "기간", "장소", "담당자"} & (QUESTION_WORDS | QUESTION_NOUNS))
