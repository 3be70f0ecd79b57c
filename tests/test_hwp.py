"""The HWP 5.0 reader: real corpus files against their truth, and small fixtures built here.

Run with ``-s`` to see the per-file result table (test_corpus_report).
"""
from __future__ import annotations

import functools
import gc
import io
import random
import struct
import zlib

import olefile
import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from engine.read.failures import ReadFailure
from engine.read.formats import hwp
from engine.read.formats.base import DocumentBuilder
from engine.read.formats.hwp import STUB, preview_image
from engine.read.formats.hwp.body import SectionReader
from engine.read.formats.hwp.header import SIGNATURE
from engine.read.formats.hwp.distribution import decrypt_section, key_from_doc_data, msvc_rand
from engine.read.formats.hwp.pages import PageCounter
from engine.read.formats.hwp.preview import MAX_PREVIEW_BYTES, preview_paragraphs
from engine.read.formats.hwp.records import (BODY_TAGS, CTRL_HEADER, LIST_HEADER, PARA_HEADER, PARA_LINE_SEG,
                                        PARA_TEXT, TABLE, RecordStream)
from engine.model import Document, Source
from engine.read.formats.hwp.tables import MAX_CELLS
from engine.read.formats.hwp.text import decode_para_text
from engine.library.listing import REVIEW_CODES
from engine.wording import EXTRACTOR_NAMES
from engine.read.parse import parse_bytes, parse_path
from tests.corpus import CORPUS, REASON_MATCH, corpus_params, requires_corpus, squash
from tests.legacy_writers import ole_bytes

HWP_FILES = corpus_params({"hwp"})


@functools.lru_cache(maxsize=None)
def parsed(name: str):
    return parse_path(str(CORPUS / name))[0]


def _found(snippets, haystack: str) -> float:
    if not snippets:
        return 1.0
    return sum(squash(s) in haystack for s in snippets) / len(snippets)


def _haystack(doc) -> str:
    """Blocks' text and cells' text, whitespace collapsed (the corpus' matching rule)."""
    return squash(doc.all_text())


# ---------------------------------------------------------------------------
# the corpus against its truth
# ---------------------------------------------------------------------------
@requires_corpus
@pytest.mark.parametrize("path,truth", HWP_FILES)
def test_corpus_file_matches_truth(path, truth):
    doc = parsed(path.name)
    assert doc.access.readable == truth["readable"], (doc.access.reason, doc.warnings)
    assert doc.access.reason in REASON_MATCH[truth["reason"]]
    if not truth["readable"]:
        assert not doc.blocks and not doc.tables
        return
    haystack = _haystack(doc)
    assert _found(truth.get("snippets"), haystack) >= 0.98
    assert _found(truth.get("table_snippets"), haystack) >= 0.98
    if truth.get("table_count") is not None:
        assert abs(len(doc.tables) - truth["table_count"]) <= 0.1 * truth["table_count"]
    assert STUB not in haystack
    assert "PAGE_APPROXIMATE" in doc.warning_codes()
    assert doc.source.pages and doc.source.pages >= 1
    for block in doc.blocks:
        assert block.bbox is None and block.extractor == "hwp-native"
        assert block.page is not None and 1 <= block.page <= doc.source.pages
    for table in doc.tables:
        for cell in table.cells:
            assert 0 <= cell.row and cell.row + cell.row_span <= table.rows
            assert 0 <= cell.col and cell.col + cell.col_span <= table.cols
    if truth.get("encryption") == "DISTRIBUTION":
        assert doc.access.distribution and "DISTRIBUTION_DOCUMENT" in doc.warning_codes()


@requires_corpus
def test_corpus_report():
    """Prints one line per corpus HWP file; fails only if the corpus as a whole falls short."""
    lines = [f"{'file':44} {'read':5} {'reason':20} {'snip':>7} {'tsnip':>7} {'tables':>9} {'pages':>5}"]
    found = total = 0
    for param in HWP_FILES:
        path, truth = param.values
        doc = parsed(path.name)
        haystack = _haystack(doc)
        snippets = truth.get("snippets") or []
        table_snippets = truth.get("table_snippets") or []
        hits = sum(squash(s) in haystack for s in snippets)
        table_hits = sum(squash(s) in haystack for s in table_snippets)
        if truth["readable"]:
            found += hits
            total += len(snippets)
        lines.append(f"{path.name[:44]:44} {str(doc.readable):5} {str(doc.reason):20} "
                     f"{hits:>3}/{len(snippets):<3} {table_hits:>3}/{len(table_snippets):<3} "
                     f"{len(doc.tables):>4}/{str(truth.get('table_count')):<4} {str(doc.source.pages):>5}")
    print("\n" + "\n".join(lines))
    assert total and found / total >= 0.98


