"""Paragraphs, tables and side texts → blocks and tables of a DocumentBuilder.

Body paragraphs become ``paragraph`` blocks, or ``heading`` blocks when their
paragraph shape is an outline level (개요) and they are short. A control's
content follows its paragraph: a table (its captions after it, parent = the
table block), a header/footer/note/text box (parent = the paragraph's block,
or the enclosing table's block inside a cell). A table inside a cell is its
own Table whose block and Table name the outer table, and the cell. All of
it gets the page of its top-level paragraph. HWP places nothing on a page
geometrically, so bbox stays None.
"""
from __future__ import annotations

from typing import Optional

from engine.model import Cell, Table
from engine.read.formats.base import DocumentBuilder
from engine.read.formats.hwp.body import Box, Para, TableData

MAX_HEADING_CHARS = 100   # an outline-numbered paragraph longer than this is body text


def emit_body(builder: DocumentBuilder, paras: list[Para]) -> None:
    """Add a section's paragraphs and everything anchored in them."""
    for para in paras:
        text = para.text.strip()
        block = None
        if text:
            if para.heading and len(text) <= MAX_HEADING_CHARS:
                block = builder.add_block("heading", text, page=para.page, level=para.heading)
            else:
                block = builder.add_block("paragraph", text, page=para.page)
        if para.items:
            _emit_items(builder, para, para.page, block)


def _emit_items(builder: DocumentBuilder, para: Para, page: Optional[int], parent_block: Optional[str],
                outer: Optional[Table] = None, cell: Optional[list[int]] = None) -> None:
    """The tables and side texts of a paragraph; ``page`` is its top-level paragraph's."""
    for item in para.items:
        if isinstance(item, TableData):
            _emit_table(builder, item, page, outer, cell)
        else:
            _emit_box(builder, item, page, parent_block, outer, cell)


def _emit_box(builder: DocumentBuilder, box: Box, page: Optional[int], parent_block: Optional[str],
              outer: Optional[Table], cell: Optional[list[int]]) -> None:
    text = _joined(box.paras)
    block = builder.add_block(box.kind, text, page=page, parent=parent_block) if text else parent_block
    for para in box.paras:
        if para.items:
            _emit_items(builder, para, page, block, outer, cell)


def _emit_table(builder: DocumentBuilder, data: TableData, page: Optional[int],
                outer: Optional[Table], outer_cell: Optional[list[int]]) -> None:
    cells = [Cell(c.row, c.col, _joined(c.paras), c.row_span, c.col_span, page) for c in data.cells]
    table = builder.add_table(data.rows, data.cols, cells, page=page,
                              parent_block=outer.block if outer else None,
                              parent_table=outer.id if outer else None, parent_cell=outer_cell)
    for caption in data.captions:
        _emit_box(builder, caption, page, table.block, outer, outer_cell)
    for c in data.cells:
        for para in c.paras:
            if para.items:
                _emit_items(builder, para, page, table.block, table, [c.row, c.col])


def _joined(paras: list[Para]) -> str:
    """The paragraphs' stripped texts, the empty ones left out, one per line."""
    if len(paras) == 1:
        return paras[0].text.strip()
    return "\n".join([text for text in [p.text.strip() for p in paras] if text])
