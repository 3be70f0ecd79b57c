"""The API without HTTP (engine/api): seed 004's rules on real folders, the same layer the CLI, HTTP and MCP call."""
from __future__ import annotations

import base64

import pytest

from engine import wording
from engine.api import Registry, handle
from engine.api import registry as registry_module
from engine.api.fit import fit, size
from engine.library.tenant import Tenant
from tests.documents import docx_bytes

NOTICE = "신청기간은 8월 28일까지다."


def _folder(root, name: str, documents: int = 1):
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "공고.docx").write_bytes(docx_bytes("2026년 지원사업 공고", NOTICE, "지원 예산은 총 50억 원이다."))
    for i in range(documents - 1):
        (folder / f"안내{i:02d}.docx").write_bytes(docx_bytes(f"신청 안내 {i}호: 서류를 갖추어 기간 안에 신청한다."))
    (folder / "빈파일.hwpx").write_bytes(b"")
    return folder


def _snapshot(folder) -> dict:
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """Two folders both named 갑 (one with enough documents for more than 20 hits) and one named 을."""
    root = tmp_path_factory.mktemp("api")
    cache = tmp_path_factory.mktemp("cache")
    first = _folder(root / "가", "갑", documents=25)
    second = _folder(root / "나", "갑")
    third = _folder(root, "을")
    (third / "ACL.json").write_text('{"default": ["*"], "rules": [{"files": "인사*", "allow": ["hr"]}]}',
                                    encoding="utf-8")
    (third / "인사_기준.docx").write_bytes(docx_bytes("인사 기준: 돌고래 평가는 연 2회 한다."))
    before = {f: _snapshot(f) for f in (first, second, third)}
    registry = Registry([first, second, third], config_dir=root / "config",
                        open_tenant=lambda folder: Tenant(folder, cache_root=cache, workers=1))
    yield registry
    registry.close()
    for folder, snapshot in before.items():   # the API never writes into a folder
        assert _snapshot(folder) == snapshot


def test_folders_are_named_by_their_directory_with_a_suffix_on_collision(served):
    status, health = handle(served, "health", {})
    assert status == 200 and health["ok"] is True
    assert [t["tenant"] for t in health["tenants"]] == ["갑", "갑-2", "을"]
    assert "hwp" in health["formats"] and health["max_upload"] > 0
    assert health["llm"]["enabled"] is False and "key" not in health["llm"]


def test_search_caps_the_limit_at_20_and_names_the_tenant(served):
    status, result = handle(served, "search", {"tenant": "갑", "query": "신청 안내 서류", "limit": 500})
    assert status == 200 and result["tenant"] == "갑"
    assert len(result["hits"]) == 20
    hit = result["hits"][0]
    for key in ("score", "found_by", "chunk_id", "doc_id", "filename", "kind", "text", "path", "outline",
                "anchors", "extractors"):
        assert key in hit
    assert [s["filename"] for s in result["skipped"]] == ["빈파일.hwpx"]
    status, second = handle(served, "search", {"tenant": "갑-2", "query": "신청 안내 서류", "limit": 500})
    assert status == 200 and second["tenant"] == "갑-2" and {h["filename"] for h in second["hits"]} == {"공고.docx"}


@pytest.mark.parametrize("name", ["../갑", "갑/..", "a/b", "a\\b", ".."])
def test_a_tenant_that_is_a_path_is_refused_with_400(served, name):
    status, payload = handle(served, "search", {"tenant": name, "query": "신청"})
    assert status == 400 and payload["error"] == "BAD_TENANT" and name in payload["error_text"]


def test_an_unknown_tenant_is_404_and_names_the_ones_there_are(served):
    status, payload = handle(served, "documents", {"tenant": "병"})
    assert status == 404 and payload["error"] == "UNKNOWN_TENANT" and payload["tenants"] == ["갑", "갑-2", "을"]


def test_with_several_folders_the_tenant_must_be_named(served):
    status, payload = handle(served, "search", {"query": "신청"})
    assert status == 400 and payload["error"] == "TENANT_REQUIRED" and "갑-2" in payload["error_text"]


