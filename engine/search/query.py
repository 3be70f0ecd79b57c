"""A question as a Whoosh query: its analysed terms over the index's fields, with their weights.

A query is the OR of its analyzed terms over the text, bigram and title fields, ranked by BM25F
(``bm25.top`` scores it with numpy; Whoosh's own search is used where a filter or a phrase applies).
Words of document titles count less in the text fields.
"""
from __future__ import annotations

from whoosh.query import And, Or, Term

from engine.search.analyzer import bigram_terms

# Measured on the KorQuAD dev bench (see bench/korquad.py): short saturation suits chunks.
BM25_B = 0.5
BM25_K1 = 0.5
TOPIC_WEIGHT = 0.3
MAX_QUERY_CHARS = 1000
QUERY_FIELDS = ("text", "grams", "title")
# A term in more than this share of the chunks, and in more than COMMON_CHUNKS of them, is left out of the query
# (unless every term is): at 10,000 files the 6% of a question's terms that common held 46% of the postings a
# search read, for a small part of any score (p95 213 -> 140 ms). Below COMMON_CHUNKS (folders of less than about
# 250 files) nothing is left out; forced onto KorQuAD's 740 chunks it cost R@1 0.956 -> 0.954 over 6,095 questions.
COMMON_SHARE = 0.1
COMMON_CHUNKS = 1000


def query_terms(searcher, text: str) -> list[tuple[str, str, float]]:
    """(field, term, boost) of the analyzed query terms over every query field.

    A query word that occurs in document titles tells which document, not where in it:
    it counts fully in the title field but only TOPIC_WEIGHT in the text fields, so a
    cover page that repeats the title does not outrank the passage asked about.
    """
    schema = searcher.schema     # not the index's: that reads the TOC a background purge may be replacing
    terms = {name: list(dict.fromkeys(schema[name].process_text(text, mode="query")))
             for name in QUERY_FIELDS}
    topic = {t for t in terms["title"] if searcher.doc_frequency("title", t)}
    topic |= {g for t in topic for g in schema["grams"].process_text(t, mode="query")}
    found = [(name, t, TOPIC_WEIGHT if name != "title" and t in topic else 1.0)
             for name in QUERY_FIELDS for t in terms[name]]
    common = max(COMMON_SHARE * searcher.doc_count(), COMMON_CHUNKS)
    if common >= searcher.doc_count_all():   # no term can be that common: nothing to look up
        return found
    frequency = {term: searcher.doc_frequency(term[0], term[1]) for term in found}
    telling = [term for term in found if frequency[term] <= common]
    return telling if any(frequency[term] for term in telling) else found


def union(terms: list[tuple[str, str, float]]) -> Or:
    """Whoosh's OR query of (field, term, boost) terms.

    Whoosh picks its matcher by segment size: below 5,000 chunks it scores every posting into
    an array, above it walks a tree of unions with block skipping, which ranks ties otherwise.
    Always the array: the ranking ``bm25.top`` gives too, in a large index as in a small one.
    """
    found = Or([Term(name, t, boost=boost) for name, t, boost in terms])
    found.matcher_type = Or.ARRAY_MATCHER
    return found


def phrase_grams(phrase: str):
    """All of a quoted phrase's character bigrams, as a query they must all match (None for a
    one-letter phrase): the candidates that may hold it as written."""
    grams = [gram for gram, _s, _e in bigram_terms(phrase)]
    if len(grams) < 1 or (len(grams) == 1 and len(grams[0]) == 1):
        return None
    return And([Term("grams", g) for g in dict.fromkeys(grams)])
