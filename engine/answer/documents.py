"""The documents an answer looks in: their chunks and openings from the index, titles from the folder's state.

Besides the search hits, the other chunks of the first documents they come from are candidates (the
search finds the right document far more often than the right chunk); a table hit gets its caption,
and each document how it names itself (file name, title, opening text), which its lines share.
"""
from __future__ import annotations

from typing import Optional

from engine.answer.question_cues import Question
from engine.korean import flat
from engine.read.form_fields import CONTACT_LABELS, LABELS

# Besides the hits, every chunk of the first documents they come from is a candidate: the
# search finds the right document far more often than the right chunk. So are those of a later one
# whose file name, title or opening names more of the question ("고용노동부 업무보고").
EXPAND_DOCUMENTS = 2
HEAD_CHARS = 300            # how much of a document's opening text names it
CAPTION_CHARS = 80          # a table's caption: the line before it, when it is this short
# a field of a Document's ``structure`` -> the labels the reader finds it by (engine.read.form_fields);
# a document number only by its own label, as 「시행」 also names the day
FORM_LABELS: dict[str, tuple[str, ...]] = {
    "doc_number": ("문서번호",),
    **{name: tuple(label for label, kind in LABELS.items() if kind == read_as)
       for name, read_as in (("issued_date", "date"), ("issuer", "issuer"), ("recipient", "recipient"))},
    **CONTACT_LABELS,
}


class Documents:
    """What one answer reads of the tenant's documents: their chunks as the index stores them (shaped
    like hits, from ``principal``'s own index), their titles from the folder's saved state, and only
    for the lines it cites the parsed Document (blocks, tables, revisions) — nothing else is parsed."""

    def __init__(self, tenant, principal: Optional[str] = None):
        self.tenant = tenant
        self.principal = principal
        self._chunks: dict[str, list[dict]] = {}

    def chunks(self, filename: str) -> list[dict]:
        """The document's chunks in order, shaped like hits (score None, found_by "document")."""
        if filename not in self._chunks:
            self._chunks[filename] = self.tenant.document_hits(filename, self.principal)
        return self._chunks[filename]

    def head(self, filename: str) -> str:
        """How a document names itself: its file name, title and opening text."""
        opening = self.tenant.opening(filename, HEAD_CHARS, self.principal)
        return "\n".join([filename, self.tenant.title(filename) or "", opening])

    def form(self, filename: str) -> tuple[tuple[tuple[str, ...], str], ...]:
        """(labels, value) of each field the document states about itself (its 문서번호, 담당 부서,
        연락처 …, read by ``engine.read.form_fields``): the line a value was read from answers as a
        field of those labels, wherever its layout hid them ("시행 | 소방행정과-6828 | ( | 2026. 6. 26. | )")."""
        structure = self.tenant.structure(filename)
        return tuple((labels, structure[name]) for name, labels in FORM_LABELS.items() if structure.get(name))

    def captioned(self, hit: dict) -> dict:
        """A table hit with its caption: the short last line of the text just before the table
        ("< 국가별 동향(억 달러, %) >"), which names what its cells are."""
        if hit.get("kind") != "table":
            return hit
        chunks = self.chunks(hit["filename"])
        at = next((i for i, c in enumerate(chunks) if c["chunk_id"] == hit["chunk_id"]), 0)
        before = chunks[at - 1] if at > 0 and chunks[at - 1]["kind"] != "table" else None
        last = before["text"].strip().rpartition("\n")[2] if before is not None else ""
        return {**hit, "caption": last} if 0 < len(last) <= CAPTION_CHARS else hit

    def get(self, filename: str, chunk_id: str):
        """(Document or None, Chunk or None): what a citation narrows its anchors with."""
        return self.tenant.document(filename), self.tenant.chunk(filename, chunk_id)

    def expanded(self, hits: list[dict], question: Optional[Question] = None) -> tuple[list[dict], dict[str, str]]:
        """The hits and the other chunks of their first documents and of the one whose head names most
        of ``question``'s terms (tables captioned), and how each of those documents names itself."""
        names = list(dict.fromkeys(hit["filename"] for hit in hits))
        heads = {name: self.head(name) for name in names}
        words = [flat(t.text) for t in question.terms if not t.generic] if question else []
        named = {name: sum(1 for word in words if word in head) for name, head in
                 ((name, flat(heads[name])) for name in names)}
        chosen = names[:EXPAND_DOCUMENTS]
        best = max(names, key=lambda name: named[name], default=None)
        if best is not None and named[best] > max(named[name] for name in chosen):
            chosen.append(best)
        hits = hits + self.more_chunks(hits, chosen)
        forms = {name: self.form(name) for name in dict.fromkeys(hit["filename"] for hit in hits)}
        return [{**self.captioned(hit), "form": forms[hit["filename"]]} for hit in hits], heads

    def more_chunks(self, hits: list[dict], names: list[str]) -> list[dict]:
        """The other chunks of the documents ``names``."""
        seen = {(hit["filename"], hit["chunk_id"]) for hit in hits}
        return [c for name in names for c in self.chunks(name) if (name, c["chunk_id"]) not in seen]
