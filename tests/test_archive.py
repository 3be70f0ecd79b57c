"""ZIP reader: members, names, nesting, safety rules. Archives are built in memory here."""
from __future__ import annotations

import io
import os
import random
import struct
import tempfile
import zipfile

import pytest

from engine import wording
from engine.limits import DEFAULT_LIMITS, Limits
from engine.read.formats import archive
from engine.read.parse import parse_bytes
from tests.corpus import load_truth, document_of, requires_corpus, truth_files


# ---- helpers shared with the other bad-input tests ---------------------------

def make_zip(members: dict, *, compression=zipfile.ZIP_DEFLATED) -> bytes:
    """A ZIP of ``{name: bytes}``. A ``bytes`` name is stored raw, UTF-8 flag cleared."""
    raw_names = {}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as zf:
        for i, (name, data) in enumerate(members.items()):
            if isinstance(name, bytes):
                placeholder = f"{i:0{len(name)}d}"
                raw_names[placeholder.encode("ascii")] = name
                name = placeholder
            zf.writestr(name, data)
    out = buf.getvalue()
    for placeholder, raw in raw_names.items():
        out = out.replace(placeholder, raw)
    return out


def set_encrypted(data: bytes, member: str) -> bytes:
    """Set the 'encrypted' flag bit of ``member`` in its local and central headers."""
    out = bytearray(data)
    info = zipfile.ZipFile(io.BytesIO(data)).getinfo(member)
    out[info.header_offset + 6] |= 0x01
    pos = out.find(b"PK\x01\x02")
    while pos != -1:
        name_len = struct.unpack_from("<H", out, pos + 28)[0]
        if out[pos + 46:pos + 46 + name_len] == member.encode():
            out[pos + 8] |= 0x01
        pos = out.find(b"PK\x01\x02", pos + 4)
    return bytes(out)


def set_declared_size(data: bytes, member: str, size: int) -> bytes:
    """Rewrite the uncompressed size the central directory declares for ``member``."""
    out = bytearray(data)
    pos = out.find(b"PK\x01\x02")
    while pos != -1:
        name_len = struct.unpack_from("<H", out, pos + 28)[0]
        if out[pos + 46:pos + 46 + name_len] == member.encode():
            struct.pack_into("<I", out, pos + 24, size)
        pos = out.find(b"PK\x01\x02", pos + 4)
    return bytes(out)


def nested_zip(levels: int, inner: dict) -> bytes:
    """l0.zip ⊃ l1.zip ⊃ … ⊃ l{levels-1}.zip ⊃ ``inner``; returns the bytes of l0.zip."""
    data = make_zip(inner)
    for level in range(levels - 1, 0, -1):
        data = make_zip({f"l{level}.zip": data})
    return data


def read(data: bytes, name: str = "a.zip", limits: Limits = DEFAULT_LIMITS):
    return archive.read_archive(data, name, container_path=[], limits=limits, depth=0, read_member=parse_bytes)


TEXT = "그냥 글자 파일입니다\n".encode("utf-8")


# ---- members -------------------------------------------------------------------

def test_each_member_is_a_document_named_inside_the_zip():
    data = make_zip({"첫째.txt": TEXT, "폴더/둘째.txt": b"second", "폴더/": b""})
    docs = read(data, "자료.zip")
    assert [d.source.filename for d in docs] == ["자료.zip/첫째.txt", "자료.zip/폴더/둘째.txt"]
    assert all(d.source.container_path == ["자료.zip"] for d in docs)
    assert docs[0].doc_id == parse_bytes(TEXT, "x")[0].doc_id
    assert docs[0].reason is None and docs[0].access.readable


def test_parse_bytes_dispatches_zips_here():
    docs = parse_bytes(make_zip({"a.txt": TEXT, "b.txt": b"b"}), "묶음.zip", container_path=["상위"])
    assert [d.source.filename for d in docs] == ["묶음.zip/a.txt", "묶음.zip/b.txt"]
    assert docs[0].source.container_path == ["상위", "묶음.zip"]


def test_os_junk_and_directories_are_skipped():
    data = make_zip({"__MACOSX/._a.txt": b"junk", ".DS_Store": b"junk", "sub/Thumbs.db": b"junk",
                     "sub/": b"", "a.txt": TEXT})
    assert [d.source.filename for d in read(data)] == ["a.zip/a.txt"]


def test_zip_without_file_members_is_empty():
    for members in ({}, {"dir/": b""}, {"__MACOSX/x": b"x", ".DS_Store": b"y"}):
        (doc,) = read(make_zip(members), "빈.zip")
        assert (doc.readable, doc.reason, doc.source.format) == (False, "EMPTY", "zip")
        assert doc.source.filename == "빈.zip"


