"""What an answer cites: the quoted line, where it stands, and its anchors narrowed to its blocks or cells.

A citation quotes the line exactly as the chunk has it and narrows the anchors to the blocks or table
cells the quote comes from (a sheet's cells as one range), with the rows of a comparison table it
quotes (engine/read/revisions.py).
"""
from __future__ import annotations

from openpyxl.utils.cell import get_column_letter, range_boundaries

from engine.answer.documents import Documents
from engine.answer.lines import Line
from engine.korean import clean_text, one_line
from engine.model import Document, Table
from engine.read.revisions import revisions_for_text
from engine.search.chunking import table_rows


def citation(documents: Documents, n: int, line: Line) -> dict:
    """Citation ``n`` of an answer: ``line``'s quote, where it stands, its narrowed anchors and revisions."""
    hit = line.hit
    doc, chunk = documents.get(hit["filename"], hit["chunk_id"])
    blocks = chunk.blocks if chunk is not None else []
    anchors = narrow_anchors(doc, blocks, line.quote) if doc is not None else []
    return {"n": n, "chunk_id": hit["chunk_id"], "doc_id": hit["doc_id"], "filename": hit["filename"],
            "quote": line.quote, "path": hit.get("path") or [], "outline": hit.get("outline") or [],
            "anchors": anchors or hit.get("anchors") or [], "extractors": hit.get("extractors") or [],
            "revisions": revisions_for_text(doc, blocks, line.quote) if doc is not None else []}


def narrow_anchors(doc: Document, block_ids: list[str], quote: str) -> list[dict]:
    """The anchors of the blocks or table cells of ``block_ids`` that ``quote`` comes from."""
    want = one_line(quote)
    tables = {t.block: t for t in doc.tables}
    blocks = {b.id: b for b in doc.blocks}
    for block_id in block_ids:
        if block_id in tables:
            anchors = _cell_anchors(tables[block_id], want)
            if anchors:
                return anchors
    spans, joined = [], ""
    for block_id in block_ids:
        if block_id in blocks and block_id not in tables:
            text = one_line(clean_text(blocks[block_id].text))
            start = len(joined) + (1 if joined else 0)
            joined = f"{joined} {text}" if joined else text
            spans.append((start, len(joined), blocks[block_id]))
    at = joined.find(want)
    if at < 0 or not want:
        return []
    return [{"page": b.page, "bbox": b.bbox, "cell_range": None}
            for start, end, b in spans if start < at + len(want) and at < end]


def _cell_anchors(table: Table, want: str) -> list[dict]:
    """Anchors of the cells of the row holding ``want`` (rows as the chunks write them,
    chunking.table_rows), or of the one cell holding it."""
    cells = []
    for _r, text, row in table_rows(table):
        if want in one_line(text):
            cells = [c for c in row if one_line(clean_text(c.text))
                     and (one_line(clean_text(c.text)) in want or want in one_line(clean_text(c.text)))]
            break
    if not cells:
        cells = [c for c in sorted(table.cells, key=lambda c: (c.row, c.col))
                 if one_line(clean_text(c.text)) and want in one_line(clean_text(c.text))][:1]
    if not cells:
        return []
    if all(c.cell_range for c in cells):
        return [{"page": table.page, "bbox": None, "cell_range": _span(cells)}]
    if not any(c.bbox for c in cells) and table.bbox:
        return [{"page": table.page, "bbox": table.bbox, "cell_range": None}]
    return [{"page": c.page if c.page is not None else table.page, "bbox": c.bbox, "cell_range": None}
            for c in cells]


def _span(cells) -> str:
    """'시트!A3:D3' spanning the cells' own ranges (all on one sheet)."""
    sheet = cells[0].cell_range.rpartition("!")[0]
    bounds = [range_boundaries(c.cell_range.rpartition("!")[2].replace("$", "")) for c in cells]
    first = f"{get_column_letter(min(b[0] for b in bounds))}{min(b[1] for b in bounds)}"
    last = f"{get_column_letter(max(b[2] for b in bounds))}{max(b[3] for b in bounds)}"
    ref = first if first == last else f"{first}:{last}"
    return f"{sheet}!{ref}" if sheet else ref
