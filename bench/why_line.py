"""Why the answer picked its line: the candidate lines of one question in learned order, with what they scored.

    .venv/bin/python bench/why_line.py FOLDER QUESTION [--document NAME] [--top 10] [--cache DIR]

Prints the question's terms and the kinds of answer it asks for, the refusal's evidence and confidence
(refused below its level), then for each of the first ``--top`` lines (ranker.reranked): its hand-set score,
its learned score, how much of the question it covers, its worth as a form field, the cues it holds, its file
and its text. For looking into one question, never for tuning on it.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.answer.extract import scored_lines  # noqa: E402
from engine.answer.question_cues import analyze, line_cues  # noqa: E402
from engine.answer.ranker import reranked  # noqa: E402
from engine.answer.refusal import confidence, evidence  # noqa: E402
from engine.answer.refusal_weights import LEVEL  # noqa: E402
from engine.library.tenant import Tenant  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("question")
    parser.add_argument("--document", help="answer from this one document (as noda answer --document)")
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "noda_why_line")
    args = parser.parse_args()
    tenant = Tenant(args.folder, cache_root=args.cache)
    tenant.refresh()
    try:
        question = analyze(args.question)
        print("terms:", ", ".join(t.text + ("(verb)" if t.verb else "") for t in question.terms),
              "| asks:", ", ".join(question.cues) or "-")
        lines = scored_lines(tenant, args.question, document=args.document)
        if not lines:
            print("no candidate line (NO_MATCH)")
            return 0
        learned = reranked(lines)
        found = evidence(learned)
        sure = confidence(found)
        print(f"evidence: best {found['best']:.3f}, share {found['share']:.2f}; confidence {sure:.3f} "
              f"({'answered' if sure >= LEVEL else 'refused'}, level {LEVEL})")
        for line in learned[:args.top]:
            f = line.features
            cues = ", ".join(f"{k} {v:.2f}" for k, v in line_cues(question, line.text, line.header).items()) or "-"
            print(f"{line.score:6.3f} {line.learned:6.2f}  covered {f['covered']:.2f}  field {f['field']:.2f}  "
                  f"cues {cues}  [{line.hit['filename']}]\n        {line.text[:160]!r}")
    finally:
        tenant.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
