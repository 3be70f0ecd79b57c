"""The folders an API serves, each addressed as ``tenant`` by its directory name.

``resources/sample`` is ``"sample"``; a second folder of the same name gets a
suffix (``"sample-2"``), kept while the folder stays. Tenants are opened on
first use through ``open_tenant`` (the window's engine process passes its own,
so the API and the window share one warm index).

With ``watch`` the registry keeps its folders current itself (``noda serve``,
``noda mcp``): a request first looks, at most every ``CHECK_S`` seconds, whether
a file was added, changed or removed (names, sizes and times only), and reads
the changes before answering. A request that comes while a folder is being
read is answered from what is indexed so far. Without ``watch`` someone else
refreshes (the CLI before its one call, the window's folder watcher).
"""
from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from engine.api.files import FileReader
from engine.read.parse import iter_files

CHECK_S = 2.0

log = logging.getLogger(__name__)


class FolderMissing(Exception):
    """A tenant's folder is gone (an unplugged drive, a moved folder)."""


@dataclass
class _Entry:
    folder: Path
    tenant: object = None
    signature: Optional[int] = None
    checked: float = 0.0
    reading: threading.Lock = field(default_factory=threading.Lock)


class Registry:
    """Tenant names → folders → open Tenants (thread-safe), and the reader of files sent to /parse."""

    def __init__(self, folders=(), *, open_tenant: Optional[Callable[[Path], object]] = None,
                 watch: bool = False, config_dir=None, on_change: Optional[Callable[[list[Path]], None]] = None,
                 editable: bool = True, owns_tenants: bool = True):
        """``config_dir``: where the LLM gateway settings are; ``on_change(folders)`` after add/remove;
        ``editable``: whether add/remove are allowed (the window's own folders are not);
        ``owns_tenants``: close the tenants when they leave (not when the window shares its own)."""
        self.open_tenant = open_tenant or _open_tenant
        self.owns_tenants = owns_tenants
        self.watch = watch
        self.config_dir = config_dir
        self.on_change = on_change
        self.editable = editable
        self.files = FileReader()
        self._cancel = threading.Event()       # set by close(): a folder being read stops
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.RLock()
        for folder in folders:
            self.add(folder, notify=False)

    # ---- names and folders ------------------------------------------------------
    def names(self) -> list[str]:
        with self._lock:
            return list(self._entries)

    def folders(self) -> list[Path]:
        with self._lock:
            return [e.folder for e in self._entries.values()]

    def folder(self, name: str) -> Path:
        return self._entries[name].folder

    def name_of(self, folder) -> Optional[str]:
        """The tenant name of ``folder``, or None when it is not served."""
        wanted = Path(folder).resolve()
        with self._lock:
            return next((n for n, e in self._entries.items() if e.folder == wanted), None)

    def reading(self, name: str) -> bool:
        """Whether the folder is being read right now (answers come from what is indexed so far)."""
        return self._entries[name].reading.locked()

    def add(self, folder, notify: bool = True) -> str:
        """Serve ``folder`` (once); its tenant name."""
        path = Path(folder).resolve()
        with self._lock:
            known = self.name_of(path)
            if known is not None:
                return known
            base = path.name or "folder"
            name, n = base, 1
            while name in self._entries:
                n += 1
                name = f"{base}-{n}"
            self._entries[name] = _Entry(path)
        if notify and self.on_change:
            self.on_change(self.folders())
        return name

    def remove(self, name: str) -> Path:
        """Stop serving tenant ``name`` (its folder is not touched); the folder."""
        with self._lock:
            entry = self._entries.pop(name)
        self._close(entry)
        if self.on_change:
            self.on_change(self.folders())
        return entry.folder

    def set_folders(self, folders) -> None:
        """Serve exactly ``folders`` (the window's list), keeping the names of those already served."""
        wanted = [Path(f).resolve() for f in folders]
        with self._lock:
            dropped = [self._entries.pop(n) for n, e in list(self._entries.items()) if e.folder not in wanted]
        for entry in dropped:
            self._close(entry)
        for path in wanted:
            self.add(path, notify=False)

    # ---- tenants ------------------------------------------------------------------
    def tenant(self, name: str, fresh: bool = False):
        """The open Tenant of ``name``, brought up to date first when watching (``fresh``: look now)."""
        with self._lock:
            entry = self._entries[name]
            if entry.tenant is None:
                entry.tenant = self.open_tenant(entry.folder)
        if self.watch:
            self._keep_current(entry, fresh)
        return entry.tenant

    def warm(self, names: Optional[list[str]] = None) -> None:
        """Open and read these folders (all by default) now, so the first question is fast."""
        for name in self.names() if names is None else names:
            if self._cancel.is_set():
                return
            try:
                self.tenant(name, fresh=True)
            except (FolderMissing, KeyError):   # gone, or removed meanwhile
                pass

    def close(self) -> None:
        """Stop reading, close the tenants this registry opened and the file reader's workers."""
        self._cancel.set()
        self.files.close()
        with self._lock:
            entries = list(self._entries.values())
        for entry in entries:
            self._close(entry)

    def _close(self, entry: _Entry) -> None:
        if entry.tenant is not None and self.owns_tenants:
            entry.tenant.close()

    def _keep_current(self, entry: _Entry, fresh: bool) -> None:
        # a folder not yet read to the end in this process waits for the reading under way (its index may
        # still be empty: "nothing found" would be wrong); one read before answers from what is indexed
        first = entry.signature is None
        now = time.monotonic()
        if not fresh and not first and now - entry.checked < CHECK_S:
            return
        if not entry.reading.acquire(blocking=first):
            return
        try:
            entry.checked = now
            signature = folder_signature(entry.folder)
            if signature is None:
                raise FolderMissing(str(entry.folder))
            if signature != entry.signature:
                try:
                    report = entry.tenant.refresh(cancel=self._cancel)
                except FileNotFoundError:
                    raise FolderMissing(str(entry.folder)) from None
                except Exception:   # e.g. another program is writing the same index: keep answering
                    log.exception("reading %s failed", entry.folder)
                    return
                if not report.get("cancelled"):
                    entry.signature = signature
        finally:
            entry.checked = time.monotonic()
            entry.reading.release()


def folder_signature(folder: Path) -> Optional[int]:
    """A hash of every file's name, size and modification time (None when the folder is gone)."""
    if not folder.is_dir():
        return None
    stats = []
    for path in iter_files(str(folder)):
        try:
            st = os.stat(path)
        except OSError:
            continue
        stats.append((path, st.st_size, st.st_mtime_ns))
    return hash(tuple(stats))


def _open_tenant(folder: Path):
    from engine.library.tenant import Tenant
    return Tenant(folder)
