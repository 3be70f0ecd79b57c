"""Gather what the evidence view shows for one citation (runs off the GUI thread).

PDF and image sources get their cited pages rendered; every other format
(HWP, HWPX, DOCX, XLSX) gets the reflowed passage with a line saying why
there is no page picture. Nothing is invented: boxes come only from the
citation's anchors.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from engine import wording
from engine.read.detect import EXTENSION_FORMATS
from ui import report
from ui.pages import PAGE_FORMATS, PageImage, render_pages


@dataclass
class Evidence:
    citation: dict
    format: str
    source: Optional[Path]
    passage: str                               # the cited chunk's text (or the quote)
    pages: list[PageImage] = field(default_factory=list)   # empty: show the passage
    notes: list[str] = field(default_factory=list)

    @property
    def anchors(self) -> list[dict]:
        return self.citation.get("anchors") or []


def prepare(tenant, citation: dict, zoom: float = 2.0) -> Evidence:
    """Look up the citation's document and render its cited pages when it has pages."""
    filename = citation.get("filename", "")
    doc = tenant.document(filename)
    fmt = _format_of(doc, filename)
    source = tenant.source_path(filename)
    evidence = Evidence(citation, fmt, source, _passage(tenant, citation))
    anchors = evidence.anchors
    if fmt in PAGE_FORMATS and source is not None and Path(source).exists():
        numbers = [a["page"] for a in anchors if a.get("page")]
        if not numbers and fmt != "pdf":
            numbers = [1]                      # an image is its own single page
        if numbers:
            evidence.pages = render_pages(Path(source), numbers, zoom, fmt)
        if not any(a.get("bbox") for a in anchors):
            evidence.notes.append(wording.evidence_text("no_boxes"))
    elif fmt in PAGE_FORMATS:
        evidence.notes.append(wording.evidence_text("no_source"))
    else:
        note = wording.evidence_text("no_picture", format=wording.format_name(fmt))
        where = report.location(citation)
        evidence.notes.append(f"{note} ({where})" if where else note)
    if report.is_machine_read(citation):
        evidence.notes.append(wording.evidence_text("ocr"))
    if doc is not None and "PAGE_APPROXIMATE" in doc.warning_codes() and report.location(citation):
        evidence.notes.append(wording.warning_text("PAGE_APPROXIMATE"))
    return evidence


def _format_of(doc, filename: str) -> str:
    """The format the reader found, else the one the extension names."""
    if doc is not None and doc.source.format not in (None, "", "unknown"):
        return doc.source.format
    ext = os.path.splitext(filename)[1].lower()
    return sorted(EXTENSION_FORMATS.get(ext, {"unknown"}))[0]


def _passage(tenant, citation: dict) -> str:
    chunk = tenant.chunk(citation.get("filename", ""), citation.get("chunk_id"))
    return chunk.text if chunk is not None else citation.get("quote", "")
