"""XLSX reader (openpyxl): every sheet, hidden ones too, becomes a heading and one Table.

Values come from openpyxl's read-only mode, with the results Excel cached for
formulas. Read-only mode leaves out two things, so each sheet's XML part is
also looked at directly:

* merged ranges — a regex over the streamed part. On a 200,000-cell sheet
  (11 MB of XML) that took 0.04 s, against 1.8 s and the whole workbook in
  memory for a second, non-read-only load (the read-only pass itself: 1.2 s).
* formulas saved without a result (Excel always saves one, scripts often do
  not) — only when the same scan sees such a formula, an ElementTree pass
  (0.5 s on that sheet) finds them; their text is kept and FORMULA_NOT_CACHED
  is warned.

The package is read through the file's expansion budget (engine/read/formats/zipsafe.py):
sheets are streamed and count only towards the inflated total, every other XML
part (workbook, styles …) is parsed into a tree by openpyxl and counts as such.
The shared strings are kept in one UTF-8 buffer instead of openpyxl's list of
Python strings: 60 MB of strings took 296 MB as a list.
"""
from __future__ import annotations

import io
import math
import re
from array import array
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from xml.etree.ElementTree import iterparse

from openpyxl.formula.translate import Translator
from openpyxl.reader.excel import ExcelReader
from openpyxl.utils.cell import coordinate_to_tuple, get_column_letter, range_boundaries
from openpyxl.xml.constants import SHARED_STRINGS, SHEET_MAIN_NS

from engine.model import Cell
from engine.read.formats.base import DocumentBuilder
from engine.read.formats.docx import meaningful_title
from engine.read.formats.zipsafe import ExpansionBudget

_MERGE = re.compile(rb'<(?:\w+:)?mergeCell\s[^>]*?\bref="([A-Z$]+[0-9$]+(?::[A-Z$]+[0-9$]+)?)"')
# a formula closed right before its cell ends, or before an empty <v>: saved without a result
_UNCACHED = re.compile(rb"(?:</(?:\w+:)?f>|<(?:\w+:)?f\b[^>]*/>)\s*"
                       rb"(?:<(?:\w+:)?v\s*/>|<(?:\w+:)?v>\s*</(?:\w+:)?v>)?\s*</(?:\w+:)?c>")
_CHUNK = 1 << 20
_ROW, _C, _F, _V = (f"{{{SHEET_MAIN_NS}}}{tag}" for tag in ("row", "c", "f", "v"))
_PLAIN_NAME = re.compile(r"[^\W\d]\w*")              # needs no quotes in a reference
_LOOKS_LIKE_CELL = re.compile(r"[A-Za-z]{1,3}\d+|[Rr]\d*[Cc]\d*")
_SHARED_STRINGS = "sharedStrings"
_SI, _T, _RUN = (f"{{{SHEET_MAIN_NS}}}{tag}" for tag in ("si", "t", "r"))


def _streamed(part: str) -> bool:
    """Parts read as a stream, never as a whole tree: sheets and the shared strings."""
    return part.startswith("xl/worksheets/") or _SHARED_STRINGS in part


def read(data: bytes, doc: DocumentBuilder) -> None:
    """Add every sheet of the workbook in ``data`` to ``doc``."""
    # ExcelReader is what load_workbook() wraps; keeping it also tells which part holds each sheet
    reader = _BudgetReader(data, doc.budget)
    reader.read()
    workbook = reader.wb
    try:
        doc.set_title(meaningful_title(workbook.properties.title))
        parts = {sheet.name: rel.target for sheet, rel in reader.parser.find_sheets()}
        budget = doc.limits.max_xlsx_cells
        for sheet in workbook.worksheets:
            budget = _read_sheet(doc, reader.archive, parts[sheet.title], sheet, budget)
            if budget < 0:
                doc.warn("XLSX_CELL_LIMIT", limit=f"{doc.limits.max_xlsx_cells:,}")
                break
    finally:
        workbook.close()


