"""Section records → paragraphs, tables and side texts, in reading order.

A paragraph (PARA_HEADER) holds its text (PARA_TEXT), its layout cache
(PARA_LINE_SEG) and one CTRL_HEADER per extended control. Controls that
carry text hold paragraph lists: a LIST_HEADER followed by the list's
PARA_HEADERs at the same level [spec 4.3.6–4.3.10]. Tables, text boxes,
headers/footers, notes and captions stay apart from the body text.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Optional, Union

from engine.formats.hwp import tables
from engine.formats.hwp.pages import PageCounter
from engine.formats.hwp.records import (CTRL_HEADER, LIST_HEADER, PAGE_DEF, PARA_HEADER,
                                        PARA_LINE_SEG, PARA_TEXT, SHAPE_COMPONENT, TABLE, Record)
from engine.formats.hwp.text import decode_para_text

MAX_DEPTH = 24   # controls inside controls deeper than this are skipped

# control id (as it reads in the file) -> block type of its paragraph lists
SIDE_TEXTS = {b"daeh": "header", b"toof": "footer", b"  nf": "footnote", b"  ne": "endnote"}
TABLE_ID = b" lbt"
SHAPE_ID = b" osg"
SECTION_ID = b"dces"
_PARA_SHAPE_REF = struct.Struct("<H")   # paragraph-shape id at byte 8 of PARA_HEADER


@dataclass(slots=True)
class Para:
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
ParaList = tuple[Optional[Record], list[Para]]   # a LIST_HEADER (if any) and its paragraphs


class SectionReader:
    """Turns the record tree of one section into Paras; pages come from a shared counter."""

    def __init__(self, pages: PageCounter, outline: dict[int, int]):
        self.pages = pages
        self.outline = outline

    def read(self, roots: list[Record]) -> list[Para]:
        """The section's top-level paragraphs with everything anchored in them."""
        self.pages.start_section(_page_def(roots))
        return [self._paragraph(r, 0, top=True) for r in roots if r.tag == PARA_HEADER]

    # paragraphs -------------------------------------------------------------
    def _paragraph(self, rec: Record, depth: int, page: Optional[int] = None, top: bool = False) -> Para:
        head = rec.data
        if top:
            segs = b"".join(c.data for c in rec.children if c.tag == PARA_LINE_SEG)
            page = self.pages.paragraph(head[11] if len(head) > 11 else 0, segs)
        heading = None
        if self.outline and len(head) >= 10:
            heading = self.outline.get(_PARA_SHAPE_REF.unpack_from(head, 8)[0])
        para = Para("", page, heading, [])
        for child in rec.children:
            if child.tag == PARA_TEXT:
                para.text += decode_para_text(child.data)
            elif child.tag == CTRL_HEADER and depth < MAX_DEPTH:
                para.items += self._control(child, depth + 1, page)
        return para

    def _lists(self, records: list[Record], depth: int, page: Optional[int]) -> list[ParaList]:
        """Paragraph lists among sibling records: (LIST_HEADER or None, its paragraphs)."""
        lists: list[ParaList] = []
        current: Optional[list[Para]] = None
        for rec in records:
            tag = rec.tag
            if tag == PARA_HEADER:
                if current is None:
                    current = []
                    lists.append((None, current))
                current.append(self._paragraph(rec, depth, page))
            elif tag == LIST_HEADER:
                current = []
                lists.append((rec, current))
            elif tag == TABLE:
                current = None
        return lists

    # controls ---------------------------------------------------------------
    def _control(self, rec: Record, depth: int, page: Optional[int]) -> list[Item]:
        ctrl_id = rec.data[:4]
        if ctrl_id == TABLE_ID:
            return [self._table(rec, depth, page)]
        if ctrl_id == SHAPE_ID:
            return self._shape(rec, depth, page)
        kind = SIDE_TEXTS.get(ctrl_id)
        paras = self._paras(rec.children, depth, page) if kind else []
        return [Box(kind, paras)] if paras else []

    def _table(self, rec: Record, depth: int, page: Optional[int]) -> TableData:
        """Captions are the lists before the TABLE record, cells the lists after it."""
        children = rec.children
        at = next((i for i, c in enumerate(children) if c.tag == TABLE), -1)
        declared = tables.table_size(children[at].data) if at >= 0 else (0, 0)
        captions = [Box("caption", paras) for _h, paras in self._lists(children[:max(at, 0)], depth, page)
                    if paras]
        cells = []
        for head, paras in self._lists(children[at + 1:], depth, page):
            address = tables.cell_address(head.data) if head is not None else None
            cells.append(CellData(*(address or (len(cells), 0, 1, 1)), paras))
        grid = tables.fit_grid(declared, [(c.row, c.col) for c in cells])
        if grid is None:   # geometry beyond repair: keep the text, one cell per row
            for i, c in enumerate(cells):
                c.row, c.col, c.row_span, c.col_span = i, 0, 1, 1
            grid = (max(len(cells), 1), 1)
        rows, cols = grid
        for c in cells:
            c.row_span = min(c.row_span, rows - c.row)
            c.col_span = min(c.col_span, cols - c.col)
        return TableData(rows, cols, cells, captions)

    def _shape(self, rec: Record, depth: int, page: Optional[int]) -> list[Item]:
        """A drawing object: its caption, then the text of any text boxes in it (groups nest)."""
        items: list[Item] = []
        captions = self._paras(rec.children, depth, page)
        if captions:
            items.append(Box("caption", captions))
        boxes: list[Para] = []
        stack = [c for c in reversed(rec.children) if c.tag == SHAPE_COMPONENT]
        while stack:
            shape = stack.pop()
            boxes += self._paras(shape.children, depth, page)
            stack += [c for c in reversed(shape.children) if c.tag == SHAPE_COMPONENT]
        if boxes:
            items.append(Box("textbox", boxes))
        return items

    def _paras(self, records: list[Record], depth: int, page: Optional[int]) -> list[Para]:
        """Every paragraph of every list among ``records``."""
        return [p for _head, paras in self._lists(records, depth, page) for p in paras]


def _page_def(roots: list[Record]) -> Optional[bytes]:
    """The PAGE_DEF payload of the section definition in the first paragraph, if any."""
    for ctrl in roots[0].children if roots else []:
        if ctrl.tag == CTRL_HEADER and ctrl.data[:4] == SECTION_ID:
            for child in ctrl.children:
                if child.tag == PAGE_DEF:
                    return child.data
    return None
