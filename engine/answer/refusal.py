"""Whether the best line is good enough to answer with: a learned confidence, or the answer is refused.

Two numbers describe how sure the picker is of its first line (``evidence``): the hand-set score of the
best line (scoring: how much of the question it covers and whether it holds the kind of answer asked) and the
share the learned order gives its first line (a softmax over the reranked lines' learned scores; how far it
leads the second was measured too and weighed nothing). ``confidence`` is a logistic over them, and the answer is refused
(``NO_EVIDENCE``) below ``LEVEL``. bench/fit_threshold.py fits both on tuning questions only, those the folder
answers and those it does not, and writes refusal_weights.py.
"""
from __future__ import annotations

import math

from engine.answer.lines import Line
from engine.answer.refusal_weights import BIAS, LEVEL, WEIGHTS

EVIDENCE = ("best", "share")


def evidence(learned: list[Line]) -> dict[str, float]:
    """How sure the picker is of the first of ``learned``: the candidate lines in learned order
    (ranker.reranked), each with its hand-set ``score`` and its ``learned`` score."""
    scores = [line.learned for line in learned if line.learned != -math.inf]
    total = sum(math.exp(s - scores[0]) for s in scores)
    return {"best": max(line.score for line in learned), "share": 1.0 / total}


def confidence(found: dict[str, float]) -> float:
    """The chance, as fitted on the tuning questions, that the folder answers the question."""
    z = BIAS + sum(WEIGHTS[name] * found[name] for name in EVIDENCE)
    return 1.0 / (1.0 + math.exp(-z))


def answers(found: dict[str, float]) -> bool:
    """Whether to answer with the best line rather than refuse."""
    return confidence(found) >= LEVEL
