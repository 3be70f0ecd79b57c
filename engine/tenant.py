"""A tenant: one folder of documents, kept read and searchable — the facade for CLI and window.

The folder is read-only to the app: nothing is ever written inside it. What
Noda keeps lives under ``<cache_root>``:

- ``parse/``: the parse cache, shared by all tenants (engine/cache.py);
- ``tenants/<hash of the folder path>/state.json``: one entry per file (size,
  mtime_ns, sha256, parser generation, and a summary of each Document it gave);
- ``tenants/<hash>/index/<group>/``: one search index per ACL permission group
  (engine/acl.py), holding only the documents that group may see;
- ``unpacked/``: ZIP members copied out once for the viewer.

``refresh()`` re-reads only new or changed files (size and mtime first, then
sha256), in worker processes (engine/refresh.py) that also chunk what they
read; this process analyses the chunks with its Kiwi (engine/index.py
``analyse_rows``) and commits the indexes in batches: each batch is one new index segment
and one line appended to ``state.journal`` (the files it committed), so a
refresh that is killed resumes where it stopped and no batch rewrites the whole
state. The end of a refresh merges the index segments and folds the journal
into ``state.json``.
``documents()`` and ``search()`` refresh first when the folder was never read.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
import threading
import time
import zipfile
from collections import OrderedDict, deque
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import platformdirs

from engine import wording
from engine.acl import Acl, is_acl_file, load_acl
from engine.analyzer import kiwi
from engine.cache import ParseCache, parser_generation
from engine.chunking import Chunk, chunk_document
from engine.index import ChunkIndex, IndexDamaged, analyse_rows
from engine.limits import DEFAULT_LIMITS, Limits
from engine.model import Document, Structure, Warning
from engine.names import name_key
from engine.private import Removed, private_dir, remove
from engine.read import memguard
from engine.read.failures import unreadable
from engine.read.formats.archive import member_name, read_capped
from engine.read.parse import iter_files, leaves_folder
from engine.refresh import (FILE_TIMEOUT_S, Outcome, Read, WorkerPool, failed_document, refresh_job,
                            start_worker, summary)

APP_NAME = "noda-desktop"
MAX_LIMIT = 20
# Warnings that mean "read, but have a look at the original once" (review). Measured on the shared corpus
# (bench/review_warnings.py): only OCR_TEXT marks documents read less accurately (snippets found as written
# 0.583 against 1.0, in reading order 0.833 against 1.0); side-by-side layout, split tables, text boxes and
# pages without text did not (their documents read as well as the rest), so they stay plain warnings.
# TRUNCATED, CONTENT_LIMIT, FORMULA_NOT_CACHED and OCR_PAGES_SKIPPED say outright that text is missing or is not
# the value shown.
REVIEW_CODES = frozenset({"OCR_TEXT", "FORMULA_NOT_CACHED", "TRUNCATED", "CONTENT_LIMIT", "OCR_PAGES_SKIPPED"})
# A refresh commits a batch after BATCH_CHUNKS chunks or after its interval, which starts at
# FIRST_BATCH_S (the first rows show soon) and doubles after each batch: few, large
# segments, since Whoosh's cost per segment grows with the distinct terms it holds.
BATCH_CHUNKS = 20000
FIRST_BATCH_S = 2.0
INDEX_SLICE = 100         # documents per index write when re-syncing a whole group
STATE_VERSION = 1
RECENT_DOCUMENTS = 16     # parsed Documents (and chunks) kept in memory for document()/chunks()
CACHE_PARTS = ("parse", "tenants", "unpacked")


@dataclass
class Progress:
    done: int
    total: int
    current: Optional[str]            # the file read last
    phase: str            # "scan" | "reading" (a file went to a worker) | "parse" (one came back) | "index"
    #                       | "done" | "cancelled"
    reading: tuple[str, ...] = ()     # the files being read right now (handed to a worker, not back yet)


def default_cache_root() -> Path:
    """The user cache folder (NODA_CACHE_DIR overrides), as noda_desktop.paths.cache_dir()."""
    return Path(os.environ.get("NODA_CACHE_DIR")
                or platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def purge(cache_root: str | Path | None = None) -> Removed:
    """Delete the parse cache, every tenant's state and indexes and the unpacked copies, following
    no link out of the cache; what was removed."""
    root = Path(cache_root) if cache_root else default_cache_root()
    removed = Removed()
    for part in CACHE_PARTS:
        removed.add(remove(root / part))
    return removed


def known_folders(cache_root: str | Path | None = None) -> list[str]:
    """The folders the cache holds something of (from each tenant's saved state)."""
    root = Path(cache_root) if cache_root else default_cache_root()
    folders = []
    for state in sorted((root / "tenants").glob("*/state.json")):
        try:
            folder = json.loads(state.read_text(encoding="utf-8")).get("folder")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(folder, str):
            folders.append(folder)
    return folders


class Tenant:
    """One folder of documents: its state, parse results, ACL and search indexes."""

    def __init__(self, folder: str | Path, *, cache_root: str | Path | None = None,
                 limits: Limits = DEFAULT_LIMITS, workers: int = 2, timeout_s: float = FILE_TIMEOUT_S):
        self.folder = Path(folder).resolve()
        self.cache_root = private_dir(Path(cache_root) if cache_root else default_cache_root())
        self.limits = limits
        self.workers = workers
        self.timeout_s = timeout_s
        self.generation = parser_generation(limits)
        self.cache = ParseCache(self.cache_root / "parse", self.generation)
        key = hashlib.sha256(os.path.normcase(str(self.folder)).encode("utf-8")).hexdigest()[:16]
        self.home = self.cache_root / "tenants" / key
        self._lock = threading.RLock()          # the state and the index objects, briefly
        self._write_lock = threading.RLock()    # index writes and state files
        self._refresh_lock = threading.Lock()
        self._recent: OrderedDict[tuple, tuple[Document, list[Chunk]]] = OrderedDict()
        self._indexes: dict[str, ChunkIndex] = {}
        self._indexed: dict[str, dict[str, str]] = {}   # group -> {filename: doc_id} in its index
        self._files: dict[str, dict] = {}
        self._notices: dict[str, dict] = {}   # said once: the index was rebuilt, damaged cache entries re-read
        self._damaged: set[str] = set()       # files whose parse-cache entry was found damaged or gone
        self._refreshed = self._load_state()
        self._acl = load_acl(self.folder)

    # ---- refresh ---------------------------------------------------------
    def refresh(self, progress: Optional[Callable[[Progress], None]] = None,
                cancel: Optional[threading.Event] = None) -> dict:
        """Read new and changed files, drop deleted ones, update the indexes (see module doc).

        ``progress`` is called from the calling thread; setting ``cancel`` stops the
        workers, keeps what was read and returns with ``"cancelled": True``.
        Raises FileNotFoundError when the folder is gone (nothing is dropped then).
        """
        if not self.folder.is_dir():   # an unplugged drive must not look like "all deleted"
            raise FileNotFoundError(str(self.folder))
        with self._refresh_lock:
            report = _Run(self, progress or (lambda p: None), cancel).go()
            if self._damaged and not report["cancelled"]:
                # cache entries found damaged while indexing: read those files again now
                self._damaged.clear()
                again = _Run(self, progress or (lambda p: None), cancel).go()
                report["parsed"] += again["parsed"]
            with self._lock:
                report["notices"] = list(self._notices.values())
            return report

    def take_notices(self) -> list[dict]:
        """What healed itself (index rebuilt, cache entries re-read) since the last call, said once:
        in the next documents() or search() warnings (also listed in refresh()'s report)."""
        with self._lock:
            notices, self._notices = list(self._notices.values()), {}
        return notices

    @property
    def read_before(self) -> bool:
        """Whether this folder has a saved state (so documents() answers from it without reading)."""
        return self._refreshed

    # ---- listing and search ---------------------------------------------
    def documents(self, principal: Optional[str] = None, start: int = 0,
                  count: Optional[int] = None) -> dict:
        """The seed's /documents answer for what ``principal`` may see.

        ``start``/``count`` give one page of the rows (in file name order) with the totals of
        all of them, so a caller can stream a large folder's listing in pieces; ``total`` is
        the number of rows in all pages.
        """
        acl = self._ready()
        visible = self._visible(acl, principal)
        rows = [_listing(s) for s in visible]
        unreadable_n = sum(1 for r in rows if not r["readable"])
        needs_review = unreadable_n + sum(1 for r in rows if r["review"])
        end = len(rows) if count is None else max(0, start) + max(0, count)
        return {
            "tenant": self.folder.name,
            "readable": len(rows) - unreadable_n,
            "unreadable": unreadable_n,
            "needs_review": needs_review,
            "document_ready_rate": round((len(rows) - needs_review) / len(rows), 3) if rows else None,
            "chunks": sum(r["chunks"] for r in rows),
            "warnings": _acl_warnings(acl) + self.take_notices(),
            "total": len(rows),
            "documents": rows[max(0, start):end],
        }

    def search(self, query: str, limit: int = 10, principal: Optional[str] = None) -> dict:
        """The seed's /search answer: hits in engine order from ``principal``'s own index.

        Seam for a second retriever (seed 004's semantic half): vectors per group
        next to ``index/<group>/``, built in ``_sync_indexes``; its hits are
        interleaved with the lexical ones here by rank (scores never mixed), with
        ``found_by="semantic"`` and score 0.0 for a chunk only it found. None yet:
        multilingual USE v3 gained nothing on KorQuAD and embedding took 4x the
        CPU of indexing.
        """
        acl = self._ready()
        limit = max(1, min(int(limit), MAX_LIMIT))
        group = acl.group_of(principal)
        hits, searched = [], 0
        if group is not None:
            with self._lock:
                try:
                    searched, hits = self._search_index(group, query, limit)
                except IndexDamaged:
                    self._heal(acl, group)
                    searched, hits = self._search_index(group, query, limit)
        skipped = [_skipped(s) for s in self._visible(acl, principal) if not s["readable"]]
        return {"tenant": self.folder.name, "query": query, "chunks_searched": searched,
                "skipped": skipped, "warnings": _acl_warnings(acl) + self.take_notices(), "hits": hits}

    def _search_index(self, group: str, query: str, limit: int) -> tuple[int, list[dict]]:
        index = self._index(group)
        return index.chunk_count(), index.search(query, limit) if query.strip() else []

    # ---- one document ----------------------------------------------------
    def document(self, filename: str) -> Optional[Document]:
        """The full parsed Document named ``filename`` (from the parse cache)."""
        item = self._parsed(filename)
        return item[0] if item else None

    def chunks(self, filename: str) -> list[Chunk]:
        """The chunks of the Document named ``filename`` (as indexed)."""
        item = self._parsed(filename)
        return item[1] if item else []

    def chunk(self, filename: str, chunk_id: str) -> Optional[Chunk]:
        """One chunk of the Document named ``filename`` (None when either is unknown)."""
        return next((c for c in self.chunks(filename) if c.id == chunk_id), None)

    def source_path(self, filename: str) -> Optional[Path]:
        """The original file on disk; a ZIP member is copied out once into the app cache."""
        found = self._find(filename)
        if found is None:
            return None
        key, _entry, summary = found
        if summary["filename"] == key:
            return self.folder / key
        return self._unpack(key, summary["filename"], summary)

    def close(self) -> None:
        with self._lock:
            for index in self._indexes.values():
                index.close()
            self._indexes.clear()

    # ---- internals -------------------------------------------------------
    def _ready(self) -> Acl:
        """Refresh a never-read tenant; re-sync the indexes when ACL.json changed; the ACL."""
        if not self._refreshed and not self._refresh_lock.locked():
            self.refresh()
        acl = load_acl(self.folder)
        if acl != self._acl:
            self._apply(acl, {}, [], final=True)
        return acl

    def _visible(self, acl: Acl, principal: Optional[str]) -> list[dict]:
        files = self._files
        summaries = [s for e in files.values() for s in e["docs"]]
        return sorted((s for s in summaries if acl.can_see(principal, s["filename"])),
                      key=lambda s: s["filename"])

    def _find(self, filename: str) -> Optional[tuple[str, dict, dict]]:
        """(file key, its entry, the Document's summary) for ``filename``: as written, else compared
        as names are (engine/names.py: a name written in NFD finds its NFC file)."""
        for same in (_as_written, name_key):
            wanted = same(filename)
            for key, entry in self._files.items():
                if wanted == same(key) or wanted.startswith(same(key) + "/"):
                    for s in entry["docs"]:
                        if same(s["filename"]) == wanted:
                            return key, entry, s
        return None

    def _parsed(self, filename: str) -> Optional[tuple[Document, list[Chunk]]]:
        """(Document, chunks) of ``filename``: from memory, the parse cache, or its summary."""
        found = self._find(filename)
        if found is None:
            return None
        key, entry, summary = found
        filename = summary["filename"]   # as the file is named (the caller's may be another normal form)
        memo = (filename, summary["doc_id"], entry["sha256"])
        with self._lock:
            if memo in self._recent:
                self._recent.move_to_end(memo)
                return self._recent[memo]
        doc = self._cached(entry, key, filename) if entry.get("cached") else _rebuild(summary)
        if doc is None:
            return None
        item = (doc, chunk_document(doc))
        with self._lock:
            self._recent[memo] = item
            while len(self._recent) > RECENT_DOCUMENTS:
                self._recent.popitem(last=False)
        return item

    def _index(self, group: str) -> ChunkIndex:
        if group not in self._indexes:
            index = ChunkIndex(self.home / "index" / group)
            self._indexes[group] = index
            if index.rebuilt:   # it was damaged: refilled from the parse cache by the next sync
                self._indexed.pop(group, None)
                self._notice("INDEX_REBUILT")
        return self._indexes[group]

    def _heal(self, acl: Acl, group: str) -> None:
        """A group's index turned out damaged: start it empty and refill it from the parse cache."""
        self._restart_index(group)
        self._apply(acl, {}, [], final=True)

    def _restart_index(self, group: str) -> None:
        self._index(group).rebuild()
        self._indexed.pop(group, None)
        self._notice("INDEX_REBUILT")

    def _notice(self, code: str) -> None:
        self._notices[code] = {"code": code, "text": wording.tenant_text(code)}

    def _drop_superseded(self, old: dict[str, dict], files: dict[str, dict], touched: list[str]) -> Removed:
        """What the cache kept of the ``touched`` files' old content, once no file uses it any more."""
        gone = [(key, old[key]) for key in touched if key in old and old[key].get("sha256")
                and (files.get(key) or {}).get("sha256") != old[key]["sha256"]]
        freed = Removed()
        if gone:
            live = {self.cache.key(e["sha256"], k) for k, e in files.items() if e.get("sha256")}
            for key, entry in gone:
                if self.cache.key(entry["sha256"], key) not in live:
                    freed.add(self._drop_cached(key, entry))
        return freed

    def _drop_cached(self, key: str, entry: dict) -> Removed:
        """Delete the parse-cache entry and the unpacked ZIP members of one file."""
        freed = self.cache.remove(entry["sha256"], key) if entry.get("cached") else Removed()
        for summary in entry["docs"]:
            if summary.get("sha256") and summary["filename"] != key:
                freed.add(remove(self.cache_root / "unpacked" / summary["sha256"]))
        return freed

    def purge(self) -> Removed:
        """Delete everything the cache holds of this folder: its state and indexes, and the parse-cache
        entries and unpacked copies of its files (the next refresh reads it all again)."""
        with self._lock:
            freed = Removed()
            for key, entry in self._files.items():
                freed.add(self._drop_cached(key, entry))
            self.close()
            freed.add(remove(self.home))
            self._files, self._indexed, self._refreshed = {}, {}, False
        return freed

    def forget(self, name: str) -> tuple[list[str], Removed]:
        """Drop file ``name`` (its folder-relative path or its plain name, compared as names are) from
        the cache: its parse-cache entry, unpacked copies, index entries and state. The next refresh
        reads it again if it is still there. Returns the files dropped and what was deleted."""
        wanted = name_key(name)
        with self._lock:
            keys = [k for k in self._files if wanted in (name_key(k), name_key(k.rsplit("/", 1)[-1]))]
            freed = self._apply(self._acl, {}, keys, final=True) if keys else Removed()
            for index in self._indexes.values():
                index.settle()   # asked for explicitly: its text is off the disk when this returns
            return keys, freed

    def _stage(self, acl: Acl, groups: dict, documents: list[tuple[dict, list[dict]]],
               dropped: set[str]) -> None:
        """Stage one file's documents (summary, index rows) in every group index that may hold
        them, and the removal of ``dropped`` names; searchable at the next ``_apply``."""
        with self._write_lock:
            for group, admitted in groups.items():
                try:
                    index, indexed = self._group_index(group)
                    for s, rows in documents:
                        if rows and acl.allow_list(s["filename"]) in admitted:
                            index.put(s["filename"], rows)
                            indexed[s["filename"]] = s["doc_id"]
                        elif s["filename"] in indexed:
                            dropped.add(s["filename"])
                    for name in dropped & indexed.keys():
                        index.drop(name)
                        indexed.pop(name)
                except IndexDamaged:   # start it empty: the refresh's final sync refills it from the cache
                    self._restart_index(group)

    def _apply(self, acl: Acl, entries: dict[str, dict], removed: list[str], final: bool) -> Removed:
        """Commit what was staged, drop the ``removed`` files and take ``entries`` into the state;
        the parse-cache entries and unpacked copies of removed or changed files go too (what was
        deleted is returned).

        A batch commits one segment per index and appends to the journal; ``final`` (the end
        of a refresh, an ACL change, a file forgotten) merges, checks every index holds exactly
        what its group may see, and writes ``state.json``.
        """
        with self._write_lock:
            old = self._files
            gone = {s["filename"] for key in removed for s in self._files.get(key, {"docs": []})["docs"]}
            for group in acl.groups():
                try:
                    if gone:
                        index, indexed = self._group_index(group)
                        for name in gone & indexed.keys():
                            index.drop(name)
                            indexed.pop(name)
                    with self._lock:
                        index = self._index(group)
                    index.commit(merge=final)
                except IndexDamaged:   # start it empty: the final sync refills it from the parse cache
                    self._restart_index(group)
                    final = True
            dropped = set(removed)
            files = {k: v for k, v in self._files.items() if k not in dropped}
            files.update(entries)
            synced = False
            if final:
                try:
                    synced = self._sync_indexes(acl, files)
                except IndexDamaged as damaged:   # start that index empty; the sync refills it
                    self._restart_index(Path(str(damaged)).name)
                    synced = self._sync_indexes(acl, files) or True
            changed = bool(entries or removed or synced) or acl != self._acl
            with self._lock:
                self._files, self._acl = files, acl
            if final and (changed or not self._refreshed or (self.home / "state.journal").exists()):
                self._save_state()
            elif entries or removed:
                self._journal(entries, removed)
            freed = self._drop_superseded(old, files, list(removed) + list(entries))
        memguard.give_back()   # the batch's writer and rows are gone: hand their memory back (measured:
                               # the engine's RSS after 300 files 378 MB without, 250 MB with)
        return freed

    def _discard_staged(self) -> None:
        """Forget index rows staged by a refresh that failed."""
        with self._write_lock:
            for index in self._indexes.values():
                index.cancel()
            self._indexed.clear()      # read again from the indexes when next needed

    def _group_index(self, group: str) -> tuple[ChunkIndex, dict[str, str]]:
        with self._lock:
            index = self._index(group)
            if group not in self._indexed:
                self._indexed[group] = index.keys()
            return index, self._indexed[group]

    def _sync_indexes(self, acl: Acl, files: dict[str, dict]) -> bool:
        """Make each group's index hold exactly the documents the group may see (what is
        missing comes from the parse cache); whether anything had to change."""
        changed = False
        groups = acl.groups()
        index_root = self.home / "index"
        for stale in (index_root.iterdir() if index_root.is_dir() else []):
            if stale.name not in groups:
                with self._lock:
                    if stale.name in self._indexes:
                        self._indexes.pop(stale.name).close()
                self._indexed.pop(stale.name, None)
                remove(stale)
                changed = True
        searchable = {s["filename"]: (key, s) for key, e in files.items()
                      for s in e["docs"] if s["chunks"]}
        for group, admitted in groups.items():
            expected = {name: s["doc_id"] for name, (_k, s) in searchable.items()
                        if acl.allow_list(name) in admitted}
            with self._lock:
                index = self._index(group)
                if group not in self._indexed and index.chunk_count() == sum(
                        searchable[name][1]["chunks"] for name in expected):
                    self._indexed[group] = dict(expected)   # as many chunks as the state says: trusted,
                                                            # instead of reading every key of the index
            index, indexed = self._group_index(group)
            gone = [name for name in indexed if name not in expected]
            if gone:
                index.remove_documents(gone)
                for name in gone:
                    indexed.pop(name)
            wanted = [name for name, doc_id in expected.items() if indexed.get(name) != doc_id]
            changed = changed or bool(gone or wanted)
            for start in range(0, len(wanted), INDEX_SLICE):
                items = []
                for name in wanted[start:start + INDEX_SLICE]:
                    key, s = searchable[name]
                    doc = self._cached(files[key], key, name)
                    if doc:
                        chunks = chunk_document(doc)
                        s["chunks"] = len(chunks)   # re-chunked (e.g. a new chunk budget): the listing counts them
                        items.append((name, doc, chunks))
                if items:
                    index.replace_documents(items)
                    indexed.update({name: doc.doc_id for name, doc, _c in items})
        return changed

    def _cached(self, entry: dict, key: str, filename: str) -> Optional[Document]:
        """The Document ``filename`` among those the parse cache holds for file ``key``.

        An entry that is damaged or gone (ParseCache.get deletes a damaged one) marks the
        file to be read again from its source."""
        docs = self.cache.get(entry["sha256"], key)
        if docs is None and entry.get("cached"):
            self._damaged.add(key)
            self._notice("CACHE_REREAD")
        return next((d for d in docs or [] if d.source.filename == filename), None)

    def _unpack(self, key: str, filename: str, summary: dict) -> Optional[Path]:
        """Copy a ZIP member (nested ZIPs too) out to ``unpacked/<sha256>/`` once; its path."""
        sha = summary.get("sha256")
        doc = self.document(filename)
        if not sha or doc is None:
            return None
        target = self.cache_root / "unpacked" / sha / filename.rsplit("/", 1)[-1]
        if target.is_file():
            return target
        try:
            data = (self.folder / key).read_bytes()
            prefix = key
            for name in doc.source.container_path[1:] + [filename]:
                member = name[len(prefix) + 1:]
                with zipfile.ZipFile(io.BytesIO(data)) as zf:
                    info = next(i for i in zf.infolist() if member_name(i) == member)
                    data = read_capped(zf, info, self.limits.max_file_bytes)
                prefix = name
        except Exception:   # the ZIP changed or broke since it was read
            return None
        if hashlib.sha256(data).hexdigest() != sha:
            return None
        _write_atomic(target, data)
        return target

    def _load_state(self) -> bool:
        """The saved state with the journal of later batches replayed; whether there was any."""
        try:
            state = json.loads((self.home / "state.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            state = {"version": STATE_VERSION, "files": {}}
        if state.get("version") != STATE_VERSION:
            return False
        files = state.get("files", {})
        try:
            lines = (self.home / "state.journal").read_text(encoding="utf-8").splitlines()
        except OSError:
            lines = []
            if not (self.home / "state.json").is_file():
                return False
        for line in lines:
            try:
                batch = json.loads(line)
            except ValueError:     # the last line of a killed write
                break
            for key in batch["removed"]:
                files.pop(key, None)
            files.update(batch["files"])
        self._files = files
        return True

    def _journal(self, entries: dict[str, dict], removed: list[str]) -> None:
        """Append one committed batch to ``state.journal`` (folded into state.json at the end)."""
        line = json.dumps({"files": entries, "removed": list(removed)}, ensure_ascii=False) + "\n"
        private_dir(self.home)
        fd = os.open(self.home / "state.journal", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as fh:
            fh.write(line)
        self._refreshed = True

    def _save_state(self) -> None:
        state = {"version": STATE_VERSION, "folder": str(self.folder), "files": self._files}
        _write_atomic(self.home / "state.json",
                      json.dumps(state, ensure_ascii=False).encode("utf-8"))
        (self.home / "state.journal").unlink(missing_ok=True)
        self._refreshed = True


class _Run:
    """One refresh: scan, hash, read in the workers (cache or parse, then analyse), commit in batches."""

    def __init__(self, tenant: Tenant, say: Callable[[Progress], None],
                 cancel: Optional[threading.Event]):
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


# ---- helpers --------------------------------------------------------------
def _as_written(name: str) -> str:
    return name


def _retry(entry: dict) -> bool:
    """A file that could not be opened is tried again at every refresh."""
    return any(s["reason"] == "READ_ERROR" for s in entry["docs"])


def _sha256_file(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def _write_atomic(path: Path, data: bytes) -> None:
    private_dir(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _unread(doc: Document) -> list[tuple[dict, list[dict]]]:
    """A Document that could not be read, as a worker's result: its summary, no index rows."""
    return [(summary(doc, 0), [])]


def _listing(s: dict) -> dict:
    """One row of documents(): the seed's shape (drm_vendor only when known)."""
    review_reasons = [w for w in s["warnings"] if w["code"] in REVIEW_CODES] if s["readable"] else []
    row = {"doc_id": s["doc_id"], "filename": s["filename"], "format": s["format"],
           "readable": s["readable"], "chunks": s["chunks"], "reason": s["reason"],
           "reason_text": s["reason_text"]}
    if s["drm_vendor"]:
        row["drm_vendor"] = s["drm_vendor"]
    row.update({"structure": s["structure"], "review": bool(review_reasons),
                "review_reasons": review_reasons, "warnings": s["warnings"]})
    return row


def _skipped(s: dict) -> dict:
    row = {"filename": s["filename"], "readable": False, "reason": s["reason"],
           "reason_text": s["reason_text"]}
    if s["drm_vendor"]:
        row["drm_vendor"] = s["drm_vendor"]
    return row


def _acl_warnings(acl: Acl) -> list[dict]:
    if acl.broken:
        return [{"code": "ACL_BROKEN", "text": wording.tenant_text("ACL_BROKEN")}]
    return []


def _rebuild(s: dict) -> Document:
    """The Document of a file that was never cached (it could not be read) from its summary."""
    doc = unreadable(s["filename"], s["format"], s["reason"] or "CORRUPT", size=s["bytes"],
                     sha256=s["sha256"])
    doc.access.drm_vendor = s["drm_vendor"]
    doc.structure = Structure(**s["structure"])
    doc.warnings = [Warning(**w) for w in s["warnings"]]
    return doc