def test_empty_member_is_empty_and_the_rest_still_read():
    docs = read(make_zip({"empty.txt": b"", "a.txt": TEXT}))
    assert [d.reason for d in docs] == ["EMPTY", None]


def test_member_with_bad_crc_is_corrupt_and_the_rest_still_read():
    data = bytearray(make_zip({"a.txt": b"A" * 100, "b.txt": TEXT}, compression=zipfile.ZIP_STORED))
    pos = data.find(b"A" * 100)
    data[pos + 50] = ord("B")
    docs = read(bytes(data))
    assert [(d.source.filename, d.reason) for d in docs] == [
        ("a.zip/a.txt", "CORRUPT"), ("a.zip/b.txt", None)]
    assert "PARSER_ERROR" in docs[0].warning_codes()


def test_encrypted_member_is_password_protected():
    data = set_encrypted(make_zip({"secret.hwpx": b"x" * 50, "open.txt": TEXT}), "secret.hwpx")
    docs = read(data)
    assert [(d.source.filename, d.reason) for d in docs] == [
        ("a.zip/secret.hwpx", "PASSWORD_PROTECTED"), ("a.zip/open.txt", None)]
    assert docs[0].access.password_protected
    assert docs[0].access.reason_text == wording.reason_text("PASSWORD_PROTECTED")


def test_member_over_the_file_limit_is_too_large():
    docs = read(make_zip({"big.txt": b"x" * 5000, "small.txt": TEXT}),
                limits=Limits(max_file_bytes=1000))
    assert [d.reason for d in docs] == ["TOO_LARGE", None]
    assert docs[0].source.bytes == 5000


def test_read_capped_stops_at_the_cap_whatever_the_header_says():
    data = make_zip({"a.txt": b"x" * 100_000})
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        info = zf.getinfo("a.txt")
        assert archive.read_capped(zf, info, 100_000) == b"x" * 100_000
        with pytest.raises(archive.MemberTooLarge):
            archive.read_capped(zf, info, 1000)


def test_declared_size_that_lies_is_caught_without_inflating_everything():
    data = set_declared_size(make_zip({"bomb.txt": b"\0" * 5_000_000, "a.txt": TEXT}), "bomb.txt", 1000)
    docs = read(data)
    assert [d.reason for d in docs] == ["CORRUPT", None]


# ---- names -------------------------------------------------------------------

def test_cp949_names_without_utf8_flag_are_decoded():
    raw = "붙임1_계획서.txt".encode("cp949")
    data = make_zip({raw: TEXT})
    info = zipfile.ZipFile(io.BytesIO(data)).infolist()[0]
    assert not info.flag_bits & archive.UTF8_FLAG and info.filename != "붙임1_계획서.txt"
    assert archive.member_name(info) == "붙임1_계획서.txt"
    assert read(data)[0].source.filename == "a.zip/붙임1_계획서.txt"


def test_utf8_names_without_flag_and_with_flag_are_kept():
    unflagged = make_zip({"보고서.txt".encode("utf-8"): TEXT})
    flagged = make_zip({"보고서.txt": TEXT})
    assert zipfile.ZipFile(io.BytesIO(flagged)).infolist()[0].flag_bits & archive.UTF8_FLAG
    for data in (unflagged, flagged):
        assert read(data)[0].source.filename == "a.zip/보고서.txt"


def test_backslash_separators_become_slashes():
    data = make_zip({"폴더\\": b"", "폴더\\문서.txt": TEXT})
    assert [d.source.filename for d in read(data)] == ["a.zip/폴더/문서.txt"]


@pytest.mark.parametrize("name,unsafe", [
    ("../../evil.txt", True), ("/abs/x.pdf", True), ("..\\x", True), ("a/../../b", True),
    ("C:/Windows/x", True), ("c:x", True), ("\\\\server\\share", True),
    ("a/b.txt", False), ("..a/b..txt", False), ("폴더/문서.hwpx", False)])
def test_unsafe_paths(name, unsafe):
    assert archive.is_unsafe_path(name) is unsafe


# ---- safety rules ------------------------------------------------------------

def _unsafe(docs, code):
    (doc,) = docs
    assert (doc.readable, doc.reason, doc.source.format) == (False, "ARCHIVE_UNSAFE", "zip")
    assert code in doc.warning_codes()
    assert doc.doc_id and doc.source.sha256
    return doc


