"""A tenant: one folder of documents, kept read and searchable — the face the CLI, the window and the API use.

The folder is read-only to the app: nothing is ever written inside it. What Noda keeps lives under
``<cache_root>``:

- ``parse/``: the parse cache, shared by all tenants (engine/library/cache.py);
- ``tenants/<hash of the folder path>/state.json`` and ``state.journal``: one entry per file
  (engine/library/state.py);
- ``tenants/<hash>/index/<group>/``: one search index per ACL permission group (engine/library/indexes.py,
  engine/library/acl.py), holding only the documents that group may see;
- ``unpacked/``: ZIP members copied out once for the viewer (engine/library/unpack.py).

``refresh()`` re-reads only new or changed files (engine/library/refresh.py); ``documents()`` and
``search()`` refresh first when the folder was never read. The Tenant holds the state and the locks and
joins the parts: a batch the refresh commits goes to the indexes, the state and the cache together
(``_apply``).
"""
from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Callable, Optional

import platformdirs

from engine import wording
from engine.search.chunking import Chunk, chunk_document
from engine.search.index import IndexDamaged
from engine.library import listing, state
from engine.library.acl import Acl, load_acl
from engine.library.cache import ParseCache, parser_generation
from engine.library.indexes import GroupIndexes
from engine.library.refresh import Progress, Run
from engine.library.unpack import drop_unpacked, unpacked
from engine.library.workers import FILE_TIMEOUT_S
from engine.limits import DEFAULT_LIMITS, Limits
from engine.model import Document, Structure, Warning
from engine.names import loose_keys, name_key
from engine.private import Removed, private_dir, remove
from engine.read import memguard
from engine.read.failures import unreadable
from engine.results import Listing, Search

