"""Two runs of bench/answers.py side by side, from the files their ``--records`` wrote:

    .venv/bin/python bench/answer_diff.py BASE.jsonl NEW.jsonl [--sets office,reworded] [--quiet]

Prints, per set and half, how many questions each run got right (and, for a set with no-answer
questions, how many of those it refused), then every question whose verdict changed, with what each run
answered. A change to the engine is judged by running both checkouts in one sitting and comparing here.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from answers import is_right  # noqa: E402  (how bench/answers.py itself judges a verdict)


def load(path: Path) -> dict[tuple, dict]:
    """The records of one run, keyed by (set, question, document)."""
    with path.open(encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh if line.strip()]
    return {(r["set"], r["question"], r.get("document")): r for r in records}


def tally(records: dict[tuple, dict]) -> Counter:
    """(set, half) -> right answers to answerable questions, their number, no-answer questions refused, theirs."""
    out: Counter = Counter()
    for (name, _q, _d), r in records.items():
        key = (name, r.get("half") or "all")
        if r.get("kind") == "none":
            out[key + ("none",)] += 1
            out[key + ("refused",)] += r["verdict"] == "refused_ok"
        else:
            out[key + ("asked",)] += 1
            out[key + ("right",)] += is_right(r["verdict"])
    return out


def table(base: Counter, new: Counter, sets: set[str] | None) -> list[str]:
    keys = sorted({k[:2] for k in base} | {k[:2] for k in new})
    rows = [f"{'set':16} {'half':9} {'base':>15} {'new':>15}"]
    for name, half in keys:
        if sets and name not in sets:
            continue

        def cell(c: Counter) -> str:
            text = f"{c[(name, half, 'right')]}/{c[(name, half, 'asked')]}"
            if c[(name, half, "none")]:
                text += f" na {c[(name, half, 'refused')]}/{c[(name, half, 'none')]}"
            return text
        rows.append(f"{name:16} {half:9} {cell(base):>15} {cell(new):>15}")
    return rows


def changed(base: dict[tuple, dict], new: dict[tuple, dict], sets: set[str] | None) -> list[str]:
    out = []
    for key in sorted(base.keys() & new.keys()):
        a, b = base[key], new[key]
        if (sets and key[0] not in sets) or is_right(a["verdict"]) == is_right(b["verdict"]):
            continue
        out.append(f"{'gained' if is_right(b['verdict']) else 'lost':6} {key[0]} {a.get('half') or ''}: {key[1]}")
        for tag, r in (("base", a), ("new", b)):
            out.append(f"       {tag}: {(r.get('text') or '(' + str(r.get('reason')) + ')')[:150]!r}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--sets", help="comma-separated set names to show (default: all)")
    parser.add_argument("--quiet", action="store_true", help="only the table, not the changed questions")
    args = parser.parse_args()
    sets = set(args.sets.split(",")) if args.sets else None
    base, new = load(args.base), load(args.new)
    print("\n".join(table(tally(base), tally(new), sets)))
    if not args.quiet:
        print("\n".join(changed(base, new, sets)) or "no verdict changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
