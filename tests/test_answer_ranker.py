"""The learned order of candidate lines (engine/answer/ranker.py) and its shipped weights."""
from __future__ import annotations

from engine.answer import ranker
from engine.answer.ranker_weights import WEIGHTS
from engine.answer.question_cues import analyze
from engine.answer.scoring import rank_lines


def _hit(text: str, filename: str = "공고.hwp") -> dict:
    return {"chunk_id": "c0001", "doc_id": "sha256:x", "filename": filename, "kind": "paragraph", "text": text,
            "path": [], "outline": [], "anchors": [], "extractors": ["hwp-native"]}


def test_the_shipped_weights_cover_every_feature_a_line_is_scored_by():
    question = analyze("사업 기간은 언제부터 언제까지인가요?")
    [line, *_] = rank_lines(question, [_hit("□ 사업 기간 : 2026. 4. ∼ 2027. 3.")])
    assert set(line.features) == set(WEIGHTS)


def test_the_learned_order_reorders_only_the_best_lines_and_keeps_every_line():
    question = analyze("보조사업자는 몇 개 기관을 선정하나요?")
    text = "\n".join(f"- {n}번째 항목: 보조사업 관련 안내 사항입니다." for n in range(1, 41)) + \
        "\n□ 선정 규모 : 보조사업자 1개 기관"
    lines = rank_lines(question, [_hit(text)])
    order = ranker.reranked(list(lines))
    assert sorted(map(id, order)) == sorted(map(id, lines))
    top = order[:ranker.RERANKED]
    assert [line.learned for line in top] == sorted((line.learned for line in top), reverse=True)
    assert all(line.learned == float("-inf") for line in order[ranker.RERANKED:])
    assert order[0].text == "□ 선정 규모 : 보조사업자 1개 기관"


def test_a_line_holding_the_question_words_side_by_side_is_told_from_one_scattering_them():
    question = analyze("국립생물자원관 주관기관은 어디인가요?")
    together = "주관기관: 국립생물자원관"
    apart = "국립생물자원관은 올해 여러 분야의 연구 과제를 공모하였으며 각 과제의 주관기관은 따로 정한다."
    lines = {line.text: line.features for line in rank_lines(question, [_hit(f"{together}\n{apart}")])}
    assert lines[together]["pairs"] == 1.0 and lines[apart]["pairs"] == 0.0
    assert lines[together]["dense"] > lines[apart]["dense"]
    assert lines[together]["rarest"] == lines[apart]["rarest"] == 1.0


def test_a_line_cut_into_other_words_than_the_question_still_holds_its_letter_pairs():
    # Kiwi reads "개똥이 수학" as 개똥 + 이: the term 개똥 is all a term match sees; the letter pairs see the name
    question = analyze("C반 기말고사 성적표의 개똥이 수학 성적은?")
    rows = "이름 | 국어 | 영어 | 수학\n개똥이 | 89 | 65 | 78\n칠득이 | 77 | 77 | 77"
    lines = {line.text: line.features for line in rank_lines(question, [_hit(rows, "성적.hwpx")])}
    assert lines["개똥이 | 89 | 65 | 78"]["bigrams"] > lines["칠득이 | 77 | 77 | 77"]["bigrams"]


def test_the_question_words_themselves_are_no_letter_pairs_to_look_for():
    question = analyze("무엇이 언제 바뀌었나요?")
    [line] = rank_lines(question, [_hit("무엇이 언제 어떻게")])
    assert line.features["bigrams"] == 0.0
