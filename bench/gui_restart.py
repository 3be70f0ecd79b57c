"""How long after a restart does the window list a cached folder? Seconds, per restart.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/gui_restart.py [--docs 1000] [--runs 3] [--keep DIR]
        [--baseline OLD.json] [--out NEW.json]

Makes ``--docs`` small documents (bench/gui_stall.py's DOCX, XLSX and PDF mix) in ``<keep>/문서`` unless that folder
is there (a link to a real folder: the scale bench's 10,000 files), reads them once, then restarts
the window ``--runs`` times, each in a fresh process as a user's restart is, with the folder remembered in the
settings. Each restart reports the time from the start of the window (before the MainWindow is made) to the
full listing on screen (goal: ≤ 1 s), and to the refreshed listing that replaces it (nothing changed). The first
restart after the reading has no list of the window's own yet (the engine's saved listing is the first shown). With
``--baseline`` the medians are printed next to that earlier run's, as ratios.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
GOAL_S = 1.0


def one_restart(work: Path, docs: int) -> dict:
    """In this (fresh) process: open the window on the remembered folder and time the listing."""
    started = time.perf_counter()
    from PySide6.QtWidgets import QApplication

    from noda_desktop.gui import prepare_app
    from noda_desktop.settings import Settings
    from ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    prepare_app(app)
    window_started = time.perf_counter()
    window = MainWindow(settings=Settings(folders=[str(work / "문서")]), persist=False)
    window.show()
    listed = refreshed = None
    deadline = time.perf_counter() + 120
    while refreshed is None and time.perf_counter() < deadline:
        app.processEvents()
        now = time.perf_counter()
        if listed is None and window.documents.model.rowCount() == docs:
            listed = now
        state = window.service.state(window.service.folders()[0])
        if listed is not None and state.documents is not None and not state.from_cache and not window.service.busy:
            refreshed = now
        time.sleep(0.002)
    window.close()
    return {"imports_s": window_started - started,
            "listed_s": (listed - window_started) if listed else None,
            "refreshed_s": (refreshed - window_started) if refreshed else None}


def prepare(work: Path, docs: int) -> int:
    """Make the folder (unless it is there: it may be a link to a real one) and read it once; its rows."""
    from bench.gui_stall import make_documents
    from engine.library.tenant import Tenant

    folder = work / "문서"
    if not folder.is_dir():
        make_documents(folder, docs)
    tenant = Tenant(folder, cache_root=work / "cache")
    tenant.refresh()
    rows = tenant.documents(count=0)["total"]
    tenant.close()
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", help="use (and keep) this folder instead of a temporary one")
    parser.add_argument("--baseline", help="an earlier run's --out file to compare with")
    parser.add_argument("--out", help="write the medians here (JSON)")
    parser.add_argument("--one-restart", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="noda-restart-"))
    os.environ["NODA_CACHE_DIR"] = str(work / "cache")
    os.environ["NODA_CONFIG_DIR"] = str(work / "config")
    if args.one_restart:
        print(json.dumps(one_restart(work, args.docs)))
        return 0

    started = time.perf_counter()
    rows = prepare(work, args.docs)
    print(f"{rows} documents read once in {time.perf_counter() - started:.1f} s ({work})")
    runs = []
    for n in range(args.runs):
        out = subprocess.run([sys.executable, __file__, "--one-restart", "--docs", str(rows), "--keep", str(work)],
                             capture_output=True, text=True, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
        result = json.loads(out.stdout.strip().splitlines()[-1])
        runs.append(result)
        print(f"restart {n + 1}: listed {result['listed_s']:.2f} s · refreshed {result['refreshed_s']:.2f} s "
              f"(Qt and window imports {result['imports_s']:.2f} s before)")
    medians = {key: statistics.median(r[key] for r in runs) for key in ("listed_s", "refreshed_s", "imports_s")}
    print(f"median: listed {medians['listed_s']:.2f} s (goal ≤ {GOAL_S:.1f} s) · refreshed {medians['refreshed_s']:.2f} s")
    if args.baseline:
        old = json.loads(Path(args.baseline).read_text(encoding="utf-8"))
        for key in ("listed_s", "refreshed_s"):
            print(f"  {key}: {old[key]:.2f} s → {medians[key]:.2f} s  (× {medians[key] / old[key]:.2f})")
    if args.out:
        Path(args.out).write_text(json.dumps(medians), encoding="utf-8")
    return 0 if medians["listed_s"] <= GOAL_S else 1


if __name__ == "__main__":
    sys.exit(main())