class _BudgetReader(ExcelReader):
    """openpyxl's reader (read-only, cached values) over a BudgetZip, with compact shared strings."""

    def __init__(self, data: bytes, budget: ExpansionBudget):
        archive = budget.open(data, tree=lambda part: not _streamed(part))
        super().__init__(io.BytesIO(data), read_only=True, data_only=True, keep_links=False)
        self.archive.close()
        self.archive = archive
        self.valid_files = archive.namelist()

    def read_strings(self) -> None:
        part = self.package.find(SHARED_STRINGS)
        if part is not None:
            with self.archive.open(part.PartName[1:]) as src:
                self.shared_strings = SharedStrings(src)


class SharedStrings:
    """The shared-string table as one UTF-8 buffer and offsets (a list of str takes ~5x more)."""

    def __init__(self, src):
        self._text = bytearray()
        self._ends = array("Q")
        root = None
        for event, node in iterparse(src, events=("start", "end")):
            if root is None:
                root = node
            elif event == "end" and node.tag == _SI:
                self._text += _si_text(node).encode("utf-8")
                self._ends.append(len(self._text))
                root.clear()   # no tree of cleared <si> left behind

    def __len__(self) -> int:
        return len(self._ends)

    def __getitem__(self, index: int) -> str:
        if index < 0:
            index += len(self._ends)
        start = self._ends[index - 1] if index > 0 else 0
        return self._text[start:self._ends[index]].decode("utf-8")


def _si_text(node) -> str:
    """The text of one <si> as openpyxl's read_string_table gives it (Text.from_tree(node).content,
    4x faster): its plain <t> and the <t> of each rich-text run, phonetic runs left out."""
    parts = []
    for child in node:
        if child.tag == _T:
            parts.append(child.text or "")
        elif child.tag == _RUN:
            t = child.find(_T)
            if t is not None:
                parts.append(t.text or "")
    return "".join(parts).replace("x005F_", "")


def _read_sheet(doc: DocumentBuilder, archive, part: str, sheet, budget: int) -> int:
    """Add one sheet; returns the cell budget left (negative: the sheet was cut short)."""
    merges, maybe_uncached = _scan_part(archive, part)
    formulas = _uncached_formulas(archive, part, budget) if maybe_uncached else {}
    sheet.reset_dimensions()  # a wrong <dimension> would otherwise cut rows short
    texts, budget = _cell_texts(sheet, budget)
    last_row = max((r for r, _ in texts), default=0) if budget < 0 else math.inf
    for ref, formula in formulas.items():
        row, col = coordinate_to_tuple(ref)
        if row <= last_row and (row, col) not in texts:
            texts[(row, col)] = formula
            doc.warn("FORMULA_NOT_CACHED")
    add_sheet(doc, sheet.title, texts, merges)
    return budget


def sheet_reference(name: str) -> str:
    """The sheet name as Excel writes it before '!': quoted only when it must be."""
    if _PLAIN_NAME.fullmatch(name) and not _LOOKS_LIKE_CELL.fullmatch(name):
        return name
    return "'" + name.replace("'", "''") + "'"


