"""How well does offline OCR read Korean, and how fast?

Known Korean text is rendered to pictures and read back through the picture
reader (engine.read.formats.image -> engine.read.ocr): corpus PDF pages that hold
ground-truth snippets, and a generated page with a ruled table. Each page is
rendered at 150 and 300 dpi. Printed per dpi: Hangul syllable recall against
the page's text layer, the share of snippets found after removing all
whitespace, and seconds per page (wall clock and CPU). The corpus pictures
(which need OCR and have their own snippets) are read as they are.
Targets: recall >= 97 % at 300 dpi, <= 3 s per page.

    .venv/bin/python bench/ocr_quality.py [--dpi 150,300] [--per-pdf 2]
        [--language kor] [--long-side 1600,2000]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.read import ocr  # noqa: E402
from engine.read.parse import parse_bytes  # noqa: E402
from tests.corpus import CORPUS, squash  # noqa: E402

NANUM = Path("/usr/share/fonts/truetype/nanum/NanumGothic.ttf")
TABLE_PAGE = {
    "title": "2026년 농업인 지원사업 안내",
    "lines": ["신청 기간은 3월 2일부터 3월 31일까지이며 읍·면사무소에서 접수합니다.",
              "지원 대상은 관내에 주소를 둔 농업인으로 심사를 거쳐 선정합니다."],
    "table": [["구분", "지원 내용", "예산"],
              ["시설 지원", "비닐하우스 보수", "12억 원"],
              ["장비 지원", "농기계 구입비 절반", "8억 원"],
              ["교육 지원", "귀농인 영농 교육", "3억 원"]],
}


def hangul(text: str) -> Counter:
    return Counter(ch for ch in text if "가" <= ch <= "힣")


def bare(text: str) -> str:
    return re.sub(r"\s+", "", text)


def table_page() -> tuple[pymupdf.Document, list[str]]:
    """A generated page with a heading, two sentences and a ruled 4x3 table; its snippets."""
    doc = pymupdf.open()
    page = doc.new_page()
    font = {"fontname": "nanum", "fontfile": str(NANUM)} if NANUM.exists() else {"fontname": "korea"}
    page.insert_text((72, 90), TABLE_PAGE["title"], fontsize=18, **font)
    for i, line in enumerate(TABLE_PAGE["lines"]):
        page.insert_text((72, 140 + 22 * i), line, fontsize=11, **font)
    top, w, h = 220, 150, 28
    rows, cols = len(TABLE_PAGE["table"]), len(TABLE_PAGE["table"][0])
    for r in range(rows + 1):
        page.draw_line((72, top + r * h), (72 + cols * w, top + r * h))
    for c in range(cols + 1):
        page.draw_line((72 + c * w, top), (72 + c * w, top + rows * h))
    for r, row in enumerate(TABLE_PAGE["table"]):
        for c, cell in enumerate(row):
            page.insert_text((80 + c * w, top + r * h + 19), cell, fontsize=11, **font)
    snippets = [TABLE_PAGE["title"], *TABLE_PAGE["lines"]] + [c for row in TABLE_PAGE["table"] for c in row]
    return doc, snippets


def corpus_pages(per_pdf: int) -> list[tuple[str, pymupdf.Page, list[str]]]:
    """(label, page, snippets on that page) for corpus PDF pages holding truth snippets."""
    out = []
    for truth_path in sorted(CORPUS.glob("*.pdf.truth.json")):
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
        pdf = pymupdf.open(truth_path.with_name(truth_path.name[: -len(".truth.json")]))
        chosen = 0
        for page in pdf:
            text = squash(page.get_text())
            on_page = [s for s in truth.get("snippets", []) if squash(s) in text]
            if on_page and sum(hangul(text).values()) >= 50:
                out.append((f"{truth['file'][:28]} p{page.number + 1}", page, on_page))
                chosen += 1
                if chosen == per_pdf:
                    break
    return out


def read_picture(png: bytes) -> tuple[str, float, float]:
    """OCR text of a picture through the picture reader; wall and CPU seconds."""
    started, started_cpu = time.perf_counter(), time.process_time()
    doc = parse_bytes(png, "page.png")[0]
    return doc.all_text(), time.perf_counter() - started, time.process_time() - started_cpu


def run(pages, dpi: int) -> dict:
    truth_syllables = found_syllables = hits = snippets = 0
    wall = cpu = 0.0
    for _label, page, page_snippets in pages:
        text, w, c = read_picture(page.get_pixmap(dpi=dpi).tobytes("png"))
        truth = hangul(page.get_text())
        got = hangul(text)
        truth_syllables += sum(truth.values())
        found_syllables += sum(min(n, got[ch]) for ch, n in truth.items())
        hits += sum(bare(s) in bare(text) for s in page_snippets)
        snippets += len(page_snippets)
        wall, cpu = wall + w, cpu + c
    n = max(len(pages), 1)
    return {"recall": found_syllables / max(truth_syllables, 1), "hits": hits / max(snippets, 1),
            "wall": wall / n, "cpu": cpu / n}


def corpus_pictures() -> None:
    for truth_path in sorted(CORPUS.glob("*.truth.json")):
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
        if truth.get("format") != "image":
            continue
        text, wall, _ = read_picture(truth_path.with_name(truth_path.name[: -len(".truth.json")]).read_bytes())
        missing = [s for s in truth["snippets"] if bare(s) not in bare(text)]
        print(f"  {truth['file'][:40]:40} snippets {len(truth['snippets']) - len(missing)}/"
              f"{len(truth['snippets'])}  {wall:5.2f} s  missing {missing}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dpi", default="150,300")
    parser.add_argument("--per-pdf", type=int, default=2, help="corpus pages per PDF")
    parser.add_argument("--language", default=ocr.LANGUAGE)
    parser.add_argument("--long-side", default=str(ocr.LONG_SIDE),
                        help="comma-separated values of engine.read.ocr.LONG_SIDE (pixels) to compare")
    args = parser.parse_args()
    if not ocr.ocr_available(args.language):
        sys.exit(f"no OCR language data for {args.language!r}")
    ocr.LANGUAGE = args.language  # the setting every OcrSession starts from

    generated, generated_snippets = table_page()
    pages = corpus_pages(args.per_pdf) + [("generated table page", generated[0], generated_snippets)]
    print(f"language {args.language}, tessdata {ocr.find_tessdata(args.language)}, {len(pages)} pages")
    for long_side in [int(v) for v in args.long_side.split(",")]:
        ocr.LONG_SIDE = long_side
        print(f"pictures scaled to a long side of {long_side} px for OCR")
        for dpi in [int(v) for v in args.dpi.split(",")]:
            r = run(pages, dpi)
            print(f"  {dpi:3d} dpi  Hangul recall {r['recall']:6.1%}  snippets {r['hits']:6.1%}  "
                  f"{r['wall']:5.2f} s/page (CPU {r['cpu']:5.2f})", flush=True)
        corpus_pictures()


if __name__ == "__main__":
    main()
