"""Every kind of bad input gives an unreadable Document with a reason code and a Korean sentence.

All fixtures are generated here; OLE files come from a tiny compound-file writer
(olefile only reads), checked by olefile itself.
"""
from __future__ import annotations

import io
import random
import re
import struct
import time
import tracemalloc
import zipfile

import docx
import pytest

from engine import wording
from engine.limits import Limits
from engine.model import Cell, Document, Source
from engine.read.detect import HWP3_MAGIC, MARKANY_MAGIC
from engine.read.formats.base import DocumentBuilder
from engine.read.parse import parse_bytes, parse_path
from tests.test_archive import TEXT, make_zip, set_encrypted

HANGUL = re.compile("[가-힣]")


# ---- fixture builders ----------------------------------------------------------

_SECTOR = 512
_FREE, _END, _FATSECT, _NOSTREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF


def make_ole(streams: dict[str, bytes]) -> bytes:
    """A minimal OLE2 compound file (version 3) holding up to three root streams.

    Each stream is padded to 4096 bytes so that no mini stream is needed.
    Layout: header, one FAT sector, one directory sector, then the streams.
    """
    assert 1 <= len(streams) <= 3
    fat = [_FATSECT, _END]
    body, entries = b"", []
    for name, data in streams.items():
        data = data.ljust(4096, b"\0")
        data += b"\0" * (-len(data) % _SECTOR)
        start, count = len(fat), len(data) // _SECTOR
        fat += list(range(start + 1, start + count)) + [_END]
        entries.append((name, start, len(data)))
        body += data
    fat += [_FREE] * (_SECTOR // 4 - len(fat))
    directory = _ole_entry("Root Entry", 5, _END, 0, child=1)
    for i, (name, start, size) in enumerate(entries, start=1):
        directory += _ole_entry(name, 2, start, size, right=i + 1 if i < len(entries) else _NOSTREAM)
    header = (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 16
              + struct.pack("<HHHHH6xIIIIIIIII", 0x3E, 3, 0xFFFE, 9, 6, 0, 1, 1, 0, 4096, _END, 0, _END, 0)
              + struct.pack("<I", 0) + struct.pack("<I", _FREE) * 108)
    return header + struct.pack(f"<{_SECTOR // 4}I", *fat) + directory.ljust(_SECTOR, b"\0") + body


def _ole_entry(name, kind, start, size, *, child=_NOSTREAM, right=_NOSTREAM) -> bytes:
    raw = name.encode("utf-16-le") + b"\0\0"
    return (raw.ljust(64, b"\0") + struct.pack("<HBBIII", len(raw), kind, 1, _NOSTREAM, right, child)
            + b"\0" * 36 + struct.pack("<IQ", start, size))


def make_docx(text: str = "붙임 문서의 본문입니다") -> bytes:
    document = docx.Document()
    document.add_paragraph(text)
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


def replace_member(data: bytes, name: str, new: bytes) -> bytes:
    """The same ZIP with one member's bytes replaced."""
    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, new if info.filename == name else src.read(info))
    return buf.getvalue()


