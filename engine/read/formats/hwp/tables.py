"""Table geometry: the TABLE record and the cell address in each cell's LIST_HEADER.

TABLE: UINT32 properties, UINT16 rows, UINT16 cols, … [spec table 75].
Cell LIST_HEADER: INT16 paragraph count, UINT16 (unused), UINT32 list
properties, then UINT16 col, row, col span, row span, … [spec tables 65,
79, 80]; the extra UINT16 is in every file we have seen, so the address
starts at byte 8.
"""
from __future__ import annotations

import struct
from typing import Optional

MAX_CELLS = 100_000            # grid slots; a larger grid comes from a damaged record
SLOTS_PER_CELL = 16            # merged cells cover a few slots each, not thousands
_ADDRESS = struct.Struct("<HHHH")


def table_size(data: bytes) -> tuple[int, int]:
    """Declared (rows, cols) of a TABLE record; (0, 0) when unreadable."""
    if len(data) < 8:
        return 0, 0
    rows, cols = struct.unpack_from("<HH", data, 4)
    return rows, cols


def cell_address(data: bytes) -> Optional[tuple[int, int, int, int]]:
    """(row, col, row_span, col_span) from a cell's LIST_HEADER, or None when cut short."""
    if len(data) < 16:
        return None
    col, row, col_span, row_span = _ADDRESS.unpack_from(data, 8)
    return row, col, max(row_span, 1), max(col_span, 1)


def fit_grid(declared: tuple[int, int], corners: list[tuple[int, int]]) -> Optional[tuple[int, int]]:
    """Rows and cols that hold every cell's top-left (row, col).

    None when that grid is implausibly large for the cells in it: damaged
    sizes or addresses, which must not make anyone build a huge grid.
    """
    rows = max([declared[0]] + [r + 1 for r, _c in corners])
    cols = max([declared[1]] + [c + 1 for _r, c in corners])
    limit = min(MAX_CELLS, max(SLOTS_PER_CELL * len(corners), 4096))
    if rows * cols > limit:
        return None
    return max(rows, 1), max(cols, 1)
