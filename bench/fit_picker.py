"""Fit the learned order of answer lines (engine/answer/ranker.py) on tuning questions only:

    .venv/bin/python bench/fit_picker.py [--build-dir /tmp/noda_kq_build] [--cache DIR] [--korquad 1500]
                                         [--office DIR ...] [--report] [--rows FILE | --from-rows FILE] [--write]

Every candidate line of a question (engine.answer.extract.scored_lines, the best ``TOP`` by the hand-set
score) gives one row of its ``features`` (engine/answer/scoring.py: how much of the question it covers in
the line, around it, in its chunk and document; which kinds of answer it holds of those asked; form field;
search rank and score; length; OCR; the hand-set score itself …) and a label: the line holds the answer
(KorQuAD: the gold answer, normalised as the shared runner does; the corpus and office sets: its
``answer_snippet``). A softmax over each question's lines (numpy, L2, Adam) learns weights that put its
right lines first; each question weighs the same within its source, and the sources (KorQuAD questions
outside the dev sample; the tuning halves of the shared corpus questions, bench/answers.TUNING_FILES, and of
the ``--office`` sets) weigh the same in total. ``--write`` ships the weights as
engine/answer/ranker_weights.py.

It prints the weights and how often the best line is right — by the hand-set score and by the learned
one — on the tuning questions and, with ``--report``, on the reported sets (KorQuAD dev sample, the
corpus's reported half, the rewordings, the office sets' reported halves), which are never fitted on;
``oracle`` is how often any of the ``TOP`` lines is right. ``--rows`` saves every set's rows (a pickle; each
keeps its question and its lines' texts and files, for experiments); ``--from-rows`` fits on such a file
without reading the sets again (seconds instead of a quarter hour).
"""
from __future__ import annotations

import argparse
import json
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
from engine.answer.question_cues import CUE_WORTH  # noqa: E402
from engine.answer import ranker_weights  # noqa: E402
from engine.answer.ranker import RERANKED  # noqa: E402

TOP = RERANKED      # candidate lines per question kept as rows: those the learned order reorders
FEATURES = ("covered", "in_line", "in_near", "in_after", "in_context", "in_chunk", "in_head", "numbers_missing", "cue",
            "field", "echo", "ocr", "rank", "long", "length", "row", "first_row", "cues_asked", "cues_full", "search",
            "lacks_asked", *("holds_" + name for name in CUE_WORTH), "pairs", "dense", "rarest", "bigrams", "hand")
WEIGHTS_FILE = Path(ranker_weights.__file__)
L2 = 1e-3           # penalty on the standardised weights
STEPS = 300
LEARNING_RATE = 0.05


def rows_of(tenant, questions: list[dict], right) -> list[dict]:
    """Per question: its candidate lines' features (matrix), labels, hand-set scores and whether it has an answer."""
    out = []
    for n, q in enumerate(questions, 1):
        lines = scored_lines(tenant, q["question"], document=q.get("document"))[:TOP]
        x = np.array([[line.features.get(f, 0.0) for f in FEATURES] for line in lines]).reshape(-1, len(FEATURES))
        y = np.array([right(q, line.text) for line in lines], dtype=float)
        out.append({"x": x, "y": y, "hand": np.array([line.score for line in lines]),
                    "answerable": bool(q.get("answer") or q.get("answer_snippet")),
                    "question": q["question"], "texts": [line.text for line in lines],
                    "files": [line.hit["filename"] for line in lines]})
        if n % 100 == 0:
            print(f"[fit] {n}/{len(questions)}", file=sys.stderr)
    return out


def korquad_right(q: dict, text: str) -> bool:
    return bench.norm(q["answer"]) in bench.norm(text)


def corpus_right(q: dict, text: str) -> bool:
    return bool(q.get("answer_snippet")) and bench.holds(text, q["answer_snippet"])


def fit(sets: list[list[dict]], l2: float = L2, steps: int = STEPS) -> np.ndarray:
    """Weights (per unit of each feature) of a softmax over each question's candidate lines that puts
    its right lines first: the mean of -log(chance of the right lines) over the questions with one,
    each source weighing the same in total, plus an L2 penalty on the standardised weights; Adam steps."""
    questions, share = [], []
    for rows in sets:
        usable = [q for q in rows if len(q["y"]) and q["y"].any()]
        questions += usable
        share += [1.0 / (len(usable) * len(sets))] * len(usable)
    x = np.vstack([q["x"] for q in questions])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = [(q["x"] - mean) / scale for q in questions]
    beta, m, v = np.zeros(x.shape[1]), np.zeros(x.shape[1]), np.zeros(x.shape[1])
    for t in range(1, steps + 1):
        grad = l2 * beta
        for zq, q, a in zip(z, questions, share):
            s = zq @ beta
            p = np.exp(s - s.max())
            p /= p.sum()
            right = p * q["y"]
            grad += a * (p @ zq - (right / right.sum()) @ zq)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        beta -= LEARNING_RATE * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    return beta / scale


