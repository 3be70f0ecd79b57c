"""Extractive answers over the shared corpus as ONE tenant, scored against questions.jsonl.

    .venv/bin/python bench/answers.py [--limit 5] [--show]

The corpus documents (not their .truth.json) are linked into a temp folder
and read with a temp cache. Each question of /work/shared/corpus/questions.jsonl
is answered with engine.answer. A question with an ``answer_snippet`` is
answered correctly when one answer line holds the snippet (whitespace runs
collapsed); a question without one (``kind: none``) must be refused. Printed:
correct / wrong / refused for answerable questions, correct refusals for the
no-answer ones, mean answer length in characters and the most lines given.
``--show`` prints every question that was not right, with the lines given.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.answer import answer  # noqa: E402
from engine.tenant import Tenant  # noqa: E402
from tests.corpus import CORPUS, document_of, squash, truth_files  # noqa: E402


def corpus_tenant(base: Path) -> Tenant:
    """A tenant folder of links to every corpus document, refreshed with its own cache."""
    folder = base / "corpus"
    folder.mkdir()
    for truth in truth_files():
        document = document_of(truth)
        os.symlink(document, folder / document.name)
    tenant = Tenant(folder, cache_root=base / "cache")
    tenant.refresh()
    return tenant


def judge(question: dict, result: dict) -> str:
    """'correct' | 'wrong' | 'refused' for answerable questions; 'refused_ok' | 'answered_bad' otherwise."""
    snippet = question.get("answer_snippet")
    if not snippet:
        return "answered_bad" if result["answered"] else "refused_ok"
    if not result["answered"]:
        return "refused"
    want = squash(snippet)
    return "correct" if any(want in squash(line["text"]) for line in result["lines"]) else "wrong"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=5, help="search hits the answer is chosen from")
    parser.add_argument("--show", action="store_true", help="print every question that was not right")
    args = parser.parse_args()
    questions = [json.loads(line) for line in (CORPUS / "questions.jsonl").read_text(encoding="utf-8").splitlines()
                 if line.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        tenant = corpus_tenant(Path(tmp))
        read_s = time.perf_counter() - started
        counts = {k: 0 for k in ("correct", "wrong", "refused", "refused_ok", "answered_bad")}
        lengths, most_lines, times = [], 0, []
        for q in questions:
            started = time.perf_counter()
            result = answer(tenant, q["question"], limit=args.limit)
            times.append(time.perf_counter() - started)
            verdict = judge(q, result)
            counts[verdict] += 1
            if result["answered"]:
                lengths.append(len(result["text"]))
                most_lines = max(most_lines, len(result["lines"]))
            if args.show and verdict not in ("correct", "refused_ok"):
                print(f"{verdict:12} {q['question']}\n{'':12} want: {q.get('answer_snippet')}")
                for line, citation in zip(result["lines"], result["citations"]):
                    print(f"{'':12} got:  {citation['filename']} | {line['text'][:150]}")
        tenant.close()
    answerable = counts["correct"] + counts["wrong"] + counts["refused"]
    no_answer = counts["refused_ok"] + counts["answered_bad"]
    rows = [
        ("answered correctly", f"{counts['correct']}/{answerable}", f"{counts['correct'] / answerable:.1%}"),
        ("wrongly answered", f"{counts['wrong']}/{answerable}", ""),
        ("refused (had an answer)", f"{counts['refused']}/{answerable}", ""),
        ("no-answer questions refused", f"{counts['refused_ok']}/{no_answer}", ""),
        ("mean answer length (chars)", f"{sum(lengths) / max(len(lengths), 1):.0f}", ""),
        ("most lines in one answer", str(most_lines), ""),
        ("answer time p50 / max (s)", f"{sorted(times)[len(times) // 2]:.2f} / {max(times):.2f}", ""),
        ("corpus read (s)", f"{read_s:.1f}", ""),
    ]
    print(f"\nextractive answers, limit={args.limit}, {len(questions)} questions")
    for name, value, share in rows:
        print(f"  {name:30} {value:>10} {share:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
