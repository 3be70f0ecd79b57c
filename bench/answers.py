"""Extractive answers measured on three sets in one run, through the real answer path (engine.answer.extract).

    .venv/bin/python bench/answers.py [--sets korquad,corpus,rewording] [--build-dir /tmp/noda_kq_build]
                                      [--cache DIR] [--show] [--records FILE]

(a) **KorQuAD** (../shared/bench/korquad_dev): the shared build step (its
    build_corpus.build, the 300-question dev sample as shipped) writes the
    articles as .txt files into ``--build-dir``; that folder is one Tenant, and
    each question is answered with engine.answer.extract. Scored: the first answer line
    and the whole answer text hold the gold answer (NFKC, case and whitespace
    ignored, as the shared runner does), mean answer length, share refused.
    Never tuned on. ``korquad_tuning`` (not in the default sets) answers a fixed
    sample of the other 5,795 questions (``--tuning-sample``, seed 13) over the
    same tenant: what a change to the picker may be tuned on.
(b) **The shared corpus questions** (../shared/corpus/questions.jsonl) over one
    tenant of every corpus document, split by document into a tuning half
    (``TUNING_FILES``, what bench/fit_picker.py and bench/fit_threshold.py may learn from) and a reported
    half (the rest). A question is right when one answer line holds its
    ``answer_snippet`` (whitespace runs collapsed); a no-answer question
    (``kind: none``) must be refused. No-answer questions alternate between the
    halves in file order (the first reported).
(c) **Rewordings** (bench/rewordings.jsonl): every shared question asked again in
    other words, written from the question alone (never from its answer), scored
    against the original's snippet, side by side with the original wording.
    Never tuned on.

(d) **Office documents gathered apart** (``--office DIR``, not in the default sets): real public
    documents outside the shared corpus (``DIR/docs/``, where they came from in ``DIR/SOURCES.tsv``)
    with questions written over them without running the engine (``DIR/questions.jsonl``, shaped like
    the shared ones; ``"scoped": true`` for an "이 문서 …" question, asked with that document as its
    scope). One tenant of all their documents; split by document (every other one, by name, in each
    DIR) into a tuning and a reported half, no-answer questions alternating. Judged as (b).

Answer time p50/p95 is printed per set (the machine is shared: compare runs side
by side, not against figures of another day). ``--cache`` keeps the parse cache
and indexes between runs; ``--records`` writes one JSON line per question.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.answer.extract import answer  # noqa: E402
from engine.library.tenant import Tenant  # noqa: E402
from tests.corpus import CORPUS, SHARED, document_of, squash, truth_files  # noqa: E402

KORQUAD = SHARED / "bench" / "korquad_dev"
DEFAULT_BUILD = Path(tempfile.gettempdir()) / "noda_kq_build"
REWORDINGS = Path(__file__).resolve().parent / "rewordings.jsonl"
# The tuning half of the shared corpus questions, by document (twins of one document — the .hwp and
# the .hwpx or .pdf of the same text — stay on one side). Every other document's questions are reported.
TUNING_FILES = frozenset((
    "nts_법규양도2008-0091.hwp", "nts_재삼46014-2330.hwp", "kwater_디지털플랫폼구축_제안요청서.hwp",
    "moef_2024년1분기_해외직접투자_보도자료.hwp", "moef_2024년1분기_해외직접투자_보도자료.hwpx",
    "moef_2024년_연간_해외직접투자_hwpx-02.hwpx", "moef_통합재정통계(2014.8월).hwp",
    "과업지시서_070.hwp", "과업지시서_070.hwpx", "예산서내역_table-complex.hwp",
    "hancom_한글문서파일형식_5.0_revision1.3.hwp", "hancom_한글문서파일형식_5.0_revision1.3.pdf",
    "hancom_한글문서파일형식_수식_revision1.3.hwp", "hancom_한글문서파일형식_수식_revision1.3.pdf",
    "seoul_CCTV_in_seoul.xlsx", "애국가.docx",
    "pyhwp_viewtext_distribution.hwp",
))
SETS = ("korquad", "corpus", "rewording")
OPTIONAL_SETS = ("korquad_tuning", "office")
TUNING_SEED = 13


# ---- the question sets -----------------------------------------------------------------------
def corpus_questions() -> list[dict]:
    """The shared corpus questions, each with ``half`` ("tuning" | "reported") and ``n`` (its line)."""
    rows = [json.loads(line) for line in (CORPUS / "questions.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]
    unanswerable = 0
    for n, row in enumerate(rows):
        row["n"] = n
        if row.get("answer_snippet"):
            row["half"] = "tuning" if row.get("file") in TUNING_FILES else "reported"
        else:
            row["half"] = "reported" if unanswerable % 2 == 0 else "tuning"
            unanswerable += 1
    return rows


def rewording_questions(originals: list[dict]) -> list[dict]:
    """bench/rewordings.jsonl, each joined to its original question (snippet, half); a rewording whose
    original changed (its hash differs) is left out and counted on stderr."""
    out, stale = [], 0
    for line in REWORDINGS.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        original = originals[row["of"]] if row["of"] < len(originals) else None
        if original is None or _sha(original["question"]) != row["of_sha1"]:
            stale += 1
            continue
        out.append({**original, "question": row["question"], "original": original["question"]})
    if stale:
        print(f"[answers] {stale} rewordings left out: their original question changed", file=sys.stderr)
    return out


def office_questions(dirs: list[Path]) -> list[dict]:
    """The questions of each office DIR, each with ``half`` and its ``document`` scope (None unless scoped)."""
    out, unanswerable = [], 0
    for folder in dirs:
        names = sorted(p.name for p in (folder / "docs").iterdir() if p.is_file())
        half_of = {name: ("tuning", "reported")[i % 2] for i, name in enumerate(names)}
        for n, line in enumerate((folder / "questions.jsonl").read_text(encoding="utf-8").splitlines()):
            if not line.strip():
                continue
            row = {**json.loads(line), "n": f"{folder.name}:{n}"}
            if row.get("answer_snippet"):
                row["half"] = half_of.get(row.get("file"), "reported")
            else:
                row["half"] = "reported" if unanswerable % 2 == 0 else "tuning"
                unanswerable += 1
            row["document"] = row["file"] if row.get("scoped") and row.get("file") else None
            out.append(row)
    return out


def korquad_questions(build_dir: Path) -> list[dict]:
    with open(build_dir / "questions.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def korquad_tuning_questions(build_dir: Path, count: int) -> list[dict]:
    """``count`` KorQuAD questions outside the dev sample (seeded), from the shared build's own
    selection of every question (its ``select`` with ``sample_size`` 0)."""
    build_corpus = shared_build()
    config = {**build_corpus.load_config(KORQUAD), "sample_size": 0}
    _articles, every, _stats = build_corpus.select(config, KORQUAD)
    dev = {q["id"] for q in korquad_questions(build_dir)}
    rest = sorted((q for q in every if q["id"] not in dev), key=lambda q: q["id"])
    return sorted(random.Random(TUNING_SEED).sample(rest, min(count, len(rest))), key=lambda q: q["id"])


def _sha(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]


# ---- the tenants -----------------------------------------------------------------------------
def shared_build():
    """The shared KorQuAD bench's own build_corpus module (its folder joins sys.path once)."""
    if str(KORQUAD) not in sys.path:
        sys.path.append(str(KORQUAD))
    import build_corpus  # noqa: E402

    return build_corpus


