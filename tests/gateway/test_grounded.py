"""Grounded answers: evidence from a real generated tenant, a real loopback model, and the verify check."""
from __future__ import annotations

import socket

import pytest

from engine import wording
from engine.gateway import Gateway, GatewayConfig
from engine.gateway import grounded
from engine.library.tenant import Tenant
from tests.gateway import samples
from tests.gateway.llm_server import Answer, LLMServer
from tests.gateway.test_offline import make_tenant

QUESTION = "신청기간은 언제까지인가?"


@pytest.fixture(scope="module")
def tenant(tmp_path_factory):
    root = tmp_path_factory.mktemp("grounded")
    make_tenant(root / "갑")
    t = Tenant(root / "갑", cache_root=root / "cache", workers=1)
    t.refresh()
    yield t
    t.close()


def ask(tenant, text: str, **settings) -> tuple[dict, LLMServer]:
    with LLMServer([Answer(json=samples.chat_json(text=text))]) as server:
        gw = Gateway(GatewayConfig(base_url=server.base, model="m", stream=False, **settings), "k")
        result = grounded.answer(tenant, QUESTION, gw)
    return result, server


def codes(result: dict) -> list[str]:
    return [f["code"] for f in result["flags"]]


def test_a_cited_answer_is_verified_and_points_at_the_file(tenant):
    result, server = ask(tenant, "신청기간은 8월 28일까지입니다 [1].")
    [req] = server.received
    system, user = req.body["messages"]
    assert system["role"] == "system" and "[1]" in system["content"]
    assert "[1] 공고.docx" in user["content"] and "8월 28일까지" in user["content"]
    assert QUESTION in user["content"]
    assert result["answered"] is True and result["reason"] is None
    assert result["made_by"] == wording.gateway_text("made_by") == "LLM 게이트웨이 · 인용 검증됨"
    assert result["text"] == "신청기간은 8월 28일까지입니다 [1]."
    assert result["grounded"] is True and result["flags"] == []
    [citation] = result["citations"]
    assert citation["n"] == 1 and citation["filename"] == "공고.docx" and citation["anchors"]
    assert [s["filename"] for s in result["skipped"]] == ["빈파일.hwpx"]
    assert result["gateway"]["host"] == "127.0.0.1" and result["gateway"]["external"] is False


def test_numbers_missing_from_the_evidence_are_flagged(tenant):
    result, _ = ask(tenant, "신청기간은 8월 28일까지이고 예산은 70억 원입니다 [1].")
    assert result["answered"] is True and result["grounded"] is False
    assert "70" in result["unsupported_numbers"]
    assert "UNSUPPORTED_NUMBERS" in codes(result)
    assert any("70" in f["text"] for f in result["flags"])


def test_the_evidence_page_of_an_llm_answer_shows_its_model_flags_and_marked_source(tenant):
    from engine.answer.evidence import evidence_html
    result, _ = ask(tenant, "신청기간은 8월 28일까지이고 예산은 70억 원입니다 [1].")
    page = evidence_html(tenant, result)
    assert wording.gateway_text("made_by") in page and "모델 m, 127.0.0.1" in page
    assert wording.evidence_text("flags_head") in page
    assert wording.gateway_text("UNSUPPORTED_NUMBERS", numbers="70") in page
    assert "<mark>" in page and "8월 28일까지" in page


def test_a_reference_to_no_source_is_flagged(tenant):
    result, _ = ask(tenant, "신청기간은 8월 28일까지입니다 [7].")
    assert result["grounded"] is False and "UNKNOWN_REFS" in codes(result)


def test_an_answer_without_citations_is_flagged(tenant):
    result, _ = ask(tenant, "신청기간은 8월 28일까지입니다.")
    assert result["answered"] is True and result["grounded"] is False
    assert codes(result) == ["NO_CITATIONS"] and result["citations"] == []


def test_a_quote_the_chunk_does_not_hold_is_flagged(tenant):
    result, _ = ask(tenant, "공고에는 「신청기간은 9월 30일까지」라고 적혀 있습니다 [1].")
    assert result["grounded"] is False and "UNFOUND_QUOTES" in codes(result)


def test_an_unreachable_gateway_says_so_and_does_not_fall_back(tenant):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    gw = Gateway(GatewayConfig(base_url=f"http://127.0.0.1:{port}/v1", model="m", retries=1),
                 sleep=lambda seconds: None)
    result = grounded.answer(tenant, QUESTION, gw)
    assert result["answered"] is False and result["reason"] == "GATEWAY_UNREACHABLE"
    assert result["reason_text"] == wording.gateway_text("GATEWAY_UNREACHABLE")
    assert result["made_by"] is None and result["text"] == "" and result["citations"] == []


def test_no_evidence_means_no_request(tenant):
    with LLMServer([Answer(json=samples.chat_json())]) as server:
        gw = Gateway(GatewayConfig(base_url=server.base, model="m", stream=False))
        result = grounded.answer(tenant, "양자역학", gw)
    assert result["answered"] is False and result["reason"] == "NO_MATCH"
    assert server.received == []


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
@pytest.mark.parametrize("fmt", sorted(samples.STREAMS))
def test_every_format_answers_with_verified_citations(tenant, fmt, stream):
    answer = Answer(sse=samples.STREAMS[fmt]()) if stream else Answer(json=samples.BODIES[fmt]())
    with LLMServer([answer]) as server:
        gw = Gateway(GatewayConfig(format=fmt, base_url=server.base, model="m", stream=stream), "k")
        result = grounded.answer(tenant, QUESTION, gw)
    [request] = server.received
    assert request.body.get("stream", False) is stream
    assert result["answered"] and result["text"] == samples.TEXT
    assert result["grounded"] is True and result["flags"] == []
    [citation] = result["citations"]
    assert citation["filename"] == "공고.docx" and "8월 28일까지" in citation["quote"]
