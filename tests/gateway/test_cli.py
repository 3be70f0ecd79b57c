"""`noda gateway status`: where text would go, in Korean or JSON, never the key."""
from __future__ import annotations

import json

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
