"""One Whoosh full-text index of chunks, kept in a directory the index owns.

Each stored entry is one chunk under a key (the document's filename inside
the tenant). Chunk text is indexed twice: as Kiwi morphemes plus words
(``text``) and as character bigrams across spaces (``grams``); the
document title and outline path are a third, boosted field. A query is the
OR of its analyzed terms over those fields (words of document titles count
less in the text fields), ranked by BM25F. The best ``RERANK_DEPTH`` hits
are then re-ranked: each keeps its BM25F score as a share of the best one
and gains ``PASSAGE_WEIGHT`` times its passage score, the share of the
question's content words (weighted by rarity) found close together in it
(``passage_score``), because the passage that answers a question usually
holds its words in one sentence while BM25F only counts them anywhere in the
chunk. Hits carry everything a citation needs.

Where a second retriever (e.g. semantic) would join: ``search`` builds hits
with ``found_by`` through ``_hit``; another retriever adds its own hits in
the same shape with ``found_by="semantic"``.
"""
from __future__ import annotations

import json
import math
import os
import re
import threading
import unicodedata
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from whoosh import index, scoring
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.query import And, Or, Term
from whoosh.reading import SegmentReader
from whoosh.writing import MERGE_SMALL

from engine import bm25
from engine.analyzer import (BigramTokenizer, KoreanTokenizer, bigram_terms, content_words,
                             korean_terms_many)
from engine.chunking import Chunk
from engine.model import Document
from engine.phrases import has_phrases, split_query
from engine.private import private_dir, private_file

# Bump when analysis, fields or chunking change: an index of another version is rebuilt empty.
INDEX_NAME = "chunks_v3"  # v2: chunks of the 1000-character budget; v3: Kiwi without its multi-word dictionary
# Measured on the KorQuAD dev bench (see bench/korquad.py): short saturation suits chunks.
BM25_B = 0.5
BM25_K1 = 0.5
TITLE_BOOST = 2.0
TOPIC_WEIGHT = 0.3
MAX_QUERY_CHARS = 1000
# Re-ranking (measured on KorQuAD questions outside the dev sample; see docs/architecture.md).
RERANK_DEPTH = 20
PHRASE_DEPTH = 200       # candidates holding a quoted phrase's bigrams, checked against their text
PASSAGE_WEIGHT = 1.5
PASSAGE_SPAN = 60        # characters, spaces not counted: about one sentence
# Words of questions that are not looked for in a passage ("이름은 무엇인가").
QUESTION_WORDS = frozenset("언제 며칠 얼마 얼마나 몇 누구 누가 어디 무엇 뭐 뭔가 무슨 어떤 어느 어떻게 왜 "
                           "이름 것 수 등 때 중".split())
QUERY_FIELDS = ("text", "grams", "title")
ANALYSED_FIELDS = ("text", "title")   # the fields whose terms come from Kiwi (analyse_rows)
PURGE_NOW_CHUNKS = 3000   # a segment holding deleted chunks is rewritten by the commit up to this size
WRITER_MB = 16           # Whoosh's posting pool spills to disk past this (its estimate: ~2x in RSS)


def make_schema() -> Schema:
    """The chunk index fields."""
    return Schema(
        key=ID(stored=True),
        doc_id=ID(stored=True),
        chunk_id=ID(stored=True),
        filename=STORED(),
        kind=ID(stored=True),
        text=TEXT(analyzer=KoreanTokenizer(), stored=True, phrase=False),
        grams=TEXT(analyzer=BigramTokenizer(), phrase=False),
        title=TEXT(analyzer=KoreanTokenizer(), phrase=False, field_boost=TITLE_BOOST),
        meta=STORED(),  # JSON: path, outline, anchors, extractors
    )