# ---------------------------------------------------------------------------
# structure read from real files
# ---------------------------------------------------------------------------
@requires_corpus
def test_nested_table_names_its_outer_table_and_cell():
    doc = parsed("kwater_inner-table-01.hwp")
    outer, inner = doc.tables
    assert inner.parent == outer.id and inner.parent_cell == [7, 1]
    block = next(b for b in doc.blocks if b.id == inner.block)
    assert block.parent == outer.block
    assert any("SaaS 전환 가이드 수립" in c.text for c in inner.cells)
    assert not any("SaaS 전환 가이드 수립" in c.text for c in outer.cells)   # not copied outward


@requires_corpus
def test_merged_cells_keep_their_spans():
    doc = parsed("kwater_inner-table-01.hwp")
    cells = {(c.row, c.col): c for c in doc.tables[0].cells}
    assert (cells[3, 0].row_span, cells[3, 0].col_span) == (1, 2)
    assert (cells[4, 0].row_span, cells[4, 0].col_span) == (2, 1)
    assert cells[4, 0].text.split("\n") == ["검토의견", "및", "개선조치 요구사항"]


@requires_corpus
def test_captions_are_their_own_blocks_under_the_table():
    doc = parsed("pyhwp_table-caption.hwp")
    captions = [b for b in doc.blocks if b.type == "caption"]
    table_blocks = {t.block for t in doc.tables}
    assert len(captions) == 8 and all(c.parent in table_blocks for c in captions)
    assert any("위 캡션" in c.text for c in captions)
    assert not any("캡션" in cell.text for t in doc.tables for cell in t.cells)


@requires_corpus
def test_notes_are_apart_from_the_body_and_linked_to_their_paragraph():
    doc = parsed("pyhwp_footnote-endnote.hwp")
    by_id = {b.id: b for b in doc.blocks}
    notes = [b for b in doc.blocks if b.type in ("footnote", "endnote")]
    assert [b.type for b in notes] == ["footnote", "footnote", "endnote", "endnote"]
    assert by_id[notes[0].parent].text == "각주참조" and by_id[notes[2].parent].text == "미주참조"
    assert all("각주입니다" not in b.text for b in doc.blocks if b.type == "paragraph")


@requires_corpus
def test_distribution_document_is_decrypted_with_headers_and_pages():
    doc = parsed("hancom_한글문서파일형식_배포용문서_revision1.2.hwp")
    assert doc.access.distribution and doc.access.readable
    headers = [b for b in doc.blocks if b.type == "header"]
    assert headers and all("배포용 문서" in b.text for b in headers)
    headings = {b.text: (b.page, b.level) for b in doc.blocks if b.type == "heading"}
    assert headings["저작권"] == (4, 1)            # the PDF twin has it on page 4
    assert headings["배포용 문서 데이터"] == (6, 2)
    assert abs(doc.source.pages - 11) <= 3          # the PDF twin has 11 pages


@requires_corpus
def test_title_from_summary_only_when_the_body_bears_it_out():
    assert parsed("hwpforge_table_08_nested_table.hwp").structure.title == "중첩 표 테스트"
    # the summary says '1. 위탁사유서', left over from a template; the body never says so
    assert parsed("과업지시서_070.hwp").structure.title != "1. 위탁사유서"


@requires_corpus
def test_drm_bit_names_the_vendor():
    doc = parsed("hwpswift_drm-flag-derived.hwp")
    assert doc.access.reason == "DRM_ENCRYPTED" and doc.access.drm and doc.access.drm_vendor


@requires_corpus
def test_preview_image():
    png = preview_image((CORPUS / "hwpforge_table_08_nested_table.hwp").read_bytes())
    gif = preview_image((CORPUS / "pyhwp_sample-5017.hwp").read_bytes())
    assert png.startswith(b"\x89PNG") and gif.startswith(b"GIF8")
    assert preview_image((CORPUS / "hwplib_표_uncompressed.hwp").read_bytes()) is None   # has none
    assert preview_image(b"not an ole file") is None


