"""Fit the answer score's constants (engine/answer/scoring.py) on tuning questions only. Anyone can rerun it:

    .venv/bin/python bench/fit_constants.py [--korquad 1000] [--sweeps 2] [--cache DIR]

The score of a line is a written sum (scoring's module doc); its constants say how much a question term
found around the line counts (in its headings, the lines beside it, its chunk, its document's opening),
how much a compound counts when only some of its parts are found, and what a missing number, an echo of
the question, a low search rank or a long line cost. This script searches them one at a time (each
tried at a half, three quarters, one and a quarter and one and a half times its value; a value is kept when
it wins by more than ``MIN_GAIN``) over tuning questions only. The objective weighs answering and refusing the same:
- answered right: KorQuAD questions outside the dev sample (``--korquad`` of them, the answer bench's seeded
  tuning sample) and the tuning half of the shared corpus questions, the two sources weighing the same;
- refused: the questions bench/fit_threshold.py builds to have no answer — KorQuAD questions of articles
  left out of the folder, and the corpus tuning half's questions asked of a folder without their documents,
  the two weighing the same; the tuning half's own no-answer questions must all stay refused.
A step is taken only when it loses on neither side (answering, refusing: no trading one for the other) and
does not make KorQuAD answers more than ``MAX_LONGER`` characters longer on average. Each
question's search hits are read once; only the lines are scored again. It prints the objective at every
step and the constants it ends with; bench/answers.py then reports them on the sets never fitted on.

On 2026-12-02 (1,000 KorQuAD tuning questions, the corpus tuning half, 200 + 31 questions without an answer;
a sweep from the engine's constants with RANK_BONUS at 0.0625) no step was taken: every move that answered
more KorQuAD questions right refused fewer of those without an answer (ABSENT_WEIGHT 0.6 -> 0.3: KorQuAD
0.849 -> 0.853, refused without the article 0.930 -> 0.825; RANK_BONUS 0.047 -> 0.0625: 0.841 -> 0.849,
0.935 -> 0.930), and every move that refused more answered fewer (PART_CREDIT 0.6 -> 0.3: refused without
the document 0.677 -> 0.742, KorQuAD 0.849 -> 0.844). The constants sit where the two sides meet.
"""
from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import answers as bench  # noqa: E402  (the sets, their folders and judges)
import fit_threshold  # noqa: E402  (the unanswerable tuning sets)
from engine.answer import scoring  # noqa: E402
from engine.answer.choice import choose_lines  # noqa: E402
from engine.answer.extract import looked_at  # noqa: E402
from engine.answer.question_cues import analyze  # noqa: E402
from engine.library.tenant import Tenant  # noqa: E402

CONSTANTS = ("CONTEXT_CREDIT", "NEAR_CREDIT", "CHUNK_CREDIT", "PART_CREDIT", "DOC_CREDIT", "GENERIC_WEIGHT",
             "ABSENT_WEIGHT", "ECHO_PENALTY", "NUMBER_PENALTY", "RANK_BONUS", "LONG_PENALTY")
FACTORS = (0.5, 0.75, 1.25, 1.5)
MIN_GAIN = 0.002     # about two KorQuAD questions in a thousand: smaller gains are noise
MAX_LONGER = 3.0     # characters of mean KorQuAD answer length a step may add
LIMIT = 5
HELD_OUT_ARTICLES, KORQUAD_ASKED = 20, 600   # bench/fit_threshold.py's defaults: the same unanswerable sets

_PREPARED: list[dict] = []   # per question: its analysis, hits, heads and how it is judged (set before forking)


def prepare(tenant, questions: list[dict], source: str) -> list[dict]:
    """Each question's analysis and search hits (with its documents' other chunks), read once."""
    out = []
    for q in questions:
        analysis = analyze(q["question"])
        hits, heads, ranked = looked_at(tenant, analysis, LIMIT)
        out.append({"q": q, "source": source, "analysis": analysis, "hits": hits, "heads": heads, "ranked": ranked})
    return out


