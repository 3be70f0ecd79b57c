"""One Whoosh full-text index of chunks, kept in a directory the index owns (``ChunkIndex``).

Its fields are in ``schema``; a query is built by ``query`` and scored by ``bm25``, its best hits
re-ranked by ``rerank``; its files and merge policies are in ``segments``. This module holds what
shares the index's state: opening (a damaged index starts empty), staging and committing batches,
purging deleted text in the background, and searching under the locks.

Where a second retriever (e.g. semantic) would join: ``search`` builds hits with ``found_by``
through ``schema.as_hit``; another retriever adds its own hits in the same shape with
``found_by="semantic"``.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from whoosh import index, scoring
from whoosh.query import And, Or, Term

from engine.model import Document
from engine.private import private_dir
from engine.search import bm25
from engine.search.chunking import Chunk, chunk_id
from engine.search.phrases import has_phrases, split_query
from engine.search.query import BM25_B, BM25_K1, MAX_QUERY_CHARS, phrase_grams, query_terms, union
from engine.search.rerank import RERANK_DEPTH, rerank
from engine.search.schema import INDEX_NAME, as_hit, index_rows, make_schema
from engine.search.segments import PrivateStorage, after_refresh, segment_ids, without_deleted

PHRASE_DEPTH = 200       # candidates holding a quoted phrase's bigrams, checked against their text
WRITER_MB = 16           # Whoosh's posting pool spills to disk past this (its estimate: ~2x in RSS)


class IndexDamaged(Exception):
    """The index's files are damaged (a truncated segment, a lost file): ``rebuild()`` starts it empty."""


