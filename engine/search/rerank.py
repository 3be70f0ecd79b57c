"""The best hits of a query re-ordered by passage: where the question's words stand together.

The best ``RERANK_DEPTH`` hits keep their BM25F score as a share of the best one and gain
``PASSAGE_WEIGHT`` times their passage score, the share of the question's content words (weighted by
rarity) found close together in the hit (``passage_score``), because the passage that answers a
question usually holds its words in one sentence while BM25F only counts them anywhere in the chunk.
Measured on KorQuAD questions outside the dev sample (see docs/architecture.md).
"""
from __future__ import annotations

import math
import re
from collections import Counter

from engine.korean import QUESTION_NOUNS, QUESTION_WORDS, compact
from engine.search.analyzer import content_words
from engine.search.query import TOPIC_WEIGHT

RERANK_DEPTH = 20
PASSAGE_WEIGHT = 1.5
PASSAGE_SPAN = 60        # characters, spaces not counted: about one sentence
# Words of questions that are not looked for in a passage ("이름은 무엇인가").
NOT_LOOKED_FOR = QUESTION_WORDS | QUESTION_NOUNS | {"이름"}


def rerank(searcher, text: str, hits: list[dict]) -> list[dict]:
    """``hits`` re-ordered by their share of the best BM25F score plus PASSAGE_WEIGHT times
    their passage score. The question's content words weigh by their rarity (BM25's idf); in
    a chunk of a document whose title holds a word, that word weighs TOPIC_WEIGHT of it,
    since every passage of that document is about it."""
    words = [w for w in content_words(text) if w not in NOT_LOOKED_FOR]
    if not hits or not words:
        return hits
    best = hits[0]["score"] or 1.0
    total = searcher.doc_count()
    rarity = {w: math.log(1 + (total - df + 0.5) / (df + 0.5))
              for w in words for df in [searcher.doc_frequency("text", w)]}
    for hit in hits:
        title = compact(" ".join(hit["path"]))
        weights = {w: x * (TOPIC_WEIGHT if w in title else 1.0) for w, x in rarity.items()}
        passage = passage_score(hit["text"], weights)
        hit["score"] = round(hit["score"] / best + PASSAGE_WEIGHT * passage, 4)
    return sorted(hits, key=lambda h: -h["score"])


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
    flat = compact(text)
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
