"""One file sent to the API (/parse, /chunk): read in a worker process under a time limit, never stored.

A caller's file can be hostile: readers run in child processes (pebble, the
spawn start method, as for folders in engine/library/workers.py), so a file that
hangs becomes ``TIMEOUT`` and one that crashes its worker becomes
``CORRUPT`` — the server itself keeps serving. The bytes are not written
anywhere and not put in the parse cache.
"""
from __future__ import annotations

import hashlib
import importlib
import multiprocessing
import os
import threading
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Optional

import pebble

from engine.library.workers import Outcome, failed_document
from engine.limits import DEFAULT_LIMITS, Limits
from engine.model import Document
from engine.read import memguard
from engine.read.parse import parse_bytes

DEFAULT_MAX_UPLOAD = 100 * 1024 * 1024   # bytes of one file (NODA_MAX_UPLOAD overrides)
PARSE_WORKERS = 2
PARSE_TIMEOUT_S = 60.0


def max_upload() -> int:
    """The largest file the API takes, in bytes (``NODA_MAX_UPLOAD``, default 100 MB)."""
    try:
        value = int(os.environ.get("NODA_MAX_UPLOAD", ""))
    except ValueError:
        return DEFAULT_MAX_UPLOAD
    return value if value > 0 else DEFAULT_MAX_UPLOAD


def parse_job(data: bytes, filename: str, limits: Limits) -> list[Document]:
    """Worker side: the Documents of one file's bytes (a ZIP gives one per member), under the memory limit."""
    with memguard.guard(limits.max_rss_bytes):
        return parse_bytes(data, filename, limits=limits)


class FileReader:
    """Reads sent files in worker processes; the pool starts at the first file and lives until ``close``."""

    def __init__(self, limits: Limits = DEFAULT_LIMITS, workers: int = PARSE_WORKERS,
                 timeout_s: float = PARSE_TIMEOUT_S):
        self.limits = limits
        self.workers = workers
        self.timeout_s = timeout_s
        self._pool: Optional[pebble.ProcessPool] = None
        self._lock = threading.Lock()

    def read(self, data: bytes, filename: str) -> list[Document]:
        """The Documents of ``data`` named ``filename``; a hang or a crash gives one unreadable Document."""
        future = self._start().schedule(parse_job, args=(data, filename, self.limits), timeout=self.timeout_s)
        try:
            return future.result()
        except FutureTimeout:
            outcome = Outcome(filename, failure="TIMEOUT")
        except pebble.ProcessExpired as exc:
            outcome = (Outcome(filename, failure="MEMORY") if exc.exitcode == memguard.EXIT_MEMORY
                       else Outcome(filename, failure="CRASHED", detail=f"exit {exc.exitcode}"))
        except Exception as exc:
            outcome = Outcome(filename, failure="ERROR", detail=type(exc).__name__)
        return [failed_document(outcome, filename, len(data), hashlib.sha256(data).hexdigest())]

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.stop()
            pool.join()

    def _start(self) -> pebble.ProcessPool:
        with self._lock:
            if self._pool is None:
                self._pool = pebble.ProcessPool(max_workers=self.workers, initializer=importlib.import_module,
                                                initargs=(__name__,),
                                                context=multiprocessing.get_context("spawn"))
            return self._pool
