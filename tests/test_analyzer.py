"""The Korean analyzer: morphemes plus words, whole numbers, bigrams across spaces."""
from __future__ import annotations

import pickle

from engine.search import analyzer
from engine.search.analyzer import BigramTokenizer, KoreanTokenizer, bigram_terms, content_words, korean_terms


def terms(text: str) -> list[str]:
    return [t for t, _start, _end in korean_terms(text)]


def test_particles_go_and_the_word_stays():
    found = terms("학교에 갔다")
    assert "학교" in found and "학교에" in found
    assert "에" not in found


def test_a_bare_noun_is_not_doubled():
    assert terms("학교").count("학교") == 1


def test_numbers_stay_whole_and_commas_also_go():
    found = terms("2024년 예산은 1,000억 원이고 증가율은 150.9%였다.")
    assert {"2024", "150.9", "1,000", "1000"} <= set(found)
    assert "150" not in found and "9" not in found


def test_latin_is_lowercased_and_punctuation_dropped():
    found = terms("HWPX 파일을 (Python)으로 읽는다.")
    assert "hwpx" in found and "python" in found
    assert not any(t.startswith("(") or t.endswith(".") for t in found)


def test_content_words_are_the_morphemes_once_each_without_whole_words():
    found = content_words("마리오가 결혼한 상대의 이름은? 마리오는 HWPX로 결혼했다")
    assert found[:2] == ("마리오", "결혼")
    assert "상대" in found and "hwpx" in found
    assert len(found) == len(set(found))
    assert not {"마리오가", "결혼한", "가", "의"} & set(found)


def test_offsets_point_into_the_text():
    text = "신청기간은 8월 28일까지다"
    for term, start, end in korean_terms(text):
        assert 0 <= start < end <= len(text)
    assert ("신청", 0, 2) in korean_terms(text)


def test_bigrams_ignore_spaces_and_punctuation():
    spaced = {t for t, _s, _e in bigram_terms("신청 기간, 지원 대상")}
    glued = {t for t, _s, _e in bigram_terms("신청기간지원대상")}
    assert spaced == glued
    assert {"신청", "청기", "기간"} <= glued
    assert bigram_terms("가") == [("가", 0, 1)]
    assert bigram_terms("  ") == []


def test_whoosh_tokenizers_pickle_small_and_work_after_unpickling():
    for tokenizer in (KoreanTokenizer(), BigramTokenizer()):
        data = pickle.dumps(tokenizer)
        assert len(data) < 200                 # no Kiwi inside the schema
        again = pickle.loads(data)
        assert again == tokenizer
    tokens = [t.text for t in pickle.loads(pickle.dumps(KoreanTokenizer()))("학교에 갔다")]
    assert "학교" in tokens


def test_tokenizer_positions_and_chars():
    tokens = [(t.text, t.pos, t.startchar, t.endchar)
              for t in KoreanTokenizer()("학교에 갔다", positions=True, chars=True)]
    assert [p for _t, p, _s, _e in tokens] == list(range(len(tokens)))
    assert tokens[:2] == [("학교에", 0, 0, 3), ("학교", 1, 0, 2)]


def test_one_kiwi_per_process():
    assert analyzer.kiwi() is analyzer.kiwi()


def test_odd_input_does_not_raise():
    for text in ["", " ", "\x00\x07", "*:\"'", "😀 이모지", "ｆｕｌｌ　ｗｉｄｔｈ"]:
        korean_terms(text)
        bigram_terms(text)
    assert "full" in terms("ｆｕｌｌ　ｗｉｄｔｈ")


def test_a_batch_gives_the_terms_of_each_text():
    texts = ["학교에 갔다", "", "총사업비 1,000,000원", "학교에 갔다", "HWPX 파일을 읽는다."]
    assert analyzer.korean_terms_many(texts) == [korean_terms(t) for t in texts]
    assert analyzer.korean_terms_many([]) == []
