"""JSON for other programs: always valid, never split by a line reader, written as it is made.

``ensure_ascii=False`` keeps Hangul readable, but then U+2028, U+2029 and
U+0085 — which document text does carry — go out raw, and every reader that
splits lines on them (Python's ``str.splitlines``, JavaScript before ES2019)
cuts a JSON line in two. They are written as ``\\u2028`` escapes instead; a JSON
encoder only ever emits them inside strings, so escaping them everywhere is
exact. ``write`` streams the encoder's pieces instead of building one string:
an indented dump of a 200,000-cell workbook built ~300 MB of small strings.
"""
from __future__ import annotations

import json
from typing import Any, Optional, TextIO

WRITE_CHARS = 1 << 16
_LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\u0085": "\\u0085"})


def dumps(value: Any, indent: Optional[int] = None) -> str:
    """``value`` as JSON text that no line reader splits."""
    return json.dumps(value, ensure_ascii=False, indent=indent).translate(_LINE_BREAKS)


def write(value: Any, out: TextIO, indent: Optional[int] = None) -> None:
    """Write ``value`` as JSON plus a newline to ``out``, in pieces of about 64 KB."""
    pieces: list[str] = []
    size = 0
    for piece in json.JSONEncoder(ensure_ascii=False, indent=indent).iterencode(value):
        pieces.append(piece)
        size += len(piece)
        if size >= WRITE_CHARS:
            out.write("".join(pieces).translate(_LINE_BREAKS))
            pieces, size = [], 0
    out.write("".join(pieces).translate(_LINE_BREAKS) + "\n")