# ---------------------------------------------------------------------------
# FileHeader bits, set on a copy of a real file
# ---------------------------------------------------------------------------
def _with_stream(name: str, stream: str, payload: bytes) -> bytes:
    """A corpus file with one stream replaced by ``payload`` (padded to the old size)."""
    return _with_streams(name, {stream: payload})


def _with_streams(name: str, payloads: dict[str, bytes]) -> bytes:
    """A corpus file with streams replaced by their payloads (each padded to the old size)."""
    buf = io.BytesIO((CORPUS / name).read_bytes())
    ole = olefile.OleFileIO(buf, write_mode=True)
    for stream, payload in payloads.items():
        old = ole.get_size(stream)
        assert len(payload) <= old
        ole.write_stream(stream, payload + bytes(old - len(payload)))
    ole.close()
    return buf.getvalue()


def _with_flags(flags: int, name: str = "pyhwp_sample-5017.hwp") -> bytes:
    with olefile.OleFileIO(str(CORPUS / name)) as ole:
        header = bytearray(ole.openstream("FileHeader").read())
    struct.pack_into("<I", header, 36, flags)
    return _with_stream(name, "FileHeader", bytes(header))


@requires_corpus
@pytest.mark.parametrize("flags,reason", [
    (0x1 | 0x2, "PASSWORD_PROTECTED"),
    (0x1 | 0x10, "DRM_ENCRYPTED"),
    (0x1 | 0x400, "DRM_ENCRYPTED"),
    (0x1 | 0x4, "DRM_ENCRYPTED"),     # 배포용 bit, but no ViewText to decrypt
    (0x1, None),
])
def test_header_bits_decide_access(flags, reason):
    doc = parse_bytes(_with_flags(flags), "x.hwp")[0]
    assert doc.access.reason == reason
    if reason == "DRM_ENCRYPTED":
        assert doc.access.drm_vendor == ("한글 배포용 문서" if flags & 0x4 else "한글 문서 보안")


@requires_corpus
def test_distribution_body_is_found_even_without_the_bit():
    unflagged = _with_flags(0x1, "hancom_한글문서파일형식_배포용문서_revision1.2.hwp")
    doc = parse_bytes(unflagged, "x.hwp")[0]
    assert doc.access.distribution and STUB not in doc.all_text()
    assert "복호화된 데이터는 각 레코드별 설명에 따라 읽으면 된다." in doc.all_text()


@requires_corpus
def test_bad_signature_is_corrupt():
    data = _with_stream("pyhwp_sample-5017.hwp", "FileHeader", b"HWP Document Fxle" + bytes(239))
    assert parse_bytes(data, "x.hwp")[0].access.reason == "CORRUPT"


# ---------------------------------------------------------------------------
# PARA_TEXT control characters
# ---------------------------------------------------------------------------
def _u(text: str) -> bytes:
    return text.encode("utf-16-le")


def _ctrl(code: int, payload: bytes = b"\x00" * 12) -> bytes:
    """An inline/extended control: the code, six units of payload, the code again."""
    return struct.pack("<H", code) + payload + struct.pack("<H", code)


def test_text_keeps_visible_controls_and_drops_payloads():
    tab_payload = struct.pack("<IHHI", 0x0001000A, 0x000D, 0x0009, 0)   # units < 32 inside the payload
    data = (_u("가") + _ctrl(9, tab_payload) + _u("나") + struct.pack("<H", 10) + _u("다")
            + _ctrl(11, b" lbt" + b"\x01\x00" * 4) + _u("끝") + _ctrl(17, b"  nf" + b"\x00" * 8)
            + struct.pack("<H", 30) + _u("x") + struct.pack("<H", 13))
    assert decode_para_text(data) == "가\t나\n다 끝 x"


def test_text_fast_path_and_units_that_only_look_like_controls():
    # 'A' (41 00) followed by '가' (00 AC) has the bytes 00 00 at an odd offset: not a control
    assert decode_para_text(_u("A가B") + struct.pack("<H", 13)) == "A가B"
    assert decode_para_text(_u("A가") + _ctrl(3, b"klh%" + bytes(8)) + _u("링크") + _ctrl(4)
                            + struct.pack("<H", 13)) == "A가링크"
    # characters that are not printable but not controls either (ideographic space, a private-use character)
    assert decode_para_text(_u("가\u3000나\uf0b7") + struct.pack("<H", 13)) == "가\u3000나\uf0b7"
    # a surrogate without its pair is U+FFFD and does not hide the control after it
    lone = b"\x00\xd8"
    assert decode_para_text(_u("앞") + lone + _u("뒤") + struct.pack("<H", 13)) == "앞\ufffd뒤"
    assert decode_para_text(_u("앞") + lone + struct.pack("<H", 10) + _u("뒤") + struct.pack("<H", 13)) \
        == "앞\ufffd\n뒤"


