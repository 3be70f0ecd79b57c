"""Damaged HWP files: every mutant of a real corpus file must end in a Document, quickly.

Four families, over 2,000 mutants in all: truncation at many offsets, random
bit flips anywhere, damaged records inside a section stream (re-packed into
the OLE container), and missing streams. Each mutant goes through
``engine.read.parse.parse_bytes`` and must come back as one Document within 5 s;
every 25th is traced to show memory stays small.
"""
from __future__ import annotations

import io
import random
import struct
import time
import tracemalloc
import zlib

import olefile
import pytest

from engine.model import Document
from engine.read.detect import OLE_MAGIC
from engine.read.formats.hwp.preview import EXTRACTOR as PREVIEW_EXTRACTOR
from engine.read.formats.hwp.tables import MAX_CELLS
from engine.read.parse import parse_bytes
from tests.corpus import CORPUS, requires_corpus

pytestmark = [requires_corpus, pytest.mark.timeout(600)]

SECONDS_PER_MUTANT = 5.0
TRACED_PEAK_BYTES = 200 * 1024 * 1024


def sources() -> list[tuple[str, bytes]]:
    """Every HWP 5 (OLE) file of the corpus."""
    if not CORPUS.is_dir():
        return []
    return [(p.name, p.read_bytes()) for p in sorted(CORPUS.glob("*.hwp"))
            if p.read_bytes().startswith(OLE_MAGIC)]


class Checker:
    """Parses mutants and checks what every Document must satisfy."""

    def __init__(self) -> None:
        self.count = 0
        self.outcomes: dict[str, int] = {}

    def __call__(self, data: bytes, label: str) -> Document:
        traced = self.count % 25 == 0
        if traced:
            tracemalloc.start()
        started = time.perf_counter()
        docs = parse_bytes(data, "mutant.hwp")
        elapsed = time.perf_counter() - started
        if traced:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            assert peak < TRACED_PEAK_BYTES, (label, peak)
        self.count += 1
        assert len(docs) == 1, label
        doc = docs[0]
        assert elapsed < SECONDS_PER_MUTANT, (label, elapsed)
        assert doc.access.readable or doc.access.reason, label
        ids = {b.id for b in doc.blocks}
        assert all(b.parent is None or b.parent in ids for b in doc.blocks), label
        if "PREVIEW_ONLY" in doc.warning_codes():   # a body damaged before any text: all text is the preview's
            assert all(b.extractor == PREVIEW_EXTRACTOR for b in doc.blocks if b.text), label
        for table in doc.tables:
            assert table.block in ids and table.rows * table.cols <= MAX_CELLS, label
            for cell in table.cells:
                assert cell.row + cell.row_span <= table.rows and cell.col + cell.col_span <= table.cols
        key = doc.access.reason or ("preview" if "PREVIEW_ONLY" in doc.warning_codes() else "readable")
        self.outcomes[key] = self.outcomes.get(key, 0) + 1
        return doc