def build_korquad(build_dir: Path, bench_dir: Path = KORQUAD) -> Path:
    """The shared build step (build_corpus.build), into ``build_dir`` (reused when up to date)."""
    return shared_build().build(bench_dir, build_dir, quiet=True)


def korquad_tenant(build_dir: Path, cache: Path) -> Tenant:
    """The KorQuAD articles (.txt) of ``build_dir`` as one refreshed tenant."""
    tenant = Tenant(build_dir / "corpus_txt", cache_root=cache / "korquad")
    tenant.refresh()
    return tenant


def copied_folder(folder: Path, files: list[Path]) -> Path:
    """``folder`` holding a copy of each of ``files`` (a tenant does not follow links out of its folder)."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in files:
        if not (folder / path.name).exists():
            shutil.copy2(path, folder / path.name)
    return folder


def corpus_tenant(base: Path, cache: Path) -> Tenant:
    """A tenant folder of copies of every corpus document (in ``base``, a temp folder), refreshed with its
    own cache."""
    folder = copied_folder(base / "corpus", [document_of(truth) for truth in truth_files()])
    tenant = Tenant(folder, cache_root=cache / "corpus")
    tenant.refresh()
    return tenant


def office_tenant(base: Path, cache: Path, dirs: list[Path]) -> Tenant:
    """One refreshed tenant of copies of every office DIR's documents."""
    files = [p for folder in dirs for p in sorted((folder / "docs").iterdir()) if p.is_file()]
    tenant = Tenant(copied_folder(base / "office", files), cache_root=cache / "office")
    tenant.refresh()
    return tenant


# ---- judging ---------------------------------------------------------------------------------
def norm(text: str) -> str:
    """The shared KorQuAD runner's normalisation: NFKC, case folded, no whitespace."""
    return shared_build().norm(text)


