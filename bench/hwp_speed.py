"""HWP reader speed against the floor, over every HWP 5 file of the shared corpus.

    .venv/bin/python bench/hwp_speed.py [--rounds 5]

The floor is what any reader must do: open the OLE container and inflate
(for 배포용 files: decrypt, then inflate) every section stream, parsing
nothing. The reader is ``engine.read.formats.hwp.read`` into a fresh Document;
``parse_bytes`` adds detection, hashing and the Document's finishing touches.
Times are CPU seconds of this process (best of the rounds), so other work on
the machine disturbs them less than wall time would. Then the reader's own
steps over the inflated sections (record walk, records → paragraphs,
paragraphs → builder, each with the garbage collector paused as in the
reader), per-file ratios, and the peak RSS of parsing the largest file in a
child process.
"""
from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.model import Document, Source  # noqa: E402
from engine.read.formats import hwp  # noqa: E402
from engine.read.formats.base import DocumentBuilder  # noqa: E402
from engine.read.formats.hwp.body import SectionReader  # noqa: E402
from engine.read.formats.hwp.container import HwpContainer, inflate  # noqa: E402
from engine.read.formats.hwp.distribution import decrypt_section  # noqa: E402
from engine.read.formats.hwp.emit import emit_body  # noqa: E402
from engine.read.formats.hwp.header import parse_header  # noqa: E402
from engine.read.formats.hwp.pages import PageCounter  # noqa: E402
from engine.read.formats.hwp.records import RecordStream  # noqa: E402
from engine.read.parse import parse_bytes  # noqa: E402
from tests.corpus import CORPUS  # noqa: E402

BIG = "kwater_디지털플랫폼구축_제안요청서.hwp"


def floor(data: bytes) -> list[bytes]:
    """Open the container and inflate every section; no record parsing. Returns the sections."""
    container = HwpContainer(data)
    sections = []
    try:
        header = parse_header(container.read("FileHeader"))
        storage = "ViewText" if header.distribution else "BodyText"
        for name in container.sections(storage):
            raw = container.read(name)
            if header.distribution:
                raw = decrypt_section(raw)
            if header.compressed:
                raw = inflate(raw)[0]
            sections.append(raw)
    finally:
        container.close()
    return sections


def reader(data: bytes) -> None:
    doc = Document(doc_id=None, source=Source(filename="x.hwp", format="hwp", bytes=len(data)))
    hwp.read(data, DocumentBuilder(doc, "hwp-native"))


def full(data: bytes) -> None:
    parse_bytes(data, "x.hwp")


def readable_files() -> list[tuple[str, bytes]]:
    """Corpus HWP 5 files the reader opens (password/DRM/broken ones are skipped)."""
    files = []
    for path in sorted(CORPUS.glob("*.hwp")):
        data = path.read_bytes()
        try:
            floor(data)
        except Exception:
            continue
        files.append((path.name, data))
    return files


def timed(func, files, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for _name, data in files:
            func(data)
        best = min(best, time.process_time() - started)
    return best


def steps(files, rounds: int) -> dict[str, float]:
    """Best CPU seconds of the reader's steps over every section of ``files``."""
    sections = [raw for _name, data in files for raw in floor(data)]
    streams = [RecordStream(raw) for raw in sections]
    paras = [SectionReader(PageCounter(), {}).read(stream) for stream in streams]

    def emit() -> None:
        for section in paras:
            doc = Document(doc_id=None, source=Source(filename="x.hwp", format="hwp", bytes=0))
            emit_body(DocumentBuilder(doc, "hwp-native"), section)

    work = {"record walk": lambda: [RecordStream(raw) for raw in sections],
            "→ paragraphs": lambda: [SectionReader(PageCounter(), {}).read(s) for s in streams],
            "→ builder": emit}
    gc.disable()
    try:
        return {name: timed(lambda _data: func(), [("all", b"")], rounds) for name, func in work.items()}
    finally:
        gc.enable()


def peak_rss_mb(path: Path) -> float:
    """Peak resident memory (MB) of a fresh interpreter that parses ``path`` once."""
    code = ("import resource, sys; sys.path.insert(0, %r); from engine.read.parse import parse_path; "
            "parse_path(%r); print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)"
            % (str(ROOT), str(path)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    files = readable_files()
    total_mb = sum(len(d) for _n, d in files) / 1e6
    print(f"{len(files)} HWP files, {total_mb:.2f} MB, best of {args.rounds} rounds")
    results = {name: timed(func, files, args.rounds)
               for name, func in (("floor", floor), ("reader", reader), ("parse_bytes", full))}
    for name, seconds in results.items():
        print(f"{name:12} {seconds * 1000:8.1f} ms  {len(files) / seconds:7.1f} files/s  "
              f"{total_mb / seconds:6.2f} MB/s  x{seconds / results['floor']:.2f} floor")
    print("reader steps over the inflated sections: " + ", ".join(
        f"{name} {seconds * 1000:.1f} ms" for name, seconds in steps(files, args.rounds).items()))
    print("per file (reader / floor):")
    for name, data in files:
        f = timed(floor, [(name, data)], args.rounds)
        r = timed(reader, [(name, data)], args.rounds)
        print(f"  {name[:44]:44} {len(data) / 1e3:8.0f} kB  {r * 1000:7.1f} ms  x{r / f:.2f}")
    big = CORPUS / BIG
    if big.exists():
        print(f"peak RSS parsing {BIG}: {peak_rss_mb(big):.0f} MB")


if __name__ == "__main__":
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    main()