def cell_text(value) -> str:
    """A cell value as people see it: 150.9 not 150.90000000000001, 3 not 3.0, dates YYYY-MM-DD."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        text = f"{value:.15g}"  # Excel keeps 15 significant digits
        if "e" in text:
            text = format(Decimal(text), "f")
        return "0" if text == "-0" else text
    if isinstance(value, datetime):
        if value.time() == time(0):
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="seconds")
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, timedelta):
        return str(value)
    return str(value).strip()


def _scan_part(archive, part: str) -> tuple[list[tuple[int, int, int, int]], bool]:
    """Merged ranges (min_col, min_row, max_col, max_row) of a sheet part, and whether it
    may hold formulas without a saved result (Excel always saves them, scripts often do not)."""
    refs: set[bytes] = set()
    maybe_uncached = False
    tail = b""
    with archive.open(part) as stream:
        while chunk := stream.read(_CHUNK):
            window = tail + chunk
            refs.update(_MERGE.findall(window))
            maybe_uncached = maybe_uncached or _UNCACHED.search(window) is not None
            tail = window[-512:]  # a tag cut by the chunk boundary is whole in the next window
    return [range_boundaries(ref.decode().replace("$", "")) for ref in refs], maybe_uncached


def _uncached_formulas(archive, part: str, max_cells: int) -> dict[str, str]:
    """Cell reference -> '=formula' for formula cells saved without a result."""
    found: dict[str, str] = {}
    masters: dict[str, tuple[str, str]] = {}  # shared-formula index -> (cell, formula)
    with archive.open(part) as stream:
        for _, element in iterparse(stream):
            if element.tag == _ROW:
                element.clear()  # keep memory flat on long sheets
            if element.tag != _C:
                continue
            max_cells -= 1
            if max_cells < 0:
                break
            ref, formula, value = element.get("r"), element.find(_F), element.find(_V)
            if formula is not None and ref:
                text = formula.text
                if formula.get("t") == "shared" and text:
                    masters[formula.get("si")] = (ref, "=" + text)
                cached = value is not None and (value.text or element.get("t") == "str")
                if not cached:
                    found[ref] = ("=" + text) if text else _shared(masters.get(formula.get("si")), ref)
            element.clear()
    return {ref: text for ref, text in found.items() if text}


def _shared(master, ref: str) -> str:
    """A shared formula written out for ``ref``, from the cell that holds its text."""
    if master is None:
        return ""
    origin, formula = master
    return Translator(formula, origin=origin).translate_formula(ref)


def _cell_texts(sheet, budget: int) -> tuple[dict[tuple[int, int], str], int]:
    """(row, col) -> text of the non-empty cells, and the cell budget left (negative: cut short)."""
    texts = {}
    # after reset_dimensions() rows start at row 1, column 1 and are as long as their last cell
    for r, values in enumerate(sheet.iter_rows(values_only=True), start=1):
        budget -= len(values)
        if budget < 0:
            break
        for c, value in enumerate(values, start=1):
            if value is not None:
                text = cell_text(value)
                if text:
                    texts[(r, c)] = text
    return texts, budget


def add_sheet(doc: DocumentBuilder, name: str, texts: dict, merges: list) -> None:
    """A heading with the sheet name, then one Table over the sheet's used range."""
    spans = {}
    for min_col, min_row, max_col, max_row in merges:
        spans[(min_row, min_col)] = (max_row - min_row + 1, max_col - min_col + 1)
        _drop_covered(texts, min_col, min_row, max_col, max_row)
    if not texts:
        return
    sheet = sheet_reference(name)
    top = min(r for r, _ in texts)
    left = min(c for _, c in texts)
    bottom, right = top, left
    cells = []
    for (r, c), text in sorted(texts.items()):
        row_span, col_span = spans.get((r, c), (1, 1))
        bottom, right = max(bottom, r + row_span - 1), max(right, c + col_span - 1)
        cells.append(Cell(row=r - top, col=c - left, text=text, row_span=row_span,
                          col_span=col_span, cell_range=f"{sheet}!{cell_range(r, c, row_span, col_span)}"))
    doc.add_block("heading", name, level=1)
    doc.add_table(bottom - top + 1, right - left + 1, cells,
                  cell_range=f"{sheet}!{cell_range(top, left, bottom - top + 1, right - left + 1)}")


def _drop_covered(texts: dict, min_col: int, min_row: int, max_col: int, max_row: int) -> None:
    """Forget values hidden under a merged range (Excel shows only the top-left one)."""
    if (max_row - min_row + 1) * (max_col - min_col + 1) <= len(texts):
        inside = [(r, c) for r in range(min_row, max_row + 1) for c in range(min_col, max_col + 1)]
    else:  # a huge range: look at the values instead of every slot
        inside = [(r, c) for r, c in texts if min_row <= r <= max_row and min_col <= c <= max_col]
    for key in inside:
        if key != (min_row, min_col):
            texts.pop(key, None)


def cell_range(row: int, col: int, rows: int, cols: int) -> str:
    """The range ("A1" or "A1:C4") of ``rows`` x ``cols`` cells from 1-based (row, col)."""
    start = f"{get_column_letter(col)}{row}"
    if rows == 1 and cols == 1:
        return start
    return f"{start}:{get_column_letter(col + cols - 1)}{row + rows - 1}"
