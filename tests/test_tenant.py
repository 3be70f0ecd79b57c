"""Tenant: refresh reads only what changed, never writes in the folder, ACL shapes every answer."""
from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest
from docx import Document as Docx

from engine.library.tenant import MAX_LIMIT, REVIEW_CODES, Progress, Tenant, purge
from tests.corpus import CORPUS, requires_corpus

ROOT = Path(__file__).resolve().parent.parent
DOC_KEYS = {"doc_id", "filename", "format", "readable", "chunks", "reason", "reason_text",
            "structure", "review", "review_reasons", "warnings"}


def docx_bytes(*paragraphs: str) -> bytes:
    doc = Docx()
    for text in paragraphs:
        doc.add_paragraph(text)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def docx_variants(texts: list[str]) -> list[bytes]:
    """One DOCX per text, made by swapping the text into one python-docx file (fast)."""
    base = docx_bytes("@@본문@@")
    out = []
    for text in texts:
        buffer = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(base)) as src, zipfile.ZipFile(buffer, "w") as dst:
            for item in src.infolist():
                data = src.read(item)
                if item.filename == "word/document.xml":
                    data = data.replace("@@본문@@".encode(), text.encode())
                dst.writestr(item, data)
        out.append(buffer.getvalue())
    return out


def make_folder(folder: Path) -> Path:
    """A small tenant: docx files, a subfolder, a ZIP with two documents, two unreadable files."""
    (folder / "붙임").mkdir(parents=True)
    (folder / "공고.docx").write_bytes(docx_bytes("신청기간은 8월 28일까지다.", "지원 대상은 청년 농업인이다."))
    (folder / "붙임" / "계획.docx").write_bytes(docx_bytes("돌고래 보호 사업계획을 세운다."))
    (folder / "인사_평가.docx").write_bytes(docx_bytes("연봉 기준은 펭귄 등급표를 따른다."))
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("자료/a.docx", docx_bytes("코끼리 사육 예산은 30억 원이다."))
        zf.writestr("자료/b.docx", docx_bytes("기린 관찰 일정은 9월이다."))
    (folder / "자료.zip").write_bytes(archive.getvalue())
    (folder / "빈파일.hwpx").write_bytes(b"")
    (folder / "깨진.hwp").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600)
    return folder


def snapshot(folder: Path) -> dict:
    """Every path under the folder with its size, mtime and content hash."""
    out = {}
    for path in sorted(folder.rglob("*")):
        st = path.stat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
        out[str(path.relative_to(folder))] = (st.st_size if path.is_file() else 0, st.st_mtime_ns, digest)
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """One refreshed tenant shared by the read-only tests of this module."""
    base = tmp_path_factory.mktemp("built")
    folder = make_folder(base / "갑")
    before = snapshot(folder)
    phases: list[Progress] = []
    tenant = Tenant(folder, cache_root=base / "cache")
    report = tenant.refresh(progress=phases.append)
    yield tenant, report, phases, before
    tenant.close()


def test_first_refresh_reads_every_file(built):
    tenant, report, phases, _ = built
    files = ["공고.docx", "깨진.hwp", "붙임/계획.docx", "빈파일.hwpx", "인사_평가.docx", "자료.zip"]
    assert sorted(report["added"]) == files
    assert report["parsed"] == 6 and report["from_cache"] == 0 and report["unchanged"] == 0
    assert report["changed"] == report["removed"] == [] and not report["cancelled"]
    assert [p.phase for p in phases][0] == "scan" and [p.phase for p in phases][-2:] == ["index", "done"]
    parsing = [p for p in phases if p.phase == "parse"]
    assert [p.done for p in parsing] == list(range(1, 7)) and {p.total for p in parsing} == {6}
    assert {p.current for p in parsing} == set(files)


