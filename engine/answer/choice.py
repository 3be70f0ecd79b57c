"""The answer's lines, or none: the line the learned order puts first (ranker) when the refusal is confident
enough of it (refusal), and a second line close to the hand-set score's best.

When it is not, the answer is refused (``NO_EVIDENCE``), never an empty or invented one.
The second line is the first by the hand-set score that scores within ``SECOND_GAP`` of its best, is
not the first line and comes from the same document: the hand-set score's own pick when the learned
order put another line first (they disagree on 4-8 % of KorQuAD questions and 17-25 % of office ones,
and over the questions neither was fitted on either is right as often), else the next line close to
it; a longer line holding the best one (the whole sentence rather than a PDF line's piece of it) takes its
place when it scores nearly as well. With no line close by the hand-set score, the learned order's next line
of the same document is the second when the learned order is nearly as sure of it. A lone line that opens by
pointing back ("이 곡은 2월 21일 발매됐다") comes with the line before it, which names what it points to.
"""
from __future__ import annotations

import math
import re
from dataclasses import replace
from typing import Optional

from engine.answer.lines import LONG_LINE, Line
from engine.answer.question_cues import Question
from engine.answer.ranker import reranked
from engine.answer.refusal import answers, evidence
from engine.answer.scoring import rank_lines
from engine.korean import LIST_MARKER, flat

MAX_LINES = 2
# A second line must score within this of the first: the widest gap whose answers stay within 120 characters
# on average over 1,000 KorQuAD tuning questions (0.04: 102 characters, 0.12: 115, 0.16: 122); KorQuAD answers
# holding the gold 0.805 -> 0.824 there, 0.810 -> 0.827 on the dev sample (110 characters), corpus unchanged.
SECOND_GAP = 0.12
# With no such line, the learned order's next line (same document) is the second when the learned order gives it
# at least this share of the first's chance: on the tuning rows (bench/fit_picker.py) KorQuAD whole answers
# 0.877 -> 0.886 (117 -> 120 characters; 0.05: 0.890, 123), office 0.771 -> 0.792, corpus unchanged.
LEARNED_SECOND_SHARE = 0.1
# A line that opens by pointing back ("이 곡은", "그는", "해당 기관") names its subject in the line before:
# with that line, 1,000 KorQuAD tuning questions 0.826 -> 0.833 whole (7 gained, none lost; 116 -> 119
# characters), the dev sample 0.830 either way (114 characters), the corpus sets unchanged.
BACK_REFERENCE = re.compile(r"(?:이|그|저|이러한|그러한|이런|그런|해당|같은)\s|(?:그녀|그들|이들|그것|이것|이곳|그곳|이는|그는)")


def choose_lines(question: Question, hits: list[dict], ranked: Optional[int] = None,
                 heads: Optional[dict[str, str]] = None) -> list[Line]:
    """The one or two best lines of ``hits`` for ``question`` (``rank_lines``); empty when the refusal
    does not answer."""
    order = rank_lines(question, hits, ranked, heads)
    if not order:
        return []
    learned = reranked(order)
    if not answers(evidence(learned)):
        return []
    top = order[0].score
    best = learned[0]
    for line in order:     # the whole sentence rather than a piece of it (a PDF line)
        if line.score < best.score - SECOND_GAP:
            break
        if best.flat in line.flat and len(best.flat) < len(line.flat) <= 2 * LONG_LINE:
            best = line
    order.remove(best)
    chosen = [best]
    for line in order[:MAX_LINES + 2]:
        if len(chosen) == MAX_LINES or line.score < top - SECOND_GAP:
            break
        if _may_follow(best, line):
            chosen.append(line)
    if len(chosen) == 1:     # no second line close by the hand-set score: the learned order's next, if nearly as sure
        sure = learned[0].learned + math.log(LEARNED_SECOND_SHARE)
        second = next((line for line in learned[1:] if line.learned >= sure and _may_follow(best, line)), None)
        chosen += [second] if second is not None else []
    if len(chosen) == 1 and best.prior and BACK_REFERENCE.match(best.quote) and not LIST_MARKER.match(best.prior):
        chosen.insert(0, replace(best, quote=best.prior, flat=flat(best.prior), prior=""))
    return chosen


def _may_follow(best: Line, line: Line) -> bool:
    """Whether ``line`` may be the answer's second line after ``best``: from the same document (one answer
    never mixes two) and neither holding the other."""
    return line.hit["filename"] == best.hit["filename"] and line.flat not in best.flat and best.flat not in line.flat