def test_truncation_at_many_offsets():
    check = Checker()
    for name, data in sources():
        offsets = {len(data) * k // 45 for k in range(1, 45)} | {512, 1024, len(data) - 1}
        for cut in sorted(offsets):
            check(data[:cut], f"{name} cut at {cut}")
    assert check.count >= 1000
    assert check.outcomes.get("CORRUPT", 0) > 0
    assert "EMPTY" not in check.outcomes    # a cut file is damaged, not empty


def test_random_bit_flips():
    check = Checker()
    rng = random.Random(5)
    for name, data in sources():
        for _ in range(25):
            mutant = bytearray(data)
            for _ in range(rng.randint(1, 16)):
                at = rng.randrange(len(mutant))
                mutant[at] ^= 1 << rng.randrange(8)
            check(bytes(mutant), f"{name} flips")
    assert check.count >= 500


# -- damaged records inside a section -----------------------------------------
def record_offsets(stream: bytes) -> list[int]:
    """Where each record header starts (a plain walk over the sizes)."""
    offsets, pos = [], 0
    while pos + 4 <= len(stream):
        offsets.append(pos)
        size = struct.unpack_from("<I", stream, pos)[0] >> 20
        pos += 4
        if size == 0xFFF and pos + 4 <= len(stream):
            size = struct.unpack_from("<I", stream, pos)[0]
            pos += 4
        pos += size
    return offsets


def damage(stream: bytes, rng: random.Random) -> bytes:
    """One record-level injury: header bits, absurd sizes, levels, tags, table sizes, a cut."""
    out = bytearray(stream)
    offsets = record_offsets(stream)
    at = rng.choice(offsets)
    head = struct.unpack_from("<I", out, at)[0]
    kind = rng.randrange(8)
    if kind == 0:
        head ^= 1 << rng.randrange(32)
    elif kind == 1:
        head = head & 0xFFFFF | 0xFFF << 20
        if at + 8 <= len(out):
            struct.pack_into("<I", out, at + 4, rng.choice([0xFFFFFFFF, 0x7FFFFFFF, len(out) * 2]))
    elif kind == 2:
        head = head & 0xFFFFF | rng.randrange(0xFFF) << 20
    elif kind == 3:
        head = head & ~(0x3FF << 10) | rng.randrange(1024) << 10
    elif kind == 4:
        head = head & ~0x3FF | rng.randrange(1024)
    elif kind == 5:   # every record one level deeper than the one before
        for i, off in enumerate(offsets[offsets.index(at):]):
            h = struct.unpack_from("<I", out, off)[0]
            struct.pack_into("<I", out, off, h & ~(0x3FF << 10) | min(i, 1023) << 10)
        head = struct.unpack_from("<I", out, at)[0]
    elif kind == 6:   # absurd table sizes and cell addresses
        for off in offsets:
            h = struct.unpack_from("<I", out, off)[0]
            tag, size = h & 0x3FF, h >> 20
            if tag == 0x10 + 61 and size >= 8 and off + 12 <= len(out):
                struct.pack_into("<HH", out, off + 8, 0xFFFF, 0xFFFF)
            if tag == 0x10 + 56 and size >= 16 and off + 20 <= len(out):
                struct.pack_into("<HHHH", out, off + 12, rng.randrange(0x10000), 0xFFFF, 0xFFFF, 0xFFFF)
    else:
        return bytes(out[:rng.randrange(at, len(out))])
    struct.pack_into("<I", out, at, head)
    return bytes(out)


def repack(data: bytes, stream_name: str, payload: bytes) -> bytes | None:
    """``data`` with one stream rewritten in place (same size); None when the payload does not fit."""
    buf = io.BytesIO(data)
    ole = olefile.OleFileIO(buf, write_mode=True)
    size = ole.get_size(stream_name)
    if len(payload) > size:
        ole.close()
        return None
    ole.write_stream(stream_name, payload + bytes(size - len(payload)))
    ole.close()
    return buf.getvalue()


def test_damaged_records():
    check = Checker()
    rng = random.Random(7)
    for name, data in sources():
        with olefile.OleFileIO(io.BytesIO(data)) as ole:
            flags = struct.unpack_from("<I", ole.openstream("FileHeader").read(), 36)[0]
            if flags & 0b10110:          # password, 배포용 or DRM: the body is not plain records
                continue
            raw = ole.openstream("BodyText/Section0").read()
        compressed = bool(flags & 1)
        records = zlib.decompressobj(-15).decompress(raw) if compressed else raw
        made = 0
        for _ in range(80):
            injured = damage(records, rng)
            if compressed:
                packer = zlib.compressobj(9, zlib.DEFLATED, -15)
                injured = packer.compress(injured) + packer.flush()
            mutant = repack(data, "BodyText/Section0", injured)
            if mutant is None:
                continue
            check(mutant, f"{name} damaged records")
            made += 1
            if made == 40:
                break
    assert check.count >= 600
    assert check.outcomes.get("readable", 0) > 0


def test_missing_streams():
    check = Checker()
    names = ["FileHeader", "DocInfo", "BodyText", "Section0", "Section1", "ViewText",
             "PrvImage", "PrvText", "\x05HwpSummaryInformation"]
    for name, data in sources():
        for stream in names:
            at = data.find(stream.encode("utf-16-le") + b"\x00\x00")
            if at < 0:
                continue
            mutant = bytearray(data)
            mutant[at] ^= 0x01   # the directory entry now names another stream
            with olefile.OleFileIO(io.BytesIO(bytes(mutant))) as ole:
                if any(stream in entry for entry in ole.listdir(streams=True, storages=True)):
                    continue     # the bytes were not the directory entry
            doc = check(bytes(mutant), f"{name} without {stream}")
            if stream == "FileHeader":
                assert not doc.access.readable, f"{name} without {stream}"
            if stream == "BodyText" and "ViewText" not in names_in(data):   # at most the preview is left
                assert not doc.access.readable or "PREVIEW_ONLY" in doc.warning_codes(), f"{name} without {stream}"
    assert check.count >= 100


def names_in(data: bytes) -> set[str]:
    with olefile.OleFileIO(io.BytesIO(data)) as ole:
        return {part for entry in ole.listdir(streams=True, storages=True) for part in entry}
