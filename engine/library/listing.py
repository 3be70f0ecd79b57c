"""What a folder's listing says: one row per Document a principal may see, and the totals (seed /documents)."""
from __future__ import annotations

from typing import Optional, Sequence

from engine import wording
from engine.library.acl import Acl
from engine.results import Listing, ListingEntry, Notice, Skipped

# Warnings that mean "read, but have a look at the original once" (review). Measured on the shared corpus
# (bench/review_warnings.py): only OCR_TEXT marks documents read less accurately (snippets found as written
# 0.583 against 1.0, in reading order 0.833 against 1.0); side-by-side layout, split tables, text boxes and
# pages without text did not (their documents read as well as the rest), so they stay plain warnings.
# TRUNCATED, PREVIEW_ONLY, CONTENT_LIMIT, FORMULA_NOT_CACHED and OCR_PAGES_SKIPPED say outright that text is
# missing or is not the value shown.
REVIEW_CODES = frozenset({"OCR_TEXT", "FORMULA_NOT_CACHED", "TRUNCATED", "PREVIEW_ONLY", "CONTENT_LIMIT",
                          "OCR_PAGES_SKIPPED"})


def listing(tenant: str, summaries: Sequence[dict], figures: dict, warnings: list[Notice], start: int = 0,
            count: Optional[int] = None) -> Listing:
    """The rows of ``summaries`` from ``start`` (``count`` of them, else all) with the totals of all
    (``figures``: their ``totals``, which the tenant keeps between pages)."""
    start = max(0, start)
    end = len(summaries) if count is None else start + max(0, count)
    return {"tenant": tenant, **figures, "warnings": warnings, "total": len(summaries),
            "documents": [entry(s) for s in summaries[start:end]]}


def totals(summaries: Sequence[dict]) -> dict:
    """How many of ``summaries`` are readable, unreadable, to review, and their chunks."""
    unreadable_n = review_n = chunks = 0
    for s in summaries:
        chunks += s["chunks"]
        if not s["readable"]:
            unreadable_n += 1
        elif any(w["code"] in REVIEW_CODES for w in s["warnings"]):
            review_n += 1
    needs_review = unreadable_n + review_n
    return {"readable": len(summaries) - unreadable_n, "unreadable": unreadable_n, "needs_review": needs_review,
            "document_ready_rate": round((len(summaries) - needs_review) / len(summaries), 3) if summaries else None,
            "chunks": chunks}


def entry(s: dict) -> ListingEntry:
    """One row of documents(): the seed's shape (drm_vendor only when known)."""
    review_reasons = [w for w in s["warnings"] if w["code"] in REVIEW_CODES] if s["readable"] else []
    row = {"doc_id": s["doc_id"], "filename": s["filename"], "format": s["format"],
           "readable": s["readable"], "chunks": s["chunks"], "reason": s["reason"],
           "reason_text": s["reason_text"]}
    if s["drm_vendor"]:
        row["drm_vendor"] = s["drm_vendor"]
    row.update({"structure": s["structure"], "review": bool(review_reasons),
                "review_reasons": review_reasons, "warnings": s["warnings"]})
    return row


def skipped(s: dict) -> Skipped:
    """A document that could not be searched, in a search or an answer."""
    row = {"filename": s["filename"], "readable": False, "reason": s["reason"],
           "reason_text": s["reason_text"]}
    if s["drm_vendor"]:
        row["drm_vendor"] = s["drm_vendor"]
    return row


def acl_warnings(acl: Acl) -> list[Notice]:
    """ACL.json could not be read (nothing is shown then): every answer says so."""
    if acl.broken:
        return [{"code": "ACL_BROKEN", "text": wording.tenant_text("ACL_BROKEN")}]
    return []
