"""Can learned weights pick answer lines better than the hand-set score? Measured on tuning questions only:

    .venv/bin/python bench/fit_picker.py [--build-dir /tmp/noda_kq_build] [--cache DIR] [--korquad 1500]
                                         [--report] [--rows FILE]

Every candidate line of a question (engine.answer.extract.scored_lines, the best ``TOP`` by the hand-set
score) gives one row of its ``features`` (engine/answer/scoring.py: how much of the question it covers in
the line, around it, in its chunk and document; the kind of answer asked and held; form field; search rank
and score; length; OCR …) and a label: the line holds the answer (KorQuAD: the gold answer, normalised as
the shared runner does; the shared corpus: its ``answer_snippet``). A logistic regression (numpy, L2) on
those rows learns how likely a line is to be the answer; each question weighs the same, and the two
sources (KorQuAD questions outside the dev sample; the tuning half of the shared corpus questions,
bench/answers.TUNING_FILES) weigh the same in total.

It prints the weights and how often the best line is right — by the hand-set score and by the learned
one — on the tuning questions and, with ``--report``, on the reported sets (KorQuAD dev sample, the
corpus's reported half, the rewordings), which are never fitted on; ``oracle`` is how often any of the
``TOP`` lines is right. ``--rows`` saves every set's rows (a pickle) to try other models on. On
2026-12-01 the learned weights tied the hand-set score on KorQuAD and lost on the office documents, so
the engine keeps the hand-set score (engine/answer/scoring.py) and this script stays a measurement.
"""
from __future__ import annotations

import argparse
import pickle
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import answers as bench  # noqa: E402  (the sets and their folders)
from engine.answer.extract import scored_lines  # noqa: E402
from tests.corpus import squash  # noqa: E402

TOP = 30            # candidate lines per question kept as rows
FEATURES = ("covered", "in_line", "in_near", "in_after", "in_context", "in_chunk", "in_head", "numbers_missing", "cue",
            "field", "echo", "ocr", "rank", "long", "length", "row", "cues_asked", "cues_full", "search")
L2 = 1e-2


def rows_of(tenant, questions: list[dict], right) -> list[dict]:
    """Per question: its candidate lines' features (matrix), labels, hand-set scores and whether it has an answer."""
    out = []
    for n, q in enumerate(questions, 1):
        lines = scored_lines(tenant, q["question"])[:TOP]
        x = np.array([[line.features.get(f, 0.0) for f in FEATURES] for line in lines]).reshape(-1, len(FEATURES))
        y = np.array([right(q, line.text) for line in lines], dtype=float)
        out.append({"x": x, "y": y, "hand": np.array([line.score for line in lines]),
                    "answerable": bool(q.get("answer") or q.get("answer_snippet"))})
        if n % 100 == 0:
            print(f"[fit] {n}/{len(questions)}", file=sys.stderr)
    return out


def korquad_right(q: dict, text: str) -> bool:
    return bench.norm(q["answer"]) in bench.norm(text)


def corpus_right(q: dict, text: str) -> bool:
    return bool(q.get("answer_snippet")) and squash(q["answer_snippet"]) in squash(text)


def fit(sets: list[list[dict]]) -> tuple[np.ndarray, float]:
    """Logistic regression by Newton's method on standardised features: (weights, bias) per unit of each feature."""
    xs, ys, ws = [], [], []
    for questions in sets:
        usable = [q for q in questions if len(q["y"])]
        for q in usable:
            xs.append(q["x"])
            ys.append(q["y"])
            ws.append(np.full(len(q["y"]), 1.0 / (len(q["y"]) * len(usable))))
    x, y, w = np.vstack(xs), np.concatenate(ys), np.concatenate(ws)
    w = w / w.sum() * len(y)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    beta = np.zeros(z.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-z @ beta))
        grad = z.T @ (w * (p - y)) + L2 * len(y) * np.r_[beta[:-1], 0]
        hess = (z * (w * p * (1 - p))[:, None]).T @ z + L2 * len(y) * np.diag(np.r_[np.ones(len(beta) - 1), 0])
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return beta[:-1] / scale, beta[-1] - float((beta[:-1] / scale) @ mean)


def probabilities(q: dict, weights: np.ndarray, bias: float) -> np.ndarray:
    return 1 / (1 + np.exp(-(q["x"] @ weights + bias))) if len(q["y"]) else np.zeros(0)


def top_right(questions: list[dict], weights=None, bias=0.0) -> float:
    """Share of the answerable questions whose best line (learned, or hand-set without weights) is right."""
    answerable = [q for q in questions if q["answerable"]]
    good = 0
    for q in answerable:
        if len(q["y"]):
            order = q["hand"] if weights is None else probabilities(q, weights, bias)
            good += q["y"][int(np.argmax(order))] > 0
    return good / max(1, len(answerable))


def oracle(questions: list[dict]) -> float:
    """Share of the answerable questions with a right line among their ``TOP`` candidates."""
    answerable = [q for q in questions if q["answerable"]]
    return sum(1 for q in answerable if q["y"].any()) / max(1, len(answerable))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", type=Path, default=bench.DEFAULT_BUILD)
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "noda_fit_picker")
    ap.add_argument("--korquad", type=int, default=1500, help="KorQuAD tuning questions")
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--rows", type=Path, help="also save every set's rows here (a pickle, for experiments)")
    args = ap.parse_args()

    build = bench.build_korquad(args.build_dir)
    kq_tenant = bench.korquad_tenant(build, args.cache)
    corpus = bench.corpus_questions()
    corpus_tenant = bench.corpus_tenant(args.cache / "folders", args.cache)
    kq_tuning = rows_of(kq_tenant, bench.korquad_tuning_questions(build, args.korquad), korquad_right)
    corpus_tuning = rows_of(corpus_tenant, [q for q in corpus if q["half"] == "tuning"], corpus_right)
    weights, bias = fit([kq_tuning, corpus_tuning])
    print("feature weights (per unit of the feature):")
    for name, value in sorted(zip(FEATURES, weights), key=lambda item: -abs(item[1])):
        print(f"  {name:16} {value:+.3f}")
    print(f"  bias {bias:+.3f}")
    sets = {"tuning: KorQuAD": kq_tuning, "tuning: corpus": corpus_tuning}
    if args.report:
        sets["reported: KorQuAD dev"] = rows_of(kq_tenant, bench.korquad_questions(build), korquad_right)
        sets["reported: corpus"] = rows_of(corpus_tenant, [q for q in corpus if q["half"] == "reported"],
                                           corpus_right)
        sets["reported: rewordings"] = rows_of(corpus_tenant, bench.rewording_questions(corpus), corpus_right)
    print("best line right          hand  learned  oracle")
    for name, rows in sets.items():
        print(f"  {name:22} {top_right(rows):.3f}  {top_right(rows, weights, bias):.3f}    {oracle(rows):.3f}")
    if args.rows:
        with open(args.rows, "wb") as fh:
            pickle.dump(sets, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
