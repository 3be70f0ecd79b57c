"""The engine process: calls cross the pipe, progress and cancel too, and a dead process is replaced."""
from __future__ import annotations

import os
import threading

import pytest

from tests.gui.samples import docx_bytes
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
