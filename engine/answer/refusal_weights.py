"""The refusal's logistic (engine/answer/refusal.py): weights per unit of each piece of evidence,
its bias and the level below which an answer is refused.

bench/fit_threshold.py --write fits them on tuning questions. What ships is the hand-set rule in this form (the
best line's score at least 0.59; the learned share weighs nothing): the fitted refusal (2026-12-05: best +9.67,
share +2.10, bias -7.38, level 0.443) refused half as many questions asked of a folder without their documents
but lost 2 office A+B reported, 1 office E and 2 rewording answers it had given right (docs/architecture.md).
"""
FITTED_ON = {}   # not fitted: the hand-set level
WEIGHTS = {"best": 1.0, "share": 0.0}
BIAS = -0.59
LEVEL = 0.5
