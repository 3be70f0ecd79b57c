"""Small generated documents shared by tests."""
from __future__ import annotations

import io

import docx


def docx_bytes(*paragraphs: str) -> bytes:
    """A DOCX holding one paragraph per argument."""
    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