def test_documents_lists_readable_and_unreadable(built):
    tenant = built[0]
    listing = tenant.documents()
    names = [d["filename"] for d in listing["documents"]]
    assert names == ["공고.docx", "깨진.hwp", "붙임/계획.docx", "빈파일.hwpx", "인사_평가.docx",
                     "자료.zip/자료/a.docx", "자료.zip/자료/b.docx"]
    assert listing["tenant"] == "갑"
    assert (listing["readable"], listing["unreadable"]) == (5, 2)
    assert listing["needs_review"] == 2 + sum(d["review"] for d in listing["documents"])
    assert listing["document_ready_rate"] == round((7 - listing["needs_review"]) / 7, 3)
    assert listing["chunks"] == sum(d["chunks"] for d in listing["documents"]) >= 5
    assert listing["warnings"] == []
    by_name = {d["filename"]: d for d in listing["documents"]}
    for row in listing["documents"]:
        assert set(row) == DOC_KEYS          # no drm_vendor when nobody locked the file
        assert all(r["code"] in REVIEW_CODES for r in row["review_reasons"])
    assert by_name["빈파일.hwpx"]["reason"] == "EMPTY" and by_name["빈파일.hwpx"]["reason_text"]
    assert by_name["깨진.hwp"]["readable"] is False and by_name["깨진.hwp"]["chunks"] == 0
    assert by_name["붙임/계획.docx"]["doc_id"].startswith("sha256:")
    assert by_name["자료.zip/자료/a.docx"]["chunks"] >= 1


def test_search_answers_in_the_seed_shape(built):
    tenant = built[0]
    result = tenant.search("돌고래 보호")
    assert result["query"] == "돌고래 보호" and result["tenant"] == "갑"
    assert result["chunks_searched"] == tenant.documents()["chunks"]
    hit = result["hits"][0]
    assert hit["filename"] == "붙임/계획.docx" and "돌고래" in hit["text"]
    assert hit["found_by"] == "lexical" and hit["chunk_id"].startswith("c")
    assert all({"page", "bbox", "cell_range"} <= set(a) for a in hit["anchors"])
    assert tenant.search("코끼리")["hits"][0]["filename"] == "자료.zip/자료/a.docx"
    assert {s["filename"] for s in result["skipped"]} == {"빈파일.hwpx", "깨진.hwp"}
    assert all(s["reason"] and s["reason_text"] and not s["readable"] for s in result["skipped"])


def test_one_document_its_chunks_and_its_source(built):
    tenant, *_ = built
    doc = tenant.document("붙임/계획.docx")
    assert doc is not None and "돌고래" in doc.all_text()
    assert tenant.chunks("붙임/계획.docx")[0].doc_id == doc.doc_id
    assert tenant.document("빈파일.hwpx").access.reason == "EMPTY"
    assert tenant.document("없는.docx") is None
    assert tenant.source_path("붙임/계획.docx") == tenant.folder / "붙임" / "계획.docx"
    member = tenant.source_path("자료.zip/자료/b.docx")
    assert member is not None and member.name == "b.docx"
    assert member.is_relative_to(tenant.cache_root) and not member.is_relative_to(tenant.folder)
    with zipfile.ZipFile(tenant.folder / "자료.zip") as zf:
        assert member.read_bytes() == zf.read("자료/b.docx")


def test_the_folder_is_never_written(built):
    tenant, _report, _phases, before = built
    tenant.refresh()
    tenant.documents()
    tenant.search("돌고래")
    tenant.source_path("자료.zip/자료/a.docx")
    assert snapshot(tenant.folder) == before
    assert not tenant.cache_root.is_relative_to(tenant.folder)


def test_limit_is_capped(tmp_path):
    folder = tmp_path / "많음"
    folder.mkdir()
    long = "공통어 " + "가나다라마바사 " * 70
    (folder / "긴.docx").write_bytes(docx_bytes(*[f"{i}번째 {long}" for i in range(30)]))
    tenant = Tenant(folder, cache_root=tmp_path / "cache")
    result = tenant.search("공통어", limit=500)     # never refreshed: search reads first
    assert result["chunks_searched"] >= 25
    assert len(result["hits"]) == MAX_LIMIT
    tenant.close()


