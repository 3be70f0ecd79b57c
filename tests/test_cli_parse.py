"""`noda parse` on a folder of mixed good and bad generated files, as a user would run it."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import openpyxl
import pymupdf
import pytest

from engine import wording
from engine.model import Document
from engine.read.detect import MARKANY_MAGIC
from engine.read.parse import parse_bytes
from noda_desktop.cli import main
from tests.test_archive import TEXT, make_zip
from tests.test_bad_inputs import make_docx, make_ole

HANGUL = re.compile("[가-힣]")


def _xlsx() -> bytes:
    wb = openpyxl.Workbook()
    wb.active["A1"] = "예산 항목"
    wb.active["B1"] = 1200
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _pdf() -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Budget report 2024")
    return doc.tobytes()


def _blank_png() -> bytes:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 64, 64), False)
    pix.clear_with(255)
    return pix.tobytes("png")


# relative path -> bytes; the reason we expect (None: readable)
GOOD = {"공문.docx": make_docx("2024년 예산 집행 계획을 알립니다"), "표.xlsx": _xlsx(),
        "보고서.pdf": _pdf()}
BAD = {"빈파일.hwpx": (b"", "EMPTY"),
       "도면.dwg": (b"AC1027" + bytes(range(256)) * 4, "UNSUPPORTED_FORMAT"),
       "옛워드.doc": (make_ole({"WordDocument": b"\xec\xa5"}), "CORRUPT"),
       "보안.hwp": (MARKANY_MAGIC + b"\0" * 100, "DRM_ENCRYPTED"),
       "잘린.zip": (make_zip({"a.txt": TEXT * 20})[:60], "CORRUPT"),
       "빈그림.png": (_blank_png(), "NO_TEXT")}
ZIP = {"붙임/자료.zip": make_zip({"a.docx": make_docx("붙임 문서"), "빈.txt": b""})}
ZIP_DOCS = {"붙임/자료.zip/a.docx": None, "붙임/자료.zip/빈.txt": "EMPTY"}
SKIPPED = {".숨김": b"hidden", "~$공문.docx": b"lock"}   # hidden and Office lock files


@pytest.fixture
def folder(tmp_path) -> Path:
    root = tmp_path / "받은문서"
    files = {**GOOD, **{k: v for k, (v, _) in BAD.items()}, **ZIP, **SKIPPED}
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    return root


def _expected() -> dict:
    out = {name: None for name in GOOD}
    out.update({name: reason for name, (_, reason) in BAD.items()})
    out.update(ZIP_DOCS)
    return out


def test_folder_json_gives_one_line_per_document(folder, capsys):
    assert main(["parse", str(folder), "--json"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    docs = [Document.from_json(line) for line in lines]
    expected = _expected()
    assert sorted(d.source.filename for d in docs) == sorted(expected)
    for doc in docs:
        reason = expected[doc.source.filename]
        if reason is not None:
            assert (doc.readable, doc.reason) == (False, reason), doc.source.filename
        else:
            assert doc.readable, doc.source.filename
        if not doc.readable:
            assert HANGUL.search(doc.access.reason_text), doc.source.filename
    readable = sum(d.readable for d in docs)
    assert err.strip() == wording.folder_summary(len(docs), readable, len(docs) - readable)


def test_folder_text_names_every_failure_in_korean(folder, capsys):
    assert main(["parse", str(folder)]) == 0
    out, err = capsys.readouterr()
    lines = [line for line in out.splitlines() if not line.startswith("    ")]
    expected = _expected()
    assert len(lines) == len(expected)
    for name, reason in expected.items():
        (line,) = [line for line in lines if f"  {name} (" in line]
        if reason is not None:
            assert line.startswith("못 읽음") and wording.reason_text(reason) in line
    total = len(expected)
    unread = sum(line.startswith("못 읽음") for line in lines)
    assert err == "\n" + wording.folder_summary(total, total - unread, unread) + "\n"


def test_single_file_json_is_one_document(folder, capsys):
    path = folder / "공문.docx"
    assert main(["parse", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    doc = Document.from_dict(json.loads(out))
    (alone,) = parse_bytes(path.read_bytes(), "공문.docx")
    assert (doc.doc_id, doc.source, doc.access) == (alone.doc_id, alone.source, alone.access)
    assert err == ""


def test_single_zip_json_is_one_line_per_member(folder, capsys):
    assert main(["parse", str(folder / "붙임" / "자료.zip"), "--json"]) == 0
    out, _ = capsys.readouterr()
    names = [Document.from_json(line).source.filename for line in out.splitlines()]
    assert names == ["자료.zip/a.docx", "자료.zip/빈.txt"]


def test_single_file_text_has_a_korean_summary(folder, capsys):
    assert main(["parse", str(folder / "보안.hwp")]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("못 읽음  보안.hwp") and wording.reason_text("DRM_ENCRYPTED") in out
    assert err == "\n" + wording.folder_summary(1, 0, 1) + "\n"


def test_missing_path_exits_2_with_korean_message(tmp_path, capsys):
    assert main(["parse", str(tmp_path / "없는곳")]) == 2
    _, err = capsys.readouterr()
    assert err.startswith("찾을 수 없습니다")


def test_truth_files_next_to_documents_change_nothing(folder, capsys):
    main(["parse", str(folder), "--json"])
    before = {d["source"]["filename"]: d for d in map(json.loads, capsys.readouterr().out.splitlines())}
    (folder / "공문.docx.truth.json").write_text(
        json.dumps({"readable": False, "reason": "DRM", "snippets": ["없는 글"]}), encoding="utf-8")
    main(["parse", str(folder), "--json"])
    after = {d["source"]["filename"]: d for d in map(json.loads, capsys.readouterr().out.splitlines())}
    assert after.pop("공문.docx.truth.json")["access"]["reason"] == "UNSUPPORTED_FORMAT"
    for name, doc in before.items():
        doc["metrics"].pop("parse_ms"), after[name]["metrics"].pop("parse_ms")
        assert after[name] == doc


def test_installed_command_survives_a_cp949_console(folder):
    noda = Path(sys.executable).with_name("noda")
    if not noda.exists():
        pytest.skip("the noda script is not installed in this environment")
    env = dict(os.environ, PYTHONIOENCODING="cp949")  # as on a Korean Windows with output redirected
    run = subprocess.run([str(noda), "parse", str(folder), "--json"], capture_output=True,
                         env=env, timeout=60)
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    lines = run.stdout.decode("utf-8").splitlines()
    assert len(lines) == len(_expected())
    assert "공문.docx" in {json.loads(line)["source"]["filename"] for line in lines}

    text = subprocess.run([str(noda), "parse", str(folder)], capture_output=True, env=env, timeout=60)
    assert text.returncode == 0, text.stderr.decode("cp949", "replace")
    assert "못 읽음  보안.hwp" in text.stdout.decode("cp949")  # '—' is not in CP949: replaced, no crash