def judge_korquad(question: dict, result: dict) -> dict:
    gold = norm(question["answer"])
    lines = result.get("lines") or []
    return {"first": bool(lines) and gold in norm(lines[0]["text"]),
            "whole": result["answered"] and gold in norm(result["text"]),
            "refused": not result["answered"]}


def judge(question: dict, result: dict) -> str:
    """'correct' | 'wrong' | 'refused' for answerable questions; 'refused_ok' | 'answered_bad' otherwise."""
    snippet = question.get("answer_snippet")
    if not snippet:
        return "answered_bad" if result["answered"] else "refused_ok"
    if not result["answered"]:
        return "refused"
    return "correct" if any(holds(line["text"], snippet) for line in result["lines"]) else "wrong"


def holds(text: str, snippet: str) -> bool:
    """Whether an answer line holds the snippet, whitespace collapsed and a table row's empty cells left
    out ("날짜 |  | YYYY-MM-DD" holds "날짜 | YYYY-MM-DD": chunks keep a plain grid's empty cells)."""
    return _no_empty_cells(squash(snippet)) in _no_empty_cells(squash(text))


def _no_empty_cells(text: str) -> str:
    return re.sub(r"\|(\s*\|)+", "|", text)


# ---- running ---------------------------------------------------------------------------------
def run(tenant: Tenant, questions: list[dict], judge_one, limit: int, records: list, name: str,
        show: bool) -> tuple[list[dict], list[float]]:
    verdicts, times = [], []
    for q in questions:
        started = time.perf_counter()
        result = answer(tenant, q["question"], limit=limit, document=q.get("document"))
        times.append(time.perf_counter() - started)
        verdict = judge_one(q, result)
        verdicts.append({"verdict": verdict, "length": len(result["text"]) if result["answered"] else None,
                         "half": q.get("half")})
        records.append({"set": name, "question": q["question"], "verdict": verdict, "text": result["text"],
                        "files": [c["filename"] for c in result["citations"]], "reason": result["reason"],
                        "half": q.get("half"), "id": q.get("id", q.get("n")), "kind": q.get("kind"),
                        "want": q.get("answer_snippet") or q.get("answer"), "document": q.get("document")})
        if show and not is_right(verdict):
            want = q.get("answer") or q.get("answer_snippet")
            print(f"{name:9} {verdict}  {q['question']}\n{'':9} want: {want}")
            for line, citation in zip(result["lines"], result["citations"]):
                print(f"{'':9} got:  {citation['filename']} | {line['text'][:160]}")
    return verdicts, times


def is_right(verdict) -> bool:
    """Whether a verdict counts as right: KorQuAD's whole answer holds the gold; elsewhere correct or rightly refused."""
    if isinstance(verdict, dict):
        return verdict["whole"]
    return verdict in ("correct", "refused_ok")


def _times(times: list[float]) -> str:
    if not times:
        return "-"
    ordered = sorted(times)
    return f"{ordered[len(ordered) // 2]:.2f} / {ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]:.2f}"


def korquad_rows(verdicts: list[dict], times: list[float]) -> list[tuple[str, str]]:
    n = len(verdicts)
    lengths = [v["length"] for v in verdicts if v["length"] is not None]
    share = lambda key: sum(1 for v in verdicts if v["verdict"][key]) / max(n, 1)  # noqa: E731
    return [("questions", str(n)),
            ("answer ⊇ gold, first line", f"{share('first'):.3f}"),
            ("answer ⊇ gold, whole answer", f"{share('whole'):.3f}"),
            ("mean answer length (chars)", f"{sum(lengths) / max(len(lengths), 1):.0f}"),
            ("refused", f"{share('refused'):.1%}"),
            ("answer time p50 / p95 (s)", _times(times))]


def corpus_counts(verdicts: list[dict], half: str | None = None) -> dict:
    chosen = [v for v in verdicts if half is None or v["half"] == half]
    counts = {k: sum(1 for v in chosen if v["verdict"] == k)
              for k in ("correct", "wrong", "refused", "refused_ok", "answered_bad")}
    counts["answerable"] = counts["correct"] + counts["wrong"] + counts["refused"]
    counts["no_answer"] = counts["refused_ok"] + counts["answered_bad"]
    lengths = [v["length"] for v in chosen if v["length"] is not None]
    counts["mean_length"] = sum(lengths) / max(len(lengths), 1)
    return counts


def _corpus_cell(c: dict) -> str:
    right = f"{c['correct']}/{c['answerable']} ({c['correct'] / max(c['answerable'], 1):.0%})"
    return (f"{right:>13}  wrong {c['wrong']:2}  refused {c['refused']:2}  "
            f"no-answer refused {c['refused_ok']}/{c['no_answer']}  mean {c['mean_length']:.0f} ch")


