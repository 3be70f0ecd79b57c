"""Names and the private cache (issue 14, cases 5 and 7): NFD names under NFC rules, escaped names,
cache modes, removed files forgotten, purge by folder or file following no link, links out of a folder."""
from __future__ import annotations

import io
import json
import os
import stat
import sys
import unicodedata
import zipfile
from pathlib import Path

import pytest

from engine.library.acl import parse_acl
from engine.library.tenant import Tenant, purge
from engine.names import name_key, shown_name
from noda_desktop.cli import main
from tests.documents import docx_bytes

NFD = unicodedata.normalize("NFD", "인사_기안.docx")
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes and links")


def _tenant(folder: Path, cache: Path) -> Tenant:
    tenant = Tenant(folder, cache_root=cache)
    tenant.refresh()
    return tenant


# ---- names (case 5, and names shown in text) -------------------------------------------------

def test_an_nfd_file_name_is_covered_by_the_nfc_rule(tmp_path):
    folder = tmp_path / "인사"
    folder.mkdir()
    assert NFD != "인사_기안.docx"
    (folder / NFD).write_bytes(docx_bytes("인사 발령 기안: 김철수 과장 승진"))
    (folder / "공지.docx").write_bytes(docx_bytes("식당 공지: 금요일 휴무"))
    (folder / "ACL.json").write_text(json.dumps({"default": ["*"], "rules": [
        {"files": "인사_*", "allow": ["hr"]}]}, ensure_ascii=False), encoding="utf-8")
    tenant = _tenant(folder, tmp_path / "cache")
    everyone = [d["filename"] for d in tenant.documents()["documents"]]
    assert everyone == ["공지.docx"]
    assert tenant.search("승진")["hits"] == []
    hr = [name_key(d["filename"]) for d in tenant.documents("hr")["documents"]]
    assert "인사_기안.docx" in hr
    assert tenant.document("인사_기안.docx") is not None      # an NFC name finds the NFD file
    assert tenant.source_path("인사_기안.docx") == folder / NFD
    tenant.close()


def test_principals_and_patterns_compare_after_nfc():
    acl = parse_acl(json.dumps({"default": [], "rules": [
        {"files": unicodedata.normalize("NFD", "감사*"), "allow": [unicodedata.normalize("NFD", "감사관")]}]}).encode())
    assert acl.can_see("감사관", "감사_결과.hwpx")
    assert not acl.can_see("감사관", "인사.hwpx") and not acl.can_see(None, "감사_결과.hwpx")


def test_hidden_characters_in_names_are_escaped_when_shown():
    assert shown_name("보고서.hwpx") == "보고서.hwpx"
    assert shown_name("사진\u202Efdp.exe") == "사진\\u202efdp.exe"
    assert shown_name("a\x1b[2Jb\r.txt") == "a\\u001b[2Jb\\u000d.txt"


def test_member_names_with_controls_and_bidi_print_escaped_in_text_mode(tmp_path, capsys):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("계약\u202Excod.exe", b"\0\1")
        zf.writestr("x\x1b[31m빨강.docx", docx_bytes("색이 바뀌면 안 됩니다"))
    (tmp_path / "받음.zip").write_bytes(buf.getvalue())
    assert main(["parse", str(tmp_path / "받음.zip")]) == 0
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\x1b" not in out
    assert "\\u202e" in out and "\\u001b" in out


# ---- the private cache (case 7) ----------------------------------------------------------------

@posix_only
def test_cache_folders_are_0700_and_files_0600(tmp_path):
    folder = tmp_path / "문서"
    folder.mkdir()
    (folder / "a.docx").write_bytes(docx_bytes("개인 정보가 든 문서"))
    cache = tmp_path / "cache"
    tenant = _tenant(folder, cache)
    tenant.source_path("a.docx")
    tenant.close()
    modes = {p: stat.S_IMODE(p.stat().st_mode) for p in [cache, *cache.rglob("*")]}
    assert modes and all(mode == (0o700 if p.is_dir() else 0o600) for p, mode in modes.items()), \
        {str(p.relative_to(cache)): oct(m) for p, m in modes.items() if m not in (0o700, 0o600)}


def test_a_removed_source_file_leaves_the_parse_cache_and_the_index_files(tmp_path):
    folder = tmp_path / "문서"
    folder.mkdir()
    (folder / "비밀.docx").write_bytes(docx_bytes("zebracorn 계획서는 폐기 예정"))
    (folder / "남음.docx").write_bytes(docx_bytes("남는 문서입니다"))
    cache = tmp_path / "cache"
    tenant = _tenant(folder, cache)
    index_bytes = lambda: b"".join(p.read_bytes() for p in (cache / "tenants").rglob("*") if p.is_file())
    assert b"zebracorn" in index_bytes() and len(list(tenant.cache.dir.rglob("*.json.gz"))) == 2
    (folder / "비밀.docx").unlink()
    report = tenant.refresh()
    assert report["removed"] == ["비밀.docx"]
    assert len(list(tenant.cache.dir.rglob("*.json.gz"))) == 1
    assert b"zebracorn" not in index_bytes()
    assert tenant.search("zebracorn")["hits"] == []
    tenant.close()


