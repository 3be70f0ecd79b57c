"""Does the window stay responsive while it indexes? The longest GUI-thread stall, in ms.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/gui_stall.py [--docs 600] [--keep DIR] [--show-gaps]

Generates ``--docs`` small Korean documents (DOCX, XLSX and PDF in turn) in a
temporary folder and opens the real main window with a small folder already
open (so the engine process is up and the main view is on screen, as after
any start with remembered folders). Then the big folder is added as a user
would, and while it is read and indexed in the background a 5 ms QTimer on
the GUI thread records the gap between its ticks. Prints the longest gap (goal:
< 100 ms), the 99th percentile, and the indexing rate. Caches and settings
go to the temporary folder too. Exit status 0 when the goal is met.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

WORDS = ["예산", "집행", "청년", "창업", "지원", "공고", "심사", "계약", "보고", "회의", "교육", "시설",
         "안전", "점검", "민원", "처리", "기간", "대상", "신청", "결과"]
TICK_MS = 5
GOAL_MS = 100


def sentence(i: int, j: int) -> str:
    w = [WORDS[(i * 7 + j * 3 + k) % len(WORDS)] for k in range(6)]
    return f"{i}번 문서 {j}번 문단: {w[0]} {w[1]} 계획에 따라 {w[2]} {w[3]}을 {w[4]}하고 {w[5]} 결과를 알린다."


def make_documents(folder: Path, count: int) -> None:
    """``count`` documents: DOCX, XLSX and PDF in turn, each a few paragraphs or rows."""
    import docx
    import openpyxl
    import pymupdf

    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        kind = i % 3
        if kind == 0:
            d = docx.Document()
            d.add_heading(f"업무 보고 {i}", level=1)
            for j in range(8):
                d.add_paragraph(sentence(i, j))
            d.save(folder / f"보고_{i:04d}.docx")
        elif kind == 1:
            wb = openpyxl.Workbook()
            ws = wb.active
            ws.append(["항목", "금액", "비고"])
            for j in range(20):
                ws.append([WORDS[(i + j) % len(WORDS)], (i + 1) * (j + 1) * 1000, sentence(i, j)])
            wb.save(folder / f"집행_{i:04d}.xlsx")
        else:
            pdf = pymupdf.open()
            page = pdf.new_page()
            text = "\n".join(sentence(i, j) for j in range(10))
            page.insert_text((56, 72), text, fontname="korea", fontsize=10)
            pdf.save(folder / f"공문_{i:04d}.pdf")
            pdf.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=600)
    parser.add_argument("--keep", help="use (and keep) this folder instead of a temporary one")
    parser.add_argument("--show-gaps", action="store_true", help=f"print every stall over {GOAL_MS} ms as it happens")
    args = parser.parse_args(argv)

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="noda-stall-"))
    os.environ["NODA_CACHE_DIR"] = str(work / "cache")
    os.environ["NODA_CONFIG_DIR"] = str(work / "config")
    folder = work / "문서"
    started = time.perf_counter()
    make_documents(folder, args.docs)
    make_documents(work / "먼저 연 폴더", 3)
    print(f"문서 {args.docs}개 만듦: {time.perf_counter() - started:.1f}초 ({folder})")

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from noda_desktop.gui import prepare_app
    from noda_desktop.settings import Settings
    from ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    prepare_app(app)
    window = MainWindow(settings=Settings(), persist=False)
    window.show()
    window.add_folder(work / "먼저 연 폴더", remember=False)
    while window.service.busy or not window.service.folders():
        app.processEvents()
        time.sleep(0.01)

    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append((now - last[0]) * 1000)
        if args.show_gaps and gaps[-1] > GOAL_MS:
            print(f"  {now - begin:6.2f}초에 {gaps[-1]:.0f} ms 멈춤")
        last[0] = now

    timer = QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(tick)
    finished: dict = {}
    loop = QEventLoop()
    window.service.refresh_finished.connect(lambda folder, result: (finished.update(result), loop.quit()))
    window.service.refresh_failed.connect(lambda folder, message: (finished.update(error=message), loop.quit()))

    begin = time.perf_counter()
    last[0] = begin
    timer.start()
    window.add_folder(folder, remember=False)
    loop.exec()
    timer.stop()
    elapsed = time.perf_counter() - begin

    if "error" in finished:
        print(f"읽기 실패: {finished['error']}")
        return 1
    state = window.service.state(str(folder.resolve()))
    docs = len((state.documents or {}).get("documents", [])) if state else 0
    worst = max(gaps) if gaps else 0.0
    p99 = statistics.quantiles(gaps, n=100)[98] if len(gaps) >= 100 else worst
    over = sum(1 for g in gaps if g > GOAL_MS)
    print(f"읽고 색인한 문서: {docs}개, {elapsed:.1f}초 ({docs / elapsed:.1f}개/초)")
    print(f"GUI 스레드 최장 멈춤: {worst:.1f} ms (99백분위 {p99:.1f} ms, 틱 {len(gaps)}번, "
          f"{GOAL_MS} ms 넘은 틱 {over}번) — 목표 < {GOAL_MS} ms: {'통과' if worst < GOAL_MS else '실패'}")
    window.close()
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if worst < GOAL_MS else 1


if __name__ == "__main__":
    sys.exit(main())