def zero_bomb(megabytes: int) -> bytes:
    """A ZIP with one member of ``megabytes`` MB of zeros, written in chunks."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        with zf.open("bomb.txt", "w") as member:
            for _ in range(megabytes):
                member.write(bytes(1024 * 1024))
    return buf.getvalue()


def _random_bytes() -> bytes:
    return random.Random(7).randbytes(4096)


def _truncated_zip() -> bytes:
    data = make_zip({"a.txt": TEXT, "b.txt": TEXT * 50})
    return data[: len(data) * 2 // 3]


def _malformed_docx() -> bytes:
    return replace_member(make_docx(), "word/document.xml", b"<w:document><w:body><w:p>broken")


# name, file bytes, expected reason (one Document each)
SINGLE_CASES = [
    ("빈파일.hwpx", lambda: b"", "EMPTY"),
    ("noise.bin", _random_bytes, "UNSUPPORTED_FORMAT"),
    ("잘린.zip", _truncated_zip, "CORRUPT"),
    ("옛한글.hwp", lambda: HWP3_MAGIC + b"\x1a\x01\x02\x03\x04\x05" + b"\0" * 200, "CORRUPT"),  # cut in its header
    ("한글2.hwp", lambda: b"HWP Document File V2.10 \x1a\x01\x02\x03\x04\x05" + b"\0" * 200, "UNSUPPORTED_VERSION"),
    ("보안.hwp", lambda: MARKANY_MAGIC + b"\0" * 300, "DRM_ENCRYPTED"),
    ("암호.docx", lambda: make_ole({"EncryptionInfo": b"\x04\x00\x04\x00", "EncryptedPackage": b"x" * 100}),
     "PASSWORD_PROTECTED"),
    ("옛워드.doc", lambda: make_ole({"WordDocument": b"\xec\xa5" + b"\0" * 100}), "CORRUPT"),
    ("옛엑셀.xls", lambda: make_ole({"Workbook": b"\x09\x08" + b"\0" * 100}), "CORRUPT"),
    ("발표.ppt", lambda: make_ole({"PowerPoint Document": b"\0" * 100}), "UNSUPPORTED_FORMAT"),
    ("도면.dwg", lambda: b"AC1027" + bytes(range(256)) * 4, "UNSUPPORTED_FORMAT"),
    ("깨진.docx", _malformed_docx, "CORRUPT"),
    ("폭탄.zip", lambda: zero_bomb(3), "ARCHIVE_UNSAFE"),
    ("탈출.zip", lambda: make_zip({"../../evil.txt": TEXT}), "ARCHIVE_UNSAFE"),
]


def assert_unreadable(doc: Document, reason: str) -> None:
    assert doc.readable is False
    assert doc.reason == reason
    assert doc.access.reason_text and HANGUL.search(doc.access.reason_text)
    assert doc.access.reason_text == wording.reason_text(reason)


@pytest.mark.parametrize("name,make,reason", SINGLE_CASES, ids=[c[0] for c in SINGLE_CASES])
def test_bad_file_gives_one_unreadable_document(tmp_path, name, make, reason):
    path = tmp_path / name
    path.write_bytes(make())
    (doc,) = parse_path(str(path))
    assert_unreadable(doc, reason)
    assert doc.source.filename == name
    assert doc.blocks == [] and doc.tables == []
    assert Document.from_json(doc.to_json()) == doc


def test_generated_ole_files_are_real_ole():
    import olefile

    data = make_ole({"EncryptionInfo": b"info", "EncryptedPackage": b"x" * 5000})
    ole = olefile.OleFileIO(io.BytesIO(data), raise_defects=olefile.DEFECT_INCORRECT)
    assert sorted(ole.listdir()) == [["EncryptedPackage"], ["EncryptionInfo"]]
    assert ole.openstream("EncryptionInfo").read()[:4] == b"info"


def test_drm_names_the_vendor():
    (doc,) = parse_bytes(MARKANY_MAGIC + b"\0" * 300, "보안.hwp")
    assert doc.access.drm is True
    assert doc.access.drm_vendor == wording.DRM_VENDORS["markany"]


def test_encrypted_ooxml_is_flagged_password_protected():
    data = make_ole({"EncryptionInfo": b"\x04\x00\x04\x00", "EncryptedPackage": b"x" * 100})
    (doc,) = parse_bytes(data, "암호.xlsx")
    assert doc.access.password_protected is True
    assert doc.source.format == "ooxml"


def test_file_over_the_size_limit_is_too_large_without_reading_it(tmp_path):
    path = tmp_path / "큰파일.pdf"
    path.write_bytes(b"%PDF-1.7\n" + b"0" * 5000)
    (doc,) = parse_path(str(path), limits=Limits(max_file_bytes=4096))
    assert_unreadable(doc, "TOO_LARGE")
    assert doc.source.bytes == path.stat().st_size
    (same,) = parse_bytes(path.read_bytes(), "큰파일.pdf", limits=Limits(max_file_bytes=4096))
    assert same.reason == "TOO_LARGE"


def test_missing_file_is_a_read_error(tmp_path):
    (doc,) = parse_path(str(tmp_path / "없음.hwpx"))
    assert_unreadable(doc, "READ_ERROR")


# ---- archives ------------------------------------------------------------------

def test_zip_bomb_is_refused_quickly_and_without_much_memory():
    bomb = zero_bomb(50)
    assert len(bomb) < 1024 * 1024
    tracemalloc.start()
    started = time.perf_counter()
    try:
        (doc,) = parse_bytes(bomb, "bomb.zip")
        elapsed = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert_unreadable(doc, "ARCHIVE_UNSAFE")
    assert doc.warning_codes() == ["ARCHIVE_HIGH_RATIO"]
    assert elapsed < 2.0
    assert peak < 8 * 1024 * 1024


def test_zip_with_too_many_members_is_unsafe():
    limit = Limits().max_archive_members
    data = make_zip({f"m{i}.txt": b"" for i in range(limit + 1)}, compression=zipfile.ZIP_STORED)
    (doc,) = parse_bytes(data, "많음.zip")
    assert_unreadable(doc, "ARCHIVE_UNSAFE")
    assert doc.warning_codes() == ["ARCHIVE_TOO_MANY_MEMBERS"]
    assert HANGUL.search(doc.warnings[0].text)


@pytest.mark.parametrize("member", ["../../evil.txt", "/abs/x.pdf", "..\\x", "C:\\Windows\\evil.dll"])
def test_traversal_names_make_the_archive_unsafe(member):
    (doc,) = parse_bytes(make_zip({"ok.txt": TEXT, member: TEXT}), "탈출.zip")
    assert_unreadable(doc, "ARCHIVE_UNSAFE")
    assert doc.warning_codes() == ["ARCHIVE_UNSAFE_PATH"]
    assert member.replace("\\", "/") in doc.warnings[0].text


def test_cp949_member_name_is_decoded():
    data = make_zip({"공문/붙임_예산.txt".encode("cp949"): TEXT})
    (doc,) = parse_bytes(data, "한글이름.zip")
    assert doc.source.filename == "한글이름.zip/공문/붙임_예산.txt"


def test_encrypted_member_is_listed_as_password_protected():
    data = set_encrypted(make_zip({"a.txt": TEXT, "잠김.pdf": b"%PDF-1.4 secret"}), "잠김.pdf")
    docs = parse_bytes(data, "묶음.zip")
    assert [d.source.filename for d in docs] == ["묶음.zip/a.txt", "묶음.zip/잠김.pdf"]
    assert_unreadable(docs[1], "PASSWORD_PROTECTED")


def test_zip_inside_zip_names_the_whole_path():
    inner = make_zip({"a.docx": make_docx("안쪽 압축의 문서입니다")})
    outer = make_zip({"inner.zip": inner, "메모.txt": TEXT})
    docs = parse_bytes(outer, "outer.zip")
    assert [d.source.filename for d in docs] == ["outer.zip/inner.zip/a.docx", "outer.zip/메모.txt"]
    doc = docs[0]
    assert doc.source.container_path == ["outer.zip", "outer.zip/inner.zip"]
    assert doc.source.format == "docx"
    assert doc.readable and "안쪽 압축의 문서입니다" in doc.all_text()


def test_malformed_docx_inside_a_zip_is_corrupt_and_named():
    docs = parse_bytes(make_zip({"깨진.docx": _malformed_docx(), "좋은.txt": TEXT}), "z.zip")
    assert docs[0].source.filename == "z.zip/깨진.docx"
    assert_unreadable(docs[0], "CORRUPT")
    assert docs[1].access.readable and docs[1].source.format == "text"


# ---- lossless JSON round trip ----------------------------------------------------

def test_round_trip_is_lossless():
    docs = []
    for name, make, _ in SINGLE_CASES[:-2]:
        docs += parse_bytes(make(), name)
    docs += parse_bytes(make_zip({"inner.zip": make_zip({"a.docx": make_docx()}), "b.txt": TEXT}), "o.zip")
    built = Document(doc_id="sha256:00", source=Source(filename="표.hwpx", format="hwpx", bytes=10, pages=2))
    builder = DocumentBuilder(built, "test")
    builder.add_block("heading", "제목", page=1, bbox=[10, 20, 300.123, 40], level=1)
    builder.add_table(1, 2, [Cell(0, 0, "가", bbox=[1, 2, 3, 4], page=1), Cell(0, 1, "나", col_span=1)], page=1)
    builder.warn("PAGE_APPROXIMATE")
    built.structure.recipients = ["갑", "을"]
    docs.append(built)
    assert len(docs) >= 12
    for doc in docs:
        again = Document.from_dict(doc.to_dict())
        assert again == doc
        assert Document.from_json(doc.to_json(indent=1)) == doc
