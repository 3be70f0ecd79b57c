"""One refresh of a folder: scan it, hash what changed, read it in the workers, commit in batches.

Only new or changed files are read (size and mtime first, then sha256), in worker processes
(engine/library/workers.py) that take a file from the parse cache or parse it, and chunk it; this
process analyses the chunks with its Kiwi (engine/search/schema.py ``analyse_rows``, one Kiwi per app). The
same bytes under two names are read once. A file that needs OCR comes back marked after a text pass
and is read again, with OCR, after all the others, so text search is ready first. What comes back is
staged in the group indexes and committed in batches (after ``BATCH_CHUNKS`` chunks or an interval
that starts at ``FIRST_BATCH_S``, the first rows show soon, and doubles after each batch): few, large segments, since
Whoosh's cost per segment grows with the distinct terms it holds. Each batch is one line of the state
journal, so a killed refresh resumes where it stopped; the last commit merges and folds the journal.

``Run`` drives the Tenant it refreshes (engine/library/tenant.py) through the tenant's own staging and
commit (``_stage``, ``_apply``, ``_discard_staged``): they are the tenant's, this is its refresh.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from engine.search.analyzer import kiwi
from engine.search.schema import analyse_rows
from engine.library.acl import Acl, is_acl_file, load_acl
from engine.library.workers import Outcome, Read, WorkerPool, failed_document, refresh_job, start_worker, summary
from engine.model import Document
from engine.read.failures import unreadable
from engine.read.parse import iter_files, leaves_folder

BATCH_CHUNKS = 20000
FIRST_BATCH_S = 2.0


@dataclass
class Progress:
    """How far a refresh is, for the window's progress bar and the CLI."""
    done: int
    total: int
    current: Optional[str]            # the file read last
    phase: str            # "scan" | "reading" (a file went to a worker) | "parse" (one came back) | "index"
    #                       | "done" | "cancelled"
    reading: tuple[str, ...] = ()     # the files being read right now (handed to a worker, not back yet)


