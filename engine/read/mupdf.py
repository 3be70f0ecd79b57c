"""PyMuPDF with MuPDF's messages kept off stdout.

MuPDF prints its errors and warnings ("MuPDF error: …") to stdout by default,
which breaks every ``--json`` output one damaged PDF is read in, and its table
finder prints a line recommending another package the first time it runs.
Importing ``pymupdf`` from here switches both off; MuPDF's messages are kept in
its store instead, and a reader turns them into one warning of its Document
(``take_messages``).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import pymupdf

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)
pymupdf.no_recommend_layout()

__all__ = ["pymupdf", "take_messages", "reading"]
MAX_SHOWN = 3   # messages named in the warning; the rest are counted


def take_messages() -> list[str]:
    """MuPDF's messages since the last call, once each, in order (the store is emptied)."""
    text = pymupdf.TOOLS.mupdf_warnings(reset=True) or ""
    return list(dict.fromkeys(line.strip() for line in text.splitlines() if line.strip()))


@contextmanager
def reading(doc) -> Iterator[None]:
    """Around a reader's use of MuPDF: what MuPDF complained about becomes one MUPDF_MESSAGES
    warning of the DocumentBuilder ``doc`` (also when reading fails)."""
    take_messages()   # what earlier files left behind is not this file's
    try:
        yield
    finally:
        found = take_messages()
        if found:
            doc.warn("MUPDF_MESSAGES", count=len(found), messages=" / ".join(m[:120] for m in found[:MAX_SHOWN]))
