"""The small base every reader builds on.

A reader is a function ``read(data: bytes, doc: DocumentBuilder) -> None``.
It adds blocks and tables to the builder. When a file cannot be read it
raises ``ReadFailure(code)`` (engine/read/failures.py); any other exception is caught by
``engine.read.parse`` and reported as CORRUPT, so readers may stay simple.

The builder also bounds what one Document may hold (``Limits.content_items``
blocks and cells, ``Limits.content_chars`` characters), because a Document's
memory grows with them whatever the file's size: past either it raises
``ContentLimit`` and ``engine.read.parse`` keeps what was read, with a warning.
"""
from __future__ import annotations

from typing import Optional

from engine import wording
from engine.limits import DEFAULT_LIMITS, Limits
from engine.model import Block, Cell, Document, Table, Warning
from engine.read.failures import ContentLimit
from engine.read.formats.zipsafe import ExpansionBudget


class DocumentBuilder:
    """Collects blocks, tables and warnings for one Document, handing out ids."""

    def __init__(self, doc: Document, extractor: str, limits: Limits = DEFAULT_LIMITS, budget=None):
        self.doc = doc
        self.extractor = extractor
        self.limits = limits
        self.budget = budget if budget is not None else ExpansionBudget(limits)  # for ZIP-based formats
        self._block_no = 0
        self._table_no = 0
        self._items = 0
        self._chars = 0
        self.drawn = False   # the file holds pictures or drawn shapes: without text it is NO_TEXT, not EMPTY

    def _count(self, items: int, chars: int) -> None:
        """Count content about to be added; raises ContentLimit when it would not fit."""
        if (self._items + items > self.limits.content_items
                or self._chars + chars > self.limits.content_chars):
            raise ContentLimit()
        self._items += items
        self._chars += chars

    # blocks ---------------------------------------------------------------
    def add_block(self, type: str, text: str, *, page: Optional[int] = None,
                  bbox: Optional[list[float]] = None, parent: Optional[str] = None,
                  level: Optional[int] = None, confidence: float = 1.0,
                  extractor: Optional[str] = None) -> str:
        """Append a block in reading order and return its id (b00001, …)."""
        self._count(1, len(text))
        self._block_no += 1
        block_id = f"b{self._block_no:05d}"
        self.doc.blocks.append(Block(
            id=block_id, type=type, text=text, page=page,
            bbox=_round_bbox(bbox), parent=parent, level=level,
            extractor=extractor or self.extractor, confidence=confidence))
        return block_id

    # tables ---------------------------------------------------------------
    def add_table(self, rows: int, cols: int, cells: list[Cell], *,
                  page: Optional[int] = None, bbox: Optional[list[float]] = None,
                  parent_block: Optional[str] = None, parent_table: Optional[str] = None,
                  parent_cell: Optional[list[int]] = None,
                  cell_range: Optional[str] = None) -> Table:
        """Append a table: a block of type 'table' (text = rows joined) plus its grid."""
        self._count(len(cells), sum(len(c.text) for c in cells))
        self._table_no += 1
        table_id = f"t{self._table_no:04d}"
        for c in cells:
            c.bbox = _round_bbox(c.bbox)
        text = table_text(rows, cols, cells)
        block_id = self.add_block("table", text, page=page, bbox=bbox, parent=parent_block)
        table = Table(id=table_id, block=block_id, rows=rows, cols=cols, cells=cells,
                      page=page, bbox=_round_bbox(bbox), parent=parent_table,
                      parent_cell=parent_cell, cell_range=cell_range)
        self.doc.tables.append(table)
        return table

    # warnings -------------------------------------------------------------
    def warn(self, code: str, **values) -> None:
        """Add a warning once per code+text."""
        text = wording.warning_text(code, **values)
        if not any(w.code == code and w.text == text for w in self.doc.warnings):
            self.doc.warnings.append(Warning(code=code, text=text))

    def set_pages(self, pages: Optional[int]) -> None:
        self.doc.source.pages = pages

    def set_title(self, title: Optional[str]) -> None:
        if title and not self.doc.structure.title:
            self.doc.structure.title = title.strip()[:200]


def title_borne_out(title: Optional[str], doc: DocumentBuilder) -> Optional[str]:
    """A file-properties title when the body bears it out: templates often keep a stale one
    ("본문내용본문내용")."""
    if not title or not any(ch.isalpha() for ch in title):
        return None
    bare = "".join(title.split())
    for block in doc.doc.blocks[:60]:
        if bare in "".join(block.text.split()):
            return title
    return None


def table_text(rows: int, cols: int, cells: list[Cell]) -> str:
    """Rows as lines, cells separated by ' | ' (empty slots of merged cells skipped)."""
    by_row: dict[int, list[Cell]] = {}
    for c in cells:
        by_row.setdefault(c.row, []).append(c)
    lines = []
    for r in sorted(by_row):
        texts = [c.text.replace("\n", " ").strip() for c in sorted(by_row[r], key=lambda c: c.col)]
        line = " | ".join(t for t in texts if t)
        if line:
            lines.append(line)
    return "\n".join(lines)


def _round_bbox(bbox):
    if bbox is None:
        return None
    return [round(float(v), 2) for v in bbox]
