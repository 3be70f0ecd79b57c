"""How well a candidate line answers a question: the share of the question's weighted terms it holds.

The line itself counts fully; its file name, title, heading path, table caption and header, the
lines just before and just after it, the rest of its chunk and the way its document names itself (file name,
title, opening lines) count in part. A term's weight is higher the fewer candidate lines hold it;
words for the document itself ("파일", "본문") weigh little, a verb's stem only adds (it is not missed
when absent), and a question word that names the kind of answer ("원인", "날짜") counts as found
when the line holds that kind. The line earns a bonus when
it holds the kind of answer the question asks for (engine/answer/question_cues.py: a date for 언제,
an amount for 얼마 …), more as a form field whose label names it ("제출장소: 강북구청 …"), and loses
for missing a number the question names, for only echoing the question (a heading, an empty form
field) and for length. ``line.features`` keeps what the score is made of and what the learned order
(ranker) weighs besides: which of the asked kinds of answer the line holds, how close together the
question's words stand in it and how many of the question's letter pairs it holds.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from typing import Callable, Optional

from engine.answer.lines import LONG_LINE, Line, candidate_lines
from engine.answer.question_cues import (CUE_WORTH, WH_WORDS, Question, Term, cue_weight, field_weight, full_cues,
                                         line_cues)
from engine.korean import flat

# Credit for a term found outside the line: in its file name, title, headings, table caption or header …
CONTEXT_CREDIT = 0.7
# … in the lines just before it (a heading, a lead-in) or the line just after it (which goes on
# about what the line names: "…《Season of Glass》를 발매하였다. 타이틀 곡은 …") …
NEAR_CREDIT = 0.6
# … and elsewhere in the same chunk; a compound term of which only some morphemes are found
# earns this share of the credit.
CHUNK_CREDIT = 0.35
PART_CREDIT = 0.6
# … and in how its document names itself: file name, title, opening lines (a question names
# the document it asks about: "C반 기말고사 성적표에서 …").
DOC_CREDIT = 0.5
GENERIC_WEIGHT = 0.3        # a word for the document itself ("파일", "본문") counts this much
ABSENT_WEIGHT = 0.6         # a question word no candidate holds anywhere (a paraphrase) counts this much
ECHO_PENALTY = 0.2          # a line that only repeats the question's words (a heading) or is a blank
ECHO_CHARS = 4              # form field has fewer letters than this besides them and its labels
OCR_PENALTY = 0.03          # machine-read text loses a tie with the same words read from the file
NUMBER_PENALTY = 0.2        # per number of the question ("12월", "2020년") missing around the line
RANK_BONUS = 0.05           # the first search hit's lines get this much more than the last's
LONG_PENALTY = 0.1          # a line longer than LONG_LINE loses up to this much at twice that length
_ORDINAL_COUNTER = re.compile(r"[0-9](차|분기|조|항|호|단계)$")
_LETTERS = re.compile(r"[^\W_]")
_LABEL = re.compile(r"[^\s|:]+\s*:(?=\s*(\||$))")   # a field label with nothing after it


def rank_lines(question: Question, hits: list[dict], ranked: Optional[int] = None,
               heads: Optional[dict[str, str]] = None) -> list[Line]:
    """The lines of ``hits`` scored for ``question``, best first.

    The first ``ranked`` hits (all by default) are search results in engine order; the rest are
    further hits and other chunks of their documents, which get no rank bonus. ``heads`` maps a
    file name to how its document names itself (``documents.Documents.head``); a term found there earns
    ``DOC_CREDIT`` for every line of that document.
    """
    ranked = len(hits) if ranked is None else ranked
    lines = [line for rank, hit in enumerate(hits) for line in candidate_lines(hit, min(rank, ranked))]
    if not lines:
        return []
    weights = _weights(question.terms, lines)
    in_head = {(name, term.text): DOC_CREDIT * _credit(term, flat(text))
               for name, text in (heads or {}).items() for term in question.terms}
    of_chunk = _remembered(_credit)   # the lines of a chunk share its text, context and title
    best = max((hit.get("score") or 0.0 for hit in hits[:ranked]), default=0.0) or 1.0
    for line in lines:
        line.score = _score(question, weights, line, ranked, in_head, of_chunk)
        line.features["search"] = (line.hit.get("score") or 0.0) / best   # 0 for a chunk not searched
    _bigram_recall(question, lines)
    return sorted(lines, key=lambda l: -l.score)


_NOT_LETTERS = re.compile(r"[\W_]+")


def _bigrams(text: str) -> set[str]:
    """The pairs of neighbouring letters (or digits) of flat ``text``, punctuation left out."""
    letters = _NOT_LETTERS.sub("", text)
    return {letters[i:i + 2] for i in range(len(letters) - 1)}


def _bigram_recall(question: Question, lines: list[Line]) -> None:
    """Feature ``bigrams`` of each line (for the learned order): the share of the question's letter pairs
    (its question words left out) the line holds, each weighing more the fewer candidate lines hold it. It
    sees what the terms miss: a compound Kiwi cuts otherwise in the line than in the question (관리대상수지,
    개똥이), endings and particles a question rewriting the answer sentence keeps."""
    asked = _bigrams(flat(WH_WORDS.sub(" ", question.text)))
    found = [asked & _bigrams(line.flat) for line in lines]
    lines_holding = Counter(pair for pairs in found for pair in pairs)
    weight = {pair: math.log(1 + len(lines) / (1 + lines_holding[pair])) for pair in asked}
    total = sum(weight.values()) or 1.0
    for line, pairs in zip(lines, found):
        line.features["bigrams"] = sum(weight[pair] for pair in pairs) / total


# ---- scoring ---------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def _pattern(text: str) -> re.Pattern:
    """A term as a pattern over flat text; a number never matches inside a longer number."""
    pattern = re.escape(flat(text))
    if text[:1].isdigit():
        pattern = r"(?<![0-9])" + pattern
    if text[-1:].isdigit():
        pattern += r"(?![0-9])"
    return re.compile(pattern)


def _credit(term: Term, text: str) -> float:
    """1 when ``text`` holds the term (or a word documents use for it), else a share for its parts."""
    if any(_pattern(word).search(text) for word in (term.text, *term.alternatives)):
        return 1.0
    if not term.parts:
        return 0.0
    found = sum(1 for part in term.parts if _pattern(part).search(text))
    return PART_CREDIT * found / len(term.parts)


def _remembered(credit: Callable[[Term, str], float]) -> Callable[[Term, str], float]:
    """``credit`` answering each (term, text) once: for the texts many lines share (their chunk's)."""
    seen: dict[tuple[int, str], float] = {}

    def remembered(term: Term, text: str) -> float:
        key = (id(term), text)
        if key not in seen:
            seen[key] = credit(term, text)
        return seen[key]
    return remembered


def _weights(terms: list[Term], lines: list[Line]) -> dict[str, float]:
    """Inverse line frequency of each term among the candidate lines."""
    n = len(lines)
    out = {}
    for term in terms:
        df = sum(1 for line in lines if _credit(term, line.flat) == 1.0)
        out[term.text] = math.log(1 + n / (1 + df))
        if df == 0 and not any(_credit(term, line.chunk + line.context) for line in lines):
            out[term.text] *= ABSENT_WEIGHT
        if term.generic:
            out[term.text] *= GENERIC_WEIGHT
    return out


def _number_near(term: Term, text: str) -> bool:
    """Whether flat ``text`` holds a number term: whole, or its number alone — a month or a day only
    as part of a date ("2010.11"), never a bare count like a table's "12"; one with an ordinal counter
    ("2차", "3분기") only whole."""
    if _pattern(term.text).search(text):
        return True
    if _ORDINAL_COUNTER.search(term.text):
        return False      # "2차", "3분기", "제5조": which one is named by the counter, not by the number
    date_part = term.text.endswith(("월", "일"))
    for part in term.parts:
        if part[:1].isdigit():
            number = re.escape(flat(part))
            after = r"(?=[.\-/])" if date_part else ""
            if re.search(rf"(?<![0-9]){number}(?![0-9]){after}", text) or (
                    date_part and re.search(rf"[.\-/]0?{number}(?![0-9])", text)):
                return True
    return False


def _score(question: Question, weights: dict[str, float], line: Line, hits: int,
           in_head: dict[tuple[str, str], float], of_chunk: Callable[[Term, str], float] = _credit) -> float:
    """The line's score for the question (module doc); ``of_chunk`` gives the credit of a term in the
    texts the line shares with its chunk (its context, title and header, the chunk's text). What the
    score is made of is kept in ``line.features`` (bench/fit_picker.py learns weights for them)."""
    total = sum(weights[term.text] for term in question.terms if not term.verb)   # a verb only adds
    parts = dict.fromkeys(("line", "near", "after", "context", "chunk", "head"), 0.0)
    coverage = 0.0
    cues = line_cues(question, line.text, line.header)
    strong = full_cues(cues)
    for term in question.terms:
        # a line repeating the document's title or its table's header (the title line, the header
        # row) gains nothing by it; one repeating its section heading does
        found = {"line": _credit(term, line.flat) if of_chunk(term, line.shared) < 1.0 else 0.0,
                 "near": _credit(term, line.near), "after": _credit(term, line.after),
                 "context": of_chunk(term, line.context),
                 "chunk": of_chunk(term, line.chunk), "head": in_head.get((line.hit["filename"], term.text), 0.0)}
        credit = max(found["line"], NEAR_CREDIT * max(found["near"], found["after"]),
                     CONTEXT_CREDIT * found["context"], CHUNK_CREDIT * found["chunk"], found["head"],
                     1.0 if term.asks in strong else 0.0)   # "원인" and a line saying why
        coverage += weights[term.text] * credit
        for name, value in found.items():
            parts[name] += weights[term.text] * value
    covered = coverage / total if total else 0.0
    around = line.flat + line.near + line.context
    missing = sum(1 for term in question.terms if term.number and not _number_near(term, around))
    score = covered
    for _ in range(missing):
        score -= NUMBER_PENALTY
    f = {"covered": covered, **{"in_" + name: value / total if total else 0.0 for name, value in parts.items()},
         "numbers_missing": float(missing), "cue": cue_weight(question, cues),
         # a form field's label counts as much as the line covers the question (not for a stray "일시:")
         "field": field_weight(question, line.text, line.hit.get("form", ())) * max(0.0, score),
         "echo": float("quote" not in question.cues and _echoes(question, line)),
         "ocr": float("ocr" in (line.hit.get("extractors") or [])),
         "rank": max(0.0, 1 - line.rank / max(hits, 1)),
         "long": min(1.0, (len(line.text) - LONG_LINE) / LONG_LINE) if len(line.text) > LONG_LINE else 0.0,
         "length": math.log1p(len(line.text)), "row": float(" | " in line.text), "first_row": float(line.first_row),
         "cues_asked": float(bool(question.cues)), "cues_full": float(len(strong)),
         "lacks_asked": float(bool(question.cues) and not cues),
         **_closeness(question, weights, line.flat),
         **{"holds_" + name: cues.get(name, 0.0) / worth for name, worth in CUE_WORTH.items()}}
    line.features = f
    score += f["cue"] + f["field"]
    if f["echo"]:
        score -= ECHO_PENALTY
    if f["ocr"]:
        score -= OCR_PENALTY
    score += RANK_BONUS * f["rank"]
    if f["long"]:
        score -= LONG_PENALTY * f["long"]
    f["hand"] = score
    return score


PAIR_WINDOW = 12     # flat characters between two of the question's words that count as close


def _closeness(question: Question, weights: dict[str, float], text: str) -> dict[str, float]:
    """Features (for the learned order only) of how the question's words sit in flat ``text``:
    ``pairs``, the share of the question's neighbouring words found close together (either order);
    ``dense``, how much of the stretch from the first found word to the last the words fill;
    ``rarest``, whether it holds the question word fewest candidate lines hold."""
    terms = [t for t in question.terms if not t.generic]
    at = {}
    for term in terms:
        for word in (term.text, *term.alternatives):
            found = _pattern(word).search(text)
            if found:
                at[term.text] = found.span()
                break
    pairs = [(a.text, b.text) for a, b in zip(terms, terms[1:])]
    close = sum(1 for a, b in pairs if a in at and b in at
                and min(abs(at[b][0] - at[a][1]), abs(at[a][0] - at[b][1])) <= PAIR_WINDOW)
    spans = list(at.values())
    stretch = max(end for _s, end in spans) - min(start for start, _e in spans) if spans else 0
    rarest = max(terms, key=lambda t: weights[t.text], default=None)
    return {"pairs": close / len(pairs) if pairs else 0.0,
            "dense": (min(1.0, sum(end - start for start, end in spans) / stretch)
                      if len(spans) > 1 and stretch else 0.0),
            "rarest": float(rarest is not None and rarest.text in at)}


def _echoes(question: Question, line: Line) -> bool:
    """Whether ``line`` says nothing beyond the question's words and empty field labels ("부서:")."""
    rest = flat(_LABEL.sub("", line.quote))
    for term in question.terms:
        for word in (term.text, *term.parts):
            rest = rest.replace(word, "")
    return len(_LETTERS.findall(rest)) < ECHO_CHARS
