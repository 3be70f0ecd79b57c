"""Off unless internal: the host rule, describe(), saved settings, the key file, and the key kept out of logs."""
from __future__ import annotations

import json
import logging
import os
import socket
import stat
import sys

import pytest

from engine import wording
from engine.gateway import Gateway, GatewayConfig, GatewayError, load_config, load_key, save_config, save_key
from engine.gateway.policy import DEFAULT_ALLOWED, is_internal, parse_url
from tests.gateway.llm_server import Answer, LLMServer, sse_event

KEY = "sk-live-SECRET-4f9a8b7c6d5e"


@pytest.mark.parametrize("host, internal", [
    ("127.0.0.1", True), ("127.8.9.10", True), ("::1", True), ("localhost", True), ("gpu.localhost", True),
    ("10.1.2.3", True), ("172.16.0.9", True), ("172.31.255.1", True), ("192.168.10.20", True),
    ("169.254.1.1", True), ("fd12:3456::1", True), ("::ffff:10.0.0.7", True),
    ("llm.local", True), ("LLM.Local.", True), ("model.internal", True), ("box.home.arpa", True),
    ("8.8.8.8", False), ("172.32.0.1", False), ("100.64.0.1", False), ("2001:4860::8888", False),
    ("api.openai.com", False), ("api.anthropic.com", False), ("local", False), ("evil-local", False),
    ("localhost.evil.com", False), ("llm.local.evil.com", False), ("llm-server", False),
])
def test_internal_host_rule(host, internal):
    assert is_internal(host, DEFAULT_ALLOWED) is internal


def test_allow_list_takes_names_suffixes_and_ranges():
    allowed = ["llm-server", ".intra.example.go.kr", "203.240.0.0/16"]
    assert is_internal("llm-server", allowed)
    assert is_internal("ai.intra.example.go.kr", allowed)
    assert not is_internal("intra.example.go.kr.attacker.com", allowed)
    assert is_internal("203.240.17.5", allowed) and not is_internal("203.241.0.1", allowed)
    assert not is_internal("llm.local", allowed)            # the defaults are only defaults


@pytest.mark.parametrize("url", ["ftp://10.0.0.1/v1", "http://user:pw@10.0.0.1/v1", "http://10.0.0.1/v1?x=1",
                                 "10.0.0.1:8000", "http://:80/", "http://10.0.0.1:99999/"])
def test_unusable_urls_are_refused(url):
    with pytest.raises(GatewayError) as info:
        parse_url(url)
    assert info.value.code == "GATEWAY_BAD_URL"


def test_public_host_is_refused_with_a_korean_reason_and_describe_tells_where():
    gw = Gateway(GatewayConfig(base_url="https://api.openai.com/v1", model="gpt-4.1-mini"), KEY)
    assert not gw.enabled
    info = gw.describe()
    assert info["reason"] == "GATEWAY_EXTERNAL"
    assert info["reason_text"] == wording.gateway_text("GATEWAY_EXTERNAL") and "사내" in info["reason_text"]
    assert info["host"] == "api.openai.com" and info["external"] is True and info["key"] is True
    assert KEY not in json.dumps(info, ensure_ascii=False)
    with pytest.raises(GatewayError) as raised:
        gw.complete("q")
    assert raised.value.code == "GATEWAY_EXTERNAL"


def test_describe_an_internal_gateway():
    gw = Gateway(GatewayConfig(format="anthropic", base_url="http://10.0.0.5:8080/v1", model="m",
                               proxy="http://proxy.internal:3128"), KEY)
    assert gw.describe() == {
        "configured": True, "enabled": True, "format": "anthropic", "host": "10.0.0.5",
        "endpoint": "http://10.0.0.5:8080/v1/messages", "model": "m", "external": False,
        "proxy": "proxy.internal:3128", "key": True, "reason": None, "reason_text": None}


