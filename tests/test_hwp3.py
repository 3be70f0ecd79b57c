"""HWP 3.0 (한글 97 and before): generated files in the published layout, the corpus file and bad input."""
import struct

import pytest

from engine.read.formats.hwp3.hchar import hchar_text
from engine.read.parse import parse_bytes, parse_path
from tests.corpus import CORPUS, requires_corpus
from tests.legacy_writers import (hwp3_bytes, hwp3_list, hwp3_note, hwp3_paragraph, hwp3_table,
                                  unlock_hwp3)


def _read(data: bytes, name: str = "옛문서.hwp"):
    [doc] = parse_bytes(data, name)
    return doc


def _body(columns: int = 1) -> bytes:
    return hwp3_list(
        hwp3_paragraph("2001년 업무 계획", first=True, columns=columns),
        hwp3_paragraph("본문 첫 문단입니다", hwp3_note(17, "각주에 적은 출처"), " 이어지는 글"),
        hwp3_paragraph(hwp3_note(16, "머리말 글"), "표 앞 글", hwp3_table([["구분", "금액"], ["인건비", "1,000원"]])),
        hwp3_paragraph("둘째 쪽 첫 문단 漢字 ㈜", new_page=True),
        hwp3_paragraph(hwp3_table([["합계"], ["가", "나"]], merge_first_row=True)),
    )


def test_johab_syllables_agree_with_the_ks_x_1001_codec_for_every_modern_syllable():
    checked = 0
    for code in range(0x8000, 0x10000):
        text = hchar_text(code)
        try:
            expected = bytes((code >> 8, code & 0xFF)).decode("johab")
        except UnicodeDecodeError:
            expected = None
        if text is not None and "가" <= text <= "힣":
            assert text == expected, hex(code)
            checked += 1
    assert checked == 11172
    assert hchar_text(ord("A")) == "A" and hchar_text(13) is None and hchar_text(0x301C) is None


def _codes(*codes: int) -> bytes:
    return struct.pack(f"<{len(codes)}H", *codes)


def test_hangul_own_hanja_and_symbol_codes_read_as_hancoms_conversions_write_them():
    """0x4000 + i: the i-th KS X 1001 hanja; 0x3400 + 96 × (row − 1) + cell: a KS X 1001 symbol."""
    assert (hchar_text(0x4000), hchar_text(0x4000 + 4887), hchar_text(0x5174)) == ("伽", "詰", "漢")
    symbols = (0x3404, 0x35E1, 0x36E7, 0x3590)   # rows 1, 6, 8, 5
    assert [hchar_text(code) for code in symbols] == list("·─①Ⅰ")
    assert [hchar_text(code) for code in (0x81, 0x82, 0x83, 0x84, 0x2F11, 0x37ED)] == list("“”‘’◦═")
    body = hwp3_list(hwp3_paragraph(
        "대리인 ", _codes(0x4388, 0x4507, 0x4CAC), " ", _codes(0x36E7), " 목록 ", _codes(0x81), "인용",
        _codes(0x82), " ", _codes(0x3479), " 끝", first=True))
    assert "대리인 代理人 ① 목록 “인용” ▷ 끝" in _read(hwp3_bytes(body)).all_text()


def test_hangul_private_glyphs_are_left_out_and_unknown_codes_are_not_guessed():
    """한글's bold rule 0x301C is private use in its own conversions; 0x1F0B and 0x2E08 were never seen."""
    body = hwp3_list(hwp3_paragraph("앞", _codes(0x301C, 0x301C, 0x303D, 0x1F0B, 0x2E08, 0x78E7), "뒤", first=True))
    assert "앞뒤" in _read(hwp3_bytes(body)).all_text()
    assert all(hchar_text(code) is None for code in (0x301C, 0x3366, 0x2E00, 0x4000 + 4888, 0x3400, 0x345F))