def test_only_the_file_that_changed_is_read_again(tmp_path):
    folder = make_folder(tmp_path / "을")
    tenant = Tenant(folder, cache_root=tmp_path / "cache")
    tenant.refresh()

    again = tenant.refresh()
    assert (again["parsed"], again["from_cache"], again["unchanged"]) == (0, 0, 6)

    (folder / "새문서.docx").write_bytes(docx_bytes("새로 온 두루미 이야기."))
    added = tenant.refresh()
    assert added["added"] == ["새문서.docx"] and added["parsed"] == 1 and added["unchanged"] == 6
    assert tenant.search("두루미")["hits"][0]["filename"] == "새문서.docx"

    (folder / "공고.docx").write_bytes(docx_bytes("신청기간은 9월 30일까지로 늦춘다. 너구리."))
    changed = tenant.refresh()
    assert changed["changed"] == ["공고.docx"] and changed["parsed"] == 1 and changed["added"] == []
    assert tenant.search("너구리")["hits"][0]["filename"] == "공고.docx"
    assert not any("8월 28일" in h["text"] for h in tenant.search("신청기간")["hits"])

    (folder / "붙임" / "계획.docx").unlink()
    removed = tenant.refresh()
    assert removed["removed"] == ["붙임/계획.docx"] and removed["parsed"] == 0
    assert tenant.search("돌고래")["hits"] == []
    assert "붙임/계획.docx" not in [d["filename"] for d in tenant.documents()["documents"]]

    os.utime(folder / "인사_평가.docx", ns=(time.time_ns(), time.time_ns() + 10**9))
    touched = tenant.refresh()
    assert touched["parsed"] == touched["from_cache"] == 0 and touched["changed"] == []

    (folder / "자료.zip").unlink()
    gone = tenant.refresh()
    assert gone["removed"] == ["자료.zip"] and tenant.search("코끼리")["hits"] == []

    moved = folder.with_name("을_뽑힌_드라이브")     # an unplugged drive is not "everything deleted"
    folder.rename(moved)
    with pytest.raises(FileNotFoundError):
        tenant.refresh()
    assert len(tenant.documents()["documents"]) == 5
    moved.rename(folder)
    assert tenant.refresh()["removed"] == []
    tenant.close()


def test_a_rebuilt_index_recounts_the_chunks_it_holds(tmp_path):
    """After an update that chunks differently (a new chunk budget), indexes are rebuilt from the
    parse cache and the listing counts the new chunks — not the ones stored with the old state."""
    folder = make_folder(tmp_path / "갑")
    first = Tenant(folder, cache_root=tmp_path / "cache", workers=1)
    first.refresh()
    counts = {d["filename"]: d["chunks"] for d in first.documents()["documents"]}
    home = first.home
    first.close()
    state = json.loads((home / "state.json").read_text(encoding="utf-8"))
    for entry in state["files"].values():
        for summary in entry["docs"]:
            if summary["chunks"]:
                summary["chunks"] = 99          # what an older chunker left behind
    (home / "state.json").write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")
    shutil.rmtree(home / "index")             # an index under a new INDEX_NAME starts empty
    second = Tenant(folder, cache_root=tmp_path / "cache", workers=1)
    try:
        result = second.refresh()
        assert result["parsed"] == 0                                  # nothing read again
        assert {d["filename"]: d["chunks"] for d in second.documents()["documents"]} == counts
        assert second.search("코끼리 사육 예산")["hits"]
    finally:
        second.close()


def test_the_parse_cache_is_shared_between_tenants(tmp_path):
    first = make_folder(tmp_path / "갑")
    second = tmp_path / "병"
    shutil.copytree(first, second)
    Tenant(first, cache_root=tmp_path / "cache").refresh()
    report = Tenant(second, cache_root=tmp_path / "cache").refresh()
    assert report["parsed"] == 0 and report["from_cache"] == 6


