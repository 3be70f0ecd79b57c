"""Section records → paragraphs, tables and side texts, in reading order.

A paragraph (PARA_HEADER) holds its text (PARA_TEXT), its layout cache
(PARA_LINE_SEG) and one CTRL_HEADER per extended control. Controls that
carry text hold paragraph lists: a LIST_HEADER followed by the list's
PARA_HEADERs at the same level [spec 4.3.6–4.3.10]. Tables, text boxes,
headers/footers, notes and captions stay apart from the body text.

Records are indices into the section's RecordStream (see ``records``).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Optional, Union

from engine.read.formats.hwp import tables
from engine.read.formats.hwp.pages import PageCounter
from engine.read.formats.hwp.records import (CTRL_HEADER, LIST_HEADER, PAGE_DEF, PARA_HEADER,
                                        PARA_LINE_SEG, PARA_TEXT, SHAPE_COMPONENT, TABLE, RecordStream)
from engine.read.formats.hwp.text import decode_para_text

MAX_DEPTH = 24   # controls inside controls deeper than this are skipped

# control id (as it reads in the file) -> block type of its paragraph lists
SIDE_TEXTS = {b"daeh": "header", b"toof": "footer", b"  nf": "footnote", b"  ne": "endnote"}
TABLE_ID = b" lbt"
SHAPE_ID = b" osg"
SECTION_ID = b"dces"
COLUMN_ID = b"dloc"      # 'cold': column definition; its UINT16 property holds the count in bits 2-9
_PARA_SHAPE_REF = struct.Struct("<H")   # paragraph-shape id at byte 8 of PARA_HEADER


@dataclass(slots=True)
class Para:
    """A paragraph; ``page`` and ``heading`` are set on top-level paragraphs only."""
    text: str
    page: Optional[int] = None
    heading: Optional[int] = None   # outline level, 1 = top
    items: list["Item"] = field(default_factory=list)


@dataclass(slots=True)
class Box:
    """Text that belongs to a paragraph or table but is not body text."""
    kind: str
    paras: list[Para]


@dataclass(slots=True)
class CellData:
    row: int
    col: int
    row_span: int
    col_span: int
    paras: list[Para]


@dataclass(slots=True)
class TableData:
    rows: int
    cols: int
    cells: list[CellData]
    captions: list[Box]


Item = Union[Box, TableData]
ParaList = tuple[Optional[int], list[Para]]   # a LIST_HEADER's index (if any) and its paragraphs


class SectionReader:
    """Turns the records of one section into Paras; pages come from a shared counter."""

    def __init__(self, pages: PageCounter, outline: dict[int, int]):
        self.pages = pages
        self.outline = outline
        self.drawn = False   # a drawing object (picture, shape, OLE object …) was seen

    def read(self, stream: RecordStream) -> list[Para]:
        """The section's top-level paragraphs with everything anchored in them."""
        self.stream = stream
        self.data, self.tags, self.starts, self.stops, self.after = (
            stream.data, stream.tags, stream.starts, stream.stops, stream.after)
        roots = stream.roots()
        self.pages.start_section(self._page_def(roots))
        return [self._top(r) for r in roots if self.tags[r] == PARA_HEADER]

    # paragraphs -------------------------------------------------------------
    def _top(self, rec: int) -> Para:
        """A top-level paragraph, with its page (from its lines) and outline level."""
        lines: list[bytes] = []
        para = self._paragraph(rec, 0, lines)
        data, start = self.data, self.starts[rec]
        size = self.stops[rec] - start
        para.page = self.pages.paragraph(data[start + 11] if size > 11 else 0, b"".join(lines))
        if self.outline and size >= 10:
            para.heading = self.outline.get(_PARA_SHAPE_REF.unpack_from(data, start + 8)[0])
        return para

    def _paragraph(self, rec: int, depth: int, lines: Optional[list[bytes]] = None) -> Para:
        """Text and controls of a paragraph; PARA_LINE_SEG payloads go to ``lines`` if given."""
        data, tags, starts, stops, after = self.data, self.tags, self.starts, self.stops, self.after
        text = ""
        items: list[Item] = []
        child, end = rec + 1, after[rec]
        while child < end:
            tag = tags[child]
            if tag == PARA_TEXT:
                text += decode_para_text(data[starts[child]:stops[child]])
            elif tag == CTRL_HEADER and depth < MAX_DEPTH:
                items += self._control(child, depth + 1)
            elif tag == PARA_LINE_SEG and lines is not None:
                lines.append(data[starts[child]:stops[child]])
            child = after[child]
        return Para(text, None, None, items)

    def _lists(self, records: list[int], depth: int) -> list[ParaList]:
        """Paragraph lists among sibling records: (LIST_HEADER or None, its paragraphs)."""
        tags = self.tags
        lists: list[ParaList] = []
        current: Optional[list[Para]] = None
        for rec in records:
            tag = tags[rec]
            if tag == PARA_HEADER:
                if current is None:
                    current = []
                    lists.append((None, current))
                current.append(self._paragraph(rec, depth))
            elif tag == LIST_HEADER:
                current = []
                lists.append((rec, current))
            elif tag == TABLE:
                current = None
        return lists

    # controls ---------------------------------------------------------------
    def _control(self, rec: int, depth: int) -> list[Item]:
        start = self.starts[rec]
        ctrl_id = self.data[start:min(start + 4, self.stops[rec])]
        if ctrl_id == TABLE_ID:
            return [self._table(rec, depth)]
        if ctrl_id == SHAPE_ID:
            self.drawn = True
            return self._shape(rec, depth)
        if ctrl_id == COLUMN_ID and self.stops[rec] - start >= 6:
            prop = int.from_bytes(self.data[start + 4:start + 6], "little")
            self.pages.columns = max(self.pages.columns, (prop >> 2) & 0xFF)
        kind = SIDE_TEXTS.get(ctrl_id)
        paras = self._paras(self.stream.children(rec), depth) if kind else []
        return [Box(kind, paras)] if paras else []

    def _table(self, rec: int, depth: int) -> TableData:
        """Captions are the lists before the TABLE record, cells the lists after it."""
        data, starts, stops = self.data, self.starts, self.stops
        children = self.stream.children(rec)
        at = next((i for i, c in enumerate(children) if self.tags[c] == TABLE), -1)
        declared = tables.table_size(self.stream.payload(children[at])) if at >= 0 else (0, 0)
        captions = [Box("caption", paras) for _h, paras in self._lists(children[:max(at, 0)], depth) if paras]
        cells = []
        for head, paras in self._lists(children[at + 1:], depth):
            address = tables.cell_address(data[starts[head]:stops[head]]) if head is not None else None
            cells.append(CellData(*(address or (len(cells), 0, 1, 1)), paras))
        grid = tables.fit_grid(declared, [(c.row, c.col) for c in cells])
        if grid is None:   # geometry beyond repair: keep the text, one cell per row
            for i, c in enumerate(cells):
                c.row, c.col, c.row_span, c.col_span = i, 0, 1, 1
            grid = (max(len(cells), 1), 1)
        rows, cols = grid
        for c in cells:   # spans end at the grid's edge
            if c.row + c.row_span > rows:
                c.row_span = rows - c.row
            if c.col + c.col_span > cols:
                c.col_span = cols - c.col
        return TableData(rows, cols, cells, captions)

    def _shape(self, rec: int, depth: int) -> list[Item]:
        """A drawing object: its caption, then the text of any text boxes in it (groups nest)."""
        tags, children = self.tags, self.stream.children
        items: list[Item] = []
        kids = children(rec)
        captions = self._paras(kids, depth)
        if captions:
            items.append(Box("caption", captions))
        boxes: list[Para] = []
        stack = [c for c in reversed(kids) if tags[c] == SHAPE_COMPONENT]
        while stack:
            kids = children(stack.pop())
            boxes += self._paras(kids, depth)
            stack += [c for c in reversed(kids) if tags[c] == SHAPE_COMPONENT]
        if boxes:
            items.append(Box("textbox", boxes))
        return items

    def _paras(self, records: list[int], depth: int) -> list[Para]:
        """Every paragraph of every list among ``records``."""
        return [p for _head, paras in self._lists(records, depth) for p in paras]

    def _page_def(self, roots: list[int]) -> Optional[bytes]:
        """The PAGE_DEF payload of the section definition in the first paragraph, if any."""
        stream = self.stream
        for ctrl in stream.children(roots[0]) if roots else []:
            if self.tags[ctrl] == CTRL_HEADER and stream.payload(ctrl)[:4] == SECTION_ID:
                for child in stream.children(ctrl):
                    if self.tags[child] == PAGE_DEF:
                        return stream.payload(child)
        return None
