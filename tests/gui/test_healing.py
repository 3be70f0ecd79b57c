"""The window over a folder whose saved index was damaged while the app was closed."""
from __future__ import annotations

import os
from pathlib import Path

from engine import wording
from engine.library.tenant import Tenant
from tests.gui.samples import docx_bytes
from ui.main_window import MainWindow

READ_TIMEOUT = 40_000


def test_a_damaged_index_is_rebuilt_and_the_window_says_so_once(qtbot, engine_host, tmp_path):
    folder = tmp_path / "예산"
    folder.mkdir()
    (folder / "계획.docx").write_bytes(docx_bytes("내년 예산은 3억 원으로 정했다."))
    cache = Path(os.environ["NODA_CACHE_DIR"])
    tenant = Tenant(folder, cache_root=cache)
    tenant.refresh()
    tenant.close()
    for segment in (cache / "tenants").rglob("*.seg"):   # a crash or a disk error cut the index files
        segment.write_bytes(segment.read_bytes()[:10])

    window = MainWindow(host=engine_host, persist=False)
    qtbot.addWidget(window)
    window.show()
    said = []
    window.service.refresh_finished.connect(lambda _folder, result: said.append(result.get("notices", [])))
    window.add_folder(folder)
    qtbot.waitUntil(lambda: bool(said), timeout=READ_TIMEOUT)
    assert [n["code"] for n in said[-1]] == ["INDEX_REBUILT"]
    assert wording.tenant_text("INDEX_REBUILT") in window.statusBar().currentMessage()

    key = str(folder.resolve())
    with qtbot.waitSignal(window.service.refresh_finished, timeout=READ_TIMEOUT):
        window.service.refresh(key)
    assert said[-1] == []                                  # said once
    hits = window.service.tenant(key).search("예산")["hits"]   # refilled from the parse cache
    assert [h["filename"] for h in hits] == ["계획.docx"]
