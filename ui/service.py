"""The thin layer between the widgets and the engine.

Every engine call (refresh, documents, search, answer, evidence, page
rendering) runs off the GUI thread through a runner's ``run_task(fn,
on_done, on_error)`` (ui/runners.py); the callbacks always come back on the
GUI thread. Tests may swap in ``SyncRunner``, which runs everything immediately.

``EngineService`` keeps one Tenant per opened folder — in the engine
process (ui.engine_host), so indexing never holds this process's GIL —
runs their refreshes one after another (parsing already uses every core),
and tells the window what happened with Qt signals.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from PySide6.QtCore import QObject, Signal

from ui import list_snapshots, paged_listing
from ui.engine_host import EngineHost, HostedTenant
from ui.runners import ThreadPoolRunner

log = logging.getLogger(__name__)

PARTIAL_LIST_S = 3.0    # while a folder is read, its document list is refetched at most this often


# ---- the engine service ---------------------------------------------------
@dataclass
class RefreshProgress:
    """Progress of one folder's refresh, as the window shows it."""

    folder: str
    done: int
    total: int
    current: Optional[str]                 # the file read last
    phase: str
    reading: tuple[str, ...] = ()          # the files being read right now


@dataclass
class TenantState:
    folder: str
    tenant: HostedTenant
    documents: Optional[dict] = None           # last Tenant.documents() answer
    from_cache: bool = False                   # documents is the listing saved at the last reading
    error: Optional[str] = None                # last failure, for the window
    listed_at: float = 0.0                     # when documents was last fetched during a refresh
    listing: bool = False                      # a fetch of documents is in flight