def _half_rows(verdicts: list[dict]) -> list[str]:
    """The report's rows of a set split into halves: reported, tuning, all."""
    return [f"    {half or 'all':9} {_corpus_cell(corpus_counts(verdicts, half))}" for half in ("reported", "tuning", None)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", default=",".join(SETS),
                        help="comma-separated: " + ", ".join(SETS + OPTIONAL_SETS))
    parser.add_argument("--tuning-sample", type=int, default=300, help="KorQuAD tuning questions (korquad_tuning)")
    parser.add_argument("--build-dir", type=Path, default=DEFAULT_BUILD,
                        help="where the shared KorQuAD build step writes the articles (under /tmp)")
    parser.add_argument("--cache", type=Path, help="parse cache and indexes kept between runs (default: a temp dir)")
    parser.add_argument("--office", type=Path, action="append", default=[],
                        help="a folder of office documents (docs/) and questions.jsonl: the office set (d)")
    parser.add_argument("--limit", type=int, default=5, help="search hits the answer ranks first")
    parser.add_argument("--show", action="store_true", help="print every question that was not right")
    parser.add_argument("--records", type=Path, help="write one JSON line per question here")
    args = parser.parse_args()
    sets = [s for s in args.sets.split(",") if s]
    if args.office and "office" not in sets:
        sets.append("office")
    records: list[dict] = []
    report: list[str] = []
    with tempfile.TemporaryDirectory(prefix="noda_answers_") as tmp:
        cache = args.cache or Path(tmp) / "cache"
        if "korquad" in sets or "korquad_tuning" in sets:
            started = time.perf_counter()
            build_dir = build_korquad(args.build_dir)
            tenant = korquad_tenant(build_dir, cache)
            read_s = time.perf_counter() - started
            for name, title in (("korquad", "dev sample"), ("korquad_tuning", "tuning sample")):
                if name not in sets:
                    continue
                questions = (korquad_questions(build_dir) if name == "korquad"
                             else korquad_tuning_questions(build_dir, args.tuning_sample))
                verdicts, times = run(tenant, questions, judge_korquad, args.limit, records, name, args.show)
                report.append(f"(a) KorQuAD {title} through the answer path ({build_dir / 'corpus_txt'}, "
                              f"read in {read_s:.0f} s)")
                report += [f"    {row:30} {value:>12}" for row, value in korquad_rows(verdicts, times)]
            tenant.close()
        if "corpus" in sets or "rewording" in sets:
            started = time.perf_counter()
            tenant = corpus_tenant(Path(tmp), cache)
            read_s = time.perf_counter() - started
            originals = corpus_questions()
            wanted = []
            if "corpus" in sets or "rewording" in sets:
                wanted.append(("original", originals))
            if "rewording" in sets:
                wanted.append(("reworded", rewording_questions(originals)))
            results = {}
            for name, questions in wanted:
                results[name] = run(tenant, questions, judge, args.limit, records, name, args.show)
            tenant.close()
            report.append(f"(b) shared corpus questions, one tenant of every corpus document (read in {read_s:.0f} s)")
            verdicts, times = results["original"]
            report += _half_rows(verdicts)
            report.append(f"    answer time p50 / p95 (s) {_times(times):>12}")
            if "reworded" in results:
                reworded, rtimes = results["reworded"]
                report.append("(c) rewordings (bench/rewordings.jsonl) against the original wording")
                for half in ("reported", "tuning", None):
                    report.append(f"    {half or 'all':9} reworded {_corpus_cell(corpus_counts(reworded, half))}")
                    report.append(f"    {'':9} original {_corpus_cell(corpus_counts(verdicts, half))}")
                report.append(f"    answer time p50 / p95 (s) {_times(rtimes):>12}")
        if "office" in sets and args.office:
            started = time.perf_counter()
            tenant = office_tenant(Path(tmp), cache, args.office)
            read_s = time.perf_counter() - started
            questions = office_questions(args.office)
            verdicts, times = run(tenant, questions, judge, args.limit, records, "office", args.show)
            tenant.close()
            report.append(f"(d) office documents gathered apart ({', '.join(map(str, args.office))}; "
                          f"read in {read_s:.0f} s)")
            report += _half_rows(verdicts)
            scoped = [v for v, q in zip(verdicts, questions) if q["document"]]
            report.append(f"    scoped    {_corpus_cell(corpus_counts(scoped))}")
            report.append(f"    answer time p50 / p95 (s) {_times(times):>12}")
    if args.records:
        with open(args.records, "w", encoding="utf-8") as fh:
            for row in records:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"\nextractive answers (engine.answer.extract, limit={args.limit})")
    print("\n".join(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
