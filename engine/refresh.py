"""Parsing in worker processes, each file under a time limit.

Readers run in separate processes (pebble's ProcessPool, 'spawn' start method,
safe to drive from a GUI thread) so that a file that hangs or crashes its
worker — even a segfault or ``os._exit`` — costs only that file: it gets a
TIMEOUT or CORRUPT Document, the worker is replaced, the rest goes on.

A worker stores what it read in the parse cache itself, so the work is kept
even when the app is killed before it hears back. Each file is read under the
memory limit (engine/memguard.py): a worker that passes it ends, and the file
becomes TOO_LARGE.
"""
from __future__ import annotations

import concurrent.futures
import hashlib
import importlib
import multiprocessing
from dataclasses import dataclass
from typing import Any, Callable, Optional

import pebble

from engine import memguard, wording
from engine.cache import ParseCache
from engine.limits import Limits
from engine.model import Document, Warning
from engine.parse import parse_bytes, parse_path, unreadable


FILE_TIMEOUT_S = 60.0   # seconds one file may take once its worker starts on it


@dataclass
class Outcome:
    """What became of one job: its value, or why there is none."""

    key: str
    value: Any = None
    failure: Optional[str] = None     # None | "TIMEOUT" | "MEMORY" | "CRASHED" | "READ_ERROR" | "ERROR"
    detail: str = ""


def parse_job(path: str, name: str, limits: Limits, cache_root: str,
              generation: str) -> tuple[str, list[Document]]:
    """Worker side: read one file, parse it, store it in the parse cache; (sha256, Documents)."""
    with memguard.guard(limits.max_rss_bytes):
        with open(path, "rb") as fh:
            data = fh.read()
        sha = hashlib.sha256(data).hexdigest()
        docs = parse_bytes(data, name, limits=limits)
        del data
        ParseCache(cache_root, generation, prune=False).put(sha, name, docs)
    return sha, docs


def read_job(path: str, name: str, limits: Limits) -> list[Document]:
    """Worker side of `noda parse`: one file's Documents (nothing cached), under the memory limit."""
    with memguard.guard(limits.max_rss_bytes):
        return parse_path(path, limits=limits, display_name=name)


def failed_document(outcome: Outcome, name: str, size: int, sha256: Optional[str]) -> Document:
    """The Document for a file whose job failed: TIMEOUT, TOO_LARGE (memory), READ_ERROR or CORRUPT."""
    code = {"TIMEOUT": "TIMEOUT", "READ_ERROR": "READ_ERROR", "MEMORY": "TOO_LARGE"}.get(outcome.failure, "CORRUPT")
    doc = unreadable(name, "unknown", code, size=size, sha256=sha256, detail=outcome.detail)
    if outcome.failure == "MEMORY":
        doc.warnings.append(Warning("MEMORY_LIMIT", wording.warning_text("MEMORY_LIMIT")))
    return doc


class WorkerPool:
    """Runs jobs in ``workers`` processes; each job gets ``timeout_s`` seconds once started."""

    def __init__(self, workers: int = 2, timeout_s: float = FILE_TIMEOUT_S,
                 job: Callable[..., Any] = parse_job):
        self.workers = max(1, workers)
        self.timeout_s = timeout_s
        self.job = job
        self._pool: Optional[pebble.ProcessPool] = None
        self._running: dict[concurrent.futures.Future, str] = {}

    def submit(self, key: str, *args) -> None:
        """Queue ``job(*args)``; its Outcome will carry ``key``."""
        if self._pool is None:
            # each new worker imports the job's module before it takes a job, so the
            # import time of a fresh (or replacement) worker is not charged to a file
            self._pool = pebble.ProcessPool(max_workers=self.workers,
                                            initializer=importlib.import_module,
                                            initargs=(self.job.__module__,),
                                            context=multiprocessing.get_context("spawn"))
        future = self._pool.schedule(self.job, args=args, timeout=self.timeout_s)
        self._running[future] = key

    def pending(self) -> int:
        return len(self._running)

    def collect(self, wait_s: float = 0.2) -> list[Outcome]:
        """Outcomes of the jobs that finished, waiting up to ``wait_s`` for the first one."""
        if not self._running:
            return []
        done, _ = concurrent.futures.wait(self._running, timeout=wait_s,
                                          return_when=concurrent.futures.FIRST_COMPLETED)
        return [self._outcome(f, self._running.pop(f)) for f in done]

    def close(self, cancel: bool = False) -> None:
        """Stop the workers; with ``cancel`` drop the jobs still queued or running."""
        if self._pool is None:
            return
        if cancel:
            self._pool.stop()
        else:
            self._pool.close()
        self._pool.join()
        self._pool = None
        self._running.clear()

    @staticmethod
    def _outcome(future: concurrent.futures.Future, key: str) -> Outcome:
        try:
            return Outcome(key, value=future.result())
        except concurrent.futures.TimeoutError:
            return Outcome(key, failure="TIMEOUT")
        except pebble.ProcessExpired as exc:
            if exc.exitcode == memguard.EXIT_MEMORY:
                return Outcome(key, failure="MEMORY")
            return Outcome(key, failure="CRASHED", detail=f"exit {exc.exitcode}")
        except OSError as exc:
            return Outcome(key, failure="READ_ERROR", detail=type(exc).__name__)
        except concurrent.futures.CancelledError:
            return Outcome(key, failure="ERROR", detail="cancelled")
        except Exception as exc:
            return Outcome(key, failure="ERROR", detail=type(exc).__name__)
