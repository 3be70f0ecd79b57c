"""A table's header of two or three rows read as one row of column names.

Statistical tables name a column in two rows: a wide cell over several columns ("2024년") and the cells
under it ("1분기", "2분기" …), beside a cell spanning both rows ("구 분"). Written row by row, the first
row has 4 cells over a table 12 columns wide, so no data cell can be told its column. ``header_band``
finds such a band and ``column_names`` names each column by the cells above it, top to bottom
("2024년 3분기"), as pandas does with a two-level header.
"""
from __future__ import annotations

from engine.korean import clean_text
from engine.model import Cell, Table

MAX_BAND = 3           # header rows read together
MAX_NAME_CHARS = 40    # a header cell says what a column holds; longer text is a form's content


def header_band(table: Table) -> int:
    """How many rows the table's header takes (2 or 3), or 0 when it has no band of several rows: the first
    row spans its cells down over the band, each named ("구 분"), and its wide cells are each split into
    narrower ones below ("2024년" over its quarters); every cell inside the band below the first row stands
    under a wide cell, the band covers every column with short names, and no first-row cell spans the whole
    width (a title). A press release's heading box or a form's items set out in a table are no such band."""
    top = [c for c in table.cells if c.row == 0]
    rows = max((c.row_span for c in top), default=1)
    wide = [c for c in top if c.col_span > 1 and c.row_span < rows]
    if not 2 <= rows <= MAX_BAND or not wide or any(c.col_span >= table.cols for c in top):
        return 0
    if any(c.row_span == rows and not _name(c) for c in top):
        return 0
    band = [c for c in table.cells if c.row < rows]
    for p in wide:
        below = [c for c in band if c.row == p.row_span and p.col <= c.col < p.col + p.col_span]
        if len(below) < 2 or any(c.col_span >= p.col_span for c in below):
            return 0
    for cell in band:
        if len(_name(cell)) > MAX_NAME_CHARS:
            return 0
        if cell.row > 0 and not any(p.col <= cell.col < p.col + p.col_span and p.row_span <= cell.row for p in wide):
            return 0
    covered = {col for c in band for col in range(c.col, c.col + c.col_span)}
    return rows if covered >= set(range(table.cols)) else 0


def column_names(table: Table, rows: int) -> list[str]:
    """Each column's name: the texts of the band's cells over it, top to bottom, each once."""
    names = []
    for col in range(table.cols):
        over = sorted((c for c in table.cells if c.row < rows and c.col <= col < c.col + c.col_span),
                      key=lambda c: c.row)
        parts: list[str] = []
        for cell in over:
            if _name(cell) and _name(cell) not in parts:
                parts.append(_name(cell))
        names.append(" ".join(parts))
    return names


def band_cells(table: Table, rows: int) -> list[Cell]:
    """The band's cells with text, in reading order (for the header's anchors)."""
    return sorted((c for c in table.cells if c.row < rows and _name(c)), key=lambda c: (c.row, c.col))


def _name(cell: Cell) -> str:
    return " ".join(clean_text(cell.text).split())
