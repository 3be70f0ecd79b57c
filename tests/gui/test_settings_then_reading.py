"""The sequence that made the window vanish: gateway on, gateway off in the settings, then a folder read.

Run it with ``-p faulthandler`` (pytest's default) and once with ``PYTHONDEVMODE=1``. The address is only
typed, as the user did: no test connects to it (``loopback_only`` fails on any other connection).
"""
from __future__ import annotations

import gc
import ipaddress
import socket
import threading

import pytest
import shiboken6
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDialogButtonBox

from tests.gui.samples import docx_bytes, pdf_bytes
from tests.gui.test_window import rows, wait_read
from ui import texts
from ui.main_window import MainWindow
from ui.settings_dialog import SettingsDialog

TYPED_ADDRESS = "http://10.20.1.5:8000/v1"


@pytest.fixture
def loopback_only(monkeypatch):
    """Every connection attempt is recorded; one to anything but loopback fails the test."""
    attempts = []
    original = socket.socket.connect

    def connect(sock, address):
        attempts.append(address)
        if isinstance(address, tuple) and not ipaddress.ip_address(address[0]).is_loopback:
            raise AssertionError(f"a test tried to connect to {address}")
        return original(sock, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    return attempts


@pytest.fixture
def collections():
    """The name of the thread each cycle collection runs on, while the test runs."""
    threads: list[str] = []

    def record(phase, _info):
        if phase == "start":
            threads.append(threading.current_thread().name)

    gc.callbacks.append(record)
    yield threads
    gc.callbacks.remove(record)


def set_gateway_through_the_dialog(qtbot, window, address: str, model: str) -> None:
    """Open 설정 as the user does (modal), type into the gateway tab and press OK."""
    def fill():
        dialog = next(d for d in window.findChildren(SettingsDialog) if d.isVisible())
        dialog.tabs.setCurrentWidget(dialog.gateway)
        for edit, text in ((dialog.gateway.address, address), (dialog.gateway.model, model)):
            edit.selectAll()
            qtbot.keyClick(edit, Qt.Key.Key_Delete)
            qtbot.keyClicks(edit, text)             # ASCII only: keyClicks with Hangul aborts
        ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, fill)
    window.settings_dialog()


def test_gateway_on_then_off_then_reading_a_folder(qtbot, engine_host, tmp_path, loopback_only, collections):
    window = MainWindow(host=engine_host, persist=False)          # the real thread pool, as in the app
    qtbot.addWidget(window)
    window.show()

    set_gateway_through_the_dialog(qtbot, window, TYPED_ADDRESS, "qwen")
    assert window.gateway_label.text() == texts.GATEWAY_STATUS_ON.format(host="10.20.1.5", model="qwen")
    set_gateway_through_the_dialog(qtbot, window, "", "")
    assert window.gateway_label.text() == texts.GATEWAY_STATUS_OFF
    # closed dialogs do not stay behind under the window with their callbacks
    qtbot.waitUntil(lambda: not window.findChildren(SettingsDialog), timeout=5000)

    folder = tmp_path / "서른문서"
    folder.mkdir()
    for i in range(26):
        (folder / f"보고서{i:02}.docx").write_bytes(docx_bytes(f"{i}번 보고: 사업비 {i}억 원을 집행했다."))
    for i in range(3):
        (folder / f"공고{i}.pdf").write_bytes(pdf_bytes())
    (folder / "빈파일.hwpx").write_bytes(b"")
    window.add_folder(folder)
    wait_read(qtbot, window, folder)
    assert len(rows(window)) == 30 and window.isVisible()

    # a worker thread that allocates a lot (as the engine-replies thread does) never runs a collection …
    def allocate():
        junk = []
        for _ in range(20_000):
            pair = [[], []]
            pair[0].append(pair)            # a cycle: only the cycle collector frees it
            junk.append(pair)
    worker = threading.Thread(target=allocate, name="allocating-worker")
    worker.start()
    worker.join()
    # … the GUI thread does, from its timer
    qtbot.waitUntil(lambda: "MainThread" in collections, timeout=5000)
    assert set(collections) == {"MainThread"}, collections
    # the window's service, its pool and its call-back object die with the window, on the GUI thread
    runner = window.service.runner
    for qobject in (window.service, runner.pool, runner.to_main):
        assert not shiboken6.ownedByPython(qobject)
    assert loopback_only == []                  # the typed address was never contacted
