"""Hostile and damaged files (issue 14): one test per way a file broke something, each from a fixture
generated here (tests/hostile.py). Sizes are scaled down; what makes each file hostile is kept."""
from __future__ import annotations

import io
import json
import random
import subprocess
import sys
import time
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from engine import jsonout
from engine.library.workers import Outcome, WorkerPool, failed_document, read_job
from engine.limits import DEFAULT_LIMITS, Limits
from engine.read.detect import detect
from engine.read.formats.xlsx import SharedStrings
from engine.read.formats.zipsafe import ExpansionBudget
from engine.read.parse import parse_bytes, parse_path
from noda_desktop.cli import _parse_each, main
from tests import hostile
from tests.documents import docx_bytes
from tests.test_archive import make_zip

ROOT = Path(__file__).resolve().parent.parent

MB = 1024 * 1024


def _peak(call):
    """``call()``'s result and the peak of Python memory it allocated."""
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# ---- office files are zip bombs (case 1) ---------------------------------------------------

def test_hwpx_whose_section_inflates_hundreds_of_times_is_refused_before_inflating(tmp_path):
    path = hostile.hwpx_section_bomb(tmp_path / "보고.hwpx", scale=0.2)   # 38 MB section in 120 KB
    (doc,), peak = _peak(lambda: parse_path(str(path)))
    assert (doc.readable, doc.reason) == (False, "TOO_LARGE")
    assert doc.warning_codes() == ["PART_TOO_LARGE"]
    assert "Contents/section0.xml" in doc.warnings[0].text
    assert peak < 2 * MB


def test_docx_with_huge_picture_parts_reads_its_text_without_inflating_them(tmp_path):
    path = hostile.docx_image_bomb(tmp_path / "그림.docx", scale=0.05)    # two 50 MB pictures of zeros
    (doc,), peak = _peak(lambda: parse_path(str(path)))
    assert doc.readable and doc.all_text() == "그림이 부풀려진 문서입니다"
    assert peak < 4 * MB


def test_a_repetitive_real_document_is_no_bomb():
    paragraph = "가나다라마바사아자차카타파하 " * 70     # deflates over 200-fold
    (doc,) = parse_bytes(docx_bytes(*(f"{i}번째 문단입니다. {paragraph}" for i in range(1200))), "반복.docx")
    assert doc.readable and len(doc.blocks) == 1200


def test_docx_pictures_are_never_inflated():
    picture = random.Random(1).randbytes(12 * MB)   # 12 MB that do not compress, like a photo
    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(docx_bytes("사진이 큰 보고서"))) as src, \
            zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info))
        dst.writestr("word/media/photo.png", b"\x89PNG\r\n\x1a\n" + picture, compress_type=zipfile.ZIP_STORED)
    data = buf.getvalue()
    (doc,), peak = _peak(lambda: parse_bytes(data, "사진.docx"))
    assert doc.readable and doc.all_text() == "사진이 큰 보고서"
    assert peak < 6 * MB   # the 12 MB picture was left in the package, not taken out


def test_xlsx_shared_strings_take_one_buffer_not_a_list_of_strings(tmp_path):
    path = hostile.xlsx_shared_strings(tmp_path / "공유.xlsx", scale=0.02)   # 1.2 MB of strings
    with zipfile.ZipFile(path) as zf:
        from openpyxl.reader.strings import read_string_table
        with zf.open("xl/sharedStrings.xml") as src:
            listed, list_peak = _peak(lambda: read_string_table(src))
        with zf.open("xl/sharedStrings.xml") as src:
            compact, compact_peak = _peak(lambda: SharedStrings(src))
    assert len(compact) == len(listed) > 20_000
    assert [compact[i] for i in (0, 1, len(listed) - 1, -1)] == [listed[i] for i in (0, 1, len(listed) - 1, -1)]
    assert compact_peak < list_peak / 2
    (doc,) = parse_path(str(path))
    assert doc.readable and doc.tables[0].cells[0].text == listed[0]


