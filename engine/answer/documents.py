"""The documents an answer looks in: the tenant's parsed documents and chunks, looked up once per answer.

Besides the search hits, the other chunks of the first documents they come from are candidates (the
search finds the right document far more often than the right chunk); a table hit gets its caption,
and each document how it names itself (file name, title, opening text), which its lines share.
"""
from __future__ import annotations

# Besides the hits, every chunk of the first documents they come from is a candidate: the
# search finds the right document far more often than the right chunk.
EXPAND_DOCUMENTS = 2
HEAD_CHARS = 300            # how much of a document's opening text names it
CAPTION_CHARS = 80          # a table's caption: the line before it, when it is this short


class Documents:
    """The tenant's parsed documents and chunks, looked up once per answer."""

    def __init__(self, tenant):
        self.tenant = tenant
        self._chunks: dict[str, list] = {}

    def chunks(self, filename: str) -> list:
        if filename not in self._chunks:
            self._chunks[filename] = self.tenant.chunks(filename)
        return self._chunks[filename]

    def head(self, filename: str) -> str:
        """How a document names itself: its file name, title and opening text."""
        doc = self.tenant.document(filename)
        title = doc.structure.title if doc is not None else None
        opening = "\n".join(c.text for c in self.chunks(filename))[:HEAD_CHARS]
        return "\n".join([filename, title or "", opening])

    def captioned(self, hit: dict) -> dict:
        """A table hit with its caption: the short last line of the text just before the table
        ("< 국가별 동향(억 달러, %) >"), which names what its cells are."""
        if hit.get("kind") != "table":
            return hit
        chunks = self.chunks(hit["filename"])
        at = next((i for i, c in enumerate(chunks) if c.id == hit["chunk_id"]), 0)
        before = chunks[at - 1] if at > 0 and chunks[at - 1].kind != "table" else None
        last = before.text.strip().rpartition("\n")[2] if before is not None else ""
        return {**hit, "caption": last} if 0 < len(last) <= CAPTION_CHARS else hit

    def get(self, filename: str, chunk_id: str):
        """(Document or None, Chunk or None)."""
        chunk = next((c for c in self.chunks(filename) if c.id == chunk_id), None)
        return self.tenant.document(filename), chunk

    def expanded(self, hits: list[dict]) -> tuple[list[dict], dict[str, str]]:
        """The hits and the other chunks of their first documents (tables captioned), and how each
        of those documents names itself."""
        hits = [self.captioned(hit) for hit in hits + self.more_chunks(hits)]
        return hits, {hit["filename"]: self.head(hit["filename"]) for hit in hits}

    def more_chunks(self, hits: list[dict]) -> list[dict]:
        """The other chunks of the first documents the hits come from, shaped like hits."""
        names = list(dict.fromkeys(hit["filename"] for hit in hits))[:EXPAND_DOCUMENTS]
        seen = {(hit["filename"], hit["chunk_id"]) for hit in hits}
        return [{"score": None, "found_by": "document", "chunk_id": c.id, "doc_id": c.doc_id,
                 "filename": name, "kind": c.kind, "text": c.text, "path": c.path,
                 "outline": c.outline, "anchors": c.anchors, "extractors": c.extractors}
                for name in names for c in self.chunks(name) if (name, c.id) not in seen]