class _PrivateStorage(FileStorage):
    """Whoosh's file storage with every file it writes readable by its owner only (engine/private.py)."""

    def create_file(self, name, *args, **kwargs):
        made = super().create_file(name, *args, **kwargs)
        private_file(self._fpath(name))
        return made

    def lock(self, name):
        """Whoosh's lock, its (empty) file made beforehand, private like the rest."""
        path = self._fpath(name)
        try:
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        except OSError:
            pass
        return super().lock(name)


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
        storage = _PrivateStorage(str(self.directory))
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
            storage = _PrivateStorage(str(self.directory))
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
        as they are — a refresh commits many batches and merges once at its end (``_merge``)."""
        with self._write_lock, self._files():
            writer, self._writer = self._writer, None
            self._close_deleter()
            if writer is None:
                if not (merge and self._unmerged):
                    return
                writer = self._ix.writer()
            if merge:
                fresh = self._fresh
                writer.commit(mergetype=lambda w, segments: _merge(w, segments, fresh))
                self._fresh = set()
            else:
                before = _segment_ids(self._ix)
                writer.commit(merge=False)
                self._fresh |= _segment_ids(self._ix) - before
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
        A commit rewrites the small ones itself (PURGE_NOW_CHUNKS) and leaves the larger ones
        to this thread (about 1.1 ms per chunk of the segment): the refresh that removed or
        changed a file returns at once, and the old text leaves the disk seconds later."""
        try:
            with self._write_lock, self._files():
                if self._writer is not None or self._closed or not self._searcher.reader().has_deletions():
                    return   # a refresh is staging: its final commit starts this again
                self._ix.writer(limitmb=WRITER_MB).commit(mergetype=_without_deleted)
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
        it (``_merge`` at once, ``_purge`` right after for a large segment), so a removed file or one
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
        the best RERANK_DEPTH re-ranked by passage, see ``_rerank``). A quoted part must occur
        in the hit as written, spaces aside (engine/phrases.py): only chunks holding all its
        bigrams are candidates, and each is checked against its stored text. Only chunks of the
        documents named in ``within`` when it is given."""
        if not query or limit <= 0 or within == []:
            return []
        text, phrases = split_query(query[:MAX_QUERY_CHARS])
        with self._lock, self._files():
            terms = self._query_terms(text)
            if not terms:
                return []
            only = Or([Term("key", name) for name in within]) if within is not None else None
            if phrases:
                q = And([_union(terms)] + [g for g in map(self._phrase_grams, phrases) if g is not None])
                results = self._searcher.search(q, limit=PHRASE_DEPTH, filter=only)
                hits = [_hit(r.fields(), r.score, "lexical") for r in results]
            elif only is not None:   # one document's chunks: Whoosh's search of the same query, filtered
                results = self._searcher.search(_union(terms), limit=max(limit, RERANK_DEPTH), filter=only)
                hits = [_hit(r.fields(), r.score, "lexical") for r in results]
            else:   # the same ranking as Whoosh's search of _union(terms), scored with numpy
                found = bm25.top(self._searcher, terms, max(limit, RERANK_DEPTH), BM25_B, BM25_K1, self._lengths)
                hits = [_hit(self._searcher.stored_fields(n), score, "lexical") for n, score in found]
            if phrases:
                hits = [h for h in hits if all(has_phrases(h["text"], [p]) or has_phrases(
                    " ".join(h["path"] + h["outline"]), [p]) for p in phrases)][:max(limit, RERANK_DEPTH)]
            return self._rerank(text, hits)[:limit]

    def _phrase_grams(self, phrase: str):
        """All of a phrase's character bigrams (None for a one-letter phrase)."""
        grams = [gram for gram, _s, _e in bigram_terms(phrase)]
        if len(grams) < 1 or (len(grams) == 1 and len(grams[0]) == 1):
            return None
        return And([Term("grams", g) for g in dict.fromkeys(grams)])

    def document_hits(self, key: str) -> list[dict]:
        """Every chunk stored under ``key``, shaped like hits (score None, found_by "document"), in order."""
        with self._lock, self._files():
            stored = list(self._searcher.documents(key=key))
        return sorted((_hit(fields, None, "document") for fields in stored), key=lambda h: h["chunk_id"])

    def _rerank(self, text: str, hits: list[dict]) -> list[dict]:
        """``hits`` re-ordered by their share of the best BM25F score plus PASSAGE_WEIGHT times
        their passage score. The question's content words weigh by their rarity (BM25's idf); in
        a chunk of a document whose title holds a word, that word weighs TOPIC_WEIGHT of it,
        since every passage of that document is about it."""
        words = [w for w in content_words(text) if w not in QUESTION_WORDS]
        if not hits or not words:
            return hits
        searcher, best = self._searcher, hits[0]["score"] or 1.0
        total = searcher.doc_count()
        rarity = {w: math.log(1 + (total - df + 0.5) / (df + 0.5))
                  for w in words for df in [searcher.doc_frequency("text", w)]}
        for hit in hits:
            title = _squash(" ".join(hit["path"]))
            weights = {w: x * (TOPIC_WEIGHT if w in title else 1.0) for w, x in rarity.items()}
            passage = passage_score(hit["text"], weights)
            hit["score"] = round(hit["score"] / best + PASSAGE_WEIGHT * passage, 4)
        return sorted(hits, key=lambda h: -h["score"])

    def _query_terms(self, text: str) -> list[tuple[str, str, float]]:
        """(field, term, boost) of the analyzed query terms over every query field.

        A query word that occurs in document titles tells which document, not where in it:
        it counts fully in the title field but only TOPIC_WEIGHT in the text fields, so a
        cover page that repeats the title does not outrank the passage asked about.
        """
        searcher = self._searcher
        schema = searcher.schema     # not self._ix.schema: that reads the TOC a background purge may be replacing
        terms = {name: list(dict.fromkeys(schema[name].process_text(text, mode="query")))
                 for name in QUERY_FIELDS}
        topic = {t for t in terms["title"] if searcher.doc_frequency("title", t)}
        topic |= {g for t in topic for g in schema["grams"].process_text(t, mode="query")}
        return [(name, t, TOPIC_WEIGHT if name != "title" and t in topic else 1.0)
                for name in QUERY_FIELDS for t in terms[name]]

    def close(self) -> None:
        self.cancel()
        with self._write_lock:
            self._closed = True
        self.settle()
        with self._lock:
            self._searcher.close()
            self._ix.close()


