"""Page estimate from the layout cache HWP keeps per paragraph.

PARA_LINE_SEG holds, per line, its vertical position in the page body and
its height [spec table 62]. A position lower than the line before starts a
new page; so do a page or section break in the paragraph header and the
start of every section. A line that reaches past the body height (a tall
table) spills over onto further pages. Multi-column layouts and tables that
break across pages make this an estimate, hence the warning.
"""
from __future__ import annotations

import struct
from typing import Optional

_LINE = struct.Struct("<ii")   # vertical position, line height (after the text start)
_LINE_SIZE = 36
_PAGE_OR_SECTION_BREAK = 0x01 | 0x04   # break type in PARA_HEADER [spec table 59]


def body_height(page_def: bytes) -> Optional[int]:
    """Height of the text area in HWPUNIT from a PAGE_DEF payload, or None."""
    if len(page_def) < 40:
        return None
    width, height, _left, _right, top, bottom, header, footer = struct.unpack_from("<8i", page_def)
    if struct.unpack_from("<I", page_def, 36)[0] & 1:   # landscape
        height = width
    body = height - top - bottom - header - footer
    return body if body > 0 else None


class PageCounter:
    """Walks the top-level paragraphs of each section and tells their page."""

    def __init__(self) -> None:
        self.page = 0
        self.columns = 1          # the most columns a column definition asked for
        self._previous: Optional[int] = None
        self._body: Optional[int] = None

    def start_section(self, page_def: Optional[bytes]) -> None:
        self.page += 1
        self._previous = None
        self._body = body_height(page_def) if page_def else None

    def paragraph(self, break_type: int, line_segs: bytes) -> int:
        """The page of the paragraph's first line; advances past its last line."""
        first_page = None
        lines = len(line_segs) // _LINE_SIZE
        for i in range(lines):
            top, height = _LINE.unpack_from(line_segs, i * _LINE_SIZE + 4)
            if self._previous is not None and (
                    top < self._previous or (i == 0 and break_type & _PAGE_OR_SECTION_BREAK)):
                self.page += 1
            if first_page is None:
                first_page = self.page
            bottom = top + max(height, 0)
            if self._body and bottom > self._body:
                self.page += min(bottom // self._body, 1000)
                self._previous = bottom % self._body
            else:
                self._previous = top
        return first_page if first_page is not None else max(self.page, 1)
