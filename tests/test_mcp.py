"""`noda mcp` as agents use it: through the official SDK's stdio client, and through a hand-written
newline JSON-RPC client that speaks protocol 2024-11-05 exactly as the Norma SDK does (seed 000):
initialize with empty capabilities, notifications/initialized, tools/list, tools/call, lines up to 8 MiB,
results read by joining content[].text."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import anyio
import pytest

from tests.documents import docx_bytes

NOTICE = "신청기간은 8월 28일까지다."
LINE_LIMIT = 8 * 1024 * 1024
TOOLS = {"parse", "documents", "search", "context", "verify", "answer", "add_folder", "remove_folder"}


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    root = tmp_path_factory.mktemp("mcp")
    folder = root / "갑"
    folder.mkdir()
    (folder / "공고.docx").write_bytes(docx_bytes("2026년 지원사업 공고", NOTICE, "지원 예산은 총 50억 원이다."))
    (folder / "빈파일.hwpx").write_bytes(b"")
    other = root / "을"
    other.mkdir()
    (other / "회의.docx").write_bytes(docx_bytes("회의 결과: 돌고래 조사는 다음 달에 한다."))
    long_text = "\n".join(f"{i}번째 긴 문단입니다. " + "가나다라마바사아자차카타파하 " * 70 for i in range(1200))
    (root / "긴문서.docx").write_bytes(docx_bytes(*long_text.split("\n")))
    env = {"NODA_CONFIG_DIR": str(root / "config"), "NODA_CACHE_DIR": str(root / "cache"),
           "NODA_USAGE_LOG": str(root / "usage.jsonl"), "NODA_KEYRING": "off"}
    return root, folder, other, env


class NormaLikeClient:
    """Newline-delimited JSON-RPC over the server's stdio, as seed 000 describes the Norma SDK's client."""

    def __init__(self, args, env, program=(sys.executable, "-m", "noda_desktop.cli")):
        self.process = subprocess.Popen([*map(str, program), "mcp", *map(str, args)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        env={**os.environ, **env})
        self.next_id = 0
        self.lines: list[bytes] = []

    def send(self, message: dict) -> None:
        self.process.stdin.write(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            line = self.process.stdout.readline(LINE_LIMIT + 1)
            assert line, "the server closed its output"
            assert len(line) <= LINE_LIMIT and line.endswith(b"\n"), "a line over 8 MiB"
            self.lines.append(line)
            try:
                message = json.loads(line)
            except ValueError:
                continue                  # the Norma reader skips frames it cannot parse …
            if "id" not in message or message["id"] == 0:
                continue                  # … notifications and id-0 responses
            assert message["id"] == self.next_id
            return message

    def call(self, name: str, arguments: dict) -> tuple[bool, dict]:
        result = self.request("tools/call", {"name": name, "arguments": arguments})["result"]
        text = "".join(c["text"] for c in result["content"] if c.get("type") == "text")
        return result.get("isError", False), json.loads(text)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(30)


def test_a_norma_like_client_speaking_2024_11_05(setup):
    root, folder, other, env = setup
    client = NormaLikeClient([folder], env)
    timer = threading.Timer(240, client.process.kill)   # a hung server fails the test instead of the suite
    timer.start()
    try:
        init = client.request("initialize", {"protocolVersion": "2024-11-05", "capabilities": {},
                                             "clientInfo": {"name": "norma", "version": "0.2"}})
        assert init["result"]["protocolVersion"] == "2024-11-05" and "tools" in init["result"]["capabilities"]
        client.send({"jsonrpc": "2.0", "method": "notifications/initialized", "params": {}})
        tools = client.request("tools/list", {})["result"]["tools"]
        assert {t["name"] for t in tools} == TOOLS
        for tool in tools:
            assert tool["description"] and tool["inputSchema"]["type"] == "object"

        failed, found = client.call("search", {"query": "신청기간", "limit": 3})
        assert not failed and found["tenant"] == "갑" and found["hits"][0]["filename"] == "공고.docx"
        failed, answer = client.call("answer", {"question": "신청기간은 언제까지인가?"})
        assert not failed and "8월 28일까지" in answer["text"] and answer["citations"]
        failed, listing = client.call("documents", {})
        assert not failed and [d["filename"] for d in listing["documents"] if not d["readable"]] == ["빈파일.hwpx"]
        failed, evidence = client.call("context", {"query": "예산", "budget": 400})
        assert not failed and evidence["sources"]
        failed, check = client.call("verify", {"answer": "예산은 70억 원입니다 [1].", "sources": evidence["sources"]})
        assert not failed and check["unsupported_numbers"] == ["70"]

        failed, refused = client.call("search", {"tenant": "../갑", "query": "x"})
        assert failed and refused["error"] == "BAD_TENANT"
        failed, refused = client.call("answer", {"question": "신청기간은?", "llm": True})
        assert failed and refused["error"] == "LLM_OFF"

        failed, doc = client.call("parse", {"path": str(folder / "공고.docx")})
        assert not failed and doc["blocks"][1]["text"] == NOTICE
        failed, big = client.call("parse", {"path": str(root / "긴문서.docx")})
        assert not failed and big["cut"]["note"] and big["source"]["filename"] == "긴문서.docx"

        failed, added = client.call("add_folder", {"path": str(other)})
        assert not failed and added["tenants"] == ["갑", "을"]
        failed, refused = client.call("search", {"query": "돌고래"})
        assert failed and refused["error"] == "TENANT_REQUIRED" and refused["tenants"] == ["갑", "을"]
        failed, removed = client.call("remove_folder", {"tenant": "을"})
        assert not failed and removed["tenants"] == ["갑"] and (other / "회의.docx").is_file()
        assert client.call("nothing", {})[0] is True
    finally:
        timer.cancel()
        client.close()
    assert all(len(line) < 3 * 1024 * 1024 for line in client.lines)   # far below the 8 MiB a line may take
    usage = (root / "usage.jsonl").read_text(encoding="utf-8")
    assert '"consumer": "mcp"' in usage and NOTICE not in usage and "신청기간" not in usage


def test_the_official_sdk_client_over_stdio(setup):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    root, folder, _other, env = setup
    params = StdioServerParameters(command=sys.executable, args=["-m", "noda_desktop.cli", "mcp", str(folder)],
                                   env=env)

    async def session(mode):
        with anyio.fail_after(240):
            async with Client(params, mode=mode, read_timeout_seconds=120) as client:
                names = {t.name for t in (await client.list_tools()).tools}
                search = await client.call_tool("search", {"query": "신청기간"})
                answer = await client.call_tool("answer", {"question": "신청기간은 언제까지인가?"})
                return client.protocol_version, names, search, answer

    versions = set()
    for mode in ("legacy", "auto"):   # the initialize handshake, and the SDK's newest protocol
        version, names, search, answer = anyio.run(session, mode)
        versions.add(version)
        assert names == TOOLS
        assert not search.is_error and json.loads(search.content[0].text)["hits"][0]["filename"] == "공고.docx"
        assert not answer.is_error and "8월 28일까지" in json.loads(answer.content[0].text)["text"]
    assert len(versions) == 2, versions