def unanswerable(work: Path) -> list[tuple[str, Path, list[dict]]]:
    """(name, folder, questions) of bench/fit_threshold.py's sets without an answer in their folder."""
    rng = random.Random(fit_threshold.SEED)
    build, kq = fit_threshold.korquad_questions(work)
    txt = sorted((build / "corpus_txt").glob("*.txt"))
    held_out = set(rng.sample(sorted({q["doc"] for q in kq}), HELD_OUT_ARTICLES))
    rng.sample([q for q in kq if q["doc"] not in held_out], KORQUAD_ASKED)   # fit_threshold's draws, in its order
    missing = rng.sample([q for q in kq if q["doc"] in held_out], KORQUAD_ASKED // 3)
    documents = [bench.document_of(t) for t in bench.truth_files()]
    with_answer = [q for q in bench.corpus_questions() if q["half"] == "tuning" and q.get("answer_snippet")]
    return [("korquad_without", bench.copied_folder(work / "kq_without", [p for p in txt if p.stem not in held_out]),
             missing),
            ("corpus_without", bench.copied_folder(work / "corpus_without",
                                                   [d for d in documents if d.name not in bench.TUNING_FILES]),
             with_answer)]


def _outcome(item: dict) -> tuple[str, float, int]:
    """(source, right 0/1, answer length) of one prepared question under the constants now set."""
    chosen = choose_lines(item["analysis"], item["hits"], ranked=item["ranked"], heads=item["heads"])
    text = "\n".join(line.text for line in chosen)
    result = {"answered": bool(chosen), "text": text, "lines": [{"text": line.text} for line in chosen]}
    if item["source"] == "korquad":
        return "korquad", float(bench.judge_korquad(item["q"], result)["whole"]), len(text)
    if item["source"] != "corpus":       # asked where the folder does not answer
        return item["source"], float(not chosen), len(text)
    verdict = bench.judge(item["q"], result)
    return ("corpus_none" if not item["q"].get("answer_snippet") else "corpus"), \
        float(verdict in ("correct", "refused_ok")), len(text)


def _evaluate_chunk(args: tuple[dict, int, int]) -> list[tuple[str, float, int]]:
    values, start, stop = args
    for name, value in values.items():
        setattr(scoring, name, value)
    return [_outcome(item) for item in _PREPARED[start:stop]]


def evaluate(pool, values: dict) -> dict:
    """The objective (module doc), its parts and the mean KorQuAD answer length."""
    step = max(1, len(_PREPARED) // 8)
    parts = pool.map(_evaluate_chunk, [(values, i, i + step) for i in range(0, len(_PREPARED), step)])
    rows = [row for part in parts for row in part]
    by = {}
    for source, right, length in rows:
        by.setdefault(source, []).append((right, length))
    rate = {s: sum(r for r, _ in v) / len(v) for s, v in by.items()}
    lengths = [length for right, length in by["korquad"] if length]
    answered = (rate["korquad"] + rate["corpus"]) / 2
    refused = (rate["korquad_without"] + rate["corpus_without"]) / 2
    return {"objective": (answered + refused) / 2, "answered": answered, "refused": refused, **rate,
            "length": sum(lengths) / max(1, len(lengths)), "none_refused": rate.get("corpus_none", 1.0)}


def _line(result: dict) -> str:
    return (f"objective {result['objective']:.4f}  korquad {result['korquad']:.3f}  corpus {result['corpus']:.3f}"
            f"  refused: without article {result['korquad_without']:.3f}, without document {result['corpus_without']:.3f},"
            f" no-answer {result['none_refused']:.0%}  length {result['length']:.0f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--korquad", type=int, default=1000, help="KorQuAD tuning questions")
    parser.add_argument("--sweeps", type=int, default=2)
    parser.add_argument("--build-dir", type=Path, default=bench.DEFAULT_BUILD)
    parser.add_argument("--cache", type=Path, help="parse cache and indexes kept between runs (default: a temp dir)")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "noda_threshold",
                        help="bench/fit_threshold.py's folders (built there when missing)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="noda_constants_") as tmp:
        cache = args.cache or Path(tmp) / "cache"
        tenant = bench.korquad_tenant(bench.build_korquad(args.build_dir), cache)
        _PREPARED.extend(prepare(tenant, bench.korquad_tuning_questions(args.build_dir, args.korquad), "korquad"))
        tenant.close()
        tenant = bench.corpus_tenant(Path(tmp), cache)
        tuning = [q for q in bench.corpus_questions() if q["half"] == "tuning"]
        _PREPARED.extend(prepare(tenant, tuning, "corpus"))
        tenant.close()
        for name, folder, questions in unanswerable(args.work):
            tenant = Tenant(folder, cache_root=args.work / "cache" / name)
            tenant.refresh()
            _PREPARED.extend(prepare(tenant, questions, name))
            tenant.close()
    values = {name: getattr(scoring, name) for name in CONSTANTS}
    with multiprocessing.get_context("fork").Pool(2) as pool:
        best = evaluate(pool, values)
        start_length = best["length"]
        print("start  ", _line(best), flush=True)
        for sweep in range(args.sweeps):
            moved = False
            for name in CONSTANTS:
                for factor in FACTORS:
                    trial = {**values, name: round(values[name] * factor, 4)}
                    result = evaluate(pool, trial)
                    take = (result["objective"] > best["objective"] + MIN_GAIN
                            and result["answered"] >= best["answered"] and result["refused"] >= best["refused"]
                            and result["length"] <= start_length + MAX_LONGER and result["none_refused"] == 1.0)
                    print(f"{'take ' if take else '     '} {name}={trial[name]:<7} {_line(result)}", flush=True)
                    if take:
                        values, best, moved = trial, result, True
            if not moved:
                break
    print("constants:", ", ".join(f"{name} = {value}" for name, value in values.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
