"""Fuzz (slow): thousands of damaged files, each read in a parse worker as the app reads folders.

Seeds are documents generated here (DOCX, XLSX, PDF, HWPX, ZIP), the smallest
corpus files of each format when the shared corpus is there (HWP, HWPX, PDF,
DOCX, XLSX, ZIP), and the hostile fixtures (tests/hostile.py). Each mutant —
bytes flipped, zeroed, cut, doubled or inserted, a ZIP member's content
damaged, or a ZIP header's sizes, flags or method rewritten — goes through
a worker under the folder's time and memory limits and must give Documents
that are readable or carry a reason with its Korean sentence, that make valid
JSON no line reader splits, with the worker's peak memory under the limit.
A folder of mutants then goes through `noda parse DIR --json`, every line JSON.

    ./dev.sh test -m slow tests/test_fuzz.py
"""
from __future__ import annotations

import io
import json
import random
import re
import resource
import struct
import zipfile
from collections import Counter
from pathlib import Path

import openpyxl
import pytest

from engine import jsonout
from engine.library.workers import Outcome, WorkerPool, failed_document
from engine.limits import DEFAULT_LIMITS, MB
from engine.read.memguard import guard
from engine.read.parse import parse_path
from noda_desktop.cli import main
from tests import hostile
from tests.corpus import CORPUS
from tests.documents import docx_bytes
from tests.test_archive import make_zip

pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]

MUTANTS = 2400
SECONDS_PER_FILE = 30
HANGUL = re.compile("[가-힣]")
LINE_BREAKS = ("\u2028", "\u2029", "\u0085")
CORPUS_FORMATS = (".hwp", ".hwpx", ".pdf", ".docx", ".xlsx", ".zip")


def fuzz_job(path: str, name: str) -> tuple[list[str], int]:
    """Worker side: the JSON of each Document of one file, and the worker's peak memory so far (bytes)."""
    with guard(DEFAULT_LIMITS.max_rss_bytes):
        docs = parse_path(path, display_name=name)
        texts = [jsonout.dumps(d.to_dict()) for d in docs]
    return texts, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


# ---- seeds ----------------------------------------------------------------------------------

def _xlsx() -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["항목", "예산(원)", "비고"])
    for n in range(30):
        sheet.append([f"사업 {n}", n * 1000, "계속" if n % 2 else "신규"])
    sheet.merge_cells("C2:C4")
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def _hwpx() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("mimetype", "application/hwp+zip")
        zf.writestr("Contents/content.hpf", '<opf:package xmlns:opf="http://www.idpf.org/2007/opf/"><opf:manifest>'
                    '<opf:item id="s0" href="Contents/section0.xml"/></opf:manifest>'
                    '<opf:spine><opf:itemref idref="s0"/></opf:spine></opf:package>')
        zf.writestr("Contents/section0.xml", hostile.hwpx_section_xml(20_000))
    return buf.getvalue()


def seeds(tmp: Path) -> dict[str, bytes]:
    """name -> bytes of every file the mutants start from."""
    out = {"공문.docx": docx_bytes("2025년 예산 집행 계획", "신청 기간: 3월 2일부터 3월 31일까지"),
           "예산.xlsx": _xlsx(),
           "보고.pdf": hostile.simple_pdf("사업 결과 보고서"),
           "기안.hwpx": _hwpx()}
    out["붙임.zip"] = make_zip({"가.docx": out["공문.docx"], "나.pdf": out["보고.pdf"]})
    if CORPUS.is_dir():
        for ext in CORPUS_FORMATS:
            files = sorted((p for p in CORPUS.glob(f"*{ext}") if p.stat().st_size <= 1_500_000),
                           key=lambda p: p.stat().st_size)
            for p in files[:2]:
                out[f"corpus_{p.name}"] = p.read_bytes()
    from tests.test_hostile import build_hostile_folder
    for p in sorted(build_hostile_folder(tmp / "hostile").iterdir()):
        out[f"hostile_{p.name}"] = p.read_bytes()
    return out


# ---- mutations -----------------------------------------------------------------------------------

def mutate(data: bytes, rnd: random.Random) -> tuple[str, bytes]:
    """One damaged copy of ``data`` and the name of what was done to it."""
    kinds = ["flip", "truncate", "zero", "duplicate", "insert"]
    if data[:2] == b"PK":
        kinds += ["member", "member", "header"]
    kind = rnd.choice(kinds)
    out = bytearray(data)
    n = len(out)
    if kind == "flip":
        for _ in range(rnd.randint(1, 30)):
            out[rnd.randrange(n)] ^= 1 << rnd.randrange(8)
    elif kind == "truncate":
        out = out[:rnd.randrange(n)]
    elif kind == "zero":
        start = rnd.randrange(n)
        out[start:start + rnd.randint(1, 4096)] = bytes(min(n - start, rnd.randint(1, 4096)))
    elif kind == "duplicate":
        start = rnd.randrange(n)
        out[start:start] = out[start:start + rnd.randint(1, 8192)]
    elif kind == "insert":
        out[rnd.randrange(n):0] = rnd.randbytes(rnd.randint(1, 512))
    elif kind == "member":
        return kind, _damaged_member(data, rnd)
    else:
        return kind, _damaged_header(data, rnd)
    return kind, bytes(out)


