"""Peak memory and time of `noda parse FILE --json` on the hostile fixtures, side by side with a baseline.

Each fixture (tests/hostile.py, written to a temporary folder at full size)
is parsed in a fresh process; the script prints its peak RSS (the whole
process tree, from the kernel's rusage), wall seconds, the Documents printed
(rows), their reasons, and whether every stdout line was valid JSON. With
``--baseline DIR`` (another checkout, e.g. ``git worktree add /tmp/base main~5``)
the same fixtures run against that code first, and ratios are printed.

    .venv/bin/python bench/hostile_rss.py [--baseline DIR] [--only NAME] [--timeout 300] [--scale 1.0]
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.limits import DEFAULT_LIMITS  # noqa: E402
from tests import hostile  # noqa: E402

# just under the XML a document may parse into trees (24 MB before that limit existed)
UNDER_XML_MB = 0.9 * getattr(DEFAULT_LIMITS, "xml_tree_bytes", 24 * 1024 * 1024) / (1024 * 1024)
FIXTURES = {
    "hwpx_section_bomb.hwpx": lambda p, s: hostile.hwpx_section_bomb(p, s),
    "docx_image_bomb.docx": lambda p, s: hostile.docx_image_bomb(p, s),
    "xlsx_shared_strings.xlsx": lambda p, s: hostile.xlsx_shared_strings(p, s),
    "stored_pdf_first.zip": lambda p, s: hostile.stored_zip_with_pdf_first(p),
    "pdf_broken_jbig2.pdf": lambda p, s: hostile.pdf_broken_jbig2(p),
    "pdf_nested_arrays.pdf": lambda p, s: hostile.pdf_nested_arrays(p),
    "nested_within_limits.zip": lambda p, s: hostile.nested_within_limits(p),
    "42.zip": lambda p, s: hostile.nested_bomb(p),
    # the largest files every budget rule lets through: what bounds the peak after the fix
    "hwpx_under_limits.hwpx": lambda p, s: hostile.hwpx_under_limits(p, UNDER_XML_MB * s),
    "docx_under_limits.docx": lambda p, s: hostile.docx_under_limits(p, UNDER_XML_MB * s),
    "xlsx_many_cells.xlsx": lambda p, s: hostile.xlsx_many_cells(p, int(2_000_000 * s)),
}


def build(folder: Path, name: str, scale: float) -> Path:
    """Write one fixture from a child process: a fork of a large bench process would count its
    memory in the parse's peak RSS."""
    subprocess.run([sys.executable, __file__, "--build", str(folder), "--only", name, "--scale", str(scale)],
                   check=True)
    return folder / name


def run(checkout: Path, path: Path, timeout: float, cache: Path) -> dict:
    """Parse ``path`` with the code in ``checkout``; peak RSS (MB), seconds, rows, reasons, JSON validity.

    The output goes to a file and is checked by another process: held here, a large output would
    count in the next fork's peak RSS (a child starts with its parent's resident pages)."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "NODA_CACHE_DIR": str(cache)}
    output = path.with_name(path.name + ".out")
    started = time.monotonic()
    with open(output, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "noda_desktop.cli", "parse", str(path), "--json"],
                                cwd=str(checkout), env=env, stdout=out, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        timed_out = False
        while True:   # os.wait4, not Popen.poll: the rusage of the reaped tree is what we measure
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - started > timeout and not timed_out:
                os.killpg(proc.pid, signal.SIGKILL)
                timed_out = True
            time.sleep(0.05)
    seconds = time.monotonic() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    checked = json.loads(subprocess.run([sys.executable, __file__, "--check", str(output)], check=True,
                                        capture_output=True, text=True).stdout)
    output.unlink()
    return {"rss_mb": usage.ru_maxrss / 1024, "seconds": seconds, "rows": checked["rows"],
            "reasons": Counter(checked["reasons"]), "json_ok": checked["bad_lines"] == 0 and not timed_out,
            "bad_lines": checked["bad_lines"], "timed_out": timed_out, "exit": proc.returncode}


def check(output: Path) -> dict:
    """Rows, reasons and lines that are not JSON in a `parse --json` output (one pretty value, or one per line)."""
    text = output.read_text(encoding="utf-8", errors="replace")
    try:
        docs, bad = [json.loads(text)], 0
    except ValueError:
        docs, bad = [], 0
        for line in text.split("\n"):
            if line.strip():
                try:
                    docs.append(json.loads(line))
                except ValueError:
                    bad += 1
    reasons = Counter(d.get("access", {}).get("reason") or "read" for d in docs)
    return {"rows": len(docs), "reasons": dict(reasons), "bad_lines": bad}


def describe(r: dict) -> str:
    reasons = ",".join(f"{k}×{v}" if v > 1 else k for k, v in r["reasons"].most_common(3))
    flag = "TIMEOUT" if r["timed_out"] else ("" if r["json_ok"] else f"JSON✗{r['bad_lines']}")
    return f"{r['rss_mb']:7.0f} MB {r['seconds']:6.1f} s {r['rows']:5d} rows {reasons} {flag}".rstrip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another checkout to run side by side")
    parser.add_argument("--only", action="append", help="fixture names (default: all)")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--scale", type=float, default=1.0, help="fixture size (1.0: as in issue 14)")
    parser.add_argument("--build", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--check", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.check:
        print(json.dumps(check(args.check)))
        return 0
    if args.build:
        for name in args.only:
            FIXTURES[name](args.build / name, args.scale)
        return 0
    names = args.only or list(FIXTURES)
    with tempfile.TemporaryDirectory(prefix="noda-hostile-") as tmp:
        folder = Path(tmp)
        worst = 0.0
        for name in names:
            path = build(folder, name, args.scale)
            size = path.stat().st_size / 1024
            line = f"{name:26s} {size:8.0f} KB"
            if args.baseline:
                base = run(args.baseline.resolve(), path, args.timeout, folder / "cache-base")
                line += f" | baseline {describe(base)}"
            now = run(ROOT, path, args.timeout, folder / "cache")
            worst = max(worst, now["rss_mb"])
            line += f" | now {describe(now)}"
            if args.baseline:
                line += f" | RSS ×{now['rss_mb'] / max(base['rss_mb'], 1):.2f}"
            print(line, flush=True)
        print(f"worst peak RSS now: {worst:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
