"""Opening a document's original with the system's program (원본 열기), from the list or from the evidence.

A copy the window keeps in "개별 파일" opens the user's own file when it is
still there; any other document opens the file the engine read (its
``source_path``, looked up in the background). ``window`` is the MainWindow.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from PySide6.QtCore import QUrl

from ui import drops, texts


def open_original(window, filename: str, folder: Optional[str] = None) -> None:
    """Open a document of ``folder`` (the folder on screen when not given)."""
    folder = folder or window.tenants.current_folder() or ""
    if not (window.service.state(folder) and filename):
        return
    original = drops.original_of(folder, filename)
    if original is not None:
        open_path(window, original, filename)
        return
    window.service.run(folder, "source_path", filename, on_done=lambda path: open_path(window, path, filename),
                       on_error=lambda _exc: open_path(window, None, filename))


def open_path(window, path, name: str) -> bool:
    """Hand a file to the system's program for it (``window.opener``), saying on the status bar what happened."""
    if not path or not Path(path).is_file():
        window.statusBar().showMessage(texts.OPEN_MISSING.format(name=name), 15000)
        return False
    if not window.opener(QUrl.fromLocalFile(str(path))):
        window.statusBar().showMessage(texts.OPEN_NO_PROGRAM.format(name=name, path=path), 20000)
        return False
    window.statusBar().showMessage(texts.OPENING.format(name=name), 5000)
    return True


def open_evidence(window) -> None:
    """The document of the citation shown in the evidence view."""
    evidence = window.evidence.evidence
    if evidence is not None:
        open_original(window, evidence.citation.get("filename", ""), window.answer_folder)


def open_selected(window) -> None:
    """The evidence's document while the evidence is shown, else the document selected in the list."""
    if window.evidence.evidence is not None and window.evidence.isVisible():
        open_evidence(window)
        return
    entry = window.documents.selected_entry()
    if entry:
        open_original(window, entry.get("filename", ""))