@pytest.mark.parametrize("settings, code", [
    ({}, "GATEWAY_OFF"),
    ({"base_url": "http://10.0.0.5/v1", "model": ""}, "GATEWAY_BAD_CONFIG"),
    ({"base_url": "http://10.0.0.5/v1", "model": "m", "format": "gemini"}, "GATEWAY_BAD_CONFIG"),
    ({"base_url": "http://10.0.0.5/v1", "model": "m", "proxy": "https://proxy.local:3128"}, "GATEWAY_BAD_URL"),
])
def test_gateway_stays_off_until_fully_configured(settings, code):
    gw = Gateway(GatewayConfig(**settings))
    assert not gw.enabled and gw.describe()["reason"] == code
    assert wording.gateway_text(code) == gw.describe()["reason_text"]


@pytest.mark.parametrize("key", ["내부-키", "sk key", "sk-\tkey"])
def test_a_key_a_request_header_cannot_carry_is_refused_before_sending(key):
    gw = Gateway(GatewayConfig(base_url="http://10.0.0.5/v1", model="m"), key)
    assert not gw.enabled and gw.describe()["reason"] == "GATEWAY_BAD_KEY"
    assert "API 키" in gw.describe()["reason_text"]


def test_off_gateway_opens_no_connection(monkeypatch):
    calls = []
    monkeypatch.setattr(socket.socket, "connect", lambda self, address: calls.append(address))
    for settings in ({}, {"base_url": "https://api.openai.com/v1", "model": "m"}):
        with pytest.raises(GatewayError):
            Gateway(GatewayConfig(**settings), KEY).complete("q")
    assert calls == []


# ---- saved settings and key ----------------------------------------------------------
def test_settings_round_trip_and_default_is_off(tmp_path):
    assert not Gateway.load(tmp_path).enabled
    assert load_config(tmp_path) == GatewayConfig()
    config = GatewayConfig(format="openai-responses", base_url="http://llm.local:8000/v1", model="qwen",
                           allowed_hosts=[".local", "203.240.0.0/16"], per_minute=30, retry_interval_s=1.0)
    save_config(config, tmp_path)
    assert load_config(tmp_path) == config
    assert KEY not in (tmp_path / "gateway.json").read_text(encoding="utf-8")


def test_broken_or_mistyped_settings_fall_back_to_defaults(tmp_path):
    (tmp_path / "gateway.json").write_text("{not json", encoding="utf-8")
    assert load_config(tmp_path) == GatewayConfig()
    (tmp_path / "gateway.json").write_text(json.dumps(
        {"base_url": 5, "model": "m", "retries": "3", "stream": 1, "allowed_hosts": [".x", 7],
         "retry_interval_s": 0.5, "per_second": 2}), encoding="utf-8")
    config = load_config(tmp_path)
    assert (config.base_url, config.model, config.retries, config.stream) == ("", "m", 3, True)
    assert config.allowed_hosts == list(DEFAULT_ALLOWED)
    assert config.retry_interval_s == 0.5 and config.per_second == 2


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_key_file_is_for_the_user_only(tmp_path):
    assert load_key(tmp_path) == ""
    save_key(KEY + "\n", tmp_path)
    path = tmp_path / "gateway.key"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert load_key(tmp_path) == KEY
    save_key("", tmp_path)
    assert not path.exists() and load_key(tmp_path) == ""


def test_the_key_never_reaches_logs_or_error_messages(caplog):
    echo = f"invalid api key: {KEY}"
    script = [Answer(status=500, text=echo), Answer(status=401, json={"error": {"message": echo}})]
    caplog.set_level(logging.DEBUG)
    with LLMServer(script) as server:
        gw = Gateway(GatewayConfig(base_url=server.base, model="m", stream=False), KEY, sleep=lambda s: None)
        with pytest.raises(GatewayError) as info:
            gw.complete("q")
        with LLMServer([Answer(sse=[sse_event({"error": {"message": echo}})])]) as streaming:
            with pytest.raises(GatewayError) as streamed:
                Gateway(GatewayConfig(base_url=streaming.base, model="m"), KEY).complete("q")
    assert server.received[0].headers["authorization"] == f"Bearer {KEY}"     # it was sent …
    assert info.value.code == "GATEWAY_AUTH" and "invalid api key" in str(info.value)
    for text in (str(info.value), repr(info.value), info.value.detail, str(streamed.value), caplog.text,
                 json.dumps(gw.describe())):
        assert KEY not in text                                                # … and never shown
    assert "retry 1" in caplog.text                                           # the log did speak