@pytest.mark.parametrize("compressed", [True, False])
def test_paragraphs_notes_tables_and_pages_are_read(compressed):
    doc = _read(hwp3_bytes(_body(), title="옛 문서 제목", compressed=compressed))
    assert doc.access.readable and doc.source.format == "hwp3"
    assert doc.structure.title == "2001년 업무 계획" and doc.source.pages == 2   # the cover line beats the summary
    blocks = [(b.type, b.text, b.page) for b in doc.blocks]
    assert ("paragraph", "본문 첫 문단입니다 이어지는 글", 1) in blocks
    assert ("footnote", "각주에 적은 출처", 1) in blocks and ("header", "머리말 글", 1) in blocks
    assert ("paragraph", "둘째 쪽 첫 문단 漢字 ㈜", 2) in blocks
    first, merged = doc.tables
    assert first.grid() == [["구분", "금액"], ["인건비", "1,000원"]] and first.page == 1
    assert merged.cells[0].text == "합계" and merged.cells[0].col_span == 2 and merged.page == 2
    assert "PAGE_APPROXIMATE" in doc.warning_codes()


def test_the_summary_title_is_the_title_when_the_face_names_none():
    doc = _read(hwp3_bytes(hwp3_list("아무 표지 없는 본문입니다."), title="옛 문서 제목"))
    assert doc.structure.title == "옛 문서 제목"


def test_a_password_protected_hwp3_is_password_protected():
    doc = _read(hwp3_bytes(_body(), password=True))
    assert not doc.access.readable and doc.access.reason == "PASSWORD_PROTECTED"


@requires_corpus
def test_the_corpus_hwp3_file_is_password_protected():
    doc = parse_path(str(CORPUS / "kordoc_HWP3-password-123456.hwp"))[0]
    assert doc.source.format == "hwp3" and doc.access.reason == "PASSWORD_PROTECTED"


@requires_corpus
def test_the_corpus_hwp3_file_unlocked_reads_as_hancoms_own_text():
    """A real 한글 97 file (its password, 123456, is in its name): text, old-vowel syllables, tables, pages."""
    plain = unlock_hwp3((CORPUS / "kordoc_HWP3-password-123456.hwp").read_bytes(), "123456")
    doc = _read(plain, "안내문.hwp")
    assert doc.access.readable and "TRUNCATED" not in doc.warning_codes()
    assert doc.structure.title == "ᄒᆞᆫ글 97 안내문" and doc.source.pages > 20
    text = doc.all_text()
    assert "ᄒᆞᆫ글 97 제품을 구입해 주셔서 감사드립니다." in text
    assert "이 안내문에는 ᄒᆞᆫ글 97을 올바르게 사용하는 데 필요한 매우 중요한 정보가 언급되어 있습니다." in text
    assert any(c.text.startswith("펜티엄") for t in doc.tables for c in t.cells)
    assert "漢語音字母에 따른 입력, 注音字母에 따른 입력" in text         # one hanja, 拼 (0x78E7), is not KS X 1001
    assert "도구 상자에서 “하이퍼텍스트 이전 위치로” 아이콘" in text and "☞ 윈도우즈용 드라이버" in text
    assert sum(b.type == "paragraph" for b in doc.blocks) > 200


def test_a_cut_hwp3_keeps_what_came_before_the_cut():
    whole = hwp3_bytes(_body(), compressed=False)
    cut = _read(whole[:len(whole) - 300])
    assert cut.access.readable and "TRUNCATED" in cut.warning_codes()
    assert "2001년 업무 계획" in cut.all_text()


def test_broken_hwp3_files_have_reasons():
    signature_only = hwp3_bytes(b"")[:40]
    assert _read(signature_only).access.reason == "CORRUPT"
    garbage = hwp3_bytes(b"", compressed=False)[:1166] + b"\xff" * 300
    assert _read(garbage).access.reason == "CORRUPT"
    bad_deflate = hwp3_bytes(b"", compressed=False)[:1166] + b"\x00\x01" * 50
    bad = bytearray(bad_deflate)
    bad[30 + 124] = 1
    assert _read(bytes(bad)).access.reason == "CORRUPT"
    huge_cells = bytearray(_body())
    at = huge_cells.index(struct.pack("<HIH", 10, 0, 10)) + 8 + 80
    huge_cells[at:at + 2] = struct.pack("<H", 60000)
    doc = _read(hwp3_bytes(bytes(huge_cells), compressed=False))
    assert doc.access.readable and "TRUNCATED" in doc.warning_codes()


def test_a_multi_column_hwp3_warns_of_side_by_side_layout():
    assert "LAYOUT_SIDE_BY_SIDE" in _read(hwp3_bytes(_body(columns=2))).warning_codes()
    assert "LAYOUT_SIDE_BY_SIDE" not in _read(hwp3_bytes(_body())).warning_codes()
