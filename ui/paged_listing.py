"""A folder's document list fetched from the engine process a page at a time.

At 10,000 documents the whole list is about 7 MB: as one answer it would hold
the pipe (a question's answer waits behind it) and this process's interpreter
while it is unpickled. Pages of PAGE_ROWS rows cross in pieces of about
0.4 MB (10,404 rows of the scale bench's folder: 11 pages in 0.13 s, against
0.24-0.32 s as one answer; the engine keeps the totals every page carries).
A list that changed between two pages (a refresh indexing meanwhile) is
fetched again; after ATTEMPTS it is taken whole in one answer.
"""
from __future__ import annotations

from typing import Callable, Optional

PAGE_ROWS = 1000
ATTEMPTS = 3
TOTALS = ("total", "readable", "unreadable", "needs_review", "chunks")


def fetch(call: Callable[..., Optional[dict]], principal: Optional[str]) -> Optional[dict]:
    """The whole listing from ``call(principal, start, count)`` (Tenant.documents or cached_documents)."""
    warnings: list = []            # the engine hands a notice out once: every page's are kept
    for _ in range(ATTEMPTS):
        first = call(principal, 0, PAGE_ROWS)
        if first is None:
            return None
        _keep_new(warnings, first["warnings"])
        rows, page = list(first["documents"]), first
        while len(rows) < first["total"] and page["documents"] and _same(first, page):
            page = call(principal, len(rows), PAGE_ROWS)
            if page is None:
                return None
            _keep_new(warnings, page["warnings"])
            rows += page["documents"]
        if _same(first, page) and len(rows) == first["total"]:
            return {**first, "warnings": warnings, "documents": rows}
    whole = call(principal, 0, None)
    return None if whole is None else {**whole, "warnings": _keep_new(warnings, whole["warnings"])}


def _same(a: dict, b: dict) -> bool:
    return all(a.get(k) == b.get(k) for k in TOTALS)


def _keep_new(kept: list, more: list) -> list:
    kept.extend(w for w in more if w not in kept)
    return kept
