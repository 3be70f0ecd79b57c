"""Check an answer against the evidence it cites (seed /verify).

The answer's ``[n]`` points at ``sources[n-1]`` (the numbered sources of
engine/answer/llm_context.py, each naming ``doc_id`` and ``chunk_id``). Reported, never
fixed:

- numbers of two or more characters (``[0-9][0-9,.]+``) that the evidence
  chunks do not hold; ``’26`` in the evidence also accepts ``2026``;
- references ``[n]`` to no source, and sources that are not in the tenant;
- quotes (``citations``) that the chunk they name does not contain.

``grounded`` is true only when all of these are empty. The same function
checks the LLM gateway's own answers (engine/gateway/grounded.py).
"""
from __future__ import annotations

import re
from typing import Optional

from engine.korean import DIGIT_COMMA, one_line, split_sentences

NUMBER = re.compile(r"[0-9][0-9,.]+")
_REF = re.compile(r"\[(\d+)\]")
_SHORT_YEAR = re.compile(r"[’‘'`]\s?([0-9]{2})(?![0-9])")


def verify(tenant, answer_text: str, sources: list[dict], citations: Optional[list[dict]] = None,
           principal: Optional[str] = None) -> dict:
    """Where ``answer_text`` goes beyond its ``sources`` (see the module doc); the seed's /verify shape."""
    sources = list(sources or [])
    lookup = ChunkLookup(tenant, principal)
    resolved = [lookup.get(s.get("doc_id"), s.get("chunk_id")) for s in sources]
    unknown_sources = [_key(s) for s, found in zip(sources, resolved) if found is None]
    evidence = [found for found in resolved if found is not None]
    accepted = EvidenceNumbers("\n".join(chunk.text for _name, chunk in evidence))

    sentences, unknown_refs, unsupported_numbers = [], set(), []
    for text in split_sentences(answer_text or ""):
        refs = sorted({int(n) for n in _REF.findall(text)})
        unknown_refs.update(n for n in refs if not 1 <= n <= len(sources))
        numbers = numbers_in(text)
        unsupported = [n for n in numbers if not accepted.holds(n)]
        unsupported_numbers += [n for n in unsupported if n not in unsupported_numbers]
        sentences.append({"text": text, "refs": refs, "numbers": numbers, "unsupported": unsupported})

    checked = []
    for citation in citations or []:
        found = None
        n = citation.get("n")
        if n is not None:
            if 1 <= int(n) <= len(sources):
                found = resolved[int(n) - 1]
            else:
                unknown_refs.add(int(n))
        elif citation.get("doc_id") and citation.get("chunk_id"):
            found = lookup.get(citation["doc_id"], citation["chunk_id"])
            if found is None and _key(citation) not in unknown_sources:
                unknown_sources.append(_key(citation))
        checked.append(_checked_citation(citation, found))

    grounded = not (unsupported_numbers or unknown_refs or unknown_sources
                    or any(not c["found"] for c in checked))
    return {
        "tenant": tenant.folder.name,
        "grounded": grounded,
        "evidence_chunks": [{"doc_id": chunk.doc_id, "chunk_id": chunk.id} for _name, chunk in evidence],
        "unknown_sources": unknown_sources,
        "unknown_refs": sorted(unknown_refs),
        "sentences": sentences,
        "citations": checked,
        "unsupported_numbers": unsupported_numbers,
    }


def _checked_citation(citation: dict, found) -> dict:
    """A citation with ``found``: whether its chunk holds the quote (whitespace runs ignored)."""
    name, chunk = found if found is not None else (None, None)
    quote = citation.get("quote") or ""
    return {
        "doc_id": chunk.doc_id if chunk else citation.get("doc_id"),
        "chunk_id": chunk.id if chunk else citation.get("chunk_id"),
        "quote": quote,
        "found": chunk is not None and bool(one_line(quote)) and one_line(quote) in one_line(chunk.text),
        "filename": name,
        "anchors": chunk.anchors if chunk else [],
    }


def _key(source: dict) -> dict:
    return {"doc_id": source.get("doc_id"), "chunk_id": source.get("chunk_id")}


def numbers_in(text: str) -> list[str]:
    """Numbers of two or more characters in ``text`` (refs like [1] left out), in order, once each."""
    out = []
    for match in NUMBER.finditer(_REF.sub(" ", text)):
        number = match.group().rstrip(".,")
        if len(number) >= 2 and number not in out:
            out.append(number)
    return out


class EvidenceNumbers:
    """Answers "does the evidence hold this number?" (commas ignored, whole numbers only)."""

    def __init__(self, evidence: str):
        self.text = DIGIT_COMMA.sub("", evidence)
        self.years = {"20" + m for m in _SHORT_YEAR.findall(evidence)}

    def holds(self, number: str) -> bool:
        plain = DIGIT_COMMA.sub("", number)
        if plain in self.years:
            return True
        return re.search(rf"(?<![0-9]){re.escape(plain)}(?![0-9])", self.text) is not None


class ChunkLookup:
    """Chunks of the tenant by (doc_id, chunk_id), limited to what ``principal`` may see."""

    def __init__(self, tenant, principal: Optional[str]):
        self.tenant = tenant
        self.principal = principal
        self._names: Optional[dict[str, list[str]]] = None
        self._chunks: dict[str, dict] = {}

    def get(self, doc_id: Optional[str], chunk_id: Optional[str]):
        """(filename, Chunk), or None when the tenant has no such chunk the principal may see."""
        if not doc_id or not chunk_id:
            return None
        if self._names is None:
            self._names = {}
            for row in self.tenant.documents(self.principal)["documents"]:
                if row.get("doc_id") and row.get("readable"):
                    self._names.setdefault(row["doc_id"], []).append(row["filename"])
        for name in self._names.get(doc_id, []):
            if name not in self._chunks:
                self._chunks[name] = {c.id: c for c in self.tenant.chunks(name)}
            if chunk_id in self._chunks[name]:
                return name, self._chunks[name][chunk_id]
        return None