def _union(terms: list[tuple[str, str, float]]) -> Or:
    """Whoosh's OR query of (field, term, boost) terms.

    Whoosh picks its matcher by segment size: below 5,000 chunks it scores every posting into
    an array, above it walks a tree of unions with block skipping, which ranks ties otherwise.
    Always the array: the ranking ``bm25.top`` gives too, in a large index as in a small one.
    """
    union = Or([Term(name, t, boost=boost) for name, t, boost in terms])
    union.matcher_type = Or.ARRAY_MATCHER
    return union


def _without_deleted(writer, segments):
    """A Whoosh merge policy: rewrite the segments that hold deleted documents, keep the others.
    It costs about 1.3 ms per chunk of those segments (a 4,500-chunk segment: 6 s)."""
    keep = []
    for segment in segments:
        if segment.has_deletions():
            reader = SegmentReader(writer.storage, writer.schema, segment)
            writer.add_reader(reader)
            reader.close()
        else:
            keep.append(segment)
    return keep


def _merge(writer, segments, fresh: set[str]):
    """The merge policy at the end of a refresh: Whoosh's MERGE_SMALL; then of the segments
    this refresh wrote (``fresh`` ids), those under half the largest of them go into the new
    segment (a cold refresh writes batches of doubling size: the early ones cost little to
    merge, and each segment costs its own copy of the vocabulary on disk — 1,000 files:
    3 segments, 61 MB instead of 16 and 142 MB); then the segments holding
    deleted chunks that are small enough to rewrite now (the others: ``ChunkIndex._purge``)."""
    kept = MERGE_SMALL(writer, segments)
    largest = max((s.doc_count_all() for s in kept if s.segment_id() in fresh), default=0)
    keep = []
    for segment in kept:
        size = segment.doc_count_all()
        if ((segment.segment_id() in fresh and size * 2 < largest)
                or (segment.has_deletions() and size <= PURGE_NOW_CHUNKS)):
            reader = SegmentReader(writer.storage, writer.schema, segment)
            writer.add_reader(reader)   # deleted chunks are left out
            reader.close()
        else:
            keep.append(segment)
    return keep


def _segment_ids(ix) -> set[str]:
    return {segment.segment_id() for segment in ix._segments()}