def test_with_one_folder_the_tenant_may_be_left_out(tmp_path):
    registry = Registry([_folder(tmp_path, "병")], open_tenant=lambda f: Tenant(f, cache_root=tmp_path / "c"))
    try:
        status, result = handle(registry, "search", {"query": "신청기간"})
    finally:
        registry.close()
    assert status == 200 and result["tenant"] == "병" and result["hits"][0]["filename"] == "공고.docx"


@pytest.mark.parametrize("body, field", [
    ({"tenant": "갑", "query": "신청", "limt": 3}, "limt"),
    ({"tenant": "갑", "query": 7}, "query"),
    ({"tenant": "갑", "query": "신청", "limit": "많이"}, "limit"),
    ({"tenant": "갑"}, "query"),
])
def test_a_wrong_body_is_400_naming_the_field(served, body, field):
    status, payload = handle(served, "search", body)
    assert status == 400 and payload["error"] == "BAD_REQUEST" and f"‘{field}’" in payload["error_text"]


def test_a_body_that_is_not_an_object_and_an_unknown_action_are_refused(served):
    assert handle(served, "search", ["신청"])[0] == 400
    status, payload = handle(served, "upload", {})
    assert status == 404 and payload["error"] == "NOT_FOUND"


def test_documents_lists_what_could_not_be_read_with_reason_and_next_step(served):
    status, listing = handle(served, "documents", {"tenant": "갑-2"})
    assert status == 200 and listing["tenant"] == "갑-2"
    assert listing["readable"] == 1 and listing["unreadable"] == 1
    empty = next(d for d in listing["documents"] if d["filename"] == "빈파일.hwpx")
    assert empty["readable"] is False and empty["reason"] == "EMPTY"
    assert empty["reason_text"] == wording.reason_text("EMPTY")


def test_a_big_folder_is_listed_in_pages_with_the_totals_of_all(served):
    whole = handle(served, "documents", {"tenant": "갑"})[1]
    assert whole["total"] == len(whole["documents"]) > 20
    pages = [handle(served, "documents", {"tenant": "갑", "start": s, "count": 10})[1] for s in (0, 10, 20)]
    assert [d for p in pages for d in p["documents"]] == whole["documents"]
    assert all(p["total"] == whole["total"] and p["readable"] == whole["readable"] for p in pages)
    assert handle(served, "documents", {"tenant": "갑", "start": -1})[0] == 400


def test_the_principal_is_honoured_as_in_the_cli(served):
    names = lambda body: {d["filename"] for d in handle(served, "documents", body)[1]["documents"]}  # noqa: E731
    assert "인사_기준.docx" not in names({"tenant": "을"})
    assert "인사_기준.docx" in names({"tenant": "을", "principal": "hr"})
    hits = handle(served, "search", {"tenant": "을", "query": "돌고래 평가"})[1]["hits"]
    assert all(h["filename"] != "인사_기준.docx" for h in hits)
    hits = handle(served, "search", {"tenant": "을", "query": "돌고래 평가", "principal": "hr"})[1]["hits"]
    assert hits[0]["filename"] == "인사_기준.docx"


def test_answer_quotes_a_line_with_its_citation(served):
    status, result = handle(served, "answer", {"tenant": "갑-2", "question": "신청기간은 언제까지인가?"})
    assert status == 200 and result["answered"] is True and result["tenant"] == "갑-2"
    assert "8월 28일까지" in result["text"]
    assert result["citations"][0]["filename"] == "공고.docx" and result["made_by"] == wording.answer_text("made_by")


def test_llm_while_the_gateway_is_off_is_400_never_an_extractive_answer(served):
    status, payload = handle(served, "answer", {"tenant": "갑-2", "question": "신청기간은?", "llm": True})
    assert status == 400 and payload["error"] == "LLM_OFF" and payload["reason"] == "GATEWAY_OFF"
    assert payload["error_text"] == wording.gateway_text("GATEWAY_OFF") and "text" not in payload
    status, payload = handle(served, "view", {"tenant": "갑-2", "question": "신청기간은?", "llm": True})
    assert status == 400 and "html" not in payload


def test_view_is_the_evidence_page_of_the_answer(served):
    status, page = handle(served, "view", {"tenant": "갑-2", "question": "신청기간은 언제까지인가?"})
    assert status == 200 and page["answered"] is True
    assert page["html"].startswith("<!DOCTYPE html>") and "8월 28일까지" in page["html"]


