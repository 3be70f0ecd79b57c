"""The engine process: calls cross the pipe, progress and cancel too, and a dead process is replaced."""
from __future__ import annotations

import os
import threading

import pytest

from engine.library.tenant import Tenant
from tests.gui.samples import docx_bytes
from ui import paged_listing
from ui.engine_host import EngineError, EngineHost, HostedTenant


def test_refresh_reports_progress_and_can_be_cancelled(engine_host, tmp_path):
    folder = tmp_path / "많은문서"
    folder.mkdir()
    files = 40     # enough that the cancel crosses the pipe long before the last file is read, even under load
    for i in range(files):
        (folder / f"보고_{i:02d}.docx").write_bytes(docx_bytes(f"{i}번 보고서: 예산 집행 현황을 알린다."))
    tenant = HostedTenant(folder, host=engine_host, cache_root=tmp_path / "cache", workers=1)
    cancel = threading.Event()
    seen = []

    def progress(p):
        seen.append(p)
        if p.phase == "parse" and p.done >= 1:
            cancel.set()

    result = tenant.refresh(progress=progress, cancel=cancel)
    assert result["cancelled"] and seen[0].phase == "scan"
    assert seen[-1].phase == "cancelled" and seen[-1].done < files
    again = tenant.refresh()                       # picks up where it stopped
    assert not again["cancelled"] and again["unchanged"] + len(again["added"]) == files
    assert len(tenant.documents()["documents"]) == files
    assert tenant.search("예산 집행", limit=3)["hits"]
    tenant.close()


def test_a_dead_engine_process_fails_its_calls_and_is_replaced(tmp_path):
    folder = tmp_path / "폴더"
    folder.mkdir()
    (folder / "빈파일.hwpx").write_bytes(b"")
    host = EngineHost(warm_up=False)   # no analyser needed for an empty file
    killed = []

    def kill_once(p):
        if not killed:
            killed.append(host._process.pid)
            host._process.kill()

    try:
        tenant = HostedTenant(folder, host=host, cache_root=tmp_path / "cache", workers=1)
        with pytest.raises(EngineError) as stopped:
            tenant.refresh(progress=kill_once)
        assert stopped.value.kind == "EngineStopped" and killed
        assert tenant.refresh()["added"] == ["빈파일.hwpx"]          # served by a new process
        assert host._process.pid != killed[0]
        with pytest.raises(EngineError) as error:
            tenant.document(42)                    # an engine exception comes back by name
        assert error.value.kind == "AttributeError" and error.value.traceback_text
    finally:
        host.stop()
    assert not host.running
    assert os.listdir(folder) == ["빈파일.hwpx"]    # nothing written in the folder


def test_the_window_takes_a_folder_listing_in_pages_over_the_pipe(engine_host, tmp_path, monkeypatch):
    folder = tmp_path / "목록"
    folder.mkdir()
    for i in range(5):
        (folder / f"문서{i}.docx").write_bytes(docx_bytes(f"{i}번 문서"))
    tenant = HostedTenant(folder, host=engine_host, cache_root=tmp_path / "cache", workers=1)
    tenant.refresh()
    monkeypatch.setattr(paged_listing, "PAGE_ROWS", 2)
    answers = []

    def documents(principal, start, count):
        answers.append(tenant.documents(principal, start, count))
        return answers[-1]

    try:
        listing = paged_listing.fetch(documents, None)
        assert [len(a["documents"]) for a in answers] == [2, 2, 1]       # no answer held the whole list
        assert listing == tenant.documents()
    finally:
        tenant.close()


def test_a_listing_that_changes_between_pages_is_fetched_again(tmp_path, monkeypatch):
    folder = tmp_path / "목록"
    folder.mkdir()
    for i in range(4):
        (folder / f"문서{i}.docx").write_bytes(docx_bytes(f"{i}번 문서"))
    tenant = Tenant(folder, cache_root=tmp_path / "cache", workers=1)
    monkeypatch.setattr(paged_listing, "PAGE_ROWS", 2)
    try:
        tenant.refresh()
        calls = []

        def documents(principal, start, count):
            if len(calls) == 1:          # a file arrives and is read between the first two pages
                (folder / "문서0a.docx").write_bytes(docx_bytes("새 문서"))
                tenant.refresh()
            calls.append(start)
            return tenant.documents(principal, start, count)

        listing = paged_listing.fetch(documents, None)
        assert calls[:2] == [0, 2] and calls.count(0) == 2              # started again after the change
        assert [d["filename"] for d in listing["documents"]] == [
            "문서0.docx", "문서0a.docx", "문서1.docx", "문서2.docx", "문서3.docx"]
        assert listing == tenant.documents()
    finally:
        tenant.close()