def passage_score(text: str, weights: dict[str, float], span: int = PASSAGE_SPAN) -> float:
    """The largest share of ``weights`` (word -> weight) whose words occur together within
    ``span`` characters of ``text`` (spaces not counted): 1.0 when all of them do.

    A word of three or more letters counts by the share of its bigrams found, so
    "스카이라인의" still counts in "스카이라인은" and a compound spaced or split otherwise
    counts in part.
    """
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    pieces: Counter[str] = Counter()
    for word, weight in weights.items():
        parts = {word[i:i + 2] for i in range(len(word) - 1)} if len(word) >= 3 else {word}
        for part in parts:
            pieces[part] += weight / len(parts)
    flat = _squash(text)
    found = sorted((m.start(), piece) for piece in pieces
                   for m in re.finditer(f"(?={re.escape(piece)})", flat))
    inside: Counter[str] = Counter()
    best = current = 0.0
    first = 0
    for position, piece in found:
        while found[first][0] < position - span:      # too far back: leaves the stretch
            gone = found[first][1]
            inside[gone] -= 1
            if not inside[gone]:
                current -= pieces[gone]
            first += 1
        inside[piece] += 1
        if inside[piece] == 1:
            current += pieces[piece]
        best = max(best, current)
    return best / total


def _squash(text: str) -> str:
    """NFKC, lower case, no whitespace: how passages are compared."""
    return "".join(unicodedata.normalize("NFKC", text).lower().split())


def _title(chunk: Chunk) -> str:
    return " ".join(chunk.path + chunk.outline)


def index_rows(items: list[tuple[str, Document, list[Chunk]]],
               analysed: bool = True) -> list[tuple[str, list[dict]]]:
    """(key, Whoosh fields of each chunk) for each (key, doc, chunks): what ``ChunkIndex.put`` takes.

    Without ``analysed`` the ``text`` and ``title`` fields hold the texts themselves, for
    ``analyse_rows`` to turn into Kiwi terms elsewhere: parse workers compute everything else
    (bigrams, metadata; engine/library/workers.py) and the engine process, which holds the one Kiwi
    it needs to search anyway, analyses them — one Kiwi per app, not one per worker.
    """
    rows = [(key, [_fields(key, doc, chunk) for chunk in chunks]) for key, doc, chunks in items]
    if analysed:
        analyse_rows([r for _key, doc_rows in rows for r in doc_rows])
    return rows


def analyse_rows(rows: list[dict]) -> None:
    """Replace the ``text`` and ``title`` texts of ``rows`` (from ``index_rows(analysed=False)``)
    by their Kiwi terms, in place. Each distinct text (titles repeat on every chunk) is analysed
    once, in one Kiwi batch; Whoosh indexes a list of strings as given."""
    texts = list(dict.fromkeys(row[field] for row in rows for field in ANALYSED_FIELDS
                               if isinstance(row[field], str)))
    if not texts:
        return
    terms = {text: [term for term, _s, _e in found] for text, found in zip(texts, korean_terms_many(texts))}
    for row in rows:
        for field in ANALYSED_FIELDS:
            if isinstance(row[field], str):
                row[field] = terms[row[field]]


def _fields(key: str, doc: Document, chunk: Chunk) -> dict:
    """Whoosh fields of a chunk, its text and title not yet analysed (see ``analyse_rows``)."""
    meta = {"path": chunk.path, "outline": chunk.outline, "anchors": chunk.anchors,
            "extractors": chunk.extractors}
    return {
        "key": key, "doc_id": chunk.doc_id or doc.doc_id or "", "chunk_id": chunk.id,
        "filename": key, "kind": chunk.kind,
        "text": chunk.text, "_stored_text": chunk.text,
        "grams": [gram for gram, _s, _e in bigram_terms(chunk.text)],
        "title": _title(chunk),
        "meta": json.dumps(meta, ensure_ascii=False),
    }


def _hit(stored: dict, score: float | None, found_by: str) -> dict:
    meta = json.loads(stored["meta"])
    return {
        "score": round(float(score), 4) if score is not None else None, "found_by": found_by,
        "chunk_id": stored["chunk_id"], "doc_id": stored["doc_id"],
        "filename": stored["filename"], "kind": stored["kind"], "text": stored["text"],
        "path": meta["path"], "outline": meta["outline"], "anchors": meta["anchors"],
        "extractors": meta["extractors"],
    }
