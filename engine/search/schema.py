"""The chunk index's fields: its schema, a chunk as stored fields, and stored fields as a hit.

Each stored entry is one chunk under a key (the document's filename inside the tenant). Chunk text is
indexed twice: as Kiwi morphemes plus words (``text``) and as character bigrams across spaces
(``grams``); the document title and outline path are a third, boosted field (``title``). Hits carry
everything a citation needs.
"""
from __future__ import annotations

import json

from whoosh.fields import ID, STORED, TEXT, Schema

from engine.model import Document
from engine.search.analyzer import BigramTokenizer, KoreanTokenizer, bigram_terms, korean_terms_many
from engine.search.chunking import Chunk

# Bump when analysis, fields or chunking change: an index of another version is rebuilt empty.
# v2: chunks of the 1000-character budget; v3: Kiwi without its multi-word dictionary; v4: the analyzers
# moved to engine.search.analyzer (Whoosh keeps their module path in the index's pickled schema).
INDEX_NAME = "chunks_v4"
TITLE_BOOST = 2.0
ANALYSED_FIELDS = ("text", "title")   # the fields whose terms come from Kiwi (analyse_rows)


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
        "title": " ".join(chunk.path + chunk.outline),
        "meta": json.dumps(meta, ensure_ascii=False),
    }


def as_hit(stored: dict, score: float | None, found_by: str) -> dict:
    """A hit (engine/results.Hit) from a chunk's stored fields: ``found_by`` "lexical" with its score,
    or "document" (a chunk listed, not searched) with none."""
    meta = json.loads(stored["meta"])
    return {
        "score": round(float(score), 4) if score is not None else None, "found_by": found_by,
        "chunk_id": stored["chunk_id"], "doc_id": stored["doc_id"],
        "filename": stored["filename"], "kind": stored["kind"], "text": stored["text"],
        "path": meta["path"], "outline": meta["outline"], "anchors": meta["anchors"],
        "extractors": meta["extractors"],
    }
