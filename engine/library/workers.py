"""Parsing in worker processes, each file under a time limit.

Readers run in separate processes (pebble's ProcessPool, 'spawn' start method,
safe to drive from a GUI thread) so that a file that hangs or crashes its
worker — even a segfault or ``os._exit`` — costs only that file: it gets a
TIMEOUT or CORRUPT Document, the worker is replaced, the rest goes on.

A worker stores what it read in the parse cache itself, so the work is kept
even when the app is killed before it hears back. It also chunks what it read
and computes its index rows but for the Kiwi terms (``refresh_job``), and sends
back only the state summary and those rows of each Document: the process that
writes the index analyses them with the one Kiwi it holds to search anyway
(about 340 MB each: none in the workers). Each file is read under the memory
limit (engine/read/memguard.py): a worker that passes it ends, and the file becomes
TOO_LARGE.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import hashlib
import importlib
import multiprocessing
from dataclasses import asdict, dataclass
from typing import Any, Callable, Optional

import pebble

from engine import wording
from engine.search.chunking import chunk_document
from engine.library.cache import ParseCache
from engine.limits import Limits
from engine.model import Document, Warning
from engine.read import memguard, ocr
from engine.read.failures import unreadable
from engine.read.parse import parse_bytes, parse_path


FILE_TIMEOUT_S = 60.0   # seconds one file may take once its worker starts on it

STRUCTURE_FIELDS = ("title", "doc_number", "issued_date", "issuer", "recipient", "recipients", "attachments")


@dataclass
class Outcome:
    """What became of one job: its value, or why there is none."""

    key: str
    value: Any = None
    failure: Optional[str] = None     # None | "TIMEOUT" | "MEMORY" | "CRASHED" | "READ_ERROR" | "ERROR"
    detail: str = ""


@dataclass
class Read:
    """What a worker sends back for one file: its hash, whether the parse cache had it, and per
    Document its state summary with its index rows, not yet analysed (engine.search.schema.index_rows
    with ``analysed=False``; engine.search.schema.analyse_rows finishes them). ``needs_ocr``:
    a text pass stopped where OCR was needed; nothing was kept, read the file again with OCR."""

    sha256: str
    cached: bool
    documents: list[tuple[dict, list[dict]]]
    needs_ocr: bool = False


def refresh_job(path: str, name: str, limits: Limits, cache_root: str, generation: str,
                with_ocr: bool = True) -> Read:
    """Worker side: the file's Documents from the parse cache, or parsed (and cached); then
    chunked into index rows (all but the Kiwi terms). Without ``with_ocr`` a file that needs OCR is only
    reported as such (``Read.needs_ocr``)."""
    from engine.search.schema import index_rows

    with memguard.guard(limits.max_rss_bytes):
        with open(path, "rb") as fh:
            data = fh.read()
        sha = hashlib.sha256(data).hexdigest()
        cache = ParseCache(cache_root, generation, prune=False)
        docs = cache.get(sha, name)
        cached = docs is not None
        if docs is None:
            with contextlib.nullcontext(None) if with_ocr else ocr.text_pass() as text_only:
                docs = parse_bytes(data, name, limits=limits)
            if text_only is not None and text_only.needed:
                return Read(sha, False, [], needs_ocr=True)
            cache.put(sha, name, docs)
        del data
        read = Read(sha, cached, documents_read(docs, index_rows))
    return read


def documents_read(docs: list[Document], index_rows: Callable) -> list[tuple[dict, list[dict]]]:
    """(summary, index rows not yet analysed) of each Document."""
    chunked = [(doc, chunk_document(doc)) for doc in docs]
    rows = index_rows([(doc.source.filename, doc, chunks) for doc, chunks in chunked], analysed=False)
    return [(summary(doc, len(chunks)), doc_rows) for (doc, chunks), (_key, doc_rows) in zip(chunked, rows)]


def start_worker() -> None:
    """A refresh worker's start: the readers and the index rows imported before its first
    file's time limit runs."""
    import engine.search.index  # noqa: F401  (the parsers come with this module itself)


def summary(doc: Document, chunks: int) -> dict:
    """What the tenant state keeps about one Document: enough for documents() and search()."""
    structure = asdict(doc.structure)
    return {"filename": doc.source.filename, "doc_id": doc.doc_id, "format": doc.source.format,
            "bytes": doc.source.bytes, "sha256": doc.source.sha256,
            "readable": doc.access.readable, "reason": doc.access.reason,
            "reason_text": doc.access.reason_text, "drm_vendor": doc.access.drm_vendor,
            "structure": {k: structure[k] for k in STRUCTURE_FIELDS},
            "warnings": [{"code": w.code, "text": w.text} for w in doc.warnings],
            "chunks": chunks}


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
                 job: Callable[..., Any] = refresh_job, start: Optional[Callable[[], None]] = None):
        self.workers = max(1, workers)
        self.timeout_s = timeout_s
        self.job = job
        self.start = start
        self._pool: Optional[pebble.ProcessPool] = None
        self._running: dict[concurrent.futures.Future, str] = {}

    def submit(self, key: str, *args, timeout_s: Optional[float] = None) -> None:
        """Queue ``job(*args)`` (``timeout_s`` instead of the pool's); its Outcome will carry ``key``."""
        if self._pool is None:
            # each new worker imports the job's module (and runs ``start``) before it takes a
            # job, so the start-up time of a fresh (or replacement) worker is not charged to a file
            start, start_args = ((self.start, ()) if self.start
                                 else (importlib.import_module, (self.job.__module__,)))
            self._pool = pebble.ProcessPool(max_workers=self.workers, initializer=start, initargs=start_args,
                                            context=multiprocessing.get_context("spawn"))
        future = self._pool.schedule(self.job, args=args, timeout=timeout_s or self.timeout_s)
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
