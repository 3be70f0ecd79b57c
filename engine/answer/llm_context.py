"""Evidence for an LLM: the tenant's search hits as numbered sources within a character budget (seed /context).

Each source is written as a header ``[n] 파일 · N쪽 · 제목 > 목차`` and the
chunk's text, sources apart by a blank line. An answer's ``[n]`` then points
at ``sources[n-1]`` and its anchors. A source that does not fit whole is cut
once (when a useful part fits) and nothing follows it; ``truncated`` says
that some evidence was left out.
"""
from __future__ import annotations

from typing import Optional

from engine import wording

DEFAULT_BUDGET = 4000
MAX_BUDGET = 40000
MIN_CUT = 80            # a cut source keeps at least this many characters of its text
SEPARATOR = "\n\n"
SOURCE_KEYS = ("chunk_id", "doc_id", "filename", "kind", "path", "outline", "score", "found_by",
               "anchors", "extractors")


def context(tenant, query: str, budget: int = DEFAULT_BUDGET, limit: int = 10,
            principal: Optional[str] = None, document: Optional[str] = None) -> dict:
    """The numbered evidence for ``query`` in at most ``budget`` characters (max 40,000); only from
    ``document`` when it is given."""
    budget = max(0, min(int(budget), MAX_BUDGET))
    if document is not None:
        document = tenant.named(document, principal) or document
    found = tenant.search(query, limit=limit, principal=principal,
                          within=[document] if document is not None else None)
    parts: list[str] = []
    sources: list[dict] = []
    truncated = False
    for hit in found["hits"]:
        n = len(sources) + 1
        head = source_header(n, hit)
        used = len(SEPARATOR.join(parts))
        room = budget - used - (len(SEPARATOR) if parts else 0) - len(head) - 1
        text = hit["text"]
        cut = len(text) > room
        if cut:
            truncated = True
            if room < MIN_CUT:
                break
            text = _cut(text, room)
        parts.append(f"{head}\n{text}")
        sources.append({"n": n, **{k: hit.get(k) for k in SOURCE_KEYS}, "chars": len(text), "cut": cut})
        if cut:
            break
    bundle = SEPARATOR.join(parts)
    return {"tenant": found["tenant"], "query": query, "chunks_searched": found["chunks_searched"],
            "budget": budget, "used": len(bundle), "truncated": truncated, "sources": sources,
            "context": bundle, "skipped": found["skipped"]}


def source_header(n: int, hit: dict) -> str:
    """``[n] 파일 · N쪽 · 제목 > 목차`` (the page part or the sheet range only when known)."""
    parts = [f"[{n}] {hit['filename']}"]
    where = location(hit.get("anchors") or [])
    if where:
        parts.append(where)
    trail = " > ".join([*(hit.get("path") or []), *(hit.get("outline") or [])])
    if trail:
        parts.append(trail)
    return " · ".join(parts)


def location(anchors: list[dict]) -> Optional[str]:
    """'3쪽' or '3–4쪽' from the anchors' pages; a spreadsheet's cell range when there is no page."""
    pages = sorted({a["page"] for a in anchors if a.get("page")})
    if pages:
        span = str(pages[0]) if len(pages) == 1 else f"{pages[0]}–{pages[-1]}"
        return wording.tenant_text("hit_page", page=span)
    ranges = [a["cell_range"] for a in anchors if a.get("cell_range")]
    return ranges[0] if ranges else None


def _cut(text: str, room: int) -> str:
    """The start of ``text`` in at most ``room`` characters, ending at a line or space when one is near."""
    piece = text[: max(room - 1, 0)]
    stop = max(piece.rfind("\n"), piece.rfind(" "))
    if stop >= room // 2:
        piece = piece[:stop]
    return piece.rstrip() + "…"