class EngineService(QObject):
    """Opened folders (tenants), their background refreshes, and engine calls."""

    tenants_changed = Signal()                 # a folder was added or removed
    documents_changed = Signal(str)            # this folder's document list is fresh
    progress = Signal(object)                  # RefreshProgress
    refresh_finished = Signal(str, object)     # folder, Tenant.refresh() answer
    refresh_failed = Signal(str, str)          # folder, message
    busy_changed = Signal(bool)

    def __init__(self, *, cache_root=None, limits=None, workers: int = 2, timeout_s: float = 60.0,
                 runner=None, host: Optional[EngineHost] = None, api: Optional[type] = None,
                 parent: Optional[QObject] = None):
        """Tenants live in the engine process ``host`` (shared, e.g. by tests), or in one of our own, which
        serves the local API with ``api`` (see EngineHost)."""
        super().__init__(parent)
        self.runner = runner or ThreadPoolRunner(parent=self)
        self.cache_root = cache_root
        self.limits = limits
        self.workers = workers
        self.timeout_s = timeout_s
        self._own_host = host is None
        self.host = host or EngineHost(api=api)
        if self._own_host:
            self.runner.run_task(self.host.start)   # spawn it (and load Kiwi there) before the first folder
        self.tenants: dict[str, TenantState] = {}
        self._queue: list[str] = []
        self._running: Optional[str] = None
        self._again: set[str] = set()
        self._cancel = threading.Event()
        self._latest: Optional[RefreshProgress] = None   # newest progress not shown yet
        self._latest_lock = threading.Lock()
        self.partial_list_s = PARTIAL_LIST_S
        self.principal: Optional[str] = None       # whose view of ACL.json the lists and answers follow

    # ---- folders --------------------------------------------------------
    def add_folder(self, folder, refresh: bool = True) -> str:
        """Open a folder as a tenant (once): its saved listing first, then a refresh; returns its key.

        A folder read before is listed from its saved state at once (no waiting for the refresh, which
        only finds what changed); the refresh is queued after that listing has come back.
        """
        key = str(Path(folder).resolve())
        if key in self.tenants:
            if refresh:
                self.refresh(key)
            return key
        state = self.tenants[key] = TenantState(key, HostedTenant(key, host=self.host, **self.tenant_kwargs()))
        self.tenants_changed.emit()
        principal, cache_root = self.principal, self.cache_root

        def show_saved(documents) -> None:
            if self.tenants.get(key) is state and documents is not None and state.documents is None:
                state.documents, state.from_cache = documents, True
                self.documents_changed.emit(key)

        def listed(documents) -> None:
            if self.tenants.get(key) is state and documents is not None and (state.documents is None
                                                                              or state.from_cache):
                state.documents, state.from_cache = documents, True
                self.documents_changed.emit(key)
            if refresh:
                self.refresh(key)

        if cache_root is not None:   # the window's own last list comes before the engine process is up
            self.runner.run_task(lambda: list_snapshots.load(cache_root, key, principal), show_saved)
        self.runner.run_task(lambda: paged_listing.fetch(state.tenant.cached_documents, principal), listed,
                             lambda _exc: listed(None))
        return key

    def set_principal(self, principal: Optional[str]) -> None:
        """Show every folder as ``principal`` may see it (ACL.json); lists are fetched again."""
        if principal == self.principal:
            return
        self.principal = principal
        for folder, state in self.tenants.items():
            self.runner.run_task(lambda s=state: paged_listing.fetch(s.tenant.documents, principal),
                                 lambda documents, f=folder, s=state: self._relisted(f, s, documents))

    def _relisted(self, folder: str, state: TenantState, documents: dict) -> None:
        if self.tenants.get(folder) is state:
            state.documents, state.from_cache = documents, False
            self.documents_changed.emit(folder)

    def tenant_kwargs(self) -> dict:
        """How this service opens a folder's Tenant in the engine process (the hosted API opens them alike)."""
        kwargs = {"cache_root": self.cache_root, "workers": self.workers, "timeout_s": self.timeout_s}
        if self.limits is not None:
            kwargs["limits"] = self.limits
        return kwargs

    def remove_folder(self, folder: str) -> None:
        """Stop using a folder. Nothing on disk is deleted."""
        state = self.tenants.pop(folder, None)
        if state is None:
            return
        self._queue = [f for f in self._queue if f != folder]
        self._again.discard(folder)
        if self._running == folder:
            self._cancel.set()
        else:
            self._close_later(state)
        self.tenants_changed.emit()

    def tenant(self, folder: str) -> HostedTenant:
        """The folder's Tenant (in the engine process: call it off the GUI thread)."""
        return self.tenants[folder].tenant

    def folders(self) -> list[str]:
        return list(self.tenants)

    def state(self, folder: str) -> Optional[TenantState]:
        return self.tenants.get(folder)

    # ---- refresh --------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self._running is not None

    def reading(self, folder: str) -> bool:
        """Whether this folder is being read right now."""
        return self._running == folder

    def running_folder(self) -> Optional[str]:
        """The folder being read right now, if any."""
        return self._running

    def refresh(self, folder: str) -> None:
        """Queue an incremental refresh of a folder (a running one is redone once it ends)."""
        if folder not in self.tenants:
            return
        if folder == self._running:
            self._again.add(folder)
        elif folder not in self._queue:
            self._queue.append(folder)
        self._start_next()

    def refresh_all(self) -> None:
        for folder in self.tenants:
            self.refresh(folder)

    def cancel(self) -> None:
        """Stop the running refresh and drop the queued ones."""
        self._queue.clear()
        self._again.clear()
        if self._running:
            self._cancel.set()

    def _start_next(self) -> None:
        if self._running or not self._queue:
            return
        folder = self._queue.pop(0)
        state = self.tenants[folder]
        self._running = folder
        self._cancel = cancel = threading.Event()
        state.listed_at = time.monotonic()
        self.busy_changed.emit(True)

        def report(p) -> None:  # called on the worker thread by Tenant.refresh
            with self._latest_lock:
                post = self._latest is None
                self._latest = RefreshProgress(folder, p.done, p.total, p.current, p.phase, tuple(p.reading))
            if post:   # coalesce: the GUI shows only the newest of a burst
                self.runner.to_main(self._emit_progress)

        principal = self.principal

        def work():
            result = state.tenant.refresh(progress=report, cancel=cancel)
            return result, paged_listing.fetch(state.tenant.documents, principal)

        self.runner.run_task(work, lambda r: self._refreshed(state, r),
                             lambda exc: self._refresh_error(state, exc))

    def _emit_progress(self) -> None:
        with self._latest_lock:
            latest, self._latest = self._latest, None
        if latest is not None:
            self.progress.emit(latest)
            self._list_while_reading(latest.folder)

    def _list_while_reading(self, folder: str) -> None:
        """Refetch the document list of the folder being read, so it fills as batches are indexed."""
        state = self.tenants.get(folder)
        if (state is None or state.listing or self._running != folder
                or time.monotonic() - state.listed_at < self.partial_list_s):
            return
        state.listing = True

        def listed(documents) -> None:
            state.listing, state.listed_at = False, time.monotonic()
            if self._running == folder and folder in self.tenants:   # the final list has not come yet
                state.documents, state.from_cache = documents, False
                self.documents_changed.emit(folder)

        def failed(exc) -> None:
            state.listing, state.listed_at = False, time.monotonic()

        principal = self.principal
        self.runner.run_task(lambda: paged_listing.fetch(state.tenant.documents, principal), listed, failed)

    def _refreshed(self, state: TenantState, result) -> None:
        refresh, documents = result
        state.documents, state.from_cache, state.error = documents, False, None
        if self.cache_root is not None and not refresh.get("cancelled"):
            cache_root, principal = self.cache_root, self.principal
            self.runner.run_task(lambda: list_snapshots.save(cache_root, state.folder, principal, documents))
        self._finish(state)
        if state.folder in self.tenants:
            self.documents_changed.emit(state.folder)
            self.refresh_finished.emit(state.folder, refresh)

    def _refresh_error(self, state: TenantState, exc: BaseException) -> None:
        state.error = f"{type(exc).__name__}: {exc}"
        log.error("refresh of %s failed:\n%s", state.folder, getattr(exc, "traceback_text", exc))
        self._finish(state)
        if state.folder in self.tenants:
            self.refresh_failed.emit(state.folder, state.error)

    def _finish(self, state: TenantState) -> None:
        self._running = None
        if state.folder not in self.tenants:      # removed while it was being read
            self._close_later(state)
        elif state.folder in self._again:
            self._again.discard(state.folder)
            self._queue.append(state.folder)
        self._start_next()
        if not self._running:
            self.busy_changed.emit(False)

    # ---- engine calls --------------------------------------------------------
    def run(self, folder: str, name: str, *args, on_done=None, on_error=None, **kwargs) -> None:
        """Run the engine operation ``name`` (engine.api.calls.CALLS: answer, evidence, source_path …) on the
        folder's Tenant in the background; ``on_done(result)`` or ``on_error(exc)`` on the GUI thread."""
        operation = getattr(self.tenant(folder), name)
        self.runner.run_task(lambda: operation(*args, **kwargs), on_done, on_error)

    def call(self, fn: Callable[[], Any], on_done, on_error=None) -> None:
        """Run any other work in the background (several engine calls, a copy into the cache)."""
        self.runner.run_task(fn, on_done, on_error)

    def shutdown(self, msecs: int = 10000) -> None:
        """Cancel work, wait for it, close every tenant and stop our engine process."""
        self.cancel()
        self.runner.wait(msecs)
        for state in self.tenants.values():
            _close(state.tenant)
        self.tenants.clear()
        if self._own_host:
            self.host.stop()

    def _close_later(self, state: TenantState) -> None:
        self.runner.run_task(lambda: _close(state.tenant))


def _close(tenant) -> None:
    try:
        tenant.close()
    except Exception:
        log.exception("closing a tenant failed")
