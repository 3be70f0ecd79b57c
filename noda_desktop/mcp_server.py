"""`noda mcp [FOLDER…]`: the engine as MCP tools over stdio, for agents (the official ``mcp`` SDK).

Each tool calls the same route as the HTTP API (engine/api/routes.py) and
answers with one ``text`` content holding the route's JSON — what a minimal
client (one that only joins ``content[].text``) needs; a refused call is
``isError`` with the error JSON. A result larger than ``MAX_RESULT_BYTES`` is
cut with a note (engine/api/fit.py), so each JSON-RPC line stays far below
the 8 MiB a line-reading client takes. The SDK negotiates the protocol
version (2024-11-05 up to the current one) and keeps stray output of our
parser processes off the wire (fd 1 points at stderr while it serves).

Without folders the server uses the window's saved folders, and
``add_folder``/``remove_folder`` change that saved list; nothing is ever
copied into or deleted from a folder.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Optional

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from pydantic import BaseModel, Field

from engine import __version__, wording
from engine.api import ApiError, Registry, handle
from engine.api.files import max_upload
from engine.api.fit import fit
from engine.api.schemas import (AnswerRequest, ContextRequest, DocumentsRequest, SearchRequest, StrictBody,
                                VerifyRequest)
from engine.api.usage import Usage
from engine.wording import fields
from noda_desktop.serve import saved_registry, usage_path, warm_up

MAX_RESULT_BYTES = 2 * 1024 * 1024
INSTRUCTIONS = ("노다: 이 PC의 업무 문서 폴더(한글·PDF·워드·엑셀·그림·ZIP)에서 찾고, 답마다 파일·쪽·자리를 "
                "근거로 붙인다. documents 로 폴더와 못 읽은 문서를 보고, search·context 로 근거를 받고, "
                "제 답은 verify 로 근거와 맞춰 본다. 폴더가 여럿이면 tenant 에 폴더 이름을 준다.")


class ParseArgs(StrictBody):
    """A file on this PC by ``path``, or a file's bytes as ``filename`` and ``data_base64``."""

    path: Optional[str] = Field(None, description=fields.FILE_PATH)
    filename: Optional[str] = Field(None, description=fields.FILE_NAME)
    data_base64: Optional[str] = Field(None, description=fields.DATA_BASE64)


class AddFolderArgs(StrictBody):
    path: str = Field(description=fields.WATCH_PATH)


class RemoveFolderArgs(StrictBody):
    tenant: Optional[str] = Field(None, description=fields.REMOVE_TENANT)
    path: Optional[str] = Field(None, description=fields.REMOVE_PATH)


# tool name -> (route, arguments model, description)
TOOLS: dict[str, tuple[str, type[BaseModel], str]] = {
    "parse": ("parse", ParseArgs, "읽기 — 파일 하나를 읽어 계약의 문서 JSON(블록·표·구조·못 읽은 까닭)을 돌려준다. "
              "저장하지 않는다"),
    "documents": ("documents", DocumentsRequest, "목록 — 폴더에 무엇이 들어와 있고 무엇을 못 읽었는지 (사유와 할 일)"),
    "search": ("search", SearchRequest, "찾기 — 질의에 맞는 조각과 인용 근거(파일·쪽·좌표). 온 차례가 엔진의 차례다"),
    "context": ("context", ContextRequest, "근거 — 제 LLM 에게 넘길 번호 붙은 근거 묶음 ([n] 파일 · 쪽 · 제목 경로)"),
    "verify": ("verify", VerifyRequest, "검증 — 답을 근거에 대어 근거에 없는 숫자·인용·번호를 자리로 알려 준다"),
    "answer": ("answer", AnswerRequest, "답 — 문서에서 발췌한 답 한두 줄과 줄마다 인용. llm: true 면 사내 LLM 게이트웨이"),
    "add_folder": ("add_folder", AddFolderArgs, "넣기 — 폴더 하나를 지켜볼 목록에 넣고 읽기 시작한다 (파일을 복사하지 않는다)"),
    "remove_folder": ("remove_folder", RemoveFolderArgs, "빼기 — 폴더를 지켜볼 목록에서 뺀다 (파일을 지우지 않는다)"),
}


def tool_schema(model: type[BaseModel]) -> dict:
    """The model's JSON Schema, plain enough for minimal clients: no titles, ``Optional[X]`` as ``X``."""
    schema = model.model_json_schema()

    def plain(node):
        if isinstance(node, dict):
            node.pop("title", None)
            options = node.get("anyOf")
            if options and len(options) == 2 and {"type": "null"} in options:
                node.pop("anyOf")
                node.update(next(o for o in options if o != {"type": "null"}))
            for child in node.values():
                plain(child)
        elif isinstance(node, list):
            for child in node:
                plain(child)
    for prop in schema.get("properties", {}).values():
        plain(prop)
    schema.pop("title", None)
    return schema


def call_tool(registry: Registry, name: str, arguments: Optional[dict]) -> tuple[int, dict]:
    """One tool call as (status, payload): the route's answer (a ``path`` to parse is read here)."""
    if name not in TOOLS:
        return handle(registry, f"tool:{name}", {})
    body = dict(arguments or {})
    if name == "parse" and body.get("path"):
        path = Path(body.pop("path")).expanduser()
        if not path.is_file():
            return 400, ApiError(400, "NOT_A_FILE", wording.api_text("NOT_A_FILE", path=str(path))).payload()
        size, limit = path.stat().st_size, max_upload()
        if size > limit:   # never read a file that large into memory
            text = wording.api_text("TOO_LARGE", size=f"{size / 1e6:.1f}", limit=f"{limit / 1e6:.0f}")
            return 413, ApiError(413, "TOO_LARGE", text, max_upload=limit).payload()
        body = {"data": path.read_bytes(), "filename": path.name}
    return handle(registry, TOOLS[name][0], body)


def build_server(registry: Registry, usage: Usage) -> Server:
    tools = [types.Tool(name=name, description=description, input_schema=tool_schema(model))
             for name, (_route, model, description) in TOOLS.items()]

    async def list_tools(_ctx, _params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def on_call(_ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        started = time.perf_counter()
        status, payload = await anyio.to_thread.run_sync(call_tool, registry, params.name, params.arguments)
        text = json.dumps(fit(payload, MAX_RESULT_BYTES), ensure_ascii=False)
        usage.record("mcp", params.name if params.name in TOOLS else "other", status,
                     len(json.dumps(params.arguments or {}, ensure_ascii=False).encode("utf-8")),
                     len(text.encode("utf-8")), (time.perf_counter() - started) * 1000)
        return types.CallToolResult(content=[types.TextContent(text=text)], is_error=status >= 400)

    return Server("noda", version=__version__, instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=on_call)


async def serve_stdio(registry: Registry) -> None:
    server = build_server(registry, Usage(usage_path()))
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def cmd_mcp(args) -> int:
    """noda mcp [FOLDER…]"""
    registry = saved_registry(args.folders)
    warm_up(registry)
    try:
        anyio.run(serve_stdio, registry)
    finally:
        registry.close()
    return 0

