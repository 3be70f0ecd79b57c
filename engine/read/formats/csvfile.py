"""CSV / TSV reader: the whole file is one Table, each cell with its spreadsheet address.

The bytes are decoded as ``engine.read.formats.text`` decodes a .txt (BOM, else
UTF-8, else CP949/EUC-KR). The delimiter is the one of comma, tab, semicolon
or bar that splits the first lines into the same number of fields most often
(``.tsv`` prefers tab). Cells carry ``A1``-style ranges as XLSX cells do, with
no sheet name; only the first ``max_xlsx_cells`` cells are read.
"""
from __future__ import annotations

import csv
import io

from engine.model import Cell
from engine.read.failures import ReadFailure
from engine.read.formats.base import DocumentBuilder
from engine.read.formats.text import decode_text
from engine.read.formats.xlsx import cell_range

DELIMITERS = ",\t;|"
SNIFF_LINES = 20
csv.field_size_limit(1 << 24)   # one cell may hold a long text (the default 128 KB raises)


def read(data: bytes, doc: DocumentBuilder) -> None:
    """One Table holding every non-empty cell of the file."""
    text = decode_text(data).replace("\x00", "")
    tsv = doc.doc.source.filename.lower().endswith(".tsv")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter(text, prefer_tab=tsv))
    cells: list[Cell] = []
    budget = doc.limits.max_xlsx_cells
    rows = cols = 0
    for r, row in enumerate(reader):
        budget -= len(row)
        if budget < 0:
            doc.warn("XLSX_CELL_LIMIT", limit=f"{doc.limits.max_xlsx_cells:,}")
            break
        for c, value in enumerate(row):
            value = value.strip()
            if value:
                cells.append(Cell(row=r, col=c, text=value, cell_range=cell_range(r + 1, c + 1, 1, 1)))
                rows, cols = max(rows, r + 1), max(cols, c + 1)
    if not cells:
        raise ReadFailure("EMPTY")
    doc.add_table(rows, cols, cells, cell_range=cell_range(1, 1, rows, cols))


def delimiter(text: str, *, prefer_tab: bool = False) -> str:
    """The delimiter giving the first lines the most equal (and >1) field counts."""
    lines = [line for line in text.splitlines()[:SNIFF_LINES] if line.strip()]
    best, best_score = "\t" if prefer_tab else ",", 0
    for candidate in ("\t" + DELIMITERS) if prefer_tab else DELIMITERS:
        counts = [len(row) for row in csv.reader(lines, delimiter=candidate)]
        if not counts or max(counts) < 2:
            continue
        common = max(set(counts), key=counts.count)
        score = counts.count(common) * (common > 1)
        if score > best_score:
            best, best_score = candidate, score
    return best
