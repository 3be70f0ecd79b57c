"""Fixtures of the window tests: private cache/config folders, the app prepared as noda-desktop does it
(Korean font and translations, cycles collected on the GUI thread), one engine process, a folder."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.gui.samples import docx_bytes, pdf_bytes
from noda_desktop.gui import prepare_app
from noda_desktop.hosted_api import HostedApi
from ui.collector import GuiCollector
from ui.engine_host import EngineHost
from ui.main_window import MainWindow


@pytest.fixture(autouse=True)
def private_dirs(tmp_path, monkeypatch):
    """Cache and settings of every test live in its own tmp folder."""
    monkeypatch.setenv("NODA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("NODA_CONFIG_DIR", str(tmp_path / "config"))


@pytest.fixture(scope="package", autouse=True)
def prepared_app(qapp):
    """The application as the window program prepares it; CPython collects again after these tests."""
    prepare_app(qapp)
    yield qapp
    qapp.findChild(GuiCollector).stop()


@pytest.fixture(scope="session")
def engine_host():
    """One engine process for the whole session (it loads the Korean analyser once)."""
    host = EngineHost(api=HostedApi)
    yield host
    host.stop()


@pytest.fixture(scope="session")
def notice_pdf() -> bytes:
    return pdf_bytes()


@pytest.fixture
def office(tmp_path, notice_pdf) -> Path:
    """A folder with a readable PDF and DOCX and two unreadable files (empty, password-protected)."""
    folder = tmp_path / "민원서류"
    folder.mkdir()
    (folder / "공고.pdf").write_bytes(notice_pdf)
    (folder / "회의록.docx").write_bytes(docx_bytes("회의 결과: 심사위원회는 4월 둘째 주에 연다.",
                                                 "집행 현황은 매월 5일까지 알린다."))
    (folder / "빈파일.hwpx").write_bytes(b"")
    (folder / "암호.pdf").write_bytes(pdf_bytes(password="1234"))
    return folder


@pytest.fixture
def window(qtbot, engine_host):
    """The main window on the shared engine, shown (a test module may bring its own)."""
    w = MainWindow(host=engine_host)
    qtbot.addWidget(w)
    w.show()
    return w
