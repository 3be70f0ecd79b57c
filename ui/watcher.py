"""Notice changes in opened folders: QFileSystemWatcher on every subfolder, plus polling.

File-system events do not reach us from many network shares, so a slower
timer asks for a refresh of every folder as well (a refresh that finds
nothing new costs only a directory walk, done by the engine off the GUI
thread). Events are debounced per folder. Folder trees are walked on a
worker thread so a large tree never stalls the window.
"""
from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, Qt, QThreadPool, QTimer, Signal

DEBOUNCE_MS = 1500


class FolderWatcher(QObject):
    changed = Signal(str)              # an opened folder whose contents may have changed
    _found = Signal(str, list)         # (opened folder, directories to watch), from a worker

    def __init__(self, poll_seconds: int = 30, debounce_ms: int = DEBOUNCE_MS, parent=None):
        super().__init__(parent)
        self.folders: list[str] = []
        self._watcher = QFileSystemWatcher(self)
        self._watcher.directoryChanged.connect(self._directory_changed)
        self._found.connect(self._add_paths, Qt.ConnectionType.QueuedConnection)
        self._pending: set[str] = set()
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(debounce_ms)
        self._debounce.timeout.connect(self._flush)
        self._poll = QTimer(self)
        self._poll.timeout.connect(self._poll_all)
        self.set_poll_seconds(poll_seconds)

    def set_poll_seconds(self, seconds: int) -> None:
        """Polling interval for network shares (0 turns polling off)."""
        self._poll.stop()
        if seconds > 0:
            self._poll.start(int(seconds * 1000))

    def add(self, folder: str) -> None:
        """Watch a folder and all its subfolders."""
        if folder not in self.folders:
            self.folders.append(folder)
            self._walk_later(folder, folder)

    def remove(self, folder: str) -> None:
        if folder in self.folders:
            self.folders.remove(folder)
        watched = [d for d in self._watcher.directories() if _inside(d, folder)]
        if watched:
            self._watcher.removePaths(watched)
        self._pending.discard(folder)

    def watched_directories(self) -> list[str]:
        return self._watcher.directories()

    # ---- internals ---------------------------------------------------------
    def _walk_later(self, folder: str, top: str) -> None:
        def walk():
            found = []
            for root, dirs, _files in os.walk(top):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                found.append(root)
            self._found.emit(folder, found)
        QThreadPool.globalInstance().start(walk)

    def _add_paths(self, folder: str, directories: list) -> None:
        if folder not in self.folders:
            return
        known = set(self._watcher.directories())
        new = [d for d in directories if d not in known and os.path.isdir(d)]
        if new:
            self._watcher.addPaths(new)

    def _directory_changed(self, path: str) -> None:
        owner = next((f for f in self.folders if _inside(path, f)), None)
        if owner is None:
            return
        self._pending.add(owner)
        self._debounce.start()
        known = set(self._watcher.directories())
        try:
            subdirs = [e.path for e in os.scandir(path) if e.is_dir() and not e.name.startswith(".")]
        except OSError:
            return
        for sub in subdirs:
            if sub not in known:
                self._walk_later(owner, sub)

    def _flush(self) -> None:
        pending, self._pending = self._pending, set()
        for folder in self.folders:
            if folder in pending:
                self.changed.emit(folder)

    def _poll_all(self) -> None:
        for folder in list(self.folders):
            self.changed.emit(folder)


def _inside(path: str, folder: str) -> bool:
    p, f = Path(path), Path(folder)
    return p == f or f in p.parents
