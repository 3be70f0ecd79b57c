"""`noda mcp [FOLDER…]`: the engine as MCP tools over stdio, for agents (the official ``mcp`` SDK).

Each route of engine/api/routes.py with a ``tool`` description is a tool of
the route's name (the same route the HTTP API calls); a tool answers with
one ``text`` content holding the route's JSON — what a minimal
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
from pydantic import BaseModel

from engine import __version__, wording
from engine.api import ROUTES, ApiError, Registry, handle
from engine.api.files import max_upload
from engine.api.fit import fit
from engine.api.usage import Usage
from noda_desktop.serve import saved_registry, usage_path, warm_up

MAX_RESULT_BYTES = 2 * 1024 * 1024
INSTRUCTIONS = ("노다: 이 PC의 업무 문서 폴더(한글·PDF·워드·엑셀·그림·ZIP)에서 찾고, 답마다 파일·쪽·자리를 "
                "근거로 붙인다. documents 로 폴더와 못 읽은 문서를 보고, search·context 로 근거를 받고, "
                "제 답은 verify 로 근거와 맞춰 본다. 폴더가 여럿이면 tenant 에 폴더 이름을 준다.")
TOOLS = frozenset(name for name, route in ROUTES.items() if route.tool)   # one per route with a tool description


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
    return handle(registry, name, body)


def build_server(registry: Registry, usage: Usage) -> Server:
    tools = [types.Tool(name=name, description=route.tool, input_schema=tool_schema(route.tool_args or route.body))
             for name, route in ROUTES.items() if route.tool]

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