def test_too_many_members_is_unsafe():
    data = make_zip({f"{i}.txt": b"x" for i in range(11)})
    doc = _unsafe(read(data, limits=Limits(max_archive_members=10)), "ARCHIVE_TOO_MANY_MEMBERS")
    assert "11" in doc.warnings[0].text
    assert len(read(data, limits=Limits(max_archive_members=11))) == 11


def test_too_much_uncompressed_data_is_unsafe():
    noise = random.Random(1).randbytes(600)
    data = make_zip({"a.bin": noise, "b.bin": noise[::-1]})
    _unsafe(read(data, limits=Limits(max_archive_total_bytes=1000)), "ARCHIVE_TOO_BIG")
    assert len(read(data, limits=Limits(max_archive_total_bytes=1200))) == 2


def test_high_ratio_is_unsafe_only_for_large_members():
    big = make_zip({"zeros.bin": b"\0" * (2 * 1024 * 1024)})
    doc = _unsafe(read(big), "ARCHIVE_HIGH_RATIO")
    assert "zeros.bin" in doc.warnings[0].text
    small = make_zip({"zeros.bin": b"\0" * 100_000})
    assert read(small)[0].reason == "UNSUPPORTED_FORMAT"


@pytest.mark.parametrize("name", ["../../evil.txt", "..\\..\\evil.txt", "\\\\server\\share\\x.txt"])
def test_unsafe_member_path_refuses_the_whole_archive(name):
    data = make_zip({"ok.txt": TEXT, name: TEXT})
    doc = _unsafe(read(data), "ARCHIVE_UNSAFE_PATH")
    assert name.replace("\\", "/") in doc.warnings[0].text


def test_nesting_deeper_than_the_limit_is_unsafe():
    limit = DEFAULT_LIMITS.max_archive_depth
    ok = parse_bytes(nested_zip(limit + 1, {"a.txt": TEXT}), "l0.zip")
    names = "/".join(f"l{i}.zip" for i in range(limit + 1))
    assert [(d.source.filename, d.reason) for d in ok] == [(f"{names}/a.txt", None)]
    assert ok[0].source.container_path == ["/".join(names.split("/")[:i + 1]) for i in range(limit + 1)]

    # one level more refuses the whole file, naming the archive that went too deep
    (deep,) = parse_bytes(nested_zip(limit + 2, {"a.txt": TEXT}), "l0.zip")
    assert deep.source.filename == "l0.zip"
    doc = _unsafe([deep], "ARCHIVE_TOO_DEEP")
    assert "/".join(f"l{i}.zip" for i in range(limit + 2)) in doc.warnings[0].text


def test_unreadable_zip_is_one_corrupt_document():
    data = make_zip({"a.txt": TEXT, "b.txt": TEXT})
    for broken in (data[: len(data) // 2], b"PK\x03\x04" + b"\0" * 40, data[:-10]):
        (doc,) = read(broken, "깨진.zip")
        assert (doc.reason, doc.source.format, doc.source.filename) == ("CORRUPT", "zip", "깨진.zip")
        assert doc.source.bytes == len(broken)


def test_nothing_is_written_to_disk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    data = nested_zip(3, {"a.txt": TEXT, "b/c.txt": TEXT})
    assert len(parse_bytes(data, "l0.zip")) == 2
    assert os.listdir(tmp_path) == []


# ---- real files inside a zip -------------------------------------------------

def _small_corpus_files(max_bytes: int = 60_000) -> list:
    """The smallest corpus file of each (truth) format."""
    best = {}
    for truth_path in truth_files():
        path = document_of(truth_path)
        fmt = load_truth(truth_path).get("format")
        size = path.stat().st_size
        if size <= max_bytes and (fmt not in best or size < best[fmt].stat().st_size):
            best[fmt] = path
    return sorted(best.values())


@requires_corpus
def test_corpus_files_inside_a_zip_read_as_on_their_own():
    files = _small_corpus_files()
    assert len(files) >= 3
    data = make_zip({f"붙임/{p.name}": p.read_bytes() for p in files})
    docs = parse_bytes(data, "corpus.zip")
    assert [d.source.filename for d in docs] == [f"corpus.zip/붙임/{p.name}" for p in files]
    for path, doc in zip(files, docs):
        (alone,) = parse_bytes(path.read_bytes(), path.name)
        assert doc.doc_id == alone.doc_id
        assert doc.access == alone.access
        assert doc.source.format == alone.source.format
        assert doc.all_text() == alone.all_text()
        assert len(doc.tables) == len(alone.tables)