def test_hancom_private_use_characters_read_as_what_they_stand_for():
    # an old-Hangul syllable of the Hanyang area as conjoining jamo; a number in a square as the circled
    # number; a Wingdings symbol as the character for its glyph; a private-use character nobody knows the
    # meaning of stays as it is
    end = struct.pack("<H", 13)
    assert decode_para_text(_u("아래한글(\uf53a글)") + end) == "아래한글(\u1112\u119e\u11ab글)"
    assert decode_para_text(_u("\U000f02b1 소통 \U000f02c4 끝") + end) == "① 소통 ⑳ 끝"
    assert decode_para_text(_u("표\n\U000f02b2 둘") + end) == "표\n② 둘"    # the slow path too
    assert decode_para_text(_u("\uf0a7 고유 업무 \uf0e8 접수 \uf0fe 동의") + end) == "▪ 고유 업무 ➔ 접수 ☑ 동의"
    assert decode_para_text(_u("\U000f0854※\U000f0855 표시란 \U000f02ef 항목") + end) == "《※》 표시란 · 항목"
    assert decode_para_text(_u("가\uf0b7\U000f081c") + end) == "가\uf0b7\U000f081c"


def test_text_cut_inside_a_control_or_a_unit():
    assert decode_para_text(_u("앞") + _ctrl(17)[:6]) == "앞"
    assert decode_para_text(_u("앞뒤") + b"\x00") == "앞뒤"
    assert decode_para_text(b"") == ""


# ---------------------------------------------------------------------------
# records, tables, pages: section streams built here
# ---------------------------------------------------------------------------
def rec(tag: int, level: int, payload: bytes = b"", *, extended: bool = False) -> bytes:
    """One record header (+ payload); ``extended`` writes the size in the extra DWORD."""
    if extended or len(payload) >= 0xFFF:
        return struct.pack("<II", tag | level << 10 | 0xFFF << 20, len(payload)) + payload
    return struct.pack("<I", tag | level << 10 | len(payload) << 20) + payload


