"""Choose the answer picker's refusal level (engine.answer.choice.THRESHOLD) on tuning data only. Anyone can rerun it:

    .venv/bin/python bench/fit_threshold.py [--work /tmp/noda_threshold] [--questions 600]

A question is answered when its best line scores at least THRESHOLD, else refused (NO_EVIDENCE). The level is
the lowest at which at least ``--precision`` of the questions let through are ones the folder answers, with
the two kinds weighing the same in total (otherwise the many answerable KorQuAD questions would decide alone).
Tuning questions, never the reported sets of bench/answers.py:
- answerable: a seeded sample of KorQuAD questions outside the dev sample's 300, asked of a tenant of every
  KorQuAD article; the tuning half of the shared corpus questions with an answer (bench/answers.TUNING_FILES);
- unanswerable: KorQuAD questions of ``--held-out`` articles asked of a tenant without them; the tuning half's
  answerable questions asked of a tenant without their documents; the tuning half's no-answer questions.
It prints, for the chosen level and for the level in the engine now, the share of each set answered.
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
from engine.answer.choice import THRESHOLD  # noqa: E402
from engine.answer.extract import scored_lines  # noqa: E402
from engine.library.tenant import Tenant  # noqa: E402

SEED = 13


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


def best_scores(folder: Path, cache: Path, questions: list[str]) -> list[float]:
    """The best line's score of each question over ``folder`` (-inf when there is no line at all)."""
    tenant = Tenant(folder, cache_root=cache)
    tenant.refresh()
    try:
        out = []
        for n, question in enumerate(questions, 1):
            lines = scored_lines(tenant, question)
            out.append(lines[0].score if lines else float("-inf"))
            if n % 100 == 0:
                print(f"[threshold] {folder.name}: {n}/{len(questions)}", file=sys.stderr)
        return out
    finally:
        tenant.close()


def lowest_level(scores: np.ndarray, answerable: np.ndarray, weights: np.ndarray, precision: float) -> float:
    """The lowest score at which the questions scoring at least it are ``precision`` answerable (by weight)."""
    order = np.argsort(-scores)
    share = np.cumsum((answerable * weights)[order]) / np.cumsum(weights[order])
    ok = np.nonzero(share >= precision)[0]
    return float(scores[order][ok.max()]) if len(ok) else float("inf")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "noda_threshold")
    parser.add_argument("--questions", type=int, default=600, help="KorQuAD tuning questions sampled")
    parser.add_argument("--held-out", type=int, default=20, help="KorQuAD articles left out of the folder")
    parser.add_argument("--precision", type=float, default=0.95)
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

    sets = {}   # name -> (scores, answerable)
    sets["korquad"] = (best_scores(bench.copied_folder(args.work / "kq_all", txt), cache / "kq",
                                   [q["question"] for q in asked]), True)
    sets["korquad_without"] = (best_scores(
        bench.copied_folder(args.work / "kq_without", [p for p in txt if p.stem not in held_out]), cache / "kq_w",
        [q["question"] for q in missing]), False)
    corpus_folder = bench.copied_folder(args.work / "corpus", documents)
    both = best_scores(corpus_folder, cache / "corpus", [q["question"] for q in corpus])
    sets["corpus"] = ([s for s, q in zip(both, corpus) if q.get("answer_snippet")], True)
    sets["corpus_no_answer"] = ([s for s, q in zip(both, corpus) if not q.get("answer_snippet")], False)
    sets["corpus_without"] = (best_scores(
        bench.copied_folder(args.work / "corpus_without", [d for d in documents if d.name not in bench.TUNING_FILES]),
        cache / "corpus_w", [q["question"] for q in with_answer]), False)

    scores = np.concatenate([np.array(s, dtype=float) for s, _a in sets.values()])
    answerable = np.concatenate([np.full(len(s), a) for s, a in sets.values()])
    weights = np.where(answerable, 1.0 / answerable.sum(), 1.0 / (~answerable).sum())
    level = lowest_level(scores, answerable, weights, args.precision)
    print(f"refusal level for {args.precision:.0%} of answered questions answerable: {level:.3f} "
          f"(engine now: {THRESHOLD})")
    for name, (s, a) in sets.items():
        s = np.array(s, dtype=float)
        print(f"  {name:18} {len(s):4} questions ({'answerable' if a else 'not answerable'}): answered "
              f"{(s >= level).mean():.1%} at {level:.3f}, {(s >= THRESHOLD).mean():.1%} at {THRESHOLD}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
