"""Korean text analysis for the search index (Whoosh analyzers on Kiwi).

``KoreanTokenizer`` emits, in text order, the content morphemes Kiwi finds
(nouns, verb and adjective stems, roots, numbers, foreign words …) plus each
whitespace word (eojeol) without its edge punctuation, so "학교에" gives
"학교" and "학교에". Numbers stay whole ("150.9", "2024"); "1,000" also
gives "1000". Latin letters are lowercased, every term is NFKC-normalised.

``BigramTokenizer`` emits the character bigrams of the text with spaces and
punctuation removed, which finds words Kiwi splits differently, words spaced
differently ("민중 총궐기" / "민중총궐기") and OCR text without spaces.

Kiwi takes a second or two to load, so there is ONE instance per process,
created on first use (``kiwi()``). Whoosh pickles analyzers into the index
schema: the tokenizers hold no state and only name this module's Kiwi.
"""
from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Iterator, Optional

from whoosh.analysis import Token, Tokenizer

from engine.korean import folded

# Kiwi tags whose morphemes carry content (prefix match: "VV" covers "VV-R" …).
CONTENT_TAGS = ("NNG", "NNP", "NNB", "NR", "SL", "SN", "SH", "XR", "VV", "VA", "MAG", "W_")

_WORD = re.compile(r"\S+")
_EDGE = re.compile(r"^[\W_]+|[\W_]+$")

_kiwi = None
_load_lock = threading.Lock()
_use_lock = threading.Lock()


def kiwi():
    """The process-wide Kiwi instance (loaded on first call; thread-safe)."""
    global _kiwi
    if _kiwi is None:
        with _load_lock:
            if _kiwi is None:
                from kiwipiepy import Kiwi

                # Without the multi-word dictionary (12 MB, left out of the installer): KorQuAD
                # R@1/R@5 0.956/0.987 on 6,095 questions either way, answer bench unchanged.
                _kiwi = Kiwi(load_multi_dict=False)
    return _kiwi


@lru_cache(maxsize=256)  # a query is analysed for three fields and for re-ranking
def _tokens(text: str) -> tuple:
    analyzer = kiwi()
    with _use_lock:
        return tuple(analyzer.tokenize(text))


@lru_cache(maxsize=256)
def korean_terms(text: str) -> tuple[tuple[str, int, int], ...]:
    """(term, start, end) for the morphemes and words of ``text``, in text order."""
    return _terms(text, _tokens(text))


def content_words(text: str) -> tuple[str, ...]:
    """The distinct content morphemes of ``text``, normalised, in text order (no whole words)."""
    found = (folded(_EDGE.sub("", tok.form) or tok.form) for tok in _tokens(text)
             if tok.tag.startswith(CONTENT_TAGS))
    return tuple(dict.fromkeys(found))


def korean_terms_many(texts: list[str]) -> list[tuple[tuple[str, int, int], ...]]:
    """``korean_terms`` of each text, analysed in one batch on Kiwi's worker threads."""
    if not texts:
        return []
    analyzer = kiwi()
    with _use_lock:
        token_lists = list(analyzer.tokenize(texts))
    return [_terms(text, tokens) for text, tokens in zip(texts, token_lists)]


def _terms(text: str, tokens) -> tuple[tuple[str, int, int], ...]:
    out: list[tuple[str, int, int]] = []
    for tok in tokens:
        if not tok.tag.startswith(CONTENT_TAGS):
            continue
        start, end = tok.start, tok.start + tok.len
        form = _form_term(tok.form)
        out.append((form, start, end))
        if tok.tag == "SN" and "," in form:
            out.append((form.replace(",", ""), start, end))
    seen = {(start, term) for term, start, _ in out}
    for m in _WORD.finditer(text):
        found = _word_term(m.group())
        if found is None:
            continue
        offset, length, term = found
        start = m.start() + offset
        if (start, term) not in seen:
            out.append((term, start, start + length))
    out.sort(key=lambda x: (x[1], -x[2]))
    return tuple(out)


# Forms, words and letters repeat all through a folder: each is normalised once (bounded caches).
@lru_cache(maxsize=65536)
def _form_term(form: str) -> str:
    return folded(_EDGE.sub("", form) or form)


@lru_cache(maxsize=65536)
def _word_term(raw: str) -> Optional[tuple[int, int, str]]:
    """(offset, length, term) of a whitespace word without its edge punctuation; None if nothing is left."""
    word = _EDGE.sub("", raw)
    return (raw.index(word), len(word), folded(word)) if word else None


@lru_cache(maxsize=16384)
def _letter(char: str) -> Optional[str]:
    """A letter or digit normalised (NFKC, lower case); None for spaces and punctuation."""
    return folded(char) if char.isalnum() else None


def bigram_terms(text: str) -> list[tuple[str, int, int]]:
    """(bigram, start, end) over the letters and digits of ``text``, spaces and punctuation
    skipped, so "신청 기간" and OCR's "신청기간" share "신청", "청기", "기간"."""
    chars = [(n, i) for i, c in enumerate(text) for n in (_letter(c),) if n is not None]
    if len(chars) == 1:
        return [(chars[0][0], chars[0][1], chars[0][1] + 1)]
    return [(a + b, i, j + 1) for (a, i), (b, j) in zip(chars, chars[1:])]


class _TermTokenizer(Tokenizer):
    """A Whoosh tokenizer over a subclass's ``terms(text)`` -> [(term, start, end)]."""

    def __call__(self, value, positions=False, chars=False, keeporiginal=False,
                 removestops=True, start_pos=0, start_char=0, tokenize=True, mode="",
                 **kwargs) -> Iterator[Token]:
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        found = self.terms(value) if tokenize else [(value, 0, len(value))]
        for pos, (term, start, end) in enumerate(found):
            t.text = term
            t.boost = 1.0
            t.stopped = False
            if keeporiginal:
                t.original = value[start:end]
            if positions:
                t.pos = start_pos + pos
            if chars:
                t.startchar, t.endchar = start_char + start, start_char + end
            yield t


class KoreanTokenizer(_TermTokenizer):
    """Kiwi content morphemes plus whole words (see ``korean_terms``)."""

    terms = staticmethod(korean_terms)


class BigramTokenizer(_TermTokenizer):
    """Character bigrams across spaces (see ``bigram_terms``)."""

    terms = staticmethod(bigram_terms)
