"""One Whoosh full-text index of chunks, kept in a directory the index owns.

Each stored entry is one chunk under a key (the document's filename inside
the tenant). Chunk text is indexed twice: as Kiwi morphemes plus words
(``text``) and as character bigrams across spaces (``grams``); the
document title and outline path are a third, boosted field. A query is the
OR of its analyzed terms over those fields (words of document titles count
less in the text fields), ranked by BM25F; hits come back in that order and
carry everything a citation needs.

Where a second retriever (e.g. semantic) would join: ``search`` builds hits
with ``found_by`` through ``_hit``; another retriever adds its own hits in
the same shape with ``found_by="semantic"``.
"""
from __future__ import annotations

import json
import threading
from pathlib import Path

from whoosh import index, scoring
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.query import Or, Term

from engine.analyzer import BigramTokenizer, KoreanTokenizer, bigram_terms, korean_terms_many
from engine.chunking import Chunk
from engine.model import Document

# Bump when analysis or fields change: an index of another version is rebuilt empty.
INDEX_NAME = "chunks_v1"
# Measured on the KorQuAD dev bench (see bench/korquad.py): short saturation suits chunks.
BM25_B = 0.5
BM25_K1 = 0.5
TITLE_BOOST = 2.0
TOPIC_WEIGHT = 0.3
MAX_QUERY_CHARS = 1000
QUERY_FIELDS = ("text", "grams", "title")


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


class ChunkIndex:
    """The chunks of a tenant's documents in one Whoosh index (thread-safe)."""

    def __init__(self, directory: str | Path):
        """Open the index in ``directory``, or create it when missing, broken or outdated."""
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._ix = self._open_or_create()
        self._searcher = self._ix.searcher(weighting=scoring.BM25F(B=BM25_B, K1=BM25_K1))

    def _reopen_searcher(self) -> None:
        # A new searcher rather than Searcher.refresh(), which fails on a formerly empty index.
        old = self._searcher
        self._searcher = self._ix.searcher(weighting=scoring.BM25F(B=BM25_B, K1=BM25_K1))
        old.close()

    def _open_or_create(self):
        expected = make_schema()
        storage = FileStorage(str(self.directory))
        try:
            if index.exists_in(str(self.directory), indexname=INDEX_NAME):
                ix = storage.open_index(indexname=INDEX_NAME)
                if ix.schema == expected:
                    return ix
                ix.close()
        except Exception:  # a broken index is rebuilt, never fatal
            pass
        storage.clean(ignore=True)
        return storage.create_index(expected, indexname=INDEX_NAME)

    # ---- writing ------------------------------------------------------------
    def replace_documents(self, items: list[tuple[str, Document, list[Chunk]]]) -> None:
        """Put each (key, doc, chunks) in place of whatever was under that key; one commit."""
        if not items:
            return
        # Each distinct text (titles repeat on every chunk) is analysed once, in one Kiwi
        # batch, and Whoosh gets the terms: it indexes a list of strings as given.
        texts = list(dict.fromkeys(t for _key, _doc, chunks in items for chunk in chunks
                                   for t in (chunk.text, _title(chunk))))
        terms = {text: [term for term, _s, _e in found]
                 for text, found in zip(texts, korean_terms_many(texts))}
        with self._lock:
            writer = self._ix.writer()
            try:
                for key, doc, chunks in items:
                    writer.delete_by_term("key", key)
                    for chunk in chunks:
                        writer.add_document(**_fields(key, doc, chunk, terms))
            except BaseException:
                writer.cancel()
                raise
            writer.commit()
            self._reopen_searcher()

    def remove_documents(self, keys: list[str]) -> None:
        """Drop every chunk of these keys (one commit)."""
        if not keys:
            return
        with self._lock:
            writer = self._ix.writer()
            for key in keys:
                writer.delete_by_term("key", key)
            writer.commit()
            self._reopen_searcher()

    # ---- reading ------------------------------------------------------------
    def keys(self) -> dict[str, str]:
        """key -> doc_id for every document that has chunks in the index."""
        with self._lock:
            s = self._searcher
            out = {}
            for raw in s.lexicon("key"):
                key = raw.decode("utf-8") if isinstance(raw, bytes) else raw
                docnum = s.document_number(key=key)
                if docnum is not None:
                    out[key] = s.stored_fields(docnum)["doc_id"]
            return out

    def chunk_count(self) -> int:
        with self._lock:
            return self._searcher.doc_count()

    def search(self, query: str, limit: int = 10) -> list[dict]:
        """Hits for a free-text query, best first (BM25F over text, bigrams and titles)."""
        if not query or limit <= 0:
            return []
        with self._lock:
            q = self._query(query[:MAX_QUERY_CHARS])
            if q is None:
                return []
            results = self._searcher.search(q, limit=limit)
            return [_hit(r.fields(), r.score, "lexical") for r in results]

    def _query(self, text: str):
        """OR of the analyzed query terms over every query field (None when no term).

        A query word that occurs in document titles tells which document, not where in it:
        it counts fully in the title field but only TOPIC_WEIGHT in the text fields, so a
        cover page that repeats the title does not outrank the passage asked about.
        """
        schema, searcher = self._ix.schema, self._searcher
        terms = {name: list(dict.fromkeys(schema[name].process_text(text, mode="query")))
                 for name in QUERY_FIELDS}
        topic = {t for t in terms["title"] if searcher.doc_frequency("title", t)}
        topic |= {g for t in topic for g in schema["grams"].process_text(t, mode="query")}
        query = [Term(name, t, boost=TOPIC_WEIGHT if name != "title" and t in topic else 1.0)
                 for name in QUERY_FIELDS for t in terms[name]]
        return Or(query) if query else None

    def close(self) -> None:
        with self._lock:
            self._searcher.close()
            self._ix.close()


def _title(chunk: Chunk) -> str:
    return " ".join(chunk.path + chunk.outline)


def _fields(key: str, doc: Document, chunk: Chunk, terms: dict[str, list[str]]) -> dict:
    """Whoosh fields of a chunk; ``terms`` maps its text and title to their Kiwi terms."""
    meta = {"path": chunk.path, "outline": chunk.outline, "anchors": chunk.anchors,
            "extractors": chunk.extractors}
    return {
        "key": key, "doc_id": chunk.doc_id or doc.doc_id or "", "chunk_id": chunk.id,
        "filename": key, "kind": chunk.kind,
        "text": terms[chunk.text], "_stored_text": chunk.text,
        "grams": [gram for gram, _s, _e in bigram_terms(chunk.text)],
        "title": terms[_title(chunk)],
        "meta": json.dumps(meta, ensure_ascii=False),
    }


def _hit(stored: dict, score: float, found_by: str) -> dict:
    meta = json.loads(stored["meta"])
    return {
        "score": round(float(score), 4), "found_by": found_by,
        "chunk_id": stored["chunk_id"], "doc_id": stored["doc_id"],
        "filename": stored["filename"], "kind": stored["kind"], "text": stored["text"],
        "path": meta["path"], "outline": meta["outline"], "anchors": meta["anchors"],
        "extractors": meta["extractors"],
    }
