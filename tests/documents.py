"""Small generated documents shared by tests."""
from __future__ import annotations

import io
import zipfile

import docx


def docx_bytes(*paragraphs: str) -> bytes:
    """A DOCX holding one paragraph per argument."""
    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def backslashed(data: bytes) -> bytes:
    """The same ZIP with '\\' for '/' in every entry name, as some Windows tools write them."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename.replace("/", "\\"), src.read(info))
    return out.getvalue()
