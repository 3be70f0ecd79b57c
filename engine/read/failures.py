"""How a read fails: the exceptions a reader raises, and the unreadable Document a failed read ends in."""
from __future__ import annotations

from typing import Optional, Sequence

from engine import wording
from engine.model import Document, Source, Warning


class ReadFailure(Exception):
    """The file cannot be read, for a reason the user should be told."""

    def __init__(self, code: str, detail: str = "", *, drm_vendor: Optional[str] = None,
                 warning: Optional[Warning] = None):
        super().__init__(f"{code}: {detail or (warning.text if warning else '')}".rstrip(": "))
        self.code = code
        self.detail = detail
        self.drm_vendor = drm_vendor
        self.warning = warning   # added to the Document: which rule or limit was broken


class ContentLimit(Exception):
    """The Document is as large as the memory limit allows; what was added so far stays."""


def unreadable(filename: str, fmt: str, code: str, *, size: int = 0,
               container_path: Sequence[str] = (), detail: str = "",
               sha256: Optional[str] = None) -> Document:
    """A Document for a file we could not even open, with its reason."""
    doc = Document(doc_id=f"sha256:{sha256}" if sha256 else None,
                   source=Source(filename=filename, format=fmt, bytes=size, sha256=sha256,
                                 container_path=list(container_path)))
    mark_unreadable(doc, code)
    if detail:
        doc.warnings.append(Warning("PARSER_ERROR", wording.warning_text("PARSER_ERROR", detail=detail)))
    return doc


def mark_unreadable(doc: Document, code: str, drm_vendor: Optional[str] = None) -> None:
    doc.blocks.clear()
    doc.tables.clear()
    doc.access.readable = False
    doc.access.reason = code
    doc.access.reason_text = wording.reason_text(code)
    if code == "PASSWORD_PROTECTED":
        doc.access.password_protected = True
    if code == "DRM_ENCRYPTED":
        doc.access.drm = True
        if drm_vendor:
            doc.access.drm_vendor = wording.DRM_VENDORS.get(drm_vendor, drm_vendor)
