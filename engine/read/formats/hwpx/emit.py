"""Paragraphs, tables and notes of the Hangul reading model (``section.Para`` …) into a DocumentBuilder.

Shared by the HWPX, HWPML and HWP 3.0 readers, which all build that model.
"""
from __future__ import annotations

from typing import Optional

from engine.model import Cell
from engine.read.formats.base import DocumentBuilder
from engine.read.formats.hwpx.section import Note, Para, Table


def emit_body(doc: DocumentBuilder, paras: list[Para], pages: Optional[int], columns: int) -> None:
    """A document's body paragraphs with its estimated page count (``pages``), or with no page at all
    when the file gives no line positions (``None``: an estimate would be a guess); more than one
    column warns that side-by-side text may read out of order."""
    for para in paras:
        if pages is None:
            para.page = para.end_page = None
        emit_paragraph(doc, para)
    if pages is not None:
        doc.set_pages(pages)
        doc.warn("PAGE_APPROXIMATE")
    if columns > 1:
        doc.warn("LAYOUT_SIDE_BY_SIDE")


def emit_paragraph(doc: DocumentBuilder, para: Para) -> None:
    """A body paragraph; a table inside it splits its text so reading order holds.

    Text after a table is put on the page the paragraph ends on.
    """
    text: list[str] = []
    notes: list[Note] = []
    page = para.page

    def flush() -> None:
        joined = "".join(text).strip()
        block = doc.add_block("paragraph", joined, page=page) if joined else None
        _emit_items(doc, notes, page, note_parent=block, table_parent=None)
        text.clear()
        notes.clear()

    for piece in para.pieces:
        if isinstance(piece, str):
            text.append(piece)
        elif isinstance(piece, Table):
            flush()
            _emit_table(doc, piece, page, parent_block=None, outer=None)
            page = para.end_page
        else:
            notes.append(piece)
    flush()


def _emit_items(doc: DocumentBuilder, items: list, page: Optional[int], *,
                note_parent: Optional[str], table_parent: Optional[str],
                outer: Optional[tuple[str, list[int]]] = None) -> None:
    """Tables and notes anchored in one paragraph, in document order."""
    for item in items:
        if isinstance(item, Table):
            _emit_table(doc, item, page, parent_block=table_parent, outer=outer)
        else:
            _emit_note(doc, item, page, parent=note_parent)


def _emit_table(doc: DocumentBuilder, node: Table, page: Optional[int], *,
                parent_block: Optional[str], outer: Optional[tuple[str, list[int]]]) -> None:
    cells = [Cell(row=c.row, col=c.col, text=c.text, row_span=c.row_span,
                  col_span=c.col_span, page=page) for c in node.cells]
    table = doc.add_table(node.rows, node.cols, cells, page=page, parent_block=parent_block,
                          parent_table=outer[0] if outer else None,
                          parent_cell=outer[1] if outer else None)
    if node.caption:
        _emit_note(doc, node.caption, page, parent=table.block)
    for cell in node.cells:
        for para in cell.paras:
            _emit_items(doc, para.items, page, note_parent=table.block, table_parent=table.block,
                        outer=(table.id, [cell.row, cell.col]))


def _emit_note(doc: DocumentBuilder, note: Note, page: Optional[int], *,
               parent: Optional[str]) -> None:
    """A header, footer, foot/endnote, text box or caption, then what it holds."""
    if note.kind == "endnote":
        page = None  # endnotes are printed at the end of the document, not on the anchor's page
    block = doc.add_block(note.kind, note.text, page=page, parent=parent) if note.text else parent
    for para in note.paras:
        _emit_items(doc, para.items, page, note_parent=block, table_parent=block)