def test_context_and_verify_check_an_answer_against_its_sources(served):
    status, evidence = handle(served, "context", {"tenant": "갑-2", "query": "신청기간 예산", "budget": 300})
    assert status == 200 and evidence["used"] <= 300 and evidence["sources"]
    source = next(s for s in evidence["sources"] if s["filename"] == "공고.docx")
    n = evidence["sources"].index(source) + 1
    answer = f"신청기간은 8월 28일까지입니다 [{n}]. 예산은 70억 원입니다 [{n}]."
    status, check = handle(served, "verify", {"tenant": "갑-2", "answer": answer, "sources": evidence["sources"],
                                              "citations": [{"n": n, "quote": "8월 28일까지"}]})
    assert status == 200 and check["grounded"] is False and check["unsupported_numbers"] == ["70"]
    assert check["citations"][0]["found"] is True


# ---- files --------------------------------------------------------------------------------
def _file(name: str, data: bytes) -> dict:
    return {"filename": name, "data_base64": base64.b64encode(data).decode("ascii")}


def test_parse_gives_the_contract_json_and_keeps_only_the_file_name(served):
    status, doc = handle(served, "parse", _file("C:\\내 문서\\공고.docx", docx_bytes("제목", NOTICE)))
    assert status == 200 and doc["source"]["filename"] == "공고.docx" and doc["access"]["readable"] is True
    assert any(NOTICE in b["text"] for b in doc["blocks"])


def test_an_unreadable_file_is_a_200_with_readable_false(served):
    status, doc = handle(served, "parse", _file("깨진.hwp", b"\xd0\xcf\x11\xe0 not really an OLE file"))
    assert status == 200 and doc["access"]["readable"] is False and doc["access"]["reason"]


def test_parse_accepts_raw_bytes_from_a_caller_in_process(served):
    status, doc = handle(served, "parse", {"filename": "공고.docx", "data": docx_bytes(NOTICE)})
    assert status == 200 and doc["blocks"][0]["text"] == NOTICE


@pytest.mark.parametrize("body, code", [
    ({"filename": "공고.docx", "data_base64": "이건 base64가 아니다"}, "BAD_BASE64"),
    ({"data_base64": "AAAA"}, "NO_FILENAME"),
    ({"filename": "", "data_base64": "AAAA"}, "NO_FILENAME"),
    ({"filename": "/", "data": b"x"}, "NO_FILENAME"),
])
def test_a_file_without_a_name_or_with_bad_base64_is_400(served, body, code):
    status, payload = handle(served, "parse", body)
    assert status == 400 and payload["error"] == code


def test_a_file_over_the_upload_limit_is_413(served, monkeypatch):
    monkeypatch.setenv("NODA_MAX_UPLOAD", "1000")
    status, payload = handle(served, "parse", _file("큰.docx", b"x" * 2000))
    assert status == 413 and payload["error"] == "TOO_LARGE" and payload["max_upload"] == 1000
    assert handle(served, "chunk", {"filename": "큰.docx", "data": b"x" * 1001})[0] == 413
    assert handle(served, "parse", _file("작은.docx", b"x" * 900))[0] == 200


def test_chunk_gives_the_document_and_its_chunks_within_the_budget(served):
    text = " ".join(f"{i}번째 문장은 신청 서류에 관한 안내이다." for i in range(60))
    status, result = handle(served, "chunk", {**_file("안내.docx", docx_bytes(text)), "budget": 200})
    assert status == 200 and result["document"]["source"]["filename"] == "안내.docx"
    assert len(result["chunks"]) > 3 and all(len(c["text"]) <= 200 for c in result["chunks"])


def test_a_zip_gives_one_document_per_member(served):
    import io
    import zipfile
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("붙임/공고.docx", docx_bytes(NOTICE))
        zf.writestr("빈.hwpx", b"")
    status, result = handle(served, "parse", _file("자료.zip", buffer.getvalue()))
    assert status == 200 and result["filename"] == "자료.zip"
    assert sorted(d["source"]["filename"] for d in result["documents"]) == ["자료.zip/붙임/공고.docx", "자료.zip/빈.hwpx"]