def test_acl_decides_what_each_principal_sees(tmp_path):
    folder = make_folder(tmp_path / "정")
    (folder / "ACL.json").write_text(json.dumps(
        {"default": ["*"], "rules": [{"files": "인사_*", "allow": ["hr", "대표"]},
                                     {"files": "깨진.hwp", "allow": ["hr"]}]},
        ensure_ascii=False), encoding="utf-8")
    tenant = Tenant(folder, cache_root=tmp_path / "cache")
    report = tenant.refresh()
    assert "ACL.json" not in report["added"]

    public, hr = tenant.documents(), tenant.documents("hr")
    public_names = {d["filename"] for d in public["documents"]}
    assert "인사_평가.docx" not in public_names and "깨진.hwp" not in public_names
    assert {d["filename"] for d in hr["documents"]} == public_names | {"인사_평가.docx", "깨진.hwp"}
    assert public["unreadable"] == 1 and hr["unreadable"] == 2
    assert public["chunks"] < hr["chunks"]

    assert tenant.search("펭귄 등급표")["hits"] == []
    assert tenant.search("펭귄 등급표", principal="guest")["hits"] == []
    assert tenant.search("펭귄 등급표", principal="대표")["hits"][0]["filename"] == "인사_평가.docx"
    anonymous, boss = tenant.search("펭귄"), tenant.search("펭귄", principal="대표")
    assert anonymous["chunks_searched"] < boss["chunks_searched"]       # counts leak nothing
    assert [s["filename"] for s in anonymous["skipped"]] == ["빈파일.hwpx"]
    assert {s["filename"] for s in tenant.search("펭귄", principal="hr")["skipped"]} == {
        "빈파일.hwpx", "깨진.hwp"}
    # one index per permission group: anonymous, hr, 대표
    assert len(list((tenant.home / "index").iterdir())) == 3

    # an edited ACL takes effect without re-reading anything
    (folder / "ACL.json").write_text('{"default": ["*"], "rules": []}', encoding="utf-8")
    assert tenant.search("펭귄 등급표")["hits"][0]["filename"] == "인사_평가.docx"
    assert len(list((tenant.home / "index").iterdir())) == 1
    tenant.close()


def test_a_broken_acl_locks_everything(tmp_path):
    folder = make_folder(tmp_path / "무")
    (folder / "ACL.json").write_text('{"default": ["*"], "rules": [{"files": "*"}]', encoding="utf-8")
    tenant = Tenant(folder, cache_root=tmp_path / "cache")
    tenant.refresh()
    for who in (None, "hr"):
        listing = tenant.documents(who)
        assert listing["documents"] == [] and listing["chunks"] == 0
        assert listing["warnings"][0]["code"] == "ACL_BROKEN" and listing["warnings"][0]["text"]
        found = tenant.search("돌고래", principal=who)
        assert found["hits"] == [] and found["skipped"] == [] and found["chunks_searched"] == 0
    assert not (tenant.home / "index").exists() or not any((tenant.home / "index").iterdir())
    tenant.close()


def test_cancel_stops_and_the_next_refresh_finishes(tmp_path):
    folder = make_folder(tmp_path / "취소")
    tenant = Tenant(folder, cache_root=tmp_path / "cache")
    stop = threading.Event()

    def progress(p: Progress) -> None:
        if p.phase == "parse" and p.done >= 2:
            stop.set()

    first = tenant.refresh(progress=progress, cancel=stop)
    assert first["cancelled"]
    done_before = len(first["added"])
    assert 2 <= done_before < 6
    second = tenant.refresh()
    assert not second["cancelled"] and second["unchanged"] == done_before
    assert len(tenant.documents()["documents"]) == 7
    tenant.close()


