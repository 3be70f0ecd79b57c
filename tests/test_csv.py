"""CSV/TSV files are one table, decoded like .txt files, each cell with its address."""
from engine.library.tenant import Tenant
from engine.read.parse import parse_bytes

BUDGET = "구분,예산,비고\n인건비,\"1,000\",\"쉼표, 따옴표 포함\"\n운영비,500,\n"


def _read(data: bytes, name: str = "예산.csv"):
    [doc] = parse_bytes(data, name)
    return doc


def test_a_cp949_csv_is_one_table_with_cell_ranges():
    doc = _read(BUDGET.encode("cp949"))
    assert doc.access.readable and doc.source.format == "csv"
    [table] = doc.tables
    assert table.grid() == [["구분", "예산", "비고"], ["인건비", "1,000", "쉼표, 따옴표 포함"], ["운영비", "500", ""]]
    assert table.cell_range == "A1:C3"
    assert {c.text: c.cell_range for c in table.cells}["1,000"] == "B2"


def test_utf8_and_bom_and_semicolons_and_tabs_give_the_same_grid():
    expected = _read(BUDGET.encode("utf-8")).tables[0].grid()
    assert _read(b"\xef\xbb\xbf" + BUDGET.encode("utf-8")).tables[0].grid() == expected
    semicolons = BUDGET.replace(",", ";").replace('"1;000"', '"1,000"').replace('"쉼표; 따옴표 포함"', '"쉼표, 따옴표 포함"')
    assert _read(semicolons.encode("utf-8")).tables[0].grid() == expected
    tabs = "구분\t예산\t비고\n인건비\t1,000\t쉼표, 따옴표 포함\n운영비\t500\t\n"
    assert _read(tabs.encode("utf-16"), "예산.tsv").tables[0].grid() == expected


def test_bad_csv_inputs_have_reasons():
    assert _read(b"").access.reason == "EMPTY"
    assert _read(b" , ,\n,,\n").access.reason == "EMPTY"
    binary = _read(bytes(range(256)) * 4)
    assert not binary.access.readable and binary.access.reason == "UNSUPPORTED_FORMAT"


def test_a_cell_of_a_csv_is_found_with_its_address(tmp_path):
    folder = tmp_path / "표"
    folder.mkdir()
    (folder / "예산.csv").write_bytes(BUDGET.encode("cp949"))
    tenant = Tenant(folder, cache_root=tmp_path / "cache")
    try:
        [hit] = tenant.search("운영비", limit=1)["hits"]
        assert hit["filename"] == "예산.csv" and "500" in hit["text"]
        assert any(a["cell_range"] and a["cell_range"].startswith("A") for a in hit["anchors"])
    finally:
        tenant.close()
