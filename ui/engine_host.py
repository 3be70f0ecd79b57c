"""The engine in its own process, so indexing never holds the window's Python lock.

Indexing runs the Korean analyser (Kiwi) and Whoosh; Kiwi keeps Python's
GIL for the whole of every call (seconds when it loads, tens of ms per
chunk), which would freeze the window thread. So the window's process
keeps no Tenant: every engine call is sent to one engine process (spawned
once, like calibre's worker) and answered over a pipe.

- ``host_main``: the engine process — engine Tenants by folder; a call names
  an operation of ``engine.api.calls.CALLS`` and runs on a thread of its own
  (a refresh and questions side by side).
- ``EngineHost``: starts the engine process and carries calls to it; a call
  blocks its (worker) thread until the answer comes; progress and
  cancellation cross the pipe. If the process dies, the pending calls fail
  with ``EngineError`` and the next call starts a new process.
- ``HostedTenant``: stands for one folder's Tenant in the engine process:
  ``hosted.answer(…)`` is ``CALLS["answer"](tenant, …)`` there.
- ``EngineHost.serve_api`` / ``stop_api``: the local HTTP API served from the
  engine process over the same Tenants, by the class the app gives as ``api``
  (noda_desktop/hosted_api.py; this module imports nothing of the app layer).
"""
from __future__ import annotations

import functools
import itertools
import multiprocessing
import os
import threading
import time
import traceback
from collections import namedtuple
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import astuple
from typing import Any, Callable, Optional

HOST_THREADS = 4            # engine calls served at once (a refresh and questions side by side)
ENGINE_NICENESS = 5         # lower CPU priority of the engine (and its parsers) than the window's
CANCEL_POLL_S = 0.1
STOP_WAIT_S = 10.0
WARM_UP_QUIET_S = 0.5       # the analyser loads once no call has been in flight for this long

Progress = namedtuple("Progress", "done total current phase reading", defaults=((),))


class EngineError(Exception):
    """An engine call failed in the engine process (or the process died)."""

    def __init__(self, kind: str, message: str, traceback_text: str = ""):
        super().__init__(f"{kind}: {message}" if message else kind)
        self.kind = kind
        self.traceback_text = traceback_text


# ---- the engine process -----------------------------------------------------
def host_main(conn, warm_up: bool = True, api_class: Optional[type] = None) -> None:
    """Serve engine calls from ``conn`` until told to stop or the window's process goes away.

    The Korean analyser holds the GIL for seconds while it loads, so it loads only when the process is
    quiet (no call in flight for WARM_UP_QUIET_S): at a restart the saved listings and the refreshes that
    find nothing new come first. A call that needs it before then loads it itself.
    ``api_class(tenant_of)`` serves the local API (``serve_api`` / ``stop_api``); without one, none is served.
    """
    from engine.search.analyzer import korean_terms
    from engine.api import calls
    from engine.library.tenant import Tenant

    if hasattr(os, "nice"):
        os.nice(ENGINE_NICENESS)      # the window comes first; parser processes inherit this

    send_lock = threading.Lock()
    tenants: dict[tuple, Tenant] = {}
    tenants_lock = threading.Lock()
    quiet = threading.Condition()
    in_flight = {"calls": 0, "last": time.monotonic()}
    cancels: dict[int, threading.Event] = {}
    pool = ThreadPoolExecutor(HOST_THREADS)

    def send(message) -> None:
        with send_lock:
            try:
                conn.send(message)
            except (OSError, EOFError):
                pass

    def tenant_of(folder: str, kwargs: dict, close: bool = False):
        key = (folder, repr(sorted(kwargs.items())))
        with tenants_lock:
            tenant = tenants.pop(key, None) if close else tenants.get(key)
            if tenant is None and not close:
                tenant = tenants[key] = Tenant(folder, **kwargs)
        return tenant

    api = api_class(tenant_of) if api_class is not None else None
    host_calls = {"serve_api": api.serve, "stop_api": api.stop} if api else {}   # calls with no folder

    def serve(req: int, folder: Optional[str], kwargs: dict, method: str, args: tuple, kw: dict,
              given: tuple) -> None:
        with quiet:
            in_flight["calls"] += 1
        try:
            if "progress" in given:   # the window's progress and cancel cross the pipe
                kw["progress"] = lambda p: send(("progress", req, astuple(p)))
            if "cancel" in given:
                kw["cancel"] = cancels[req]
            tenant = None if folder is None else tenant_of(folder, kwargs, close=method == "close")
            if folder is None:
                result = host_calls[method](*args, **kw)
            elif method == "close":
                result = tenant.close() if tenant else None
            else:
                result = calls.CALLS[method](tenant, *args, **kw)
            send(("done", req, result))
        except Exception as exc:
            send(("error", req, type(exc).__name__, str(exc), traceback.format_exc()))
        finally:
            cancels.pop(req, None)
            with quiet:
                in_flight["calls"] -= 1
                in_flight["last"] = time.monotonic()
                quiet.notify_all()

    def warm() -> None:
        with quiet:
            while True:
                waited = time.monotonic() - in_flight["last"]
                if in_flight["calls"] == 0 and waited >= WARM_UP_QUIET_S:
                    break
                quiet.wait(max(0.05, WARM_UP_QUIET_S - waited))
        korean_terms("준비")

    if warm_up:   # a thread of its own: stopping never waits for it
        threading.Thread(target=warm, name="noda-warm-up", daemon=True).start()
    try:
        while True:
            message = conn.recv()
            if message[0] == "call":
                req = message[1]
                cancels[req] = threading.Event()
                pool.submit(serve, *message[1:])
            elif message[0] == "cancel":
                event = cancels.get(message[1])
                if event:
                    event.set()
            elif message[0] == "stop":
                break
    except (EOFError, OSError):
        pass                          # the window's process is gone
    for event in list(cancels.values()):
        event.set()
    if api:
        api.stop()
    pool.shutdown(wait=True)
    for tenant in tenants.values():
        try:
            tenant.close()
        except Exception:
            pass
    conn.close()
    os._exit(0)   # everything is closed; do not wait for the analyser still loading