class ChunkIndex:
    """The chunks of a tenant's documents in one Whoosh index (thread-safe).

    An index whose files are damaged is never fatal: opening one starts a new,
    empty index (``rebuilt`` is then True), and damage found later raises
    IndexDamaged, after which ``rebuild()`` does the same. Whoever owns the
    index refills it (the tenant, from the parse cache).
    """

    def __init__(self, directory: str | Path):
        """Open the index in ``directory``, or create it when missing, broken or outdated."""
        self.directory = private_dir(directory)
        self._lock = threading.RLock()          # the searcher
        self._write_lock = threading.RLock()    # the staging writer
        self._writer = None
        self._deleter = None                    # the staging writer's searcher for deletions
        self._unmerged = False                  # segments committed with merge=False since
        self._fresh: set[str] = set()           # ... and their ids (merged among themselves at the end)
        self._purger: threading.Thread | None = None
        self._closed = False
        self.rebuilt = False
        self._lengths: dict = {}                # field lengths per segment, for bm25.top
        self._ix, self._searcher = self._open_or_create()

    def _new_searcher(self, ix):
        return ix.searcher(weighting=scoring.BM25F(B=BM25_B, K1=BM25_K1))

    def _reopen_searcher(self) -> None:
        # A new searcher rather than Searcher.refresh(), which fails on a formerly empty index.
        old = self._searcher
        self._searcher = self._new_searcher(self._ix)
        self._lengths.clear()
        old.close()

    def _open_or_create(self):
        expected = make_schema()
        storage = PrivateStorage(str(self.directory))
        try:
            if index.exists_in(str(self.directory), indexname=INDEX_NAME):
                ix = storage.open_index(indexname=INDEX_NAME)
                if ix.schema == expected:
                    searcher = self._new_searcher(ix)   # reads every segment's directory
                    searcher.doc_count()
                    return ix, searcher
                ix.close()
        except Exception:  # a broken index is rebuilt, never fatal
            self.rebuilt = True
        storage.clean(ignore=True)
        ix = storage.create_index(expected, indexname=INDEX_NAME)
        return ix, self._new_searcher(ix)

    def rebuild(self) -> None:
        """Throw the damaged index away and start an empty one (``rebuilt`` becomes True)."""
        self.cancel()
        with self._lock:
            for thing in (self._searcher, self._ix):
                try:
                    thing.close()
                except Exception:   # it is damaged: closing may fail too
                    pass
            storage = PrivateStorage(str(self.directory))
            storage.clean(ignore=True)
            self._ix = storage.create_index(make_schema(), indexname=INDEX_NAME)
            self._searcher = self._new_searcher(self._ix)
            self._lengths.clear()
            self.rebuilt = True

    @contextmanager
    def _files(self) -> Iterator[None]:
        """Around Whoosh's own work: whatever its damaged files make it raise becomes IndexDamaged."""
        try:
            yield
        except IndexDamaged:
            raise
        except Exception as exc:
            raise IndexDamaged(str(self.directory)) from exc

    # ---- writing ------------------------------------------------------------
    def put(self, key: str, rows: list[dict], replace: bool = True) -> None:
        """Stage ``rows`` (see ``index_rows``) in place of whatever is under ``key``, until ``commit``;
        ``replace=False`` when the caller knows nothing is (a new file: no look-up in the segments)."""
        with self._write_lock, self._files():
            writer = self._staging()
            if replace:
                self._delete(key)
            for row in rows:
                writer.add_document(**row)

    def drop(self, key: str) -> None:
        """Stage the removal of every chunk under ``key``, until ``commit``."""
        with self._write_lock, self._files():
            self._delete(key)

    def _delete(self, key: str) -> None:
        # One searcher per staging writer: Whoosh's own opens every segment again for each
        # deletion, which read most of each segment per file staged (RSS and time growing with
        # the index: 1,000 files' puts touched 26 MB of a 75 MB index).
        writer = self._staging()
        if self._deleter is None:
            self._deleter = writer.searcher()
        writer.delete_by_term("key", key, searcher=self._deleter)

    def _close_deleter(self) -> None:
        deleter, self._deleter = self._deleter, None
        if deleter is not None:
            deleter.close()

    def commit(self, merge: bool = True) -> None:
        """Make what was staged searchable (one new segment). ``merge=False`` leaves the segments
        as they are — a refresh commits many batches and merges once at its end (``segments.after_refresh``)."""
        with self._write_lock, self._files():
            writer, self._writer = self._writer, None
            self._close_deleter()
            if writer is None:
                if not (merge and self._unmerged):
                    return
                writer = self._ix.writer()
            if merge:
                fresh = self._fresh
                writer.commit(mergetype=lambda w, segments: after_refresh(w, segments, fresh))
                self._fresh = set()
            else:
                before = segment_ids(self._ix)
                writer.commit(merge=False)
                self._fresh |= segment_ids(self._ix) - before
            self._unmerged = not merge
            with self._lock:
                self._reopen_searcher()
                deleted = merge and self._searcher.reader().has_deletions()
        if deleted:   # a segment too large to rewrite at once still holds deleted chunks
            self._purge_soon()

    def settle(self) -> None:
        """Wait until no segment holds deleted chunks any more (see ``_purge``)."""
        purger = self._purger
        if purger is not None:
            purger.join()

    def _purge_soon(self) -> None:
        with self._write_lock:
            if self._purger is None or not self._purger.is_alive():
                self._purger = threading.Thread(target=self._purge, name="noda-index-purge", daemon=True)
                self._purger.start()

    def _purge(self) -> None:
        """Rewrite the segments that hold deleted chunks, so no removed text stays on disk.
        A commit rewrites the small ones itself (segments.FOLD_UNDER) and leaves the larger ones
        to this thread (about 1.1 ms per chunk of the segment): the refresh that removed or
        changed a file returns at once, and the old text leaves the disk seconds later."""
        try:
            with self._write_lock, self._files():
                if self._writer is not None or self._closed or not self._searcher.reader().has_deletions():
                    return   # a refresh is staging: its final commit starts this again
                self._ix.writer(limitmb=WRITER_MB).commit(mergetype=without_deleted)
                with self._lock:
                    self._reopen_searcher()
        except IndexDamaged:   # the next search or refresh finds it too, and rebuilds the index
            pass

    def cancel(self) -> None:
        """Forget what was staged since the last commit."""
        with self._write_lock:
            writer, self._writer = self._writer, None
            if writer is not None:
                try:
                    self._close_deleter()
                    writer.cancel()
                except Exception:   # a damaged index: nothing staged is worth keeping anyway
                    pass

    def replace_documents(self, items: list[tuple[str, Document, list[Chunk]]]) -> None:
        """Put each (key, doc, chunks) in place of whatever was under that key; one commit."""
        if not items:
            return
        try:
            for key, rows in index_rows(items):
                self.put(key, rows)
        except BaseException:
            self.cancel()
            raise
        self.commit()

    def remove_documents(self, keys: list[str]) -> None:
        """Drop every chunk of these keys (one commit). Whoosh only marks a deleted document, its
        stored text and terms would stay on disk: the segments holding one are rewritten without
        it (``segments.after_refresh`` at once, ``_purge`` right after for a large segment), so a removed file or one
        the ACL now hides leaves no trace."""
        if not keys:
            return
        for key in keys:
            self.drop(key)
        self.commit()

    def _staging(self):
        if self._writer is None:
            self._writer = self._ix.writer(limitmb=WRITER_MB)
        return self._writer

    # ---- reading ------------------------------------------------------------
    def keys(self) -> dict[str, str]:
        """key -> doc_id for every document that has chunks in the index."""
        with self._lock, self._files():
            out = {}
            for reader, _offset in self._searcher.reader().leaf_readers():   # segment by segment
                for raw in reader.lexicon("key"):
                    key = raw.decode("utf-8") if isinstance(raw, bytes) else raw
                    if key in out:
                        continue
                    live = reader.postings("key", key)     # deleted chunks left out
                    if live.is_active():
                        out[key] = reader.stored_fields(live.id())["doc_id"]
            return out

    def chunk_count(self) -> int:
        with self._lock, self._files():
            return self._searcher.doc_count()

    def search(self, query: str, limit: int = 10, within: list[str] | None = None) -> list[dict]:
        """Hits for a free-text query, best first (BM25F over text, bigrams and titles, then
        the best RERANK_DEPTH re-ranked by passage, engine/search/rerank.py). A quoted part must occur
        in the hit as written, spaces aside (engine/search/phrases.py): only chunks holding all its
        bigrams are candidates, and each is checked against its stored text. Only chunks of the
        documents named in ``within`` when it is given."""
        if not query or limit <= 0 or within == []:
            return []
        text, phrases = split_query(query[:MAX_QUERY_CHARS])
        with self._lock, self._files():
            terms = query_terms(self._searcher, text)
            if not terms:
                return []
            only = Or([Term("key", name) for name in within]) if within is not None else None
            if phrases:
                q = And([union(terms)] + [g for g in map(phrase_grams, phrases) if g is not None])
                results = self._searcher.search(q, limit=PHRASE_DEPTH, filter=only)
                hits = [as_hit(r.fields(), r.score, "lexical") for r in results]
            elif only is not None:   # one document's chunks: Whoosh's search of the same query, filtered
                results = self._searcher.search(union(terms), limit=max(limit, RERANK_DEPTH), filter=only)
                hits = [as_hit(r.fields(), r.score, "lexical") for r in results]
            else:   # the same ranking as Whoosh's search of union(terms), scored with numpy
                found = bm25.top(self._searcher, terms, max(limit, RERANK_DEPTH), BM25_B, BM25_K1, self._lengths)
                hits = [as_hit(self._searcher.stored_fields(n), score, "lexical") for n, score in found]
            if phrases:
                hits = [h for h in hits if all(has_phrases(h["text"], [p]) or has_phrases(
                    " ".join(h["path"] + h["outline"]), [p]) for p in phrases)][:max(limit, RERANK_DEPTH)]
            return rerank(self._searcher, text, hits)[:limit]

    def document_hits(self, key: str) -> list[dict]:
        """Every chunk stored under ``key``, shaped like hits (score None, found_by "document"), in order."""
        with self._lock, self._files():
            stored = list(self._searcher.documents(key=key))
        return sorted((as_hit(fields, None, "document") for fields in stored), key=lambda h: h["chunk_id"])

    def opening(self, key: str, chars: int) -> str:
        """The first ``chars`` characters of the texts of the chunks stored under ``key``, in order and
        joined by line breaks: how the document begins, read only as far as that (its first chunks).

        A document's chunks are added together in reading order and deleted together, so its live
        chunks follow each other in one segment: the key's postings are walked once (looking each chunk
        up by key and number took half of an answer's time at 10,000 files)."""
        texts, length = [], 0
        with self._lock, self._files():
            reader = self._searcher.reader()
            if ("key", key) not in reader:
                return ""
            for number in reader.postings("key", key).all_ids():      # deleted chunks left out
                if length > chars:
                    break
                fields = self._searcher.stored_fields(number)
                if fields["chunk_id"] != chunk_id(len(texts) + 1):
                    break
                texts.append(fields["text"])
                length += len(texts[-1]) + 1
        return "\n".join(texts)[:chars]

    def close(self) -> None:
        self.cancel()
        with self._write_lock:
            self._closed = True
        self.settle()
        with self._lock:
            self._searcher.close()
            self._ix.close()