def test_a_changed_file_leaves_no_copy_of_its_old_text(tmp_path):
    folder = tmp_path / "문서"
    folder.mkdir()
    (folder / "a.docx").write_bytes(docx_bytes("첫 판"))
    tenant = _tenant(folder, tmp_path / "cache")
    (folder / "a.docx").write_bytes(docx_bytes("둘째 판"))
    tenant.refresh()
    (entry,) = tenant.cache.dir.rglob("*.json.gz")
    assert tenant.document("a.docx").all_text() == "둘째 판"
    tenant.close()


def test_cache_purge_by_file_and_by_folder_removes_what_it_reports(tmp_path, monkeypatch, capsys):
    cache = tmp_path / "cache"
    monkeypatch.setenv("NODA_CACHE_DIR", str(cache))
    one, two = tmp_path / "하나", tmp_path / "둘"
    for folder, names in ((one, ["가.docx", "나.docx"]), (two, ["다.docx"])):
        folder.mkdir()
        for name in names:
            (folder / name).write_bytes(docx_bytes(f"{folder.name} 폴더의 {name}"))
        _tenant(folder, cache).close()
    entries = lambda: len(list((cache / "parse").rglob("*.json.gz")))
    assert entries() == 3

    assert main(["cache", "purge", "--file", "가.docx"]) == 0
    out = capsys.readouterr().out
    assert "가.docx" in out and "지운 파일 1개" in out
    assert entries() == 2
    tenant = Tenant(one, cache_root=cache)
    assert [d["filename"] for d in tenant.documents()["documents"]] == ["나.docx"]
    assert tenant.refresh()["parsed"] == 1                      # the next refresh reads it again
    assert [d["filename"] for d in tenant.documents()["documents"]] == ["가.docx", "나.docx"]
    tenant.close()

    assert main(["cache", "purge", "--folder", str(two)]) == 0
    assert "지운 파일" in capsys.readouterr().out
    assert not any(json.loads(p.read_text())["folder"] == str(two.resolve())
                   for p in (cache / "tenants").glob("*/state.json"))
    assert main(["cache", "purge", "--file", "없는.docx"]) == 1


@posix_only
def test_purge_follows_no_link_out_of_the_cache(tmp_path, monkeypatch, capsys):
    outside = tmp_path / "다른곳"
    outside.mkdir()
    (outside / "소중한.txt").write_text("지우면 안 되는 파일")
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "parse").symlink_to(outside, target_is_directory=True)
    (cache / "tenants").mkdir()
    (cache / "tenants" / "밖.txt").symlink_to(outside / "소중한.txt")
    removed = purge(cache)
    assert (outside / "소중한.txt").read_text() == "지우면 안 되는 파일"
    assert (removed.files, removed.bytes, removed.links) == (0, 0, 2)
    assert not (cache / "parse").exists()
    monkeypatch.setenv("NODA_CACHE_DIR", str(cache))
    assert main(["cache", "purge"]) == 0
    assert "0개" in capsys.readouterr().out


@posix_only
def test_links_that_leave_the_folder_are_listed_and_never_followed(tmp_path, capsys):
    outside = tmp_path / "밖"
    outside.mkdir()
    (outside / "기밀.docx").write_bytes(docx_bytes("unicornbudget 기밀 예산"))
    folder = tmp_path / "공유"
    folder.mkdir()
    (folder / "진짜.docx").write_bytes(docx_bytes("이 폴더의 문서"))
    (folder / "바로가기.docx").symlink_to(outside / "기밀.docx")
    (folder / "밖폴더").symlink_to(outside, target_is_directory=True)
    (folder / "안쪽.docx").symlink_to(folder / "진짜.docx")
    tenant = _tenant(folder, tmp_path / "cache")
    rows = {d["filename"]: d["reason"] for d in tenant.documents()["documents"]}
    assert rows == {"진짜.docx": None, "안쪽.docx": None, "바로가기.docx": "LINK_OUTSIDE", "밖폴더": "LINK_OUTSIDE"}
    assert tenant.search("unicornbudget")["hits"] == []
    tenant.close()
    assert main(["parse", str(folder), "--json"]) == 0
    reasons = {json.loads(line)["source"]["filename"]: json.loads(line)["access"]["reason"]
               for line in capsys.readouterr().out.splitlines()}
    assert reasons["바로가기.docx"] == reasons["밖폴더"] == "LINK_OUTSIDE"
