"""Bringing documents into the window: folders, ZIP files and single files — dropped, chosen or named at start.

A folder is opened where it is. A ZIP file is copied into the app cache and a
single file into the "개별 파일" folder (ui/drops.py), in the background (a
ZIP may be large); removing such a folder deletes only our copy. ``window`` is
the MainWindow: its ``add_folder``, ``service``, ``settings`` and status bar.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Optional

from PySide6.QtCore import QUrl, Qt

from ui import drops, texts


def open_paths(window, given) -> None:
    """Open folders, ZIP files and files named on the command line or chosen in a dialog."""
    missing = [str(p) for p in given if not Path(p).exists()]
    open_dropped(window, drops.sort_dropped([QUrl.fromLocalFile(str(Path(p).resolve()))
                                             for p in given if Path(p).exists()]))
    if missing:
        window.statusBar().showMessage(texts.FOLDER_MISSING.format(folder=", ".join(missing)), 8000)


def open_dropped(window, dropped: drops.Dropped) -> None:
    for folder in dropped.folders:
        window.add_folder(folder)
    for zip_path in dropped.zips:
        add_zip(window, zip_path)
    if dropped.files:
        add_files(window, dropped.files)
    if dropped.rejected:
        window.statusBar().showMessage(texts.DROP_REJECTED.format(names=", ".join(dropped.rejected)), 8000)


def add_zip(window, zip_path) -> None:
    """Open a ZIP file as a folder: a private copy in the app cache (the original is left alone)."""
    zip_path, cache = Path(zip_path), window.settings.cache_root()
    window.service.call(lambda: drops.zip_copy(cache, zip_path), window.add_folder,
                        lambda exc: window.statusBar().showMessage(
                            texts.ZIP_FAILED.format(name=zip_path.name, error=exc), 10000))


def add_files(window, files) -> None:
    """Read single files: copies in the "개별 파일" folder (their own folders are not read); the first is
    selected once listed, and the status bar says where they went (again once they are read)."""
    files, cache = [Path(f) for f in files], window.settings.cache_root()

    def added(result) -> None:
        folder, names = result
        key = window.add_folder(folder)
        if key and names:
            window.select_when_listed = (key, names[0])
            message = texts.FILES_ADDED.format(names="’, ‘".join(names), folder=drops.SINGLE_FILES_NAME)
            window.say_when_read[key] = message
            window.statusBar().showMessage(message, 15000)

    window.service.call(lambda: drops.copy_single_files(cache, files), added,
                        lambda exc: window.statusBar().showMessage(texts.FILES_FAILED.format(error=exc), 10000))


def delete_own_copy(cache_root, folder: str) -> None:
    """Delete ``folder`` when it is one of our copies (of a ZIP, or the "개별 파일" folder); any other stays."""
    zips, singles = drops.own_copy_roots(cache_root)
    resolved = Path(folder).resolve()
    if zips in resolved.parents:
        shutil.rmtree(resolved.parent, ignore_errors=True)
    elif singles in resolved.parents:
        shutil.rmtree(resolved, ignore_errors=True)


def taken(event) -> Optional[drops.Dropped]:
    """What a drag brings, taken as a copy (or a link), never a move: a file manager must not delete what it
    lets go of; None (the drag ignored) when it brings nothing to open."""
    dropped = drops.sort_dropped(event.mimeData().urls())
    for action in (Qt.DropAction.CopyAction, Qt.DropAction.LinkAction):
        if dropped and event.possibleActions() & action:
            event.setDropAction(action)
            event.accept()
            return dropped
    event.ignore()
    return None
