"""With the gateway off, a whole session — read a folder, list, search, ask — opens no network connection.

Every process is watched, the parse workers too: an audit hook (installed in
this process, and in spawned workers through a ``sitecustomize`` on
PYTHONPATH) writes each socket connect and name lookup to a log file.
"""
from __future__ import annotations

import multiprocessing
import socket
from pathlib import Path

import docx
import pytest

from engine.gateway import Gateway, GatewayConfig, GatewayError, save_config

HOOK = '''
import os, sys

def _noda_net_hook(event, args):
    if event in ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr"):
        log = os.environ.get("NODA_TEST_NET_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as fh:
                fh.write(f"{os.getpid()} {event} {args[1:] if event == 'socket.connect' else args!r}\\n")

sys.addaudithook(_noda_net_hook)
'''
_installed = False


@pytest.fixture
def net_log(tmp_path, monkeypatch) -> Path:
    """A file that collects every connect and lookup of this process and its spawned children."""
    global _installed
    hook_dir = tmp_path / "hook"
    hook_dir.mkdir()
    (hook_dir / "sitecustomize.py").write_text(HOOK, encoding="utf-8")
    log = tmp_path / "net.log"
    log.touch()
    monkeypatch.setenv("NODA_TEST_NET_LOG", str(log))
    monkeypatch.setenv("PYTHONPATH", str(hook_dir))
    if not _installed:      # audit hooks cannot be removed: one for the whole run, silent without the env var
        exec(compile(HOOK, "net_hook", "exec"), {})
        _installed = True
    return log


def _connect(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=2):
        pass


def test_the_watch_sees_connections_in_this_process_and_in_spawned_workers(net_log):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(2)
        port = server.getsockname()[1]
        _connect(port)
        child = multiprocessing.get_context("spawn").Process(target=_connect, args=(port,))
        child.start()
        child.join(30)
    lines = net_log.read_text(encoding="utf-8").splitlines()
    pids = {line.split()[0] for line in lines if "socket.connect" in line and str(port) in line}
    assert len(pids) == 2, lines


def make_tenant(folder: Path) -> None:
    folder.mkdir()
    d = docx.Document()
    d.add_heading("2026년 지원사업 공고", 1)
    d.add_paragraph("신청기간은 8월 28일까지입니다.")
    d.add_paragraph("지원 예산은 50억 원이며 중소기업을 대상으로 합니다.")
    d.save(folder / "공고.docx")
    (folder / "빈파일.hwpx").write_bytes(b"")


def test_a_session_with_the_gateway_off_makes_no_connection(net_log, tmp_path):
    from engine.gateway import grounded
    from engine.library.tenant import Tenant

    folder = tmp_path / "갑"
    make_tenant(folder)
    save_config(GatewayConfig(), tmp_path / "config")            # the default: off
    gateway = Gateway.load(tmp_path / "config")
    tenant = Tenant(folder, cache_root=tmp_path / "cache")
    try:
        tenant.refresh()
        listing = tenant.documents()
        found = tenant.search("신청기간")
        result = grounded.answer(tenant, "신청기간은 언제까지인가?", gateway)
    finally:
        tenant.close()
    assert listing["readable"] == 1 and listing["unreadable"] == 1
    assert found["hits"] and "8월 28일" in found["hits"][0]["text"]
    assert result["answered"] is False and result["reason"] == "GATEWAY_OFF"
    assert result["made_by"] is None and result["text"] == ""
    with pytest.raises(GatewayError):
        gateway.complete("신청기간은?")
    assert net_log.read_text(encoding="utf-8") == ""


def test_a_refused_public_gateway_makes_no_connection_either(net_log, tmp_path):
    save_config(GatewayConfig(base_url="https://api.openai.com/v1", model="gpt-4.1-mini"), tmp_path)
    gateway = Gateway.load(tmp_path)
    with pytest.raises(GatewayError) as info:
        gateway.complete("신청기간은?")
    assert info.value.code == "GATEWAY_EXTERNAL"
    assert net_log.read_text(encoding="utf-8") == ""
