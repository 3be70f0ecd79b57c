"""BM25F for an OR of terms, scored with numpy over Whoosh's posting blocks.

Whoosh scores a query one posting at a time in Python: the long OR queries of
questions (words, morphemes and bigrams over three fields) touch about 50,000
postings each on 1,000 documents, 0.2–0.5 s a question. ``top`` reads each
term's postings a block at a time into arrays and scores them together with
Whoosh's own formula and statistics (its idf, average field length and the
byte-coded field lengths it stores), so the ranking is the one Whoosh gives:
best score first, the lower document number first among equal scores.
"""
from __future__ import annotations

from itertools import accumulate, repeat

import numpy as np
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3LeafMatcher
from whoosh.util.numeric import byte_to_length

_LENGTHS = np.array([byte_to_length(b) for b in range(256)], dtype=np.float64)


def top(searcher, terms: list[tuple[str, str, float]], limit: int, B: float, K1: float,
        lengths: dict) -> list[tuple[int, float]]:
    """(document number, score) of the best ``limit`` documents matching any of ``terms``
    ((field, text, boost) each, boosts multiplying that term's BM25F score).

    ``lengths`` caches each segment's field lengths between calls (empty it when the
    searcher changes)."""
    total = searcher.doc_count_all()
    scores = np.zeros(total, dtype=np.float64)
    matched = np.zeros(total, dtype=bool)
    schema = searcher.schema
    # a field's average length and a term's coded text once per call, not once per segment (idf: Whoosh caches it)
    avgfl = {field: searcher.avg_field_length(field) or 1 for field in {field for field, _t, _b in terms}}
    coded = [(field, schema[field].to_bytes(text), boost) for field, text, boost in terms]
    for reader, offset in searcher.reader().leaf_readers():
        for field, btext, boost in coded:
            if (field, btext) not in reader:
                continue
            idf = searcher.idf(field, btext)
            ids, weights = _postings(reader.postings(field, btext))
            if not len(ids):
                continue
            fl = _field_lengths(reader, field, lengths)[ids]
            term_scores = idf * ((weights * (K1 + 1)) / (weights + K1 * ((1 - B) + B * fl / avgfl[field])))
            scores[offset + ids] += boost * term_scores
            matched[offset + ids] = True
    found = np.flatnonzero(matched)
    if len(found) > limit:
        found = found[np.argpartition(-scores[found], limit - 1)[:limit]]
    found = found[np.lexsort((found, -scores[found]))]
    return [(int(n), float(scores[n])) for n in found]


def _postings(matcher) -> tuple[np.ndarray, np.ndarray]:
    """(document numbers, weights) of a term's postings in one segment."""
    if isinstance(matcher, W3LeafMatcher):   # block by block (the posting lists of all but rare terms)
        ids: list[int] = []
        weights: list[float] = []
        while matcher.is_active():
            # the block as Whoosh stores it (its _read_ids/_read_weights decode it one number at a time)
            if matcher._data is None:
                matcher._read_data()
            stored, weighed = matcher._data[0], matcher._data[1]
            ids.extend(stored if matcher._byteids else accumulate(stored))
            weights.extend(repeat(1.0 if weighed is None else weighed, len(stored))
                           if weighed is None or isinstance(weighed, float) else weighed)
            matcher._next_block()
        return np.asarray(ids, dtype=np.int64), np.asarray(weights, dtype=np.float64)
    ids, weights = [], []   # a term inlined in the dictionary, or a segment with deleted documents
    while matcher.is_active():
        ids.append(matcher.id())
        weights.append(matcher.weight())
        matcher.next()
    return np.asarray(ids, dtype=np.int64), np.asarray(weights, dtype=np.float64)


def _field_lengths(reader, field: str, cache: dict) -> np.ndarray:
    """The length of ``field`` in every document of one segment (as Whoosh scores it)."""
    key = (reader.segment().segment_id(), field)
    if key not in cache:
        column = reader._perdoc._cached_reader(f"_{field}_len", LENGTHS_COLUMN)
        count = reader.doc_count_all()
        coded = np.fromiter((column[n] for n in range(count)), dtype=np.uint8, count=count) \
            if column is not None else np.zeros(count, dtype=np.uint8)
        cache[key] = _LENGTHS[coded]
    return cache[key]
