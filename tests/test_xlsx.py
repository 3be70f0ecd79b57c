"""XLSX reader: the real corpus against its truth, and small workbooks made here."""
from __future__ import annotations

import io
import re
import zipfile
from datetime import date, datetime

import openpyxl
import pytest

from engine.limits import Limits
from engine.model import Document
from engine.read.formats.xlsx import cell_text, sheet_reference
from engine.read.parse import parse_bytes, parse_document, parse_path
from tests.corpus import REASON_MATCH, corpus_params, requires_corpus, squash
from tests.documents import backslashed

SHEET1 = "xl/worksheets/sheet1.xml"


def _bytes(workbook) -> bytes:
    buf = io.BytesIO()
    workbook.save(buf)
    return buf.getvalue()


def _read(workbook, name: str = "시험.xlsx", **kw) -> Document:
    data = workbook if isinstance(workbook, bytes) else _bytes(workbook)
    return parse_document(data, name, **kw)


def _edit_sheet1(data: bytes, edit) -> bytes:
    """Copy an xlsx with ``edit(xml_text)`` applied to the first sheet's XML."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            content = src.read(info.filename)
            if info.filename == SHEET1:
                edited = edit(content.decode()).encode()
                assert edited != content, "the edit did not apply"
                content = edited
            dst.writestr(info.filename, content)
    return out.getvalue()


def _cells(doc: Document) -> dict[str, str]:
    return {c.cell_range: c.text for t in doc.tables for c in t.cells}


# ---- real corpus -----------------------------------------------------------
@requires_corpus
@pytest.mark.parametrize("path,truth", corpus_params({"xlsx"}))
def test_corpus_xlsx_agrees_with_truth(path, truth):
    doc = parse_path(str(path))[0]
    assert doc.readable == truth["readable"]
    assert doc.reason in REASON_MATCH[truth["reason"]]
    cells = {squash(c.text) for t in doc.tables for c in t.cells}
    text = squash(doc.all_text())
    assert [s for s in truth["snippets"] if squash(s) not in text] == []
    assert [s for s in truth["table_snippets"] if squash(s) not in cells] == []  # whole cell values
    if truth.get("sheets"):
        assert len(doc.tables) == truth["sheets"]
    for table in doc.tables:
        assert re.fullmatch(r"[^!]+![A-Z]+\d+(:[A-Z]+\d+)?", table.cell_range)
        assert all(c.cell_range and c.page is None and c.bbox is None for c in table.cells)


# ---- tables, merges, addresses --------------------------------------------
def test_sheet_becomes_heading_and_table_with_korean_cell_ranges():
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "시트1"
    ws["B2"], ws["C2"], ws["B3"], ws["D4"] = "구분", "금액", "인건비", 150.9
    doc = _read(wb)
    assert [(b.type, b.text) for b in doc.blocks][0] == ("heading", "시트1")
    table = doc.tables[0]
    assert table.cell_range == "시트1!B2:D4"
    assert (table.rows, table.cols) == (3, 3)
    assert table.grid() == [["구분", "금액", ""], ["인건비", "", ""], ["", "", "150.9"]]
    assert _cells(doc) == {"시트1!B2": "구분", "시트1!C2": "금액", "시트1!B3": "인건비", "시트1!D4": "150.9"}


def test_merged_cells_get_spans_and_hidden_values_are_dropped():
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "예산 현황"
    ws["A1"] = "2026년 예산"
    ws.merge_cells("A1:C1")
    ws["A2"], ws["B2"], ws["C2"] = "사업", "본예산", "추경"
    ws["A3"] = "도로"
    ws.merge_cells("A3:A4")
    ws["B3"], ws["B4"] = 10, 20
    data = _edit_sheet1(_bytes(wb), lambda xml: xml.replace(  # a value under a merge, as some tools leave
        '</row><row r="2">', '<c r="B1" t="inlineStr"><is><t>숨은 값</t></is></c></row><row r="2">'))
    doc = _read(data)
    cells = {c.text: (c.row, c.col, c.row_span, c.col_span, c.cell_range) for c in doc.tables[0].cells}
    assert cells["2026년 예산"] == (0, 0, 1, 3, "'예산 현황'!A1:C1")
    assert cells["도로"] == (2, 0, 2, 1, "'예산 현황'!A3:A4")
    assert "숨은 값" not in doc.all_text()
    assert doc.tables[0].cell_range == "'예산 현황'!A1:C4"


def test_sheet_names_are_quoted_as_excel_does():
    assert sheet_reference("시트1") == "시트1"
    assert sheet_reference("Excel_Import_1") == "Excel_Import_1"
    assert sheet_reference("My Sheet") == "'My Sheet'"
    assert sheet_reference("2026") == "'2026'"
    assert sheet_reference("A1") == "'A1'"
    assert sheet_reference("O'Neil") == "'O''Neil'"


def test_numbers_and_dates_read_as_people_see_them():
    assert cell_text(150.9) == "150.9"
    assert cell_text(0.1 + 0.2) == "0.3"
    assert cell_text(3.0) == "3"
    assert cell_text(1e-7) == "0.0000001"
    assert cell_text(-0.0) == "0"
    assert cell_text(12345678901234567890) == "12345678901234567890"
    assert cell_text(True) == "TRUE"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([150.9, 3.0, 42, date(2026, 3, 1), datetime(2026, 3, 1, 14, 30), 0.1 + 0.2])
    doc = _read(wb)
    assert [c.text for c in doc.tables[0].cells] == [
        "150.9", "3", "42", "2026-03-01", "2026-03-01 14:30:00", "0.3"]


# ---- formulas --------------------------------------------------------------
def _formula_workbook() -> bytes:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["A2"], ws["A3"] = 1, 2, "=SUM(A1:A2)"
    return _bytes(wb)


def test_formula_without_cached_value_keeps_its_text_and_warns():
    doc = _read(_formula_workbook())  # openpyxl saves formulas without a result
    assert _cells(doc)["Sheet!A3"] == "=SUM(A1:A2)"
    assert "FORMULA_NOT_CACHED" in doc.warning_codes()


def test_formula_with_cached_value_reads_the_value():
    data = _edit_sheet1(_formula_workbook(), lambda xml: xml.replace("<v></v>", "<v>3</v>"))
    doc = _read(data)
    assert _cells(doc)["Sheet!A3"] == "3"
    assert "FORMULA_NOT_CACHED" not in doc.warning_codes()


def test_formula_whose_cached_result_is_empty_text_stays_empty():
    data = _edit_sheet1(_formula_workbook(), lambda xml: xml.replace(
        '<c r="A3"><f>', '<c r="A3" t="str"><f>'))
    doc = _read(data)
    assert "Sheet!A3" not in _cells(doc)
    assert "FORMULA_NOT_CACHED" not in doc.warning_codes()


# ---- sheets, limits, odd files ---------------------------------------------
def test_hidden_sheets_are_read_and_empty_sheets_skipped():
    wb = openpyxl.Workbook()
    wb.active["A1"] = "보이는 시트"
    wb.create_sheet("빈 시트")
    hidden = wb.create_sheet("숨김")
    hidden["C5"] = "숨긴 시트의 값"
    hidden.sheet_state = "hidden"
    doc = _read(wb)
    assert [b.text for b in doc.blocks if b.type == "heading"] == ["Sheet", "숨김"]
    assert _cells(doc)["숨김!C5"] == "숨긴 시트의 값"


def test_wrong_dimension_does_not_cut_the_sheet():
    wb = openpyxl.Workbook()
    for r in range(1, 6):
        wb.active.append([f"행{r}", r])
    data = _edit_sheet1(_bytes(wb), lambda xml: re.sub(
        r'<dimension ref="[^"]*"/>', '<dimension ref="A1"/>', xml))
    assert _cells(_read(data))["Sheet!B5"] == "5"


def test_cell_limit_stops_with_a_warning():
    wb = openpyxl.Workbook()
    for r in range(1, 101):
        wb.active.append([r, r * 2])
    wb.create_sheet("둘째")["A1"] = "읽지 않을 시트"
    doc = _read(wb, limits=Limits(max_xlsx_cells=50))
    assert doc.readable
    assert "XLSX_CELL_LIMIT" in doc.warning_codes()
    assert 0 < len(doc.tables[0].cells) <= 50
    assert "읽지 않을 시트" not in doc.all_text()


def test_entry_names_with_backslashes_are_read():
    wb = openpyxl.Workbook()
    wb.active["A1"] = "거꾸로 빗금 셀"
    doc = _read(backslashed(_bytes(wb)))
    assert doc.readable and doc.source.format == "xlsx"
    assert "거꾸로 빗금 셀" in doc.all_text()


def test_empty_workbook_is_empty():
    doc = _read(openpyxl.Workbook())
    assert not doc.readable and doc.reason == "EMPTY"


def test_broken_workbook_is_corrupt():
    wb = openpyxl.Workbook()
    wb.active["A1"] = "값"
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(_bytes(wb))) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info.filename, b"<workbook" if info.filename == "xl/workbook.xml"
                         else src.read(info.filename))
    doc = parse_bytes(out.getvalue(), "깨진.xlsx")[0]
    assert doc.source.format == "xlsx"
    assert not doc.readable and doc.reason == "CORRUPT"