# ---- folders ------------------------------------------------------------------------------
def test_folders_are_added_and_removed_without_touching_them(tmp_path):
    changes = []
    registry = Registry(open_tenant=lambda f: Tenant(f, cache_root=tmp_path / "c"), on_change=changes.append)
    folder = _folder(tmp_path, "정")
    before = _snapshot(folder)
    try:
        assert handle(registry, "add_folder", {"path": str(tmp_path / "없음")})[0] == 400
        status, added = handle(registry, "add_folder", {"path": str(folder)})
        assert status == 200 and added["tenant"] == "정" and added["tenants"] == ["정"]
        assert handle(registry, "search", {"query": "신청기간"})[1]["hits"]
        status, removed = handle(registry, "remove_folder", {"tenant": "정"})
        assert status == 200 and removed["tenants"] == [] and removed["folder"] == str(folder.resolve())
    finally:
        registry.close()
    assert changes == [[folder.resolve()], []]
    assert _snapshot(folder) == before


def test_a_fixed_folder_list_refuses_add_and_remove(tmp_path):
    registry = Registry([_folder(tmp_path, "무")], editable=False)
    assert handle(registry, "add_folder", {"path": str(tmp_path)})[0] == 403
    assert handle(registry, "remove_folder", {"tenant": "무"})[1]["error"] == "FOLDERS_FIXED"
    assert registry.names() == ["무"]


def test_a_watching_registry_reads_a_file_added_since_the_last_question(tmp_path, monkeypatch):
    monkeypatch.setattr(registry_module, "CHECK_S", 0.0)
    folder = _folder(tmp_path, "기")
    registry = Registry([folder], watch=True, open_tenant=lambda f: Tenant(f, cache_root=tmp_path / "c", workers=1))
    try:
        assert not handle(registry, "search", {"query": "돌고래 사육"})[1]["hits"]
        (folder / "새문서.docx").write_bytes(docx_bytes("돌고래 사육 기준을 새로 정한다."))
        hits = handle(registry, "search", {"query": "돌고래 사육"})[1]["hits"]
        assert hits and hits[0]["filename"] == "새문서.docx"
    finally:
        registry.close()


def test_a_question_asked_while_a_folder_is_first_read_waits_for_the_reading(tmp_path):
    import threading
    folder = _folder(tmp_path, "신")
    for i in range(30):
        (folder / f"가_보고_{i:02d}.docx").write_bytes(docx_bytes(f"{i}번 보고서: 사업 추진 현황을 알린다."))   # read before 공고
    registry = Registry([folder], watch=True, open_tenant=lambda f: Tenant(f, cache_root=tmp_path / "c", workers=1))
    warming = threading.Thread(target=registry.warm)
    try:
        warming.start()
        while not registry.reading("신") and warming.is_alive():
            pass
        hits = handle(registry, "search", {"query": "신청기간"})[1]["hits"]   # not "nothing found" from an empty index
        assert hits and hits[0]["filename"] == "공고.docx"
    finally:
        warming.join()
        registry.close()


def test_a_folder_that_is_gone_is_503(tmp_path):
    import shutil
    folder = _folder(tmp_path, "경")
    registry = Registry([folder], watch=True, open_tenant=lambda f: Tenant(f, cache_root=tmp_path / "c"))
    try:
        shutil.rmtree(folder)
        status, payload = handle(registry, "documents", {})
    finally:
        registry.close()
    assert status == 503 and payload["error"] == "FOLDER_MISSING"


# ---- cutting results ------------------------------------------------------------------------
def test_fit_cuts_the_largest_list_and_says_what_it_kept():
    payload = {"tenant": "갑", "documents": [{"filename": f"{i}.hwp", "text": "가" * 100} for i in range(1000)]}
    cut = fit(payload, 20_000)
    assert size(cut) <= 20_000 and 0 < len(cut["documents"]) < 1000
    assert cut["cut"]["parts"] == [{"path": "documents", "total": 1000, "kept": len(cut["documents"])}]
    assert fit({"a": [1, 2]}, 1000) == {"a": [1, 2]}


def test_fit_cuts_one_long_text_when_there_is_no_list_left_to_shorten():
    cut = fit({"blocks": [{"text": "나" * 300_000}]}, 20_000)
    assert size(cut) <= 20_000 and cut["blocks"][0]["text"].endswith("…")
    assert cut["cut"]["parts"][0]["path"] == "blocks[0].text"