def test_office_part_larger_than_the_tree_budget_is_too_large(tmp_path):
    limits = Limits(max_rss_bytes=40 * MB)     # 2 MB of XML trees per document
    path = hostile.hwpx_under_limits(tmp_path / "긴.hwpx", megabytes=2.5)
    (doc,) = parse_path(str(path), limits=limits)
    assert (doc.readable, doc.reason) == (False, "TOO_LARGE")
    assert doc.warning_codes() == ["PART_TOO_LARGE"]
    (fits,) = parse_path(str(path))
    assert fits.readable


def test_document_past_the_content_limit_keeps_its_first_part_and_says_so(tmp_path):
    limits = Limits(max_rss_bytes=40 * MB)     # 16,777 blocks, 2 MB of XML trees
    path = hostile.docx_under_limits(tmp_path / "문단.docx", megabytes=1.0)   # ~23,000 paragraphs
    (doc,) = parse_path(str(path), limits=limits)
    assert doc.readable and "CONTENT_LIMIT" in doc.warning_codes()
    assert len(doc.blocks) == limits.content_items
    assert doc.blocks[0].text == "문단 0번"


def test_office_files_inside_a_zip_share_one_budget():
    hwpx = io.BytesIO()
    with zipfile.ZipFile(hwpx, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("mimetype", "application/hwp+zip")
        zf.writestr("Contents/section0.xml", hostile.hwpx_section_xml(400_000))
    members = {f"{n}.hwpx": hwpx.getvalue() for n in range(5)}
    limits = Limits(max_archive_total_bytes=1 * MB)   # each reads 0.4 MB: the third one breaks it
    (doc,) = parse_bytes(make_zip(members), "붙임.zip", limits=limits)
    assert (doc.source.filename, doc.reason) == ("붙임.zip", "ARCHIVE_UNSAFE")
    assert doc.warning_codes() == ["ARCHIVE_TOO_BIG"]
    assert len(parse_bytes(make_zip(members), "붙임.zip")) == 5


# ---- a stored ZIP that starts with a PDF (case 2) -------------------------------------------

def test_stored_zip_whose_first_member_is_a_pdf_gives_every_member(tmp_path):
    path = hostile.stored_zip_with_pdf_first(tmp_path / "묶음.zip")
    assert path.read_bytes()[:1024].find(b"%PDF-") != -1
    docs = parse_path(str(path))
    assert [d.source.filename for d in docs] == ["묶음.zip/1_공문.pdf", "묶음.zip/2_붙임.docx", "묶음.zip/3_메모.docx"]
    assert all(d.readable for d in docs)


def test_pdf_behind_a_little_junk_is_still_a_pdf():
    pdf = hostile.simple_pdf("앞에 군더더기")
    assert detect(b"\r\n" * 100 + pdf).format == "pdf"
    assert detect(b"PK\x03\x04" + b"\0" * 26 + pdf).format == "zip"


# ---- --json is always JSON (case 3) -----------------------------------------------------------

@pytest.mark.parametrize("make", [hostile.pdf_broken_jbig2, hostile.pdf_nested_arrays])
def test_mupdf_complaints_become_a_warning_never_stdout(tmp_path, capfd, make):
    path = make(tmp_path / "깨진.pdf")
    (doc,) = parse_path(str(path))
    out, _err = capfd.readouterr()
    assert out == ""
    assert "MUPDF_MESSAGES" in doc.warning_codes()
    assert doc.readable or doc.access.reason_text


def test_finding_a_pdfs_ruled_tables_prints_nothing():
    # PyMuPDF's table finder recommends a layout package on stdout the first time it runs in a process
    script = ("from engine.read.mupdf import pymupdf\n"
              "page = pymupdf.open().new_page()\n"
              "for y in (100, 130, 160):\n"
              "    page.draw_line((72, y), (400, y))\n"
              "for x in (72, 200, 400):\n"
              "    page.draw_line((x, 100), (x, 160))\n"
              "for x, y in ((80, 120), (210, 120), (80, 150), (210, 150)):\n"
              "    page.insert_text((x, y), '칸', fontname='korea')\n"
              "assert page.find_tables(strategy='lines').tables\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout == ""


def test_line_separators_in_text_are_escaped_in_json(tmp_path, capsys):
    folder = tmp_path / "문서"
    folder.mkdir()
    (folder / "줄.docx").write_bytes(docx_bytes("첫째\u2028둘째\u2029셋째\u0085넷째"))
    (folder / "보통.docx").write_bytes(docx_bytes("보통 문단"))
    assert main(["parse", str(folder), "--json"]) == 0
    out = capsys.readouterr().out
    assert "\u2028" not in out and "\u2029" not in out and "\u0085" not in out
    lines = out.splitlines()
    assert len(lines) == 2
    texts = {json.loads(line)["source"]["filename"]: json.loads(line)["blocks"][0]["text"] for line in lines}
    assert texts["줄.docx"] == "첫째\u2028둘째\u2029셋째\u0085넷째"
    assert json.loads(jsonout.dumps({"t": "\u2028"})) == {"t": "\u2028"}


def test_every_hostile_fixture_gives_json_lines_and_a_listing(tmp_path, capfd, monkeypatch):
    folder = build_hostile_folder(tmp_path / "위험")
    monkeypatch.setenv("NODA_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["parse", str(folder), "--json"]) == 0
    lines = capfd.readouterr().out.splitlines()
    docs = [json.loads(line) for line in lines]
    assert len(docs) >= len(list(folder.iterdir()))
    assert all(d["access"]["readable"] or d["access"]["reason_text"] for d in docs)
    assert main(["documents", str(folder), "--json"]) == 0
    listing = json.loads(capfd.readouterr().out)
    assert len(listing["documents"]) == len(docs)


def build_hostile_folder(folder: Path) -> Path:
    """Every hostile fixture, small, in one folder."""
    folder.mkdir(parents=True)
    hostile.hwpx_section_bomb(folder / "폭탄.hwpx", scale=0.01)
    hostile.docx_image_bomb(folder / "그림폭탄.docx", scale=0.002)
    hostile.xlsx_shared_strings(folder / "공유.xlsx", scale=0.01)
    hostile.stored_zip_with_pdf_first(folder / "묶음.zip")
    hostile.pdf_broken_jbig2(folder / "jbig2.pdf")
    hostile.pdf_nested_arrays(folder / "배열.pdf")
    hostile.nested_within_limits(folder / "겹겹.zip", levels=3, width=2, members=5, member_bytes=200_000)
    hostile.nested_bomb(folder / "42.zip", inner_mb=1)
    (folder / "줄바꿈.docx").write_bytes(docx_bytes("글\u2028자\u0085"))
    return folder


# ---- noda parse has the folder's time limit (case 6) --------------------------------------------

def test_noda_parse_reads_each_file_in_a_worker_under_the_time_limit(tmp_path):
    slow = hostile.hwpx_under_limits(tmp_path / "느림.hwpx", megabytes=10)
    quick = tmp_path / "빠름.docx"
    quick.write_bytes(docx_bytes("금방 읽힙니다"))
    paths = [str(slow), str(quick)]
    started = time.monotonic()
    (late,), (fine,) = _parse_each(paths, {p: Path(p).name for p in paths}, timeout_s=2)
    assert time.monotonic() - started < 20
    assert (late.source.filename, late.reason) == ("느림.hwpx", "TIMEOUT")
    assert fine.readable and fine.source.filename == "빠름.docx"


# ---- nested archives (case 6) -----------------------------------------------------------------

def test_nested_archives_inside_every_per_level_rule_are_refused_as_one(tmp_path):
    path = hostile.nested_within_limits(tmp_path / "겹겹.zip", members=100, member_bytes=1_000_000)
    limits = Limits(max_archive_total_bytes=250 * MB)   # 2.7 GB over four levels
    started = time.monotonic()
    docs = parse_path(str(path), limits=limits)
    assert time.monotonic() - started < 10
    assert [(d.source.filename, d.reason) for d in docs] == [("겹겹.zip", "ARCHIVE_UNSAFE")]
    assert docs[0].warning_codes() == ["ARCHIVE_TOO_BIG"]


def test_42_zip_style_file_is_one_document_at_once(tmp_path):
    path = hostile.nested_bomb(tmp_path / "42.zip", inner_mb=4)
    started = time.monotonic()
    docs = parse_path(str(path))
    assert time.monotonic() - started < 3
    assert [(d.source.filename, d.reason) for d in docs] == [("42.zip", "ARCHIVE_UNSAFE")]
    assert docs[0].warning_codes() == ["ARCHIVE_TOO_DEEP"]


def test_members_held_along_a_nesting_chain_stay_under_the_memory_share():
    inner = make_zip({"큰.txt": b"x" * (3 * MB)}, compression=zipfile.ZIP_STORED)
    outer = make_zip({"안.zip": inner, "작은.bin": b"\0\1\2"}, compression=zipfile.ZIP_STORED)
    limits = Limits(max_rss_bytes=12 * MB)   # 7.2 MB may be held: outer 3 + inner 3 + member 3 MB is too much
    docs = parse_bytes(outer, "밖.zip", limits=limits)
    assert [(d.source.filename, d.reason) for d in docs] == [
        ("밖.zip/안.zip/큰.txt", "TOO_LARGE"), ("밖.zip/작은.bin", "UNSUPPORTED_FORMAT")]
    assert docs[0].warning_codes() == ["MEMBER_TOO_LARGE_NESTED"]


# ---- the memory limit of a parse worker ---------------------------------------------------------

def grow(megabytes: int) -> int:
    """A job that takes ``megabytes`` of memory under the default memory guard (module level for spawn)."""
    from engine.read.memguard import guard

    with guard(200 * MB):
        hoard = [bytearray(MB) for _ in range(megabytes)]
        time.sleep(0.3)
        return len(hoard)


def test_a_worker_past_the_memory_limit_becomes_too_large():
    pool = WorkerPool(workers=1, timeout_s=30, job=grow)
    pool.submit("big", 400)
    pool.submit("small", 10)
    out: dict[str, Outcome] = {}
    while pool.pending():
        for outcome in pool.collect(0.5):
            out[outcome.key] = outcome
    pool.close()
    assert out["big"].failure == "MEMORY" and out["small"].value == 10
    doc = failed_document(out["big"], "큰.pdf", 1, None)
    assert (doc.reason, doc.warning_codes()) == ("TOO_LARGE", ["MEMORY_LIMIT"])


def test_read_job_gives_the_documents_of_one_file(tmp_path):
    path = tmp_path / "한.docx"
    path.write_bytes(docx_bytes("작업자가 읽은 문서"))
    pool = WorkerPool(workers=1, job=read_job)   # a worker's job: its memory guard would end this process
    pool.submit("one", str(path), "붙임/한.docx", DEFAULT_LIMITS)
    (outcome,) = pool.collect(60)
    pool.close()
    (doc,) = outcome.value
    assert doc.source.filename == "붙임/한.docx" and doc.all_text() == "작업자가 읽은 문서"


def test_budget_counts_what_really_inflates_while_streaming():
    data = make_zip({"a.xml": b"<a>" + b"x" * 300_000 + b"</a>"})
    budget = ExpansionBudget(Limits())
    with budget.open(data) as zf, zf.open("a.xml") as fh:
        first = fh.read(1000)
        assert budget.inflated == len(first) == 1000
        fh.read()
    assert budget.inflated == 300_007 and budget.tree_bytes == 300_007