class Run:
    """One refresh: scan, hash, read in the workers (cache or parse, then analyse), commit in batches."""

    def __init__(self, tenant, say: Callable[[Progress], None], cancel: Optional[threading.Event]):
        """``tenant``: the Tenant refreshed (engine/library/tenant.py, which imports this module)."""
        self.t = tenant
        self.say = say
        self.cancel = cancel
        self.old = dict(tenant._files)
        self.report = {"added": [], "changed": [], "removed": [], "unchanged": 0,
                       "parsed": 0, "from_cache": 0, "cancelled": False}
        self.done = 0
        self.total = 0
        self.entries: dict[str, dict] = {}
        self.removed: list[str] = []
        self.staged = 0                     # chunks staged since the last commit
        self.last_commit = time.monotonic()
        self.interval = FIRST_BATCH_S
        self.waiting: dict[str, list[tuple]] = {}   # job -> files waiting on it (same bytes)
        self.needs_ocr: deque[tuple[str, list[tuple]]] = deque()   # read again with OCR at the end
        self.reading_ocr = False
        self.acl: Acl = tenant._acl
        self.groups: dict = {}
        self.pool: Optional[WorkerPool] = None
        self.last: Optional[str] = None                          # the file finished last
        self.analyser: Optional[threading.Thread] = None

    def go(self) -> dict:
        t = self.t
        self.say(Progress(0, 0, None, "scan"))
        self.acl = load_acl(t.folder)
        self.groups = self.acl.groups()
        found = self._scan()
        self.removed = sorted(k for k in self.old if k not in found)
        self.report["removed"] = list(self.removed)
        todo = deque(k for k, stat in found.items() if not self._current(k, stat))
        self.total = len(todo)
        self.report["unchanged"] = len(found) - self.total
        self.pool = WorkerPool(min(t.workers, max(1, self.total)), t.timeout_s, job=refresh_job, start=start_worker)
        try:
            self._work(todo, found)
        except BaseException:     # Ctrl+C, a failing callback: stop the workers at once
            self.pool.close(cancel=True)
            t._discard_staged()
            raise
        self.pool.close(cancel=self.report["cancelled"])
        self.say(Progress(self.done, self.total, None, "index"))
        self._commit(final=True)
        self.say(Progress(self.done, self.total, None,
                          "cancelled" if self.report["cancelled"] else "done"))
        return self.report

    def _work(self, todo: deque, found: dict) -> None:
        """Feed the pool (a few jobs ahead, never the whole queue) and commit in batches."""
        pool = self.pool
        inflight = 2 * pool.workers
        while todo or pool.pending() or self.needs_ocr:
            if self.cancel is not None and self.cancel.is_set():
                self.report["cancelled"] = True
                return
            started = False
            if todo and pool.pending() < inflight:
                key = todo.popleft()
                self._start(key, found[key])
                started = True
            elif (not todo and self.needs_ocr and pool.pending() < inflight
                  and (self.reading_ocr or not pool.pending())):   # every text document is in: now OCR
                self.reading_ocr = True
                job, waiting = self.needs_ocr.popleft()
                self.waiting[job] = waiting
                self._submit(job, waiting[0][0], waiting[0][1], with_ocr=True)
                started = True
            for outcome in pool.collect(0 if started else 0.2):
                self._finish_job(outcome)
            if (self.entries or self.removed) and (self.staged >= BATCH_CHUNKS
                                                   or time.monotonic() - self.last_commit >= self.interval):
                self._commit()
                self.interval *= 2

    def _scan(self) -> dict[str, tuple[str, int, int]]:
        found = {}
        for path in iter_files(str(self.t.folder)):
            key = Path(os.path.relpath(path, self.t.folder)).as_posix()
            if is_acl_file(key):
                continue
            try:
                st = os.stat(path)
            except OSError:
                continue
            found[key] = (path, st.st_size, st.st_mtime_ns)
        return found

    def _current(self, key: str, stat: tuple[str, int, int]) -> bool:
        """Whether a file's entry still holds: same size, mtime, parser and a live cache entry."""
        entry = self.old.get(key)
        _path, size, mtime = stat
        if not entry or entry["size"] != size or entry["mtime_ns"] != mtime:
            return False
        if entry["generation"] != self.t.generation or _retry(entry):
            return False
        return not entry.get("cached") or self.t.cache.has(entry["sha256"], key)

    def _start(self, key: str, stat: tuple[str, int, int]) -> None:
        """Hash one file, then keep its entry or send it to a worker (which takes it from the
        parse cache or parses it)."""
        path, size, mtime = stat
        t = self.t
        if leaves_folder(path, str(t.folder)):   # listed, never followed
            self._finish(key, stat, None, _unread(unreadable(key, "unknown", "LINK_OUTSIDE")), False)
            return
        if size > t.limits.max_file_bytes:
            self._finish(key, stat, None, _unread(unreadable(key, "unknown", "TOO_LARGE", size=size)), False)
            return
        try:
            sha = _sha256_file(path)
        except OSError as exc:
            doc = unreadable(key, "unknown", "READ_ERROR", size=size, detail=type(exc).__name__)
            self._finish(key, stat, None, _unread(doc), False)
            return
        prev = self.old.get(key)
        if (prev and prev["sha256"] == sha and prev["generation"] == t.generation
                and not _retry(prev) and (not prev.get("cached") or t.cache.has(sha, key))):
            self.entries[key] = {**prev, "size": size, "mtime_ns": mtime}   # touched, not changed
            self.report["unchanged"] += 1
            self._step(key)
            return
        job = t.cache.key(sha, key)
        if job in self.waiting:   # the same bytes are being read under another name
            self.waiting[job].append((key, stat, sha))
        else:
            self.waiting[job] = [(key, stat, sha)]
            self._submit(job, key, stat)
            self.say(Progress(self.done, self.total, self.last, "reading", self._reading()))

    def _submit(self, job: str, key: str, stat: tuple[str, int, int], with_ocr: bool = False) -> None:
        """A text pass first (``with_ocr`` False: a file that needs OCR comes back to wait for the
        end of the refresh); with OCR the job may take the document's OCR time on top."""
        t = self.t
        timeout = t.timeout_s + t.limits.max_ocr_seconds if with_ocr else t.timeout_s
        self.pool.submit(job, stat[0], key, t.limits, str(t.cache.root), t.generation, with_ocr,
                         timeout_s=timeout)
        if not self.analyser:   # Kiwi loads while the workers start (it is here already once searched)
            self.analyser = threading.Thread(target=kiwi, name="noda-kiwi-load", daemon=True)
            self.analyser.start()

    def _finish_job(self, outcome: Outcome) -> None:
        waiting = self.waiting.pop(outcome.key, [])
        if not waiting:
            return
        if outcome.failure is not None:
            for key, stat, sha in waiting:
                self._finish(key, stat, sha, _unread(failed_document(outcome, key, stat[1], sha)), False)
            return
        (key, stat, _sha), rest = waiting[0], waiting[1:]
        read: Read = outcome.value
        if read.needs_ocr:
            self.needs_ocr.append((outcome.key, waiting))
            return
        self.report["from_cache" if read.cached else "parsed"] += 1
        self._finish(key, stat, read.sha256, read.documents, True)
        if rest:   # the others now find these bytes in the parse cache, renamed for them
            self.waiting[outcome.key] = rest
            self._submit(outcome.key, rest[0][0], rest[0][1], with_ocr=True)

    def _finish(self, key: str, stat: tuple[str, int, int], sha: Optional[str],
                documents: list[tuple[dict, list[dict]]], cached: bool) -> None:
        prev = self.old.get(key)
        if prev is None:
            self.report["added"].append(key)
        elif prev["sha256"] != sha:
            self.report["changed"].append(key)
        analyse_rows([row for _s, rows in documents for row in rows])
        names = {s["filename"] for s, _rows in documents}
        dropped = {s["filename"] for s in prev["docs"]} - names if prev else set()
        self.t._stage(self.acl, self.groups, documents, dropped)
        self.staged += sum(len(rows) for _s, rows in documents)
        self.entries[key] = {"size": stat[1], "mtime_ns": stat[2], "sha256": sha,
                             "generation": self.t.generation, "cached": cached,
                             "docs": [s for s, _rows in documents]}
        self._step(key)

    def _step(self, key: str) -> None:
        self.done += 1
        self.last = key
        self.say(Progress(self.done, self.total, key, "parse", self._reading()))

    def _reading(self) -> tuple[str, ...]:
        """The files with a worker now, in the order they were handed out."""
        return tuple(files[0][0] for files in self.waiting.values())

    def _commit(self, final: bool = False) -> None:
        self.t._apply(self.acl, self.entries, self.removed, final)
        self.entries, self.removed, self.staged = {}, [], 0
        self.last_commit = time.monotonic()


def _retry(entry: dict) -> bool:
    """A file that could not be opened is tried again at every refresh."""
    return any(s["reason"] == "READ_ERROR" for s in entry["docs"])


def _sha256_file(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def _unread(doc: Document) -> list[tuple[dict, list[dict]]]:
    """A Document that could not be read, as a worker's result: its summary, no index rows."""
    return [(summary(doc, 0), [])]