RESUME_SCRIPT = """
import sys, time
from engine.library import refresh
from engine.library.tenant import Tenant
refresh.FIRST_BATCH_S = 0.0   # commit after every result, so batches exist before the kill however fast parsing is
def progress(p):
    print(p.phase, p.done, flush=True)
    if p.phase == "parse" and p.done >= 30:
        time.sleep(600)
Tenant(sys.argv[1], cache_root=sys.argv[2]).refresh(progress=progress)
"""


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="kills a process group (POSIX)")
@pytest.mark.timeout(180)
def test_a_killed_refresh_resumes_without_reading_again(tmp_path):
    folder = tmp_path / "큰"
    folder.mkdir()
    for i, data in enumerate(docx_variants([f"{i}번 문서의 고유한 글 {i * 7919}." for i in range(60)])):
        (folder / f"문서{i:02d}.docx").write_bytes(data)
    cache = tmp_path / "cache"
    proc = subprocess.Popen([sys.executable, "-c", RESUME_SCRIPT, str(folder), str(cache)],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        for line in proc.stdout:
            if line.split() == ["parse", "30"]:
                break
        time.sleep(1.0)          # let the workers finish what they hold
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    cached = len(list((cache / "parse").rglob("*.json.gz")))
    assert 30 <= cached < 60

    report = Tenant(folder, cache_root=cache).refresh()
    assert report["unchanged"] > 0                   # committed in batches before the kill
    assert report["parsed"] == 60 - cached           # nothing cached is read again
    assert report["unchanged"] + report["from_cache"] == cached
    listing = Tenant(folder, cache_root=cache).documents()
    assert (listing["readable"], listing["unreadable"]) == (60, 0)


@requires_corpus
def test_locked_corpus_files_are_skipped_with_their_reason(tmp_path):
    folder = tmp_path / "코퍼스"
    folder.mkdir()
    for name in ("pyhwp_password-12345.hwp", "nts_010000000000141568_markany-drm.hwp"):
        shutil.copy(CORPUS / name, folder / name)
    tenant = Tenant(folder, cache_root=tmp_path / "cache")
    skipped = {s["filename"]: s for s in tenant.search("문서")["skipped"]}
    assert skipped["pyhwp_password-12345.hwp"]["reason"] == "PASSWORD_PROTECTED"
    drm = skipped["nts_010000000000141568_markany-drm.hwp"]
    assert drm["reason"] == "DRM_ENCRYPTED" and drm["drm_vendor"]
    tenant.close()


def test_purge_removes_cache_state_and_indexes(tmp_path):
    folder = make_folder(tmp_path / "퍼지")
    tenant = Tenant(folder, cache_root=tmp_path / "cache")
    tenant.refresh()
    tenant.source_path("자료.zip/자료/a.docx")
    tenant.close()
    assert purge(tmp_path / "cache").bytes > 0
    assert not any((tmp_path / "cache" / part).exists() for part in ("parse", "tenants", "unpacked"))
    assert Tenant(folder, cache_root=tmp_path / "cache").refresh()["parsed"] == 6


def test_cli_documents_search_and_purge(tmp_path, monkeypatch, capsys):
    from noda_desktop.cli import main

    folder = make_folder(tmp_path / "씨엘아이")
    monkeypatch.setenv("NODA_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["documents", str(folder), "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert listing["readable"] == 5 and listing["unreadable"] == 2
    assert main(["search", str(folder), "돌고래", "--limit", "3", "--json", "--principal", "hr"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["hits"][0]["filename"] == "붙임/계획.docx" and len(found["skipped"]) == 2
    assert main(["search", str(folder), "돌고래"]) == 0
    assert "붙임/계획.docx" in capsys.readouterr().out
    assert main(["cache", "purge"]) == 0
    assert "KB" in capsys.readouterr().out and not (tmp_path / "cache" / "parse").exists()
    assert main(["documents", str(tmp_path / "없음")]) == 2
