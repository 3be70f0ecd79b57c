"""HWP 3.0 paragraph lists (한글 문서 파일 구조 3.0 §4, §10, §11) as the Hangul reading model.

A paragraph list is paragraphs up to an empty one (0 characters). A
paragraph is its 43-byte information (plus its 187-byte shape unless it
repeats the previous one), 14 bytes per line, optional per-character
shapes, then its characters up to code 13. Codes below 32 are special
characters, each with a fixed or self-described size; tables (10),
pictures (11), hidden comments (15), headers/footers (16) and foot/endnotes
(17) carry further paragraph lists. A table's 27-byte cell records give
each cell's position and size, from which rows, columns and spans follow.
Text boxes drawn with the drawing tool sit inside a picture's drawing data.

Pages come from the line records: Hangul 97 marks the line that starts a
page (a hint, absent in files of older versions). A paragraph shape with
more than one column is remembered (``columns``).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Optional

from engine.read.formats.hwp3.hchar import hchar_text
from engine.read.formats.hwpx.section import CellNode, Note, Para, Table

PARA_INFO, PARA_SHAPE, LINE_INFO, CHAR_SHAPE = 43, 187, 14, 31
COLUMNS_AT = 172                 # 단 정의 (column definition) inside a paragraph shape
TABLE_INFO, CELL_INFO, PICTURE_INFO = 84, 27, 348
MAX_CHARS, MAX_LINES, MAX_DEPTH = 60000, 8192, 16
LINE_VALID, LINE_PAGE = 0x8000, 0x0001
# special character -> total size in bytes (code included) of those with a fixed size
FIXED = {6: 42, 7: 84, 8: 96, 9: 8, 14: 92, 18: 8, 19: 8, 20: 8, 21: 8, 22: 24, 23: 10, 24: 6,
         25: 6, 26: 246, 28: 64, 30: 4, 31: 4}
SPACES = {9: "\t", 30: " ", 31: " ", 24: "-"}
BOX_TABLE, BOX_TEXT, BOX_EQUATION = 0, 1, 2
DRAWING, DRAWN_TEXT_BOX = 3, 6


class StreamError(Exception):
    """The paragraph stream does not follow the format (damaged or cut short)."""


@dataclass
class Layout:
    """What the reader learns about the page layout while reading."""
    page: int = 1
    has_pages: bool = False   # the file marks where pages start (Hangul 97 does)
    lines: int = 0            # body lines read so far
    columns: int = 1


class Reader:
    """Reads paragraph lists from the (decompressed) body bytes."""

    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0
        self.layout = Layout()
        self.partial: list[Para] = []   # the body paragraphs read so far (kept when the stream breaks)

    # ---- primitives ------------------------------------------------------
    def take(self, size: int) -> bytes:
        if size < 0 or self.pos + size > len(self.data):
            raise StreamError(f"needs {size} bytes at {self.pos}")
        chunk = self.data[self.pos:self.pos + size]
        self.pos += size
        return chunk

    def u8(self) -> int:
        return self.take(1)[0]

    def u16(self) -> int:
        return struct.unpack("<H", self.take(2))[0]

    def u32(self) -> int:
        return struct.unpack("<I", self.take(4))[0]

    # ---- structure -------------------------------------------------------
    def skip_fonts_and_styles(self) -> None:
        """Font names (7 languages × n × 40 bytes) and styles (n × 238 bytes) before the body."""
        for _ in range(7):
            self.take(self.u16() * 40)
        self.take(self.u16() * (20 + CHAR_SHAPE + PARA_SHAPE))

    def paragraphs(self, depth: int = 0, body: bool = False) -> list[Para]:
        """One paragraph list (up to its empty paragraph)."""
        if depth > MAX_DEPTH:
            raise StreamError("nested too deep")
        out = self.partial if body else []
        while True:
            info = self.take(PARA_INFO)
            chars, lines, own_shapes = struct.unpack_from("<HHB", info, 1)
            if chars == 0:
                return out
            if chars > MAX_CHARS or lines > MAX_LINES:
                raise StreamError("implausible paragraph")
            if info[0] == 0:
                shape = self.take(PARA_SHAPE)
                if body:
                    self.layout.columns = max(self.layout.columns, shape[COLUMNS_AT])
            page = self._lines(lines, body)
            if own_shapes:
                for _ in range(chars):
                    if self.u8() != 1:
                        self.take(CHAR_SHAPE)
            para = Para(pieces=self._characters(depth))
            if body:
                para.page, para.end_page = page, self.layout.page
            out.append(para)

    def _lines(self, count: int, body: bool) -> int:
        """The page the paragraph starts on; a body line marked as a page's first starts a new one."""
        first = None
        for _ in range(count):
            flags = struct.unpack_from("<H", self.take(LINE_INFO), 12)[0]
            if body and flags & LINE_VALID:
                self.layout.has_pages = True
                if flags & LINE_PAGE and self.layout.lines:
                    self.layout.page += 1
            if body:
                self.layout.lines += 1
            first = self.layout.page if first is None else first
        return self.layout.page if first is None else first

    def _characters(self, depth: int) -> list:
        """Text and objects up to the paragraph's end (code 13)."""
        pieces: list = []
        while True:
            code = self.u16()
            if code == 13:
                return pieces
            if code >= 32:
                pieces.append(hchar_text(code) or "")
            elif code in FIXED:
                body = self.take(FIXED[code] - 2)
                if code == 23:        # 글자 겹침: up to three characters drawn on one another
                    pieces.append("".join(hchar_text(c) or "" for c in struct.unpack_from("<3H", body, 0) if c))
                else:
                    pieces.append(SPACES.get(code, ""))
            else:
                pieces += self._object(code, depth)

    def _object(self, code: int, depth: int) -> list:
        """A special character with a paragraph list or a self-described size."""
        length = struct.unpack("<I", self.take(4))[0]
        self.take(2)                              # the code, repeated
        if code == 10:
            return self._box(depth)
        if code == 11:
            return self._picture(depth)
        if code == 15:                            # hidden comment: not document text
            self.take(8)
            self.paragraphs(depth + 1)
            return []
        if code == 16:
            info = self.take(10)
            return [Note("footer" if info[8] == 1 else "header", self.paragraphs(depth + 1))]
        if code == 17:
            info = self.take(14)
            kind = "endnote" if struct.unpack_from("<H", info, 10)[0] == 1 else "footnote"
            return [Note(kind, self.paragraphs(depth + 1))]
        self.take(length)                         # field code (5), cross reference (29), reserved codes
        return []

    def _box(self, depth: int) -> list:
        """A table, text box, equation or button: cell records, one list per cell, a caption list."""
        info = self.take(TABLE_INFO)
        kind, count = struct.unpack_from("<HH", info, 78)
        count = max(count, 1)
        if count * CELL_INFO > len(self.data) - self.pos:
            raise StreamError("implausible cell count")
        records = [self.take(CELL_INFO) for _ in range(count)]
        contents = [self.paragraphs(depth + 1) for _ in range(count)]
        caption = self.paragraphs(depth + 1)
        caption_note = Note("caption", caption) if any(p.text for p in caption) else None
        if kind == BOX_EQUATION:
            return [caption_note] if caption_note else []
        if kind != BOX_TABLE:
            out = [Note("textbox", [p for paras in contents for p in paras])]
            return out + ([caption_note] if caption_note else [])
        return [_grid(records, contents, caption_note)]

    def _picture(self, depth: int) -> list:
        """A picture; a drawing (kind 3) may hold text boxes. Then its caption list."""
        info = self.take(PICTURE_INFO)
        extra = self.take(struct.unpack_from("<I", info, 0)[0])
        found: list = []
        if info[74] == DRAWING:
            found = _drawn_text_boxes(extra, depth)
        caption = self.paragraphs(depth + 1)
        if any(p.text for p in caption):
            found.append(Note("caption", caption))
        return found


