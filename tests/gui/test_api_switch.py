"""설정 ▸ "다른 프로그램이 노다를 쓰도록 허용": off by default; on, the engine process serves the window's folders."""
from __future__ import annotations

import socket

import pytest

from noda_desktop import paths
from noda_desktop.paths import TOKEN_FILE
from tests.api_client import NodaClient
from tests.gui.test_window import wait_read
from ui import texts
from ui.main_window import MainWindow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def window(qtbot, engine_host):
    w = MainWindow(host=engine_host, persist=False)
    qtbot.addWidget(w)
    w.show()
    yield w
    w.api_switch.apply(False, 0)
    engine_host.stop_api()


def _allow(qtbot, window, allowed: bool, port: int) -> None:
    dialog = window.make_settings_dialog()
    qtbot.addWidget(dialog)
    dialog.api.enabled.setChecked(allowed)
    dialog.api.port.setValue(port)
    window.accept_settings(dialog)


def test_other_programs_use_the_window_folders_only_when_allowed(qtbot, window, office):
    window.add_folder(office)
    wait_read(qtbot, window, office)
    dialog = window.make_settings_dialog()
    qtbot.addWidget(dialog)
    assert not dialog.api.enabled.isChecked() and dialog.api.enabled.text() == texts.API_ALLOW
    assert window.api_switch.label.isHidden()

    port = free_port()
    _allow(qtbot, window, True, port)
    label = window.api_switch.label
    qtbot.waitUntil(lambda: label.isVisible() and label.text() == texts.API_STATUS_ON.format(port=port),
                    timeout=30_000)
    token = (paths.config_dir() / TOKEN_FILE).read_text().strip()
    client = NodaClient(f"http://127.0.0.1:{port}", token, timeout=60)
    status, health = client.call("/health", method="GET")
    assert status == 200 and [t["tenant"] for t in health["tenants"]] == ["민원서류"]
    status, found = client.call("/search", {"query": "심사위원회"})
    assert status == 200 and found["hits"][0]["filename"] == "회의록.docx"
    assert NodaClient(client.base).call("/search", {"query": "심사위원회"})[0] == 401

    _allow(qtbot, window, False, port)
    assert label.isHidden()

    def closed() -> bool:
        try:
            client.call("/health", method="GET")
        except OSError:
            return True
        return False
    qtbot.waitUntil(closed, timeout=20_000)


def test_a_port_in_use_is_said_in_the_status_bar(qtbot, window):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        _allow(qtbot, window, True, port)
        label = window.api_switch.label
        qtbot.waitUntil(lambda: label.isVisible() and label.text() == texts.API_STATUS_FAILED.format(port=port),
                        timeout=30_000)