def para(level: int, text: str, controls: bytes = b"", line_top: int = 0, break_type: int = 0) -> bytes:
    body = _u(text) + struct.pack("<H", 13)
    out = rec(PARA_HEADER, level, struct.pack("<IIHBB", len(body) // 2, 0, 0, 0, break_type) + bytes(10))
    out += rec(PARA_TEXT, level + 1, body)
    out += rec(PARA_LINE_SEG, level + 1, struct.pack("<Iii", 0, line_top, 1000) + bytes(24))
    return out + controls


def table(level: int, rows: int, cols: int, cells: list[tuple[int, int, int, int, bytes]]) -> bytes:
    """A 'tbl ' control at ``level`` (+1 for its records); cells are (row, col, rs, cs, paragraphs)."""
    out = rec(CTRL_HEADER, level, b" lbt" + bytes(40))
    out += rec(TABLE, level + 1, struct.pack("<IHH", 0, rows, cols) + bytes(16))
    for row, col, row_span, col_span, paras in cells:
        head = struct.pack("<hHI", 1, 0, 0) + struct.pack("<HHHH", col, row, col_span, row_span) + bytes(18)
        out += rec(LIST_HEADER, level + 1, head) + paras
    return out


def read_section(data: bytes):
    stream = RecordStream(data)
    return SectionReader(PageCounter(), {}).read(stream), stream


def test_records_extended_size_and_nesting():
    data = rec(PARA_HEADER, 0, bytes(22)) + rec(PARA_TEXT, 1, _u("긴") * 3000, extended=True)
    stream = RecordStream(data)
    (root,) = stream.roots()
    (text,) = stream.children(root)
    assert not stream.truncated and stream.tags[text] == PARA_TEXT
    assert len(stream.payload(text)) == 6000


def test_records_cut_short_keep_what_came_before():
    data = para(0, "하나") + para(0, "둘")
    stream = RecordStream(data[:-5])
    assert stream.truncated and len(stream.roots()) == 2
    absurd = para(0, "하나") + struct.pack("<II", PARA_TEXT | 0xFFF << 20, 0xFFFFFFF0) + b"xx"
    stream = RecordStream(absurd)
    assert stream.truncated and len(stream.roots()) == 1


PARA_CHAR_SHAPE = 0x10 + 52   # a record the body reader does not keep


def test_record_nesting_matches_its_definition():
    """Random runs of tags and levels, damaged nesting included, against the rule written out."""
    rng = random.Random(11)
    tags = [PARA_HEADER, PARA_TEXT, PARA_LINE_SEG, CTRL_HEADER, LIST_HEADER, TABLE, PARA_CHAR_SHAPE]
    for _ in range(300):
        run = [(rng.choice(tags), rng.choice([0, 1, 1, 2, 2, 3, 5])) for _ in range(rng.randrange(1, 30))]
        stream = RecordStream(b"".join(rec(tag, level, bytes([n])) for n, (tag, level) in enumerate(run)))
        kept = [n for n, (tag, level) in enumerate(run) if _kept(tag, level)]
        assert [stream.payload(i)[0] for i in range(len(stream.tags))] == kept
        parents = {n: _parent(run, n) for n in kept}
        for i, n in enumerate(kept):
            assert [kept[c] for c in stream.children(i)] == [m for m in kept if parents[m] == n], run
        assert [kept[r] for r in stream.roots()] == [m for m in kept if parents[m] is None], run


def _kept(tag: int, level: int) -> bool:
    return tag in BODY_TAGS and (tag != PARA_LINE_SEG or level == 1)


def _parent(run: list[tuple[int, int]], n: int):
    """The last kept record before ``n`` with a lower level that no body record in between ended
    (one at its level or lower; a PARA_LINE_SEG below the top ends records though it is not kept)."""
    lowest = 1 << 10
    for k in range(n - 1, -1, -1):
        tag, level = run[k]
        if tag not in BODY_TAGS:
            continue
        if _kept(tag, level) and level < run[n][1] and level < lowest:
            return k
        lowest = min(lowest, level)
    return None


@pytest.mark.parametrize("enabled", [True, False])
def test_read_leaves_the_garbage_collector_as_it_was(enabled):
    """The collector is paused while a file is read; afterwards it is as before, after a failure too."""
    builder = DocumentBuilder(Document(doc_id=None, source=Source(filename="x.hwp", format="hwp", bytes=0)),
                              "hwp-native")
    (gc.enable if enabled else gc.disable)()
    try:
        with pytest.raises(ReadFailure):
            hwp.read(b"\xd0\xcf\x11\xe0 but not an OLE file", builder)
        assert gc.isenabled() == enabled
        if CORPUS.is_dir():
            hwp.read((CORPUS / "pyhwp_sample-5017.hwp").read_bytes(), builder)
            assert gc.isenabled() == enabled and builder.doc.blocks
    finally:
        gc.enable()


def test_table_cells_and_nested_table_from_records():
    inner = table(3, 1, 1, [(0, 0, 1, 1, para(4, "안쪽"))])
    data = para(0, "", table(1, 2, 2, [
        (0, 0, 1, 2, para(2, "머리")),
        (1, 0, 1, 1, para(2, "왼쪽")),
        (1, 1, 1, 1, para(2, "", inner)),
    ]))
    (host,), _stream = read_section(data)
    (outer,) = host.items
    assert (outer.rows, outer.cols) == (2, 2)
    spans = [(c.row, c.col, c.row_span, c.col_span) for c in outer.cells]
    assert spans == [(0, 0, 1, 2), (1, 0, 1, 1), (1, 1, 1, 1)]
    (nested,) = outer.cells[2].paras[0].items
    assert nested.cells[0].paras[0].text == "안쪽"


def test_absurd_table_sizes_are_capped():
    data = para(0, "", table(1, 65535, 65535, [(65534, 65534, 65535, 65535, para(2, "멀리")),
                                              (0, 0, 9, 9, para(2, "여기"))]))
    (host,), _stream = read_section(data)
    (grid,) = host.items
    assert grid.rows * grid.cols <= MAX_CELLS
    assert all(c.row + c.row_span <= grid.rows and c.col + c.col_span <= grid.cols for c in grid.cells)
    assert any(c.paras[0].text == "여기" for c in grid.cells)


def test_deep_nesting_ends():
    def nest(level: int, depth: int) -> bytes:
        """A paragraph holding a table whose only cell holds the next one, ``depth`` times."""
        if depth == 0:
            return para(level, "바닥")
        return para(level, "", table(level + 1, 1, 1, [(0, 0, 1, 1, nest(level + 2, depth - 1))]))

    (top,), stream = read_section(nest(0, 300))
    assert not stream.truncated
    depth, item = 0, top.items[0]
    while item.cells and item.cells[0].paras[0].items:
        depth, item = depth + 1, item.cells[0].paras[0].items[0]
    assert 5 < depth < 100    # read a good way down, then capped


def test_pages_from_line_positions_and_breaks():
    counter = PageCounter()
    page_def = struct.pack("<9iI", 59528, 84188, 5000, 5000, 5000, 5000, 4000, 4000, 0, 0)
    counter.start_section(page_def)     # body height 84188 - 18000 = 66188
    seg = lambda top, height=1000: struct.pack("<Iii", 0, top, height) + bytes(24)   # noqa: E731
    assert counter.paragraph(0, seg(0)) == 1
    assert counter.paragraph(0, seg(30000)) == 1
    assert counter.paragraph(0, seg(0)) == 2                  # position went back up: new page
    assert counter.paragraph(0x04, seg(2000)) == 3            # page break in the header
    assert counter.paragraph(0, seg(3000, 140000)) == 3       # a table taller than two pages
    assert counter.page == 5
    counter.start_section(None)
    assert counter.paragraph(0, seg(0)) == 6


# ---------------------------------------------------------------------------
# 배포용 decryption
# ---------------------------------------------------------------------------
def test_msvc_rand_sequence():
    rand = msvc_rand(1)
    assert [next(rand) for _ in range(5)] == [41, 18467, 6334, 26500, 19169]


def test_distribution_stream_round_trip():
    doc_data = bytes(range(256))
    key = key_from_doc_data(doc_data)
    plain = zlib.compress(para(0, "배포용 본문"))[2:-4]
    plain += bytes(-len(plain) % 16)
    encryptor = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    stream = rec(0x10 + 12, 0, doc_data) + encryptor.update(plain) + encryptor.finalize()
    assert decrypt_section(stream) == plain
    inflated = zlib.decompressobj(-15).decompress(decrypt_section(stream))
    (only,), _ = read_section(inflated)
    assert only.text == "배포용 본문"


# ---------------------------------------------------------------------------
# whole files built here: pictures and shapes without text
# ---------------------------------------------------------------------------
def shape(level: int) -> bytes:
    """A drawing object ('gso ') anchored in a paragraph, at ``level``."""
    return rec(CTRL_HEADER, level, b" osg" + bytes(40))


def hwp_bytes(section: bytes, **streams: bytes) -> bytes:
    """An HWP 5.0 file with one compressed body section and any other streams (``BinData__X``:
    BinData/X). Compressed, as Hangul writes them: the writer pads streams with zeros."""
    header = SIGNATURE.ljust(32, b"\0") + struct.pack("<II", 0x05000300, 0x1)
    return ole_bytes({"FileHeader": header.ljust(256, b"\0"), "BodyText/Section0": zlib.compress(section)[2:-4],
                      **{name.replace("__", "/"): data for name, data in streams.items()}})


@pytest.mark.parametrize("data", [
    hwp_bytes(para(0, "", shape(1))),
    hwp_bytes(para(0, "", shape(1)), BinData__BIN0001_png=b"\x89PNG\r\n\x1a\n" + bytes(64)),
    hwp_bytes(para(0, ""), BinData__BIN0001_png=b"\x89PNG\r\n\x1a\n" + bytes(64)),
    hwp_bytes(para(0, "", table(1, 1, 1, [(0, 0, 1, 1, para(2, "", shape(3)))]))),
], ids=["shape", "picture", "stored picture only", "picture in a table"])
def test_pictures_or_shapes_without_text_are_no_text_not_empty(data):
    doc = parse_bytes(data, "그림.hwp")[0]
    assert doc.source.format == "hwp"
    assert not doc.readable and doc.reason == "NO_TEXT"
    assert "그림" in doc.access.reason_text and "PDF" in doc.access.reason_text
    assert "빈 파일" not in doc.access.reason_text


def test_a_document_with_nothing_in_it_stays_empty():
    doc = parse_bytes(hwp_bytes(para(0, "")), "빈.hwp")[0]
    assert not doc.readable and doc.reason == "EMPTY"


def test_text_beside_a_shape_is_read():
    doc = parse_bytes(hwp_bytes(para(0, "그림 옆 글", shape(1))), "글.hwp")[0]
    assert doc.readable and [b.text for b in doc.blocks] == ["그림 옆 글"]


# ---------------------------------------------------------------------------
# a body damaged before any text: the PrvText preview
# ---------------------------------------------------------------------------
NO_BODY = b""   # a section stream of zeros: not deflate, not records
TABLE_PREVIEW = "moef_통합재정통계(2010.11월).hwp"   # a table of figures from its first line on


@requires_corpus
def test_a_body_damaged_before_any_text_is_read_from_the_preview():
    doc = parse_bytes(_with_stream(TABLE_PREVIEW, "BodyText/Section0", NO_BODY), "x.hwp")[0]
    texts = [b.text for b in doc.blocks]
    assert doc.readable and "PREVIEW_ONLY" in doc.warning_codes() and "PREVIEW_ONLY" in REVIEW_CODES
    assert "TRUNCATED" not in doc.warning_codes() and "PAGE_APPROXIMATE" not in doc.warning_codes()
    assert doc.metrics.extractor_mix == {"hwp-preview": 1.0} and "hwp-preview" in EXTRACTOR_NAMES
    assert texts[:2] == ["통 합 재 정 통 계", "(2010.11월 누계 기준/잠정)"]
    assert "수       입 (A) | 168,550 | 12,584 | 32 | 68,942 | 2,491 | 252,599" in texts
    assert "미리보기" in next(w.text for w in doc.warnings if w.code == "PREVIEW_ONLY")
    sound = "".join(parsed(TABLE_PREVIEW).all_text().split())
    for text in texts[:-1]:   # the preview's last line may stop inside a word
        assert all(part.replace(" ", "") in sound for part in text.split(" | ")), text


@requires_corpus
def test_preview_cells_of_a_nested_table_are_read_as_rows():
    doc = parse_bytes(_with_stream("hwpforge_table_08_nested_table.hwp", "BodyText/Section0", NO_BODY), "x.hwp")[0]
    assert [b.text for b in doc.blocks] == ["중첩 표 테스트", "A | 작은표 | 1", "2", "B | C"]


def test_preview_brackets_of_the_text_itself_are_kept():
    assert preview_paragraphs("ㅇ <우리말샘> 이용자 정보\r\n<구분><><2022년>\r\n<><>\r\n옳은 것만을 <보기>에서 고른 것은?") \
        == ["ㅇ <우리말샘> 이용자 정보", "구분 | 2022년", "옳은 것만을 <보기>에서 고른 것은?"]


def test_preview_is_decoded_safely():
    prv = "첫 줄\x00\x07\r\n".encode("utf-16-le") + b"\x00\xd8" + "<칸>\r\n".encode("utf-16-le")   # NUL, BEL, half a pair
    doc = parse_bytes(hwp_bytes(b"", BodyText__Section0=b"\xff" * 16, PrvText=prv), "x.hwp")[0]
    assert doc.readable and [b.text for b in doc.blocks] == ["첫 줄", "칸"]
    huge = hwp_bytes(b"", BodyText__Section0=b"\xff" * 16, PrvText="가".encode("utf-16-le") * MAX_PREVIEW_BYTES)
    assert parse_bytes(huge, "x.hwp")[0].reason == "CORRUPT"   # no preview Hancom writes is that long


@requires_corpus
def test_body_and_preview_both_damaged_stay_corrupt():
    data = _with_streams(TABLE_PREVIEW, {"BodyText/Section0": NO_BODY, "PrvText": b""})
    doc = parse_bytes(data, "x.hwp")[0]
    assert not doc.readable and doc.reason == "CORRUPT" and not doc.blocks
    assert "손상" in doc.access.reason_text


def test_an_empty_body_is_empty_whatever_the_preview_says():
    doc = parse_bytes(hwp_bytes(para(0, ""), PrvText="미리보기 글".encode("utf-16-le")), "빈.hwp")[0]
    assert not doc.readable and doc.reason == "EMPTY"


@requires_corpus
def test_a_damaged_distribution_body_is_not_read_from_the_preview():
    data = _with_stream("hancom_한글문서파일형식_배포용문서_revision1.2.hwp", "ViewText/Section0", NO_BODY)
    assert parse_bytes(data, "x.hwp")[0].reason == "CORRUPT"