def _damaged_member(data: bytes, rnd: random.Random) -> bytes:
    """The same ZIP with one member's uncompressed bytes damaged, re-packed."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as src:
            infos = [i for i in src.infolist() if not i.is_dir()]
            victim = rnd.choice(infos)
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as dst:
                for info in infos:
                    body = src.read(info)
                    if info is victim and body:
                        kind, body = mutate(body, rnd)
                    dst.writestr(info.filename, body)
            return buf.getvalue()
    except Exception:   # not a ZIP zipfile can re-pack: flip bytes instead
        return bytes(b ^ 0xFF if i % 997 == 0 else b for i, b in enumerate(data))


def _damaged_header(data: bytes, rnd: random.Random) -> bytes:
    """A central-directory record with its declared sizes, flags or method rewritten."""
    out = bytearray(data)
    records = [m.start() for m in re.finditer(rb"PK\x01\x02", data)]
    if not records:
        return bytes(out)
    at = rnd.choice(records)
    field = rnd.choice([(8, "<H", [1, 8, 0x800]), (10, "<H", [0, 8, 12, 14, 99]),
                        (20, "<I", [0, 1, 0xFFFFFFFF]), (24, "<I", [0, 1, 2 ** 31, 0xFFFFFFFF])])
    offset, fmt, values = field
    if at + offset + struct.calcsize(fmt) <= len(out):
        struct.pack_into(fmt, out, at + offset, rnd.choice(values))
    return bytes(out)


# ---- checks -------------------------------------------------------------------------------------

def check_document(text: str, where: str) -> None:
    assert not any(ch in text for ch in LINE_BREAKS), where
    doc = json.loads(text)
    access = doc["access"]
    if not access["readable"]:
        assert access["reason"] and access["reason_text"] and HANGUL.search(access["reason_text"]), where


def test_thousands_of_mutants_give_documents_with_reasons_valid_json_and_bounded_memory(tmp_path):
    rnd = random.Random(14)
    bases = seeds(tmp_path)
    folder = tmp_path / "mutants"
    folder.mkdir()
    files: dict[str, str] = {}   # path -> what it is
    for name, data in bases.items():   # every seed as it is, too
        (folder / name).write_bytes(data)
        files[str(folder / name)] = f"{name} (seed)"
    names = sorted(bases)
    for n in range(MUTANTS):
        base = names[n % len(names)]
        kind, data = mutate(bases[base], rnd)
        path = folder / f"{n:05d}_{base}"
        path.write_bytes(data)
        files[str(path)] = f"{base} {kind} #{n}"
    pool = WorkerPool(workers=2, timeout_s=SECONDS_PER_FILE, job=fuzz_job)
    outcomes: dict[str, Outcome] = {}
    pending = list(files)
    while pending or pool.pending():
        while pending and pool.pending() < 4:
            path = pending.pop()
            pool.submit(path, path, Path(path).name)
        for outcome in pool.collect(0.5):
            outcomes[outcome.key] = outcome
    pool.close()

    crashed = [files[k] for k, o in outcomes.items() if o.failure in ("CRASHED", "ERROR")]
    assert not crashed, crashed[:20]
    peak = 0
    for path, outcome in outcomes.items():
        if outcome.failure is not None:   # TIMEOUT or MEMORY: still a Document with a reason
            check_document(failed_document(outcome, Path(path).name, 0, None).to_json(), files[path])
            continue
        texts, rss = outcome.value
        assert texts, files[path]
        for text in texts:
            check_document(text, files[path])
        peak = max(peak, rss)
    assert len(outcomes) == len(files) >= 2000
    assert peak <= DEFAULT_LIMITS.max_rss_bytes + 64 * MB, peak
    failures = Counter(o.failure for o in outcomes.values() if o.failure)
    reasons = Counter(json.loads(t)["access"]["reason"] or "read" for o in outcomes.values()
                      if o.failure is None for t in o.value[0])
    print(f"{len(files)} files, worker peak {peak / MB:.0f} MB, failures {dict(failures)}, "
          f"reasons {dict(reasons.most_common())}")


def test_a_folder_of_mutants_through_noda_parse_json_is_one_json_document_per_line(tmp_path, capfd):
    rnd = random.Random(2014)
    bases = seeds(tmp_path)
    folder = tmp_path / "받은문서"
    folder.mkdir()
    names = sorted(bases)
    for n in range(200):
        base = names[n % len(names)]
        (folder / f"{n:03d}_{base}").write_bytes(mutate(bases[base], rnd)[1])
    assert main(["parse", str(folder), "--json"]) == 0
    lines = capfd.readouterr().out.splitlines()
    assert len(lines) >= 200
    for line in lines:
        check_document(line, line[:200])
