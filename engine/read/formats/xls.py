"""XLS reader (Excel 97-2003, BIFF5/BIFF8, via xlrd): every sheet becomes a heading and one Table.

As for XLSX, formulas give the result Excel saved with them (an .xls always
stores it), merged ranges keep only their top-left value with its span, and
each cell carries its ``시트!B3`` range. Sheets are loaded one at a time and
at most ``max_xlsx_cells`` cells are read. A workbook saved with a password
(RC4 or XOR) cannot be opened: PASSWORD_PROTECTED.
"""
from __future__ import annotations

import xlrd
from xlrd.biffh import XLRDError

from engine.read.failures import ReadFailure
from engine.read.formats.base import DocumentBuilder
from engine.read.formats.docx import meaningful_title
from engine.read.formats.ole import ole_title
from engine.read.formats.xlsx import add_sheet, cell_text


def read(data: bytes, doc: DocumentBuilder) -> None:
    """Add every sheet of the workbook in ``data`` to ``doc``."""
    try:
        book = xlrd.open_workbook(file_contents=data, formatting_info=True, on_demand=True,
                                  logfile=_Silent(), ragged_rows=True)
    except XLRDError as exc:
        if "encrypt" in str(exc).lower():
            raise ReadFailure("PASSWORD_PROTECTED") from None
        raise ReadFailure("CORRUPT", str(exc)) from None
    try:
        budget = doc.limits.max_xlsx_cells
        for index in range(book.nsheets):
            sheet = book.sheet_by_index(index)
            texts, budget = _cell_texts(book, sheet, budget)
            merges = [(clo + 1, rlo + 1, chi, rhi) for rlo, rhi, clo, chi in sheet.merged_cells]
            add_sheet(doc, sheet.name, texts, merges)
            book.unload_sheet(index)
            if budget < 0:
                doc.warn("XLSX_CELL_LIMIT", limit=f"{doc.limits.max_xlsx_cells:,}")
                break
    finally:
        book.release_resources()
    doc.set_title(meaningful_title(ole_title(data)))


def _cell_texts(book, sheet, budget: int) -> tuple[dict[tuple[int, int], str], int]:
    """(row, col) -> text (1-based, as XLSX) of the non-empty cells; the cell budget left."""
    texts = {}
    for r in range(sheet.nrows):
        row = sheet.row(r)
        budget -= len(row)
        if budget < 0:
            break
        for c, cell in enumerate(row):
            text = _text(book, cell)
            if text:
                texts[(r + 1, c + 1)] = text
    return texts, budget


def _text(book, cell) -> str:
    """A cell's value as people see it (dates as dates, error codes as Excel shows them)."""
    kind, value = cell.ctype, cell.value
    if kind in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK):
        return ""
    if kind == xlrd.XL_CELL_DATE:
        try:
            moment = xlrd.xldate.xldate_as_datetime(value, book.datemode)
            return cell_text(moment.time() if 0 <= value < 1 else moment)   # a time of day has no date
        except (ValueError, OverflowError, xlrd.xldate.XLDateError):
            return cell_text(value)
    if kind == xlrd.XL_CELL_BOOLEAN:
        return cell_text(bool(value))
    if kind == xlrd.XL_CELL_ERROR:
        return xlrd.error_text_from_code.get(value, "#ERROR")
    return cell_text(value)


class _Silent:
    """xlrd writes its complaints about odd records to a log file: keep them quiet."""

    def write(self, _text: str) -> None:
        pass