# ---- the window's side --------------------------------------------------------
class EngineHost:
    """One engine process and the calls in flight to it (thread-safe)."""

    def __init__(self, warm_up: bool = True, api: Optional[type] = None):
        """``warm_up``: load the Korean analyser as soon as the process starts; ``api``: the class that
        serves the local HTTP API in the engine process (the app's HostedApi), or None for no API."""
        self.warm_up = warm_up
        self.api = api
        self._lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._process = None
        self._conn = None
        self._ids = itertools.count(1)
        self._pending: dict[int, tuple[Future, Optional[Callable], Any]] = {}   # req -> (future, progress, conn)

    def call(self, folder: Optional[str], tenant_kwargs: dict, method: str, *args,
             progress: Optional[Callable[[Progress], None]] = None, cancel: Optional[threading.Event] = None,
             **kwargs) -> Any:
        """Run ``CALLS[method]`` (engine.api.calls) on the folder's Tenant in the engine process (with no folder:
        the process's own ``serve_api``/``stop_api``) and wait for its answer."""
        future: Future = Future()
        with self._lock:
            self._start_locked()
            req = next(self._ids)
            conn = self._conn
            self._pending[req] = (future, progress, conn)
        given = tuple(name for name, value in (("progress", progress), ("cancel", cancel)) if value is not None)
        self._send(conn, ("call", req, folder, tenant_kwargs, method, args, kwargs, given))
        cancelled = False
        while True:
            try:
                return future.result(timeout=CANCEL_POLL_S if cancel is not None else None)
            except TimeoutError:
                if cancel is not None and cancel.is_set() and not cancelled:
                    cancelled = True
                    self._send(conn, ("cancel", req))

    def start(self) -> None:
        """Start the engine process now (it also starts on the first call)."""
        with self._lock:
            self._start_locked()

    def stop(self) -> None:
        """Stop the engine process (its tenants are closed there)."""
        with self._lock:
            process, conn = self._process, self._conn
            self._process = self._conn = None
        if process is None:
            return
        self._send(conn, ("stop",))
        process.join(STOP_WAIT_S)
        if process.is_alive():
            process.terminate()
            process.join(STOP_WAIT_S)
        conn.close()

    def serve_api(self, port: int, folders: list[str], tenant_kwargs: dict, config_dir) -> int:
        """Serve the local API from the engine process over these folders' Tenants; the port.

        Starts it once (an EngineError of kind OSError when the port is taken); later calls update the folders."""
        return self.call(None, {}, "serve_api", port, list(folders), tenant_kwargs, str(config_dir))

    def stop_api(self) -> None:
        if self.running and self.api is not None:
            self.call(None, {}, "stop_api")

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.is_alive()

    def _start_locked(self) -> None:
        if self._process is not None and self._process.is_alive():
            return
        context = multiprocessing.get_context("spawn")
        here, there = context.Pipe()
        process = context.Process(target=host_main, args=(there, self.warm_up, self.api), name="noda-engine")
        process.start()
        there.close()
        self._process, self._conn = process, here
        threading.Thread(target=self._receive, args=(here,), name="noda-engine-replies", daemon=True).start()

    def _send(self, conn, message) -> None:
        with self._send_lock:
            try:
                conn.send(message)
            except (OSError, EOFError, ValueError):
                pass                  # the receiver reports the dead process to every caller

    def _receive(self, conn) -> None:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                break
            kind, req = message[0], message[1]
            if kind == "progress":
                entry = self._pending.get(req)
                if entry and entry[1]:
                    entry[1](Progress(*message[2]))
                continue
            entry = self._pending.pop(req, None)
            if entry is None:
                continue
            if kind == "done":
                entry[0].set_result(message[2])
            else:
                entry[0].set_exception(EngineError(message[2], message[3], message[4]))
        with self._lock:
            if self._conn is conn:
                self._process = self._conn = None
            failed = [self._pending.pop(r) for r, entry in list(self._pending.items()) if entry[2] is conn]
        for future, _progress, _conn in failed:
            if not future.done():
                future.set_exception(EngineError("EngineStopped", "the engine process ended"))


class HostedTenant:
    """One folder's engine Tenant, living in the engine process: ``hosted.name(…)`` runs the operation ``name`` of
    engine.api.calls.CALLS there (refresh, documents, search, answer, evidence, document, chunk, source_path …)."""

    def __init__(self, folder, *, host: EngineHost, **kwargs):
        self.folder = str(folder)
        self.host = host
        self.kwargs = kwargs

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_") or "host" not in self.__dict__:
            raise AttributeError(name)
        return functools.partial(self.host.call, self.folder, self.kwargs, name)

    def close(self) -> None:
        if self.host.running:
            self.host.call(self.folder, self.kwargs, "close")
