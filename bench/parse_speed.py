"""How much slower is our PDF reader than PyMuPDF's raw text extraction?

For the shared corpus PDFs and a generated 300-page Korean PDF (with a ruled
table on every third page) it prints, per file, the best of several rounds of
``engine.read.parse.parse_bytes`` (the whole parse: detection, reader, structure,
metrics) and of the PDF reader alone next to raw ``page.get_text("dict")``
over the same pages, their ratios (target <= 1.5x) and, at the end, the
peak RSS.
Times are CPU seconds of this process (the machine may be shared, which
makes wall-clock times jump); the wall-clock ratio is printed as well.

    .venv/bin/python bench/parse_speed.py [--rounds 3] [--pages 300] [--pdf FILE ...]
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.model import Document, Source  # noqa: E402
from engine.read.formats import pdf  # noqa: E402
from engine.read.formats.base import DocumentBuilder  # noqa: E402
from engine.read.parse import parse_bytes  # noqa: E402
from tests.corpus import CORPUS  # noqa: E402

NANUM = Path("/usr/share/fonts/truetype/nanum/NanumGothic.ttf")
SENTENCES = [
    "2026년 지역 농업인 지원사업의 신청 기간은 3월 2일부터 3월 31일까지입니다.",
    "지원 대상은 관내에 주소를 둔 농업인으로, 신청서와 구비서류를 읍·면사무소에 제출합니다.",
    "예산은 총 50억 원이며 심사를 거쳐 대상자를 선정하고 결과는 개별 통보합니다.",
    "문의 사항은 농업정책과(☎ 031-123-4567)로 연락해 주시기 바랍니다.",
]


def make_korean_pdf(path: Path, pages: int) -> None:
    """A text PDF of ``pages`` pages: a heading, Korean paragraphs, a 4x3 ruled table on every third page."""
    doc = pymupdf.open()
    font_args = {"fontname": "nanum", "fontfile": str(NANUM)} if NANUM.exists() else {"fontname": "korea"}
    for n in range(pages):
        page = doc.new_page()
        page.insert_text((72, 80), f"제{n + 1}장 사업 안내", fontsize=16, **font_args)
        y = 120
        for i in range(18):
            page.insert_text((72, y), SENTENCES[(n + i) % len(SENTENCES)], fontsize=10, **font_args)
            y += 18
        if n % 3 == 0:
            top, rows, cols, w, h = y + 20, 4, 3, 150, 22
            for r in range(rows + 1):
                page.draw_line((72, top + r * h), (72 + cols * w, top + r * h))
            for c in range(cols + 1):
                page.draw_line((72 + c * w, top), (72 + c * w, top + rows * h))
            for r in range(rows):
                for c in range(cols):
                    page.insert_text((78 + c * w, top + r * h + 15), f"항목 {r}-{c} 금액 {r * c * 100}원",
                                     fontsize=9, **font_args)
    doc.save(path, garbage=3, deflate=True)


def best_of(rounds: int, fn) -> tuple[float, float]:
    """Least CPU seconds and least wall-clock seconds over ``rounds`` calls of ``fn``."""
    cpu = wall = float("inf")
    for _ in range(rounds):
        started, started_cpu = time.perf_counter(), time.process_time()
        fn()
        cpu = min(cpu, time.process_time() - started_cpu)
        wall = min(wall, time.perf_counter() - started)
    return cpu, wall


def reader_only(data: bytes) -> None:
    doc = Document(doc_id=None, source=Source(filename="x.pdf", format="pdf", bytes=len(data)))
    pdf.read(data, DocumentBuilder(doc, "pymupdf"))


def raw_dict(data: bytes) -> None:
    with pymupdf.open(stream=data, filetype="pdf") as pdf:
        for page in pdf:
            page.get_text("dict")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pages", type=int, default=300, help="pages of the generated PDF")
    parser.add_argument("--pdf", type=Path, action="append", default=[],
                        help="a further PDF to time (forms: bench/office/*/docs/*.pdf)")
    args = parser.parse_args()

    files = (sorted(CORPUS.glob("*.pdf")) if CORPUS.is_dir() else []) + args.pdf
    with tempfile.TemporaryDirectory() as tmp:
        generated = Path(tmp) / f"generated_{args.pages}p.pdf"
        make_korean_pdf(generated, args.pages)
        files.append(generated)
        print(f"{'file':44} {'pages':>5} {'parse s':>7} {'reader':>7} {'raw s':>7} "
              f"{'parse/raw':>9} {'reader/raw':>10} {'wall':>6} {'tables':>6}")
        totals = [0.0] * 5
        for path in files:
            data = path.read_bytes()
            docs: list = []
            ours, ours_wall = best_of(args.rounds, lambda: docs.append(parse_bytes(data, path.name)[0]))
            reader, _ = best_of(args.rounds, lambda: reader_only(data))
            raw, raw_wall = best_of(args.rounds, lambda: raw_dict(data))
            doc = docs[-1]
            totals = [a + b for a, b in zip(totals, (ours, reader, raw, ours_wall, raw_wall))]
            print(f"{path.name[:44]:44} {doc.source.pages or 0:5d} {ours:7.3f} {reader:7.3f} {raw:7.3f} "
                  f"{ours / raw:8.2f}x {reader / raw:9.2f}x {ours_wall / raw_wall:5.2f}x {len(doc.tables):6d}")
        print(f"{'all':44} {'':5} {totals[0]:7.3f} {totals[1]:7.3f} {totals[2]:7.3f} "
              f"{totals[0] / totals[2]:8.2f}x {totals[1] / totals[2]:9.2f}x {totals[3] / totals[4]:5.2f}x")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"peak RSS {peak_mb:.0f} MB  (OCR {'on' if os.environ.get('NODA_OCR') != '0' else 'off'})")


if __name__ == "__main__":
    main()
