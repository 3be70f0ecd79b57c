"""LLM context (engine/answer/llm_context.py) within its budget, and the /verify rules (engine/answer/verify.py) on a real tenant."""
from __future__ import annotations

import json

import pytest

from engine.answer.llm_context import MAX_BUDGET, context
from engine.korean import split_sentences
from engine.library.tenant import Tenant
from engine.answer.verify import numbers_in, verify
from noda_desktop import cli
from tests.documents import docx_bytes as _docx_bytes




@pytest.fixture(scope="module")
def tenant(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tenant") / "갑"
    folder.mkdir()
    (folder / "공고.docx").write_bytes(_docx_bytes(
        "신청기간은 8월 28일까지다.", "지원 예산은 총 1,250억 원이며 ’26년부터 집행한다."))
    for i in range(1, 7):   # several documents on the same subject: more evidence than a small budget holds
        (folder / f"지침{i}.docx").write_bytes(_docx_bytes(
            f"신청기간 안내 {i}호: " + "서류를 갖추어 신청기간 안에 제출한다. " * 12))
    (folder / "빈파일.hwpx").write_bytes(b"")
    t = Tenant(folder, cache_root=tmp_path_factory.mktemp("cache"), workers=1)
    t.refresh()
    yield t
    t.close()


@pytest.fixture(scope="module")
def evidence(tenant):
    return context(tenant, "신청기간 예산")


def _source_of(evidence: dict, filename: str) -> dict:
    return next(s for s in evidence["sources"] if s["filename"] == filename)


# ---- context -----------------------------------------------------------------------------
def test_context_numbers_its_sources_with_file_page_and_path_headers(evidence):
    assert evidence["sources"] and [s["n"] for s in evidence["sources"]] == list(
        range(1, len(evidence["sources"]) + 1))
    first = evidence["sources"][0]
    assert evidence["context"].startswith(f"[1] {first['filename']} · ")
    for key in ("chunk_id", "doc_id", "kind", "path", "outline", "score", "found_by", "anchors",
                "extractors", "chars", "cut"):
        assert key in first
    assert evidence["budget"] == 4000 and evidence["used"] == len(evidence["context"]) <= 4000
    assert evidence["chunks_searched"] >= len(evidence["sources"])
    assert [s["filename"] for s in evidence["skipped"]] == ["빈파일.hwpx"]


@pytest.mark.parametrize("budget", [150, 400, 900])
def test_context_respects_a_small_budget_and_says_it_cut(tenant, budget):
    result = context(tenant, "신청기간", budget=budget)
    assert result["used"] == len(result["context"]) <= budget
    assert result["truncated"] is True
    headers = [line for line in result["context"].split("\n") if line.startswith("[")]
    assert len(headers) == len(result["sources"])
    assert all(s["chars"] <= budget for s in result["sources"])


def test_context_budget_is_capped(tenant):
    result = context(tenant, "신청기간", budget=10**6)
    assert result["budget"] == MAX_BUDGET and result["truncated"] is False
    assert all(not s["cut"] for s in result["sources"])


# ---- verify ------------------------------------------------------------------------------
def test_a_faithful_answer_is_grounded(tenant, evidence):
    n = _source_of(evidence, "공고.docx")["n"]
    result = verify(tenant, f"신청기간은 8월 28일까지입니다 [{n}]. 예산은 1250억 원입니다 [{n}].",
                    evidence["sources"], citations=[{"n": n, "quote": "8월 28일까지"}])
    assert result["grounded"] is True
    assert result["unsupported_numbers"] == [] and result["unknown_refs"] == [] and result["unknown_sources"] == []
    assert [s["numbers"] for s in result["sentences"]] == [["28"], ["1250"]]
    [checked] = result["citations"]
    assert checked["found"] is True and checked["filename"] == "공고.docx" and checked["anchors"]
    assert {"doc_id": checked["doc_id"], "chunk_id": checked["chunk_id"]} in result["evidence_chunks"]


def test_an_invented_number_is_flagged_in_its_sentence(tenant, evidence):
    n = _source_of(evidence, "공고.docx")["n"]
    result = verify(tenant, f"신청기간은 8월 28일까지입니다 [{n}]. 예산은 50억 원입니다 [{n}].",
                    evidence["sources"])
    assert result["grounded"] is False and result["unsupported_numbers"] == ["50"]
    first, second = result["sentences"]
    assert first["unsupported"] == [] and first["refs"] == [n]
    assert second["numbers"] == ["50"] and second["unsupported"] == ["50"]


def test_a_short_year_in_the_evidence_accepts_the_full_year(tenant, evidence):
    n = _source_of(evidence, "공고.docx")["n"]
    assert verify(tenant, f"2026년부터 집행합니다 [{n}].", evidence["sources"])["grounded"] is True
    assert verify(tenant, f"2027년부터 집행합니다 [{n}].", evidence["sources"])["unsupported_numbers"] == ["2027"]


def test_unknown_refs_sources_and_quotes_are_reported(tenant, evidence):
    sources = evidence["sources"] + [{"doc_id": "sha256:nothing", "chunk_id": "c0001"}]
    result = verify(tenant, "신청기간은 8월 28일까지입니다 [99].", sources,
                    citations=[{"n": 1, "quote": "신청기간은 9월 30일까지"},
                               {"doc_id": "sha256:other", "chunk_id": "c0002", "quote": "아무 말"}])
    assert result["grounded"] is False
    assert result["unknown_refs"] == [99]
    assert {"doc_id": "sha256:nothing", "chunk_id": "c0001"} in result["unknown_sources"]
    assert {"doc_id": "sha256:other", "chunk_id": "c0002"} in result["unknown_sources"]
    assert [c["found"] for c in result["citations"]] == [False, False]


def test_a_chunk_id_only_means_something_with_its_doc_id(tenant, evidence):
    source = evidence["sources"][0]
    result = verify(tenant, "근거를 봅니다 [1].", [{"doc_id": "sha256:wrong", "chunk_id": source["chunk_id"]}])
    assert result["grounded"] is False and result["evidence_chunks"] == []


def test_number_and_sentence_rules():
    assert numbers_in("예산은 3억 원, 보조는 12.5%이고 [12] 2024. 6. 21. 기준 1,000명") == [
        "12.5", "2024", "21", "1,000"]
    assert split_sentences("첫 문장입니다 [1]. 2024. 6. 21.에 둘째 문장\n셋째") == [
        "첫 문장입니다 [1].", "2024. 6. 21.에 둘째 문장", "셋째"]


# ---- CLI ---------------------------------------------------------------------------------
def test_cli_context_and_verify(tenant, evidence, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("NODA_CACHE_DIR", str(tmp_path / "cache"))
    assert cli.main(["context", str(tenant.folder), "신청기간", "--budget", "300", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["used"] <= 300 and printed["truncated"] is True
    n = _source_of(evidence, "공고.docx")["n"]
    (tmp_path / "answer.txt").write_text(f"예산은 70억 원입니다 [{n}].", encoding="utf-8")
    (tmp_path / "sources.json").write_text(json.dumps(evidence, ensure_ascii=False), encoding="utf-8")
    args = ["verify", str(tenant.folder), "--answer-file", str(tmp_path / "answer.txt"),
            "--sources-file", str(tmp_path / "sources.json")]
    assert cli.main(args + ["--json"]) == 1
    assert json.loads(capsys.readouterr().out)["unsupported_numbers"] == ["70"]
    assert cli.main(args) == 1
    assert "70" in capsys.readouterr().out