APP_NAME = "noda-desktop"
MAX_LIMIT = 20
RECENT_DOCUMENTS = 16     # parsed Documents (and chunks) kept in memory for document()/chunks()
CACHE_PARTS = ("parse", "tenants", "unpacked")
REVIEW_CODES = listing.REVIEW_CODES
__all__ = ["Tenant", "Progress", "purge", "known_folders", "default_cache_root", "MAX_LIMIT", "REVIEW_CODES"]


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
    return state.known_folders(Path(cache_root) if cache_root else default_cache_root())


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
        self._notices: dict[str, dict] = {}   # said once: the index was rebuilt, damaged cache entries re-read
        self._damaged: set[str] = set()       # files whose parse-cache entry was found damaged or gone
        self.indexes = GroupIndexes(self.home / "index", self._lock, self._notice)
        saved = state.load(self.home)
        self._files: dict[str, dict] = saved if saved is not None else {}
        self._seen: Optional[tuple] = None    # the last _visible answer and what it was for
        self._kept_totals: Optional[tuple] = None   # (a _visible answer, its listing totals)
        self._refreshed = saved is not None
        self._acl = load_acl(self.folder)

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
            report = Run(self, progress or (lambda p: None), cancel).go()
            if self._damaged and not report["cancelled"]:
                # cache entries found damaged while indexing: read those files again now
                self._damaged.clear()
                again = Run(self, progress or (lambda p: None), cancel).go()
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
                  count: Optional[int] = None) -> Listing:
        """The seed's /documents answer for what ``principal`` may see.

        ``start``/``count`` give one page of the rows (in file name order) with the totals of
        all of them, so a caller can stream a large folder's listing in pieces; ``total`` is
        the number of rows in all pages.
        """
        acl = self._ready()
        visible = self._visible(acl, principal)
        return listing.listing(self.folder.name, visible, self._totals(visible),
                               listing.acl_warnings(acl) + self.take_notices(), start, count)

    def search(self, query: str, limit: int = 10, principal: Optional[str] = None,
               within: Optional[list[str]] = None) -> Search:
        """The seed's /search answer: hits in engine order from ``principal``'s own index (only of the
        documents named in ``within`` when it is given).

        Seam for a second retriever (seed 004's semantic half): vectors per group
        next to ``index/<group>/``, built in ``GroupIndexes.sync``; its hits are
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
                    searched, hits = self._search_index(group, query, limit, within)
                except IndexDamaged:
                    self._heal(acl, group)
                    searched, hits = self._search_index(group, query, limit, within)
        skipped = [listing.skipped(s) for s in self._visible(acl, principal) if not s["readable"]]
        return {"tenant": self.folder.name, "query": query, "chunks_searched": searched,
                "skipped": skipped, "warnings": listing.acl_warnings(acl) + self.take_notices(), "hits": hits}

    def _search_index(self, group: str, query: str, limit: int,
                      within: Optional[list[str]] = None) -> tuple[int, list[dict]]:
        index = self.indexes.get(group)
        return index.chunk_count(), index.search(query, limit, within) if query.strip() else []

    def document_hits(self, filename: str, principal: Optional[str] = None) -> list[dict]:
        """Every chunk of ``filename`` shaped like search hits, from ``principal``'s own index (so [] for
        a document they may not see)."""
        return self._read_index(principal, lambda index: index.document_hits(filename), [])

    def opening(self, filename: str, chars: int, principal: Optional[str] = None) -> str:
        """The first ``chars`` characters of ``filename``'s chunk texts joined by line breaks, from
        ``principal``'s own index ("" for a document they may not see); only its first chunks are read."""
        return self._read_index(principal, lambda index: index.opening(filename, chars), "")

    def _read_index(self, principal: Optional[str], read: Callable, nothing):
        """``read(index)`` of ``principal``'s own index (healed once when found damaged), or ``nothing``."""
        acl = self._ready()
        group = acl.group_of(principal)
        if group is None:
            return nothing
        with self._lock:
            try:
                return read(self.indexes.get(group))
            except IndexDamaged:
                self._heal(acl, group)
                return read(self.indexes.get(group))

    # ---- one document ----------------------------------------------------
    def named(self, name: str, principal: Optional[str] = None) -> Optional[str]:
        """The file name, as the document list shows it, of the one document ``principal`` may see that
        ``name`` names: as listed or in another normal form, as a path into the folder, without the
        extension or the subfolders, in other letter case (``names.loose_keys``, strictest first). None
        when none fits, or several fit equally well."""
        path = Path(name.strip())
        if path.is_absolute():
            try:
                name = path.resolve().relative_to(self.folder.resolve()).as_posix()
            except ValueError:
                return None
        written = loose_keys(name)[0]
        visible = [(s["filename"], loose_keys(s["filename"])) for s in self._visible(self._ready(), principal)]
        for fold in (str, str.casefold):
            for form in range(4):
                fits = [shown for shown, keys in visible if fold(keys[form]) == fold(written)]
                if fits:
                    return fits[0] if len(fits) == 1 else None
        return None

    def document(self, filename: str) -> Optional[Document]:
        """The full parsed Document named ``filename`` (from the parse cache)."""
        item = self._parsed(filename)
        return item[0] if item else None

    def chunks(self, filename: str) -> list[Chunk]:
        """The chunks of the Document named ``filename`` (as indexed)."""
        item = self._parsed(filename)
        return item[1] if item else []

    def title(self, filename: str) -> Optional[str]:
        """The title of the Document named ``filename``, as the listing shows it (nothing is parsed)."""
        found = self._find(filename)
        return found[2]["structure"].get("title") if found else None

    def structure(self, filename: str) -> dict:
        """What the Document named ``filename`` states about itself (its ``structure``; nothing is parsed)."""
        found = self._find(filename)
        return found[2]["structure"] if found else {}

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
        doc = self.document(summary["filename"])
        if not summary.get("sha256") or doc is None:
            return None
        return unpacked(self.cache_root, self.folder, key, doc, summary["sha256"], self.limits.max_file_bytes)

    def close(self) -> None:
        self.indexes.close()

    def purge(self) -> Removed:
        """Delete everything the cache holds of this folder: its state and indexes, and the parse-cache
        entries and unpacked copies of its files (the next refresh reads it all again)."""
        with self._lock:
            freed = Removed()
            for key, entry in self._files.items():
                freed.add(self._drop_cached(key, entry))
            self.close()
            freed.add(remove(self.home))
            self.indexes.held.clear()
            self._files, self._refreshed = {}, False
        return freed

    def forget(self, name: str) -> tuple[list[str], Removed]:
        """Drop file ``name`` (its folder-relative path or its plain name, compared as names are) from
        the cache: its parse-cache entry, unpacked copies, index entries and state. The next refresh
        reads it again if it is still there. Returns the files dropped and what was deleted."""
        wanted = name_key(name)
        with self._lock:
            keys = [k for k in self._files if wanted in (name_key(k), name_key(k.rsplit("/", 1)[-1]))]
            freed = self._apply(self._acl, {}, keys, final=True) if keys else Removed()
            for index in self.indexes.open.values():
                index.settle()   # asked for explicitly: its text is off the disk when this returns
            return keys, freed

    # ---- internals -------------------------------------------------------
    def _ready(self) -> Acl:
        """Refresh a never-read tenant; re-sync the indexes when ACL.json changed; the ACL."""
        if not self._refreshed and not self._refresh_lock.locked():
            self.refresh()
        acl = load_acl(self.folder)
        if acl != self._acl:
            self._apply(acl, {}, [], final=True)
        return acl

    def _visible(self, acl: Acl, principal: Optional[str]) -> tuple[dict, ...]:
        """The summaries ``principal`` may see, in file name order; kept until the state or the ACL
        changes (every search lists the unreadable ones: at 10,000 files sorting and checking them all
        took 18% of a search)."""
        files = self._files   # a refresh puts a new dict in place, never changes this one
        seen = self._seen
        if seen is not None and seen[0] is files and seen[1] == acl and seen[2] == principal:
            return seen[3]
        summaries = [s for e in files.values() for s in e["docs"]]
        visible = tuple(sorted((s for s in summaries if acl.can_see(principal, s["filename"])),
                               key=lambda s: s["filename"]))
        self._seen = (files, acl, principal, visible)
        return visible

    def _totals(self, visible: tuple[dict, ...]) -> dict:
        """listing.totals of a _visible answer, kept with it (a window takes 10,000 rows in pages)."""
        kept = self._kept_totals
        if kept is None or kept[0] is not visible:
            kept = self._kept_totals = (visible, listing.totals(visible))
        return kept[1]

    def _find(self, filename: str) -> Optional[tuple[str, dict, dict]]:
        """(file key, its entry, the Document's summary) for ``filename``: as written, else compared
        as names are (engine/names.py: a name written in NFD finds its NFC file)."""
        for key in _keys_of(filename):   # a file's own name, or a ZIP's and its member's: no walk
            for s in self._files[key]["docs"] if key in self._files else []:
                if s["filename"] == filename:
                    return key, self._files[key], s
        wanted = name_key(filename)
        for key, entry in self._files.items():
            if wanted == name_key(key) or wanted.startswith(name_key(key) + "/"):
                for s in entry["docs"]:
                    if name_key(s["filename"]) == wanted:
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

    def _heal(self, acl: Acl, group: str) -> None:
        """A group's index turned out damaged: start it empty and refill it from the parse cache."""
        self.indexes.restart(group)
        self._apply(acl, {}, [], final=True)

    def _notice(self, code: str) -> None:
        self._notices[code] = {"code": code, "text": wording.tenant_text(code)}

    # ---- what a refresh commits (engine/library/refresh.py) ----------------
    def _stage(self, acl: Acl, groups: dict, documents: list[tuple[dict, list[dict]]],
               dropped: set[str]) -> None:
        """Stage one file's documents in every group index that may hold them, and the removal of
        ``dropped`` names; searchable at the next ``_apply``."""
        with self._write_lock:
            self.indexes.stage(acl, groups, documents, dropped)

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
            final = self.indexes.commit(acl, gone, final)
            dropped = set(removed)
            files = {k: v for k, v in self._files.items() if k not in dropped}
            files.update(entries)
            synced = self.indexes.sync(acl, files, self._cached) if final else False
            changed = bool(entries or removed or synced) or acl != self._acl
            with self._lock:
                self._files, self._acl = files, acl
            if final and (changed or not self._refreshed or state.journal_left(self.home)):
                state.save(self.home, self.folder, self._files)
                self._refreshed = True
            elif entries or removed:
                state.append(self.home, entries, removed)
                self._refreshed = True
            freed = self._drop_superseded(old, files, list(removed) + list(entries))
        memguard.give_back()   # the batch's writer and rows are gone: hand their memory back (measured:
                               # the engine's RSS after 300 files 378 MB without, 250 MB with)
        return freed

    def _discard_staged(self) -> None:
        """Forget index rows staged by a refresh that failed."""
        with self._write_lock:
            self.indexes.discard_staged()

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
        freed.add(drop_unpacked(self.cache_root, key, entry))
        return freed

    def _cached(self, entry: dict, key: str, filename: str) -> Optional[Document]:
        """The Document ``filename`` among those the parse cache holds for file ``key``.

        An entry that is damaged or gone (ParseCache.get deletes a damaged one) marks the
        file to be read again from its source."""
        docs = self.cache.get(entry["sha256"], key)
        if docs is None and entry.get("cached"):
            self._damaged.add(key)
            self._notice("CACHE_REREAD")
        return next((d for d in docs or [] if d.source.filename == filename), None)


def _keys_of(filename: str) -> list[str]:
    """The file keys a Document named ``filename`` can belong to: itself and each folder-like part
    before a "/" ("a.zip" for "a.zip/붙임.hwp")."""
    parts = filename.split("/")
    return ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]


def _rebuild(s: dict) -> Document:
    """The Document of a file that was never cached (it could not be read) from its summary."""
    doc = unreadable(s["filename"], s["format"], s["reason"] or "CORRUPT", size=s["bytes"],
                     sha256=s["sha256"])
    doc.access.drm_vendor = s["drm_vendor"]
    doc.structure = Structure(**s["structure"])
    doc.warnings = [Warning(**w) for w in s["warnings"]]
    return doc
