"""Warnings found from a read Document's own geometry: side-by-side text, tables cut by a page end, text boxes.

Readers warn about what their format states (column settings of HWP/HWPX/HML,
OCR, missing formula results); this module looks at what any reader produced:

- ``LAYOUT_SIDE_BY_SIDE``: a PDF page whose text stands in two (or more)
  columns — text on both sides of the page's middle, beside each other over a
  good part of the page's height.
- ``TABLE_MAY_BE_SPLIT``: a table that ends its page and a table with as
  many columns that starts the next one.
- ``TEXT_BOXES``: text boxes (글상자) that hold a good share of the text;
  their text is read after the paragraph that anchors them, not where they
  stand on the page.

Which of them mark documents that really are read less accurately was
measured on the corpus (bench/review_warnings.py, docs/architecture.md).
"""
from __future__ import annotations

from engine.model import Block, Document

SIDE_MIN_BLOCKS = 4        # text blocks on a page before its columns are judged
SIDE_SHARE = 0.25          # each side holds at least this share of the page's characters …
SIDE_OVERLAP = 0.3         # … and the sides stand beside each other over this share of the text's height
TEXTBOX_SHARE = 0.2        # text boxes holding this share of a document's characters
PAGE_FURNITURE = ("header", "footer")


def review_warnings(doc: Document) -> list[str]:
    """Codes of the geometry warnings that hold for ``doc`` (none for an unreadable one)."""
    if not doc.access.readable:
        return []
    codes = []
    if doc.source.format == "pdf" and side_by_side_pages(doc):
        codes.append("LAYOUT_SIDE_BY_SIDE")
    if split_tables(doc):
        codes.append("TABLE_MAY_BE_SPLIT")
    if textbox_share(doc) >= TEXTBOX_SHARE:
        codes.append("TEXT_BOXES")
    return codes


def side_by_side_pages(doc: Document) -> list[int]:
    """Pages whose text blocks stand in columns side by side."""
    pages: dict[int, list[Block]] = {}
    for block in doc.blocks:
        if block.page is not None and block.bbox and block.type in ("paragraph", "heading") and block.text.strip():
            pages.setdefault(block.page, []).append(block)
    return [page for page, blocks in sorted(pages.items()) if _columns(blocks)]


def _columns(blocks: list[Block]) -> bool:
    if len(blocks) < SIDE_MIN_BLOCKS:
        return False
    left_edge = min(b.bbox[0] for b in blocks)
    right_edge = max(b.bbox[2] for b in blocks)
    middle = (left_edge + right_edge) / 2
    left = [b for b in blocks if b.bbox[2] <= middle]
    right = [b for b in blocks if b.bbox[0] >= middle]
    total = sum(len(b.text) for b in blocks)
    if min(sum(len(b.text) for b in left), sum(len(b.text) for b in right)) < SIDE_SHARE * total:
        return False
    top, bottom = min(b.bbox[1] for b in blocks), max(b.bbox[3] for b in blocks)
    beside = _covered(left) & _covered(right)
    return bottom > top and len(beside) >= SIDE_OVERLAP * (bottom - top)


def _covered(blocks: list[Block]) -> set[int]:
    """The whole points of height the blocks cover."""
    return {y for b in blocks for y in range(int(b.bbox[1]), int(b.bbox[3]) + 1)}


def split_tables(doc: Document) -> list[tuple[str, str]]:
    """(table, next table) pairs where one ends a page and the other, as wide, starts the next."""
    body = [b for b in doc.blocks if b.type not in PAGE_FURNITURE and b.parent is None and b.page is not None]
    tables = {t.block: t for t in doc.tables if t.parent is None}
    last = {}
    first = {}
    for block in body:
        last[block.page] = block
        first.setdefault(block.page, block)
    pairs = []
    for page, block in last.items():
        following = first.get(page + 1)
        if block.id in tables and following is not None and following.id in tables \
                and tables[block.id].cols == tables[following.id].cols:
            pairs.append((tables[block.id].id, tables[following.id].id))
    return pairs


def textbox_share(doc: Document) -> float:
    """The share of the document's characters that text boxes hold."""
    total = sum(len(b.text) for b in doc.blocks if b.type != "table")
    boxes = sum(len(b.text) for b in doc.blocks if b.type == "textbox")
    return boxes / total if total else 0.0
