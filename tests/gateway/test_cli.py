"""`noda gateway status`: where text would go, in Korean or JSON, never the key."""
from __future__ import annotations

import json

from engine import wording
from engine.gateway import GatewayConfig, save_config, save_key
from noda_desktop.cli import main

KEY = "sk-cli-secret-77"


def test_status_off_by_default(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NODA_CONFIG_DIR", str(tmp_path))
    assert main(["gateway", "status"]) == 0
    assert "꺼짐" in capsys.readouterr().out


def test_status_of_an_internal_gateway(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NODA_CONFIG_DIR", str(tmp_path))
    save_config(GatewayConfig(base_url="http://10.9.8.7:8000", model="exaone"), tmp_path)
    save_key(KEY, tmp_path)
    assert main(["gateway", "status"]) == 0
    text = capsys.readouterr().out
    assert "켜짐" in text and "http://10.9.8.7:8000/v1/chat/completions" in text and "exaone" in text
    assert main(["gateway", "status", "--json"]) == 0
    out = capsys.readouterr().out
    info = json.loads(out)
    assert info["enabled"] is True and info["external"] is False and info["key"] is True
    assert KEY not in text + out


def test_status_of_a_refused_public_host(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NODA_CONFIG_DIR", str(tmp_path))
    save_config(GatewayConfig(base_url="https://api.anthropic.com", model="claude", format="anthropic"), tmp_path)
    assert main(["gateway", "status", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["enabled"] is False and info["external"] is True and info["reason"] == "GATEWAY_EXTERNAL"


def test_answer_with_llm_says_the_gateway_is_off_and_fails(tmp_path, monkeypatch, capsys):
    from tests.gateway.test_offline import make_tenant
    monkeypatch.setenv("NODA_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("NODA_CACHE_DIR", str(tmp_path / "cache"))
    make_tenant(tmp_path / "갑")
    assert main(["answer", str(tmp_path / "갑"), "신청기간은 언제까지인가?", "--llm"]) == 1
    out = capsys.readouterr().out
    assert wording.gateway_text("GATEWAY_OFF") in out
    assert "발췌" not in out                          # no quiet fallback to extraction


def test_answer_with_llm_through_a_loopback_model(tmp_path, monkeypatch, capsys):
    from tests.gateway import samples
    from tests.gateway.llm_server import Answer, LLMServer
    from tests.gateway.test_offline import make_tenant
    monkeypatch.setenv("NODA_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("NODA_CACHE_DIR", str(tmp_path / "cache"))
    make_tenant(tmp_path / "갑")
    reply = "신청기간은 8월 28일까지입니다 [1]. 예산은 70억 원입니다 [1]."
    with LLMServer([Answer(sse=samples.chat_stream(parts=[reply]))]) as server:
        save_config(GatewayConfig(base_url=server.base + "/v1", model="exaone"), tmp_path / "config")
        save_key(KEY, tmp_path / "config")
        assert main(["answer", str(tmp_path / "갑"), "신청기간은 언제까지인가?", "--llm", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    [request] = server.received
    assert request.path == "/v1/chat/completions" and request.headers["authorization"] == f"Bearer {KEY}"
    assert result["made_by"] == wording.gateway_text("made_by") and result["text"] == reply
    [citation] = result["citations"]
    assert citation["filename"] == "공고.docx" and "8월 28일까지" in citation["quote"]
    assert result["unsupported_numbers"] == ["70"] and result["grounded"] is False
    assert KEY not in json.dumps(result, ensure_ascii=False)
