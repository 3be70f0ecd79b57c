"""The worker pool: a file that hangs or kills its worker costs only that file."""
from __future__ import annotations

import os
import time

from engine.search.schema import analyse_rows
from engine.library.cache import ParseCache
from engine.library.workers import Outcome, WorkerPool, failed_document, refresh_job
from engine.limits import DEFAULT_LIMITS


def misbehave(kind: str) -> str:
    """A job for the pool (module level, so 'spawn' workers can import it)."""
    if kind == "hang":
        time.sleep(600)
    if kind == "exit":
        os._exit(3)
    if kind == "segfault":
        import ctypes
        ctypes.string_at(0)
    if kind == "raise":
        raise ValueError(kind)
    return kind.upper()


def _run(pool: WorkerPool, jobs: list[str]) -> dict[str, Outcome]:
    for i, kind in enumerate(jobs):
        pool.submit(f"{i}:{kind}", kind)
    out = {}
    while pool.pending():
        for outcome in pool.collect(0.5):
            out[outcome.key] = outcome
    pool.close()
    return out


def test_hang_and_crashes_cost_only_their_job():
    started = time.monotonic()
    out = _run(WorkerPool(workers=2, timeout_s=3, job=misbehave),
               ["ok", "hang", "exit", "segfault", "raise", "fine", "hang", "last"])
    elapsed = time.monotonic() - started
    assert out["0:ok"].value == "OK" and out["5:fine"].value == "FINE" and out["7:last"].value == "LAST"
    assert out["1:hang"].failure == "TIMEOUT" and out["6:hang"].failure == "TIMEOUT"
    assert out["2:exit"].failure == "CRASHED" and out["2:exit"].detail == "exit 3"
    assert out["3:segfault"].failure == "CRASHED"
    assert out["4:raise"].failure == "ERROR" and out["4:raise"].detail == "ValueError"
    assert elapsed < 30, elapsed   # two 3 s timeouts on two workers: the pool did not stall


def test_cancel_stops_hanging_workers_at_once():
    pool = WorkerPool(workers=2, timeout_s=600, job=misbehave)
    for i in range(4):
        pool.submit(str(i), "hang")
    pool.collect(1.0)
    started = time.monotonic()
    pool.close(cancel=True)
    assert time.monotonic() - started < 10
    assert pool.pending() == 0


def test_failed_jobs_become_documents_with_a_reason():
    timeout = failed_document(Outcome("k", failure="TIMEOUT"), "느린.hwp", 10, "ab" * 32)
    crashed = failed_document(Outcome("k", failure="CRASHED", detail="exit -11"), "깨진.hwp", 10, None)
    assert (timeout.access.readable, timeout.access.reason) == (False, "TIMEOUT")
    assert timeout.access.reason_text and timeout.doc_id == "sha256:" + "ab" * 32
    assert crashed.access.reason == "CORRUPT" and "exit -11" in crashed.warnings[0].text


def test_refresh_job_stores_its_result_in_the_cache_and_takes_it_from_there_next_time(tmp_path):
    path = tmp_path / "빈파일.hwpx"
    path.write_bytes(b"")
    empty_sha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    read = refresh_job(str(path), "붙임/빈파일.hwpx", DEFAULT_LIMITS, str(tmp_path / "c"), "g1")
    [(summary, rows)] = read.documents
    assert read.sha256 == empty_sha and not read.cached
    assert summary["reason"] == "EMPTY" and summary["chunks"] == 0 and rows == []
    [doc] = ParseCache(tmp_path / "c", "g1").get(read.sha256, "붙임/빈파일.hwpx")
    assert doc.access.reason == "EMPTY"
    again = refresh_job(str(path), "다른이름.hwpx", DEFAULT_LIMITS, str(tmp_path / "c"), "g1")
    assert again.cached and again.documents[0][0]["filename"] == "다른이름.hwpx"


def test_refresh_job_sends_back_index_rows_the_engine_analyses(tmp_path):
    from docx import Document as Docx

    path = tmp_path / "공고.docx"
    docx = Docx()
    docx.add_paragraph("학교에서 코끼리 사육 예산을 심의했다.")
    docx.save(path)
    read = refresh_job(str(path), "공고.docx", DEFAULT_LIMITS, str(tmp_path / "c"), "g1")
    [(summary, rows)] = read.documents
    assert summary["readable"] and summary["chunks"] == len(rows) == 1
    assert rows[0]["text"] == "학교에서 코끼리 사육 예산을 심의했다." and "끼리" in rows[0]["grams"]
    analyse_rows(rows)
    assert {"학교", "학교에서", "코끼리"} <= set(rows[0]["text"])


def read_and_tell_whether_kiwi_loaded(path: str, cache: str) -> bool:
    """A job for the pool: one refresh_job, then whether this worker process loaded Kiwi."""
    import sys

    refresh_job(path, "공고.docx", DEFAULT_LIMITS, cache, "g1")
    return "kiwipiepy" in sys.modules


def test_refresh_workers_read_without_a_kiwi_of_their_own(tmp_path):
    from docx import Document as Docx

    from engine.library.workers import start_worker

    path = tmp_path / "공고.docx"
    docx = Docx()
    docx.add_paragraph("학교에서 코끼리 사육 예산을 심의했다.")
    docx.save(path)
    pool = WorkerPool(workers=1, job=read_and_tell_whether_kiwi_loaded, start=start_worker)
    pool.submit("k", str(path), str(tmp_path / "c"))
    [outcome] = pool.collect(60)
    pool.close()
    assert outcome.failure is None and outcome.value is False
