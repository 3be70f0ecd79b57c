"""A folder's search indexes: one per ACL permission group (engine/library/acl.py), each holding only the
documents that group may see, under ``tenants/<hash>/index/<group>/``.

``GroupIndexes`` opens them, knows which documents (name -> doc_id) each holds, stages a refresh's rows
in every group that may see them, commits them, and at the end of a refresh (or after an ACL change)
makes every index hold exactly what its group may see, refilling from the parse cache. A damaged index
is started empty and refilled, and said once (``INDEX_REBUILT``). The callers hold the tenant's write
lock around staging and committing; ``lock`` guards the index objects against a search meanwhile.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable, Optional

from engine.search.chunking import chunk_document
from engine.search.index import ChunkIndex, IndexDamaged
from engine.library.acl import Acl
from engine.model import Document
from engine.private import remove

INDEX_SLICE = 100         # documents per index write when re-syncing a whole group

Cached = Callable[[dict, str, str], Optional[Document]]   # (state entry, file key, filename) -> Document


class GroupIndexes:
    """The group indexes of one folder and which documents each holds."""

    def __init__(self, root: Path, lock: threading.RLock, notice: Callable[[str], None]):
        self.root = root
        self.lock = lock
        self.notice = notice
        self.open: dict[str, ChunkIndex] = {}
        self.held: dict[str, dict[str, str]] = {}   # group -> {filename: doc_id} in its index

    def get(self, group: str) -> ChunkIndex:
        """The group's index, opened once (one found damaged starts empty: the next sync refills it)."""
        if group not in self.open:
            index = ChunkIndex(self.root / group)
            self.open[group] = index
            if index.rebuilt:
                self.held.pop(group, None)
                self.notice("INDEX_REBUILT")
        return self.open[group]

    def with_held(self, group: str) -> tuple[ChunkIndex, dict[str, str]]:
        """The group's index and what it holds (read from the index the first time)."""
        with self.lock:
            index = self.get(group)
            if group not in self.held:
                self.held[group] = index.keys()
            return index, self.held[group]

    def restart(self, group: str) -> None:
        """Start the group's index empty (it was damaged); the next sync refills it."""
        self.get(group).rebuild()
        self.held.pop(group, None)
        self.notice("INDEX_REBUILT")

    def stage(self, acl: Acl, groups: dict, documents: list[tuple[dict, list[dict]]], dropped: set[str]) -> None:
        """Stage one file's documents (summary, index rows) in every group index that may hold
        them, and the removal of ``dropped`` names; searchable at the next ``commit``."""
        for group, admitted in groups.items():
            try:
                index, indexed = self.with_held(group)
                for s, rows in documents:
                    if rows and acl.allow_list(s["filename"]) in admitted:
                        index.put(s["filename"], rows, replace=s["filename"] in indexed)
                        indexed[s["filename"]] = s["doc_id"]
                    elif s["filename"] in indexed:
                        dropped.add(s["filename"])
                for name in dropped & indexed.keys():
                    index.drop(name)
                    indexed.pop(name)
            except IndexDamaged:   # start it empty: the refresh's final sync refills it from the cache
                self.restart(group)

    def commit(self, acl: Acl, gone: set[str], final: bool) -> bool:
        """Drop the ``gone`` documents and commit what was staged, one segment per index (merged when
        ``final``); whether a full sync is needed (``final``, or an index was found damaged)."""
        for group in acl.groups():
            try:
                if gone:
                    index, indexed = self.with_held(group)
                    for name in gone & indexed.keys():
                        index.drop(name)
                        indexed.pop(name)
                with self.lock:
                    index = self.get(group)
                index.commit(merge=final)
            except IndexDamaged:   # start it empty: the final sync refills it from the parse cache
                self.restart(group)
                final = True
        return final

    def discard_staged(self) -> None:
        """Forget index rows staged by a refresh that failed."""
        for index in self.open.values():
            index.cancel()
        self.held.clear()      # read again from the indexes when next needed

    def sync(self, acl: Acl, files: dict[str, dict], cached: Cached) -> bool:
        """Make each group's index hold exactly what the group may see of ``files`` (the state's entries;
        what is missing comes from the parse cache through ``cached``); whether anything had to change.
        An index found damaged on the way is started empty and filled."""
        try:
            return self._sync(acl, files, cached)
        except IndexDamaged as damaged:
            self.restart(Path(str(damaged)).name)
            return self._sync(acl, files, cached) or True

    def _sync(self, acl: Acl, files: dict[str, dict], cached: Cached) -> bool:
        changed = False
        groups = acl.groups()
        for stale in (self.root.iterdir() if self.root.is_dir() else []):
            if stale.name not in groups:
                with self.lock:
                    if stale.name in self.open:
                        self.open.pop(stale.name).close()
                self.held.pop(stale.name, None)
                remove(stale)
                changed = True
        searchable = {s["filename"]: (key, s) for key, e in files.items()
                      for s in e["docs"] if s["chunks"]}
        for group, admitted in groups.items():
            expected = {name: s["doc_id"] for name, (_k, s) in searchable.items()
                        if acl.allow_list(name) in admitted}
            with self.lock:
                index = self.get(group)
                if group not in self.held and index.chunk_count() == sum(
                        searchable[name][1]["chunks"] for name in expected):
                    self.held[group] = dict(expected)   # as many chunks as the state says: trusted,
                                                        # instead of reading every key of the index
            index, indexed = self.with_held(group)
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
                    doc = cached(files[key], key, name)
                    if doc:
                        chunks = chunk_document(doc)
                        s["chunks"] = len(chunks)   # re-chunked (e.g. a new chunk budget): the listing counts them
                        items.append((name, doc, chunks))
                if items:
                    index.replace_documents(items)
                    indexed.update({name: doc.doc_id for name, doc, _c in items})
        return changed

    def close(self) -> None:
        with self.lock:
            for index in self.open.values():
                index.close()
            self.open.clear()