def top_right(questions: list[dict], weights=None) -> float:
    """Share of the answerable questions whose best line (learned, or hand-set without weights) is right."""
    answerable = [q for q in questions if q["answerable"]]
    good = 0
    for q in answerable:
        if len(q["y"]):
            order = q["hand"] if weights is None else q["x"] @ weights
            good += q["y"][int(np.argmax(order))] > 0
    return good / max(1, len(answerable))


def oracle(questions: list[dict]) -> float:
    """Share of the answerable questions with a right line among their ``TOP`` candidates."""
    answerable = [q for q in questions if q["answerable"]]
    return sum(1 for q in answerable if q["y"].any()) / max(1, len(answerable))


def write_weights(weights: dict[str, float], fitted_on: dict[str, int]) -> None:
    """The weights as the Python module engine/answer/ranker.py reads."""
    lines = ['"""Weights of the learned line order (engine/answer/ranker.py), per unit of each feature.',
             "", "Written by bench/fit_picker.py --write; refit rather than edit.", '"""',
             f"FITTED_ON = {json.dumps(fitted_on, ensure_ascii=False)}   # questions with a right line, per set",
             "WEIGHTS = {"]
    lines += [f'    "{name}": {value},' for name, value in weights.items()]
    WEIGHTS_FILE.write_text("\n".join(lines + ["}", ""]), encoding="utf-8")


def read_sets(args) -> dict[str, list[dict]]:
    """The rows of every set: the tuning sets, and with ``--report`` the reported ones."""
    build = bench.build_korquad(args.build_dir)
    kq_tenant = bench.korquad_tenant(build, args.cache)
    corpus = bench.corpus_questions()
    corpus_tenant = bench.corpus_tenant(args.cache / "folders", args.cache)
    kq_tuning = rows_of(kq_tenant, bench.korquad_tuning_questions(build, args.korquad), korquad_right)
    corpus_tuning = rows_of(corpus_tenant, [q for q in corpus if q["half"] == "tuning"], corpus_right)
    sets = {"tuning: KorQuAD": kq_tuning, "tuning: corpus": corpus_tuning}
    office = bench.office_questions(args.office) if args.office else []
    if office:
        office_tenant = bench.office_tenant(args.cache / "folders", args.cache, args.office)
        sets["tuning: office"] = rows_of(office_tenant, [q for q in office if q["half"] == "tuning"], corpus_right)
    if args.report:
        sets["reported: KorQuAD dev"] = rows_of(kq_tenant, bench.korquad_questions(build), korquad_right)
        sets["reported: corpus"] = rows_of(corpus_tenant, [q for q in corpus if q["half"] == "reported"],
                                           corpus_right)
        sets["reported: rewordings"] = rows_of(corpus_tenant, bench.rewording_questions(corpus), corpus_right)
        if office:
            sets["reported: office"] = rows_of(office_tenant, [q for q in office if q["half"] == "reported"],
                                               corpus_right)
    return sets


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", type=Path, default=bench.DEFAULT_BUILD)
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "noda_fit_picker")
    ap.add_argument("--korquad", type=int, default=1500, help="KorQuAD tuning questions")
    ap.add_argument("--office", type=Path, action="append", default=[],
                    help="an office folder (bench/answers.py --office): its tuning half is fitted on too")
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--write", action="store_true", help=f"write the weights to {WEIGHTS_FILE.relative_to(ROOT)}")
    ap.add_argument("--from-rows", type=Path, help="fit on the rows a --rows run saved instead of reading the sets")
    ap.add_argument("--rows", type=Path, help="also save every set's rows here (a pickle, for experiments)")
    args = ap.parse_args()

    if args.from_rows:
        with open(args.from_rows, "rb") as fh:
            sets = pickle.load(fh)
    else:
        sets = read_sets(args)
    weights = fit([rows for name, rows in sets.items() if name.startswith("tuning")])
    print("feature weights (per unit of the feature):")
    for name, value in sorted(zip(FEATURES, weights), key=lambda item: -abs(item[1])):
        print(f"  {name:16} {value:+.3f}")
    if args.write:
        fitted_on = {name: sum(1 for q in rows if len(q["y"]) and q["y"].any())
                     for name, rows in sets.items() if name.startswith("tuning")}
        write_weights({n: round(float(w), 5) for n, w in zip(FEATURES, weights)}, fitted_on)
        print(f"wrote {WEIGHTS_FILE}")
    print("best line right          hand  learned  oracle")
    for name, rows in sets.items():
        print(f"  {name:22} {top_right(rows):.3f}  {top_right(rows, weights):.3f}    {oracle(rows):.3f}")
    if args.rows:
        with open(args.rows, "wb") as fh:
            pickle.dump(sets, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
