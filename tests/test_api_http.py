"""`noda serve` over real HTTP on 127.0.0.1: every route, the token, the Host check, no CORS, the usage log.

One server process (started as a user would start it) serves a small folder for the whole module;
nothing here connects anywhere but 127.0.0.1.
"""
from __future__ import annotations

import base64
import http.client
import json
import os
import socket
import stat
import subprocess
import sys
import urllib.parse

import pytest

from tests.api_client import NodaClient
from tests.documents import docx_bytes

NOTICE = "신청기간은 8월 28일까지다."
MAX_UPLOAD = 200_000
ROUTES = [("GET", "/documents"), ("POST", "/documents"), ("POST", "/search"), ("POST", "/answer"),
          ("GET", "/view"), ("POST", "/view"), ("POST", "/parse"), ("POST", "/chunk"), ("POST", "/context"),
          ("POST", "/verify"), ("GET", "/openapi.json"), ("GET", "/usage")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def noda(*args, env, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "noda_desktop.cli", *map(str, args)], env=env, **kwargs)


class Served:
    def __init__(self, root, folder, port, env, process):
        self.root, self.folder, self.port, self.env, self.process = root, folder, port, env, process
        self.token = (root / "config" / "api-token").read_text().strip()
        self.client = NodaClient(f"http://127.0.0.1:{port}", self.token)

    def raw(self, method: str, path: str, body: bytes = b"", headers: dict | None = None):
        """(status, headers, body) with exactly these headers (http.client: even a foreign Host)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.putrequest(method, path, skip_host="Host" in (headers or {}), skip_accept_encoding=True)
            for k, v in (headers or {}).items():
                conn.putheader(k, v)
            conn.putheader("Content-Length", str(len(body)))
            conn.endheaders(body)
            response = conn.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            conn.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("serve")
    folder = root / "갑"
    folder.mkdir()
    (folder / "공고.docx").write_bytes(docx_bytes("2026년 지원사업 공고", NOTICE, "지원 예산은 총 50억 원이다."))
    for i in range(24):
        (folder / f"안내{i:02d}.docx").write_bytes(docx_bytes(f"신청 안내 {i}호: 서류를 갖추어 기간 안에 신청한다."))
    (folder / "빈파일.hwpx").write_bytes(b"")
    env = {**os.environ, "NODA_CONFIG_DIR": str(root / "config"), "NODA_CACHE_DIR": str(root / "cache"),
           "NODA_MAX_UPLOAD": str(MAX_UPLOAD), "NODA_USAGE_LOG": str(root / "usage.jsonl")}
    env.pop("NODA_API_KEY", None)
    port = free_port()
    log = open(root / "serve.log", "w")
    process = noda("serve", folder, "--port", port, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        NodaClient(f"http://127.0.0.1:{port}", timeout=5).wait_ready(90, alive=lambda: process.poll() is None)
    except (RuntimeError, TimeoutError):
        pytest.fail((root / "serve.log").read_text())
    yield Served(root, folder, port, env, process)
    process.terminate()
    process.wait(20)
    log.close()


# ---- protection ----------------------------------------------------------------------------
def test_health_is_open_and_lists_the_folders(served):
    status, health = NodaClient(served.client.base).call("/health", method="GET")
    assert status == 200 and health["ok"] is True and health["auth"] == "bearer"
    assert [t["tenant"] for t in health["tenants"]] == ["갑"] and health["max_upload"] == MAX_UPLOAD
    assert {"/search", "/answer", "/parse", "/openapi.json"} <= set(health["endpoints"])


@pytest.mark.parametrize("method, path", ROUTES)
def test_every_route_but_health_needs_the_token(served, method, path):
    status, headers, body = served.raw(method, path, b'{"query": "x"}')
    assert status == 401 and headers["www-authenticate"] == "Bearer"
    assert json.loads(body)["error"] == "UNAUTHORIZED"
    wrong = served.raw(method, path, b"{}", {"Authorization": "Bearer " + "x" * 43})
    assert wrong[0] == 401


def test_the_token_file_is_readable_by_the_user_only_and_printed_on_request(served):
    path = served.root / "config" / "api-token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and len(served.token) >= 40
    printed = subprocess.run([sys.executable, "-m", "noda_desktop.cli", "serve", "--print-token"], env=served.env,
                             capture_output=True, text=True, timeout=60)
    assert printed.returncode == 0 and printed.stdout.strip() == served.token


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8756", "192.168.0.10"])
def test_a_foreign_host_header_is_refused(served, host):
    auth = {"Authorization": f"Bearer {served.token}"}
    assert served.raw("GET", "/health", headers={"Host": host})[0] == 400
    assert served.raw("POST", "/search", b'{"query": "x"}', {"Host": host, **auth})[0] == 400
    assert served.raw("GET", "/health", headers={"Host": f"localhost:{served.port}"})[0] == 200


def test_no_cors_headers_even_when_a_page_asks(served):
    origin = {"Origin": "http://evil.example"}
    _status, headers, _body = served.raw("GET", "/health", headers=origin)
    assert not [h for h in headers if h.startswith("access-control-")]
    preflight = {**origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization"}
    status, headers, _body = served.raw("OPTIONS", "/search", headers=preflight)
    assert status >= 400 and not [h for h in headers if h.startswith("access-control-")]
    status, headers, _body = served.raw("POST", "/search", b'{"query": "x"}',
                                        {**origin, "Authorization": f"Bearer {served.token}"})
    assert status == 200 and not [h for h in headers if h.startswith("access-control-")]


def test_public_bind_is_refused_without_an_explicit_key(served):
    for extra in ([], ["--key", "short"]):
        done = subprocess.run([sys.executable, "-m", "noda_desktop.cli", "serve", served.folder, "--host", "0.0.0.0",
                               "--port", str(free_port()), *extra], env=served.env, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2 and "--key" in done.stderr


def test_a_busy_port_is_refused_with_exit_2(served):
    done = subprocess.run([sys.executable, "-m", "noda_desktop.cli", "serve", served.folder, "--port",
                           str(served.port)], env=served.env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and str(served.port) in done.stderr


# ---- routes ---------------------------------------------------------------------------------
def test_documents_by_get_and_post(served):
    status, listing = served.client.call("/documents?tenant=%EA%B0%91", method="GET")
    assert status == 200 and listing["tenant"] == "갑" and listing["unreadable"] == 1
    empty = next(d for d in listing["documents"] if d["filename"] == "빈파일.hwpx")
    assert empty["readable"] is False and empty["reason"] == "EMPTY" and empty["reason_text"]
    status, again = served.client.call("/documents", {"tenant": "갑"})
    assert status == 200 and again["documents"] == listing["documents"]
    assert served.client.call("/documents", method="POST")[0] == 200      # no body: the only folder


def test_search_caps_the_limit_and_refuses_a_path_as_tenant(served):
    status, result = served.client.call("/search", {"tenant": "갑", "query": "신청 안내 서류", "limit": 100})
    assert status == 200 and len(result["hits"]) == 20 and result["hits"][0]["anchors"] is not None
    status, payload = served.client.call("/search", {"tenant": "../갑", "query": "신청"})
    assert status == 400 and payload["error"] == "BAD_TENANT"
    assert served.client.call("/search", {"tenant": "없음", "query": "신청"})[0] == 404
    status, payload = served.client.call("/search", {"query": "신청", "limt": 2})
    assert status == 400 and "limt" in payload["error_text"]


def test_a_json_body_sent_as_a_form_type_is_read_as_json(served):
    status, _headers, body = served.raw("POST", "/search", json.dumps({"query": "신청기간"}).encode(),
                                        {"Authorization": f"Bearer {served.token}",
                                         "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 200 and json.loads(body)["hits"]


def test_answer_and_the_llm_refusal(served):
    status, result = served.client.call("/answer", {"question": "신청기간은 언제까지인가?"})
    assert status == 200 and result["answered"] and "8월 28일까지" in result["text"]
    status, payload = served.client.call("/answer", {"question": "신청기간은?", "llm": True})
    assert status == 400 and payload["error"] == "LLM_OFF"


def test_view_by_get_and_post_is_html(served):
    query = urllib.parse.urlencode({"tenant": "갑", "question": "신청기간은 언제까지인가?"})
    status, headers, body = served.client.request("GET", f"/view?{query}")
    assert status == 200 and headers["content-type"].startswith("text/html") and "8월 28일까지" in body.decode()
    status, headers, body = served.client.request(
        "POST", "/view", json.dumps({"question": "신청기간은 언제까지인가?"}).encode())
    assert status == 200 and body.decode().startswith("<!DOCTYPE html>")
    assert served.client.request("GET", "/view?question=x&llm=true")[0] == 400


def test_context_then_verify(served):
    status, evidence = served.client.call("/context", {"query": "신청기간", "budget": 500})
    assert status == 200 and evidence["used"] <= 500 and evidence["sources"]
    n = next(s["n"] for s in evidence["sources"] if s["filename"] == "공고.docx")
    status, check = served.client.call("/verify", {"answer": f"신청은 9월 30일까지입니다 [{n}].",
                                                   "sources": evidence["sources"]})
    assert status == 200 and check["grounded"] is False and check["unsupported_numbers"] == ["30"]


def test_parse_raw_bytes_named_by_a_percent_encoded_header(served):
    name = urllib.parse.quote("보고서.docx")
    status, headers, body = served.client.request("POST", "/parse", docx_bytes(NOTICE), {"X-Filename": name})
    doc = json.loads(body)
    assert status == 200 and doc["source"]["filename"] == "보고서.docx" and doc["blocks"][0]["text"] == NOTICE
    status, _h, body = served.client.request("POST", "/parse?filename=a.hwpx", b"")
    access = json.loads(body)["access"]
    assert status == 200 and access["readable"] is False and access["reason"] == "EMPTY"


def test_parse_json_form_and_its_errors(served):
    data = base64.b64encode(docx_bytes(NOTICE)).decode()
    status, doc = served.client.call("/parse", {"filename": "공고.docx", "data_base64": data})
    assert status == 200 and doc["access"]["readable"] is True
    assert served.client.call("/parse", {"filename": "공고.docx", "data_base64": "%%%"})[1]["error"] == "BAD_BASE64"
    assert served.client.call("/parse", {"data_base64": data})[1]["error"] == "NO_FILENAME"
    status, _h, body = served.client.request("POST", "/parse", docx_bytes(NOTICE))
    assert status == 400 and json.loads(body)["error"] == "NO_FILENAME"


def test_a_file_over_the_limit_is_413(served):
    status, _h, body = served.client.request("POST", "/parse", b"x" * (MAX_UPLOAD + 1), {"X-Filename": "big.pdf"})
    assert status == 413 and json.loads(body)["error"] == "TOO_LARGE"
    far = b"x" * (MAX_UPLOAD * 2)    # beyond what the server reads at all
    status, _h, body = served.client.request("POST", "/chunk", far, {"X-Filename": "big.pdf"})
    assert status == 413


def test_chunk_with_a_budget(served):
    text = " ".join(f"{i}번째 문장은 신청 서류에 관한 안내이다." for i in range(60))
    status, _h, body = served.client.request("POST", "/chunk?budget=200", docx_bytes(text), {"X-Filename": "a.docx"})
    result = json.loads(body)
    assert status == 200 and len(result["chunks"]) > 3 and all(len(c["text"]) <= 200 for c in result["chunks"])


def test_openapi_is_generated_from_the_code_and_there_is_no_docs_page(served):
    status, spec = served.client.call("/openapi.json", method="GET")
    assert status == 200 and spec["openapi"].startswith("3.")
    assert {"/health", "/documents", "/search", "/answer", "/view", "/parse", "/chunk", "/context",
            "/verify"} <= set(spec["paths"])
    assert "SearchRequest" in spec["components"]["schemas"]
    assert spec["components"]["schemas"]["SearchRequest"]["properties"]["limit"]["default"] == 10
    assert "application/octet-stream" in spec["paths"]["/parse"]["post"]["requestBody"]["content"]
    assert spec["components"]["securitySchemes"]
    for page in ("/docs", "/redoc"):
        assert served.client.request("GET", page)[0] == 404


def test_the_usage_log_has_one_line_per_request_and_no_document_text(served):
    served.client.call("/search", {"query": "신청기간 비밀질문"})
    status, usage = served.client.call("/usage", method="GET")
    assert status == 200 and usage["local"]["/search"]["calls"] >= 1 and usage["unknown"]
    text = (served.root / "usage.jsonl").read_text(encoding="utf-8")
    # the line of the /usage call itself is written after its answer was sent and may still be half
    # written: every line the log has finished (up to its last newline) is whole JSON
    lines = [json.loads(line) for line in text[:text.rfind("\n") + 1].splitlines()]
    assert any(line["route"] == "/search" and line["consumer"] == "local" for line in lines)
    assert {"consumer", "route", "status", "bytes_in", "bytes_out", "ms"} <= set(lines[-1])
    for secret in ("비밀질문", "8월 28일", NOTICE, served.token, "evil.example"):
        assert secret not in text
