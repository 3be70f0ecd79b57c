"""The learned order of the best candidate lines: a linear score of their features (scoring._score),
with weights fitted on the tuning questions by bench/fit_picker.py and shipped as ranker_weights.py (a
Python module, so that the package and the installer carry it without further configuration).

The hand-set score (scoring) finds the ``RERANKED`` most likely lines and decides whether any is good
enough to answer at all; the learned score orders those lines. Its weights are a softmax over each
question's candidates, fitted so that the right line comes first (bench/fit_picker.py says how, and
what it scored on the sets it was not fitted on).
"""
from __future__ import annotations

import math

from engine.answer.lines import Line
from engine.answer.ranker_weights import WEIGHTS

RERANKED = 30       # lines, best by the hand-set score, that the learned score puts in order


def learned_score(features: dict[str, float]) -> float:
    """The learned score of a line with ``features``; a feature the weights do not know counts nothing."""
    return sum(weight * features.get(name, 0.0) for name, weight in WEIGHTS.items())


def reranked(lines: list[Line]) -> list[Line]:
    """``lines`` (best first by the hand-set score) with the first ``RERANKED`` in learned order, each
    with its ``learned`` score; the others come after them, in their order."""
    for n, line in enumerate(lines):
        line.learned = learned_score(line.features) if n < RERANKED else -math.inf
    return sorted(lines[:RERANKED], key=lambda line: -line.learned) + lines[RERANKED:]
