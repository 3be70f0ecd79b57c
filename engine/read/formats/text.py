"""Plain text reader (.txt): UTF-8 (with or without BOM), UTF-16 with BOM, or CP949/EUC-KR.

The first non-empty line is the title; blank lines separate paragraphs. A
paragraph written without blank lines (one sentence per line, as many office
exports are) is kept line by line once it grows past ``LONG_PARAGRAPH``, so
that no block is a whole file.
"""
from __future__ import annotations

import codecs
import re

from engine.read.failures import ReadFailure
from engine.read.formats.base import DocumentBuilder

LONG_PARAGRAPH = 2000       # characters: a longer blank-line paragraph is split at its line breaks
TITLE_CHARS = 200           # a first line longer than this is text, not a title
# BOMs first: they name their encoding. CP949 is a superset of EUC-KR.
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_BLANK_LINES = re.compile(r"\n[ \t\u3000]*\n")


def decode_text(data: bytes) -> str:
    """The text of ``data`` in the first encoding that decodes all of it; ReadFailure(CORRUPT) otherwise."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding)
            except UnicodeDecodeError:
                raise ReadFailure("CORRUPT", encoding) from None
    for encoding in ("utf-8", "cp949"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ReadFailure("CORRUPT", "unknown text encoding")


def read(data: bytes, doc: DocumentBuilder) -> None:
    """Paragraphs of a text file, its first line as the title."""
    text = decode_text(data).replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    paragraphs = [p.strip() for p in _BLANK_LINES.split(text) if p.strip()]
    if not paragraphs:
        raise ReadFailure("EMPTY")
    first, _, rest = paragraphs[0].partition("\n")
    if len(first.strip()) <= TITLE_CHARS:
        doc.set_title(first.strip())
        doc.add_block("title", first.strip())
        paragraphs[0] = rest.strip()
    for paragraph in paragraphs:
        if not paragraph:
            continue
        if len(paragraph) <= LONG_PARAGRAPH:
            doc.add_block("paragraph", paragraph)
            continue
        for line in paragraph.split("\n"):
            if line.strip():
                doc.add_block("paragraph", line.strip())
