"""PARA_TEXT: UTF-16LE text with control characters 0–31 [spec table 6].

A *char* control is one code unit. *Inline* and *extended* controls take
eight units (the code, six units of payload, the code again); the payload
is never text. Only the visible meaning of a control is kept: tab, line
break, the two kinds of fixed space, the hyphen, and a space where a table
or drawing sits inside a line. 한글's private-use characters are read as the text
they stand for where that is known (``hancom_chars``).
"""
from __future__ import annotations

import codecs
import re

from engine.read.formats.hancom_chars import readable

CHAR_CONTROLS = frozenset({0, 10, 13, 24, 25, 26, 27, 28, 29, 30, 31})
# tab, line break, a table or drawing standing inside the text, hyphen, the two fixed spaces
_VISIBLE = {9: "\t", 10: "\n", 11: " ", 24: "-", 30: " ", 31: " "}
_CONTROL = re.compile(rb"[\x00-\x1f]\x00")
# A code unit below 32 decodes to a character below 32 and nothing else does (a surrogate without
# its pair becomes U+FFFD), so the decoded text tells whether there are controls; isprintable()
# (C, no regex) answers most texts, whose characters are all printable.
_CONTROL_CHAR = re.compile("[\x00-\x1f]")
_utf16 = codecs.utf_16_le_decode   # 3× faster than bytes.decode, which looks the codec up per call


def decode_para_text(data: bytes) -> str:
    """The readable text of a PARA_TEXT payload, controls removed or replaced."""
    end = len(data) - len(data) % 2
    if data[end - 2:end] == b"\r\x00":   # the common case: text without controls, then the end mark
        text = _utf16(data[:end - 2], "replace", True)[0]
        if text.isprintable() or _CONTROL_CHAR.search(text) is None:
            return readable(text)
    search = _CONTROL.search
    out: list[str] = []
    pos = 0
    while pos < end:
        match = search(data, pos, end)
        while match is not None and match.start() % 2:   # straddles two code units
            match = search(data, match.start() + 1, end)
        if match is None:
            break
        at = match.start()
        if at > pos:
            out.append(_utf16(data[pos:at], "replace", True)[0])
        code = data[at]
        out.append(_VISIBLE.get(code, ""))
        pos = at + (2 if code in CHAR_CONTROLS else 16)
    if pos < end:
        out.append(_utf16(data[pos:end], "replace", True)[0])
    return readable("".join(out))