def _grid(records: list[bytes], contents: list[list[Para]], caption: Optional[Note]) -> Table:
    """Rows and columns from the cells' positions: each distinct left edge starts a column."""
    boxes = [struct.unpack_from("<4H", r, 4) for r in records]      # x, y, width, height
    xs = sorted({x for x, _y, _w, _h in boxes})
    ys = sorted({y for _x, y, _w, _h in boxes})
    cells = []
    for (x, y, w, h), paras in zip(boxes, contents):
        col, row = xs.index(x), ys.index(y)
        col_span = max(1, sum(1 for edge in xs if x <= edge < x + w))
        row_span = max(1, sum(1 for edge in ys if y <= edge < y + h))
        cells.append(CellNode(row=row, col=col, row_span=row_span, col_span=col_span, paras=paras))
    return Table(rows=len(ys), cols=len(xs), cells=cells, caption=caption)


def _drawn_text_boxes(extra: bytes, depth: int) -> list:
    """Text boxes among the drawing objects of a picture of kind 3 (§11); others are skipped."""
    found = []
    try:
        reader = Reader(extra)
        header_length = reader.u32()
        reader.take(4)
        count = reader.u32()
        reader.take(header_length - 8)
        for _ in range(count):
            common = reader.u32()
            kind = struct.unpack_from("<H", reader.take(common), 0)[0]
            first = reader.take(reader.u32())
            second = reader.take(reader.u32())
            for part in (first, second):
                if kind == DRAWN_TEXT_BOX and part:
                    paras = Reader(part).paragraphs(depth + 1)
                    if paras:
                        found.append(Note("textbox", paras))
    except (StreamError, struct.error):
        pass          # drawing data we cannot follow: the drawing's text is left out
    return found
