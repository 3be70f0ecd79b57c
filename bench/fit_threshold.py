"""Fit the answer picker's refusal (engine/answer/refusal.py) on tuning data only. Anyone can rerun it:

    .venv/bin/python bench/fit_threshold.py [--work /tmp/noda_threshold] [--questions 600] [--write]

A question is answered when the refusal's confidence in its best line reaches LEVEL, else refused
(NO_EVIDENCE). The confidence is a logistic over the line's ``refusal.evidence`` (its hand-set score and the
share the learned order gives it), fitted to tell the questions the folder answers from those
it does not, the two kinds weighing the same in total (otherwise the many answerable KorQuAD questions would
decide alone). LEVEL is the one answering the most of both kinds on average (balanced accuracy); the level
for ``--precision`` of answered questions answerable is printed beside it. ``--write`` ships both as
engine/answer/refusal_weights.py.
Tuning questions, never the reported sets of bench/answers.py:
- answerable: a seeded sample of KorQuAD questions outside the dev sample's 300, asked of a tenant of every
  KorQuAD article; the tuning half of the shared corpus questions with an answer (bench/answers.TUNING_FILES);
- unanswerable: KorQuAD questions of ``--held-out`` articles asked of a tenant without them; the tuning half's
  answerable questions asked of a tenant without their documents; the tuning half's no-answer questions.
It prints, for the fitted refusal and for the one in the engine now, the share of each set answered.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import answers as bench  # noqa: E402  (bench/answers.py: the sets and their folders)
from engine.answer import refusal, refusal_weights  # noqa: E402
from engine.answer.extract import scored_lines  # noqa: E402
from engine.answer.ranker import reranked  # noqa: E402
from engine.library.tenant import Tenant  # noqa: E402

SEED = 13
NOTHING = {"best": -10.0, "share": 0.0}   # the evidence of a question with no candidate line at all


def korquad_questions(work: Path) -> tuple[Path, list[dict]]:
    """The KorQuAD build of every question (the shared build step with ``sample_size`` 0) and its
    questions outside the dev sample."""
    config_dir = work / "korquad_all_bench"
    config_dir.mkdir(parents=True, exist_ok=True)
    config = json.loads((bench.KORQUAD / "bench.json").read_text(encoding="utf-8"))
    config["sample_size"] = 0
    (config_dir / "bench.json").write_text(json.dumps(config, ensure_ascii=False), encoding="utf-8")
    if not (config_dir / "data").exists():
        os.symlink(bench.KORQUAD / "data", config_dir / "data")
    build = bench.build_korquad(work / "korquad_all", config_dir)
    dev = {q["id"] for q in bench.korquad_questions(bench.build_korquad(bench.DEFAULT_BUILD))}
    return build, [q for q in bench.korquad_questions(build) if q["id"] not in dev]


def best_evidence(folder: Path, cache: Path, questions: list[str]) -> list[list[float]]:
    """The refusal's evidence (``refusal.EVIDENCE``) about each question's best line over ``folder``;
    no line at all is evidence of nothing (``NOTHING``: refused whatever the weights)."""
    tenant = Tenant(folder, cache_root=cache)
    tenant.refresh()
    try:
        out = []
        for n, question in enumerate(questions, 1):
            lines = scored_lines(tenant, question)
            found = refusal.evidence(reranked(lines)) if lines else NOTHING
            out.append([found[name] for name in refusal.EVIDENCE])
            if n % 100 == 0:
                print(f"[threshold] {folder.name}: {n}/{len(questions)}", file=sys.stderr)
        return out
    finally:
        tenant.close()


def fit_logistic(x: np.ndarray, target: np.ndarray, weights: np.ndarray, l2: float = 1e-3,
                 steps: int = 3000) -> tuple[np.ndarray, float]:
    """Weights (per unit of each column) and bias of a weighted logistic regression (gradient steps on
    standardised columns)."""
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    beta = np.zeros(z.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-z @ beta))
        beta -= 0.5 * (z.T @ (weights * (p - target)) / weights.sum() + l2 * beta)
    per_unit = beta[:-1] / scale
    return per_unit, float(beta[-1] - per_unit @ mean)


def balanced_level(conf: np.ndarray, answerable: np.ndarray) -> float:
    """The level answering the most answerable and refusing the most unanswerable questions, on average."""
    levels = np.unique(conf)
    return float(max(levels, key=lambda t: ((conf >= t) & answerable).sum() / answerable.sum()
                     + ((conf < t) & ~answerable).sum() / (~answerable).sum()))


def lowest_level(scores: np.ndarray, answerable: np.ndarray, weights: np.ndarray, precision: float) -> float:
    """The lowest score at which the questions scoring at least it are ``precision`` answerable (by weight)."""
    order = np.argsort(-scores)
    share = np.cumsum((answerable * weights)[order]) / np.cumsum(weights[order])
    ok = np.nonzero(share >= precision)[0]
    return float(scores[order][ok.max()]) if len(ok) else float("inf")


def write_weights(weights: np.ndarray, bias: float, level: float, fitted_on: dict[str, int]) -> None:
    """The refusal as the Python module engine/answer/refusal.py reads."""
    lines = ['"""The refusal\'s logistic (engine/answer/refusal.py): weights per unit of each piece of evidence,',
             "its bias and the level below which an answer is refused.", "",
             "Written by bench/fit_threshold.py --write; refit rather than edit.", '"""',
             f"FITTED_ON = {json.dumps(fitted_on, ensure_ascii=False)}   # tuning questions per set",
             "WEIGHTS = {" + ", ".join(f'"{n}": {round(float(w), 5)}' for n, w in zip(refusal.EVIDENCE, weights)) + "}",
             f"BIAS = {round(bias, 5)}", f"LEVEL = {round(level, 4)}", ""]
    Path(refusal_weights.__file__).write_text("\n".join(lines), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "noda_threshold")
    parser.add_argument("--questions", type=int, default=600, help="KorQuAD tuning questions sampled")
    parser.add_argument("--held-out", type=int, default=20, help="KorQuAD articles left out of the folder")
    parser.add_argument("--precision", type=float, default=0.95)
    parser.add_argument("--write", action="store_true", help="write engine/answer/refusal_weights.py")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED)
    build, kq = korquad_questions(args.work)
    txt = sorted((build / "corpus_txt").glob("*.txt"))
    held_out = set(rng.sample(sorted({q["doc"] for q in kq}), args.held_out))
    asked = rng.sample([q for q in kq if q["doc"] not in held_out], args.questions)
    missing = rng.sample([q for q in kq if q["doc"] in held_out], args.questions // 3)
    corpus = [q for q in bench.corpus_questions() if q["half"] == "tuning"]
    with_answer = [q for q in corpus if q.get("answer_snippet")]
    documents = [bench.document_of(t) for t in bench.truth_files()]
    cache = args.work / "cache"

    sets = {}   # name -> (evidence rows, answerable)
    sets["korquad"] = (best_evidence(bench.copied_folder(args.work / "kq_all", txt), cache / "kq",
                                     [q["question"] for q in asked]), True)
    sets["korquad_without"] = (best_evidence(
        bench.copied_folder(args.work / "kq_without", [p for p in txt if p.stem not in held_out]), cache / "kq_w",
        [q["question"] for q in missing]), False)
    corpus_folder = bench.copied_folder(args.work / "corpus", documents)
    both = best_evidence(corpus_folder, cache / "corpus", [q["question"] for q in corpus])
    sets["corpus"] = ([e for e, q in zip(both, corpus) if q.get("answer_snippet")], True)
    sets["corpus_no_answer"] = ([e for e, q in zip(both, corpus) if not q.get("answer_snippet")], False)
    sets["corpus_without"] = (best_evidence(
        bench.copied_folder(args.work / "corpus_without", [d for d in documents if d.name not in bench.TUNING_FILES]),
        cache / "corpus_w", [q["question"] for q in with_answer]), False)

    x = np.vstack([np.array(e, dtype=float) for e, _a in sets.values()])
    answerable = np.concatenate([np.full(len(e), a) for e, a in sets.values()])
    weights = np.where(answerable, 1.0 / answerable.sum(), 1.0 / (~answerable).sum())
    per_unit, bias = fit_logistic(x, answerable.astype(float), weights)
    conf = 1 / (1 + np.exp(-(x @ per_unit + bias)))
    level = balanced_level(conf, answerable)
    strict = lowest_level(conf, answerable, weights, args.precision)
    print("refusal weights: " + ", ".join(f"{n} {w:+.3f}" for n, w in zip(refusal.EVIDENCE, per_unit))
          + f", bias {bias:+.3f}; level {level:.3f} (for {args.precision:.0%} precision: {strict:.3f})")
    now = np.array([refusal.confidence(dict(zip(refusal.EVIDENCE, row))) for row in x])
    at = 0
    for name, (e, a) in sets.items():
        n = len(e)
        print(f"  {name:18} {n:4} questions ({'answerable' if a else 'not answerable'}): answered "
              f"{(conf[at:at + n] >= level).mean():.1%} fitted, {(conf[at:at + n] >= strict).mean():.1%} at "
              f"{args.precision:.0%} precision, {(now[at:at + n] >= refusal_weights.LEVEL).mean():.1%} by the engine now")
        at += n
    if args.write:
        write_weights(per_unit, bias, level, {name: len(e) for name, (e, _a) in sets.items()})
        print(f"wrote {refusal_weights.__file__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
