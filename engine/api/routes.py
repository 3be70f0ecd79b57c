"""The API without HTTP: ``handle(registry, action, body) -> (status, payload)``.

Every face of the engine calls this: ``noda serve`` (HTTP), ``noda mcp``
(MCP tools), the window's hosted server and the ``noda`` CLI's folder
commands. Bodies are dicts validated by engine/api/schemas.py; payloads are
JSON-ready dicts in the shapes of seed 004. The rules:

- ``limit`` is capped at 20, never refused for being large;
- a ``tenant`` that is not a plain folder name (``..``, ``/``, ``\\``) is 400,
  an unknown one 404; with a single folder ``tenant`` may be left out;
- a document that cannot be read is a 200 whose ``access.readable`` is false —
  4xx only when the request is wrong: no file name, bad base64 (400), a file
  over ``NODA_MAX_UPLOAD`` (413);
- ``llm: true`` while the gateway is off is 400 with the gateway's reason,
  never a quiet extractive answer; a gateway that fails mid-way is 502;
- ``principal`` is passed on exactly as the CLI passes it;
- the API never writes into a folder: add_folder/remove_folder only change
  which folders are served.

Errors are ``{"error": CODE, "error_text": Korean sentence}``.
"""
from __future__ import annotations

import base64
import binascii
import logging
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from pydantic import BaseModel, ValidationError

from engine import wording
from engine.api import calls
from engine.api.files import max_upload
from engine.api.registry import FolderMissing, Registry
from engine.api.schemas import (AddFolderArgs, AnswerRequest, ContextRequest, DocumentsRequest, FileRequest,
                                FolderRequest, ParseArgs, RemoveFolderArgs, SearchRequest, VerifyRequest, explain)
from engine.gateway.grounded import saved_gateway
from engine.read.parse import READERS
from engine.search.chunking import DEFAULT_BUDGET, chunk_document

MIN_CHUNK_BUDGET, MAX_CHUNK_BUDGET = 100, 20000
FORMATS = sorted({*READERS, "zip"})
LLM_DID_NOT_ASK = ("NO_MATCH",)   # a refusal before the gateway was asked is an answer, not a failure

log = logging.getLogger(__name__)


class ApiError(Exception):
    """A refused request: its HTTP status, reason code and the Korean sentence for it."""

    def __init__(self, status: int, code: str, text: Optional[str] = None, **extra):
        super().__init__(code)
        self.status = status
        self.code = code
        self.text = text if text is not None else wording.api_text(code)
        self.extra = extra

    def payload(self) -> dict:
        return {"error": self.code, "error_text": self.text, **self.extra}


def handle(registry: Registry, action: str, body: Optional[dict] = None) -> tuple[int, dict]:
    """Run one API request; (HTTP status, JSON-ready payload). Never raises."""
    route = ROUTES.get(action)
    try:
        if route is None:
            raise ApiError(404, "NOT_FOUND", wording.api_text("NOT_FOUND", action=action))
        return route.run(registry, body if body is not None else {})
    except ApiError as err:
        return err.status, err.payload()
    except Exception as exc:
        log.exception("API %s failed", action)
        return 500, ApiError(500, "INTERNAL", wording.api_text("INTERNAL", detail=type(exc).__name__)).payload()


# ---- helpers ----------------------------------------------------------------------
def _valid(action: str, body) -> dict:
    """The body validated against its model, with defaults filled."""
    if not isinstance(body, dict):
        raise ApiError(400, "BAD_REQUEST", wording.api_text("BAD_REQUEST", detail=wording.api_text("body_not_object")))
    try:
        return ROUTES[action].body.model_validate(body).model_dump()
    except ValidationError as err:
        raise ApiError(400, "BAD_REQUEST", wording.api_text("BAD_REQUEST", detail=explain(err))) from None


def tenant_name(registry: Registry, name: Optional[str]) -> str:
    """The tenant a request means: checked as a plain folder name; the only one when left out."""
    names = registry.names()
    if name is None:
        if len(names) == 1:
            return names[0]
        if not names:
            raise ApiError(404, "NO_TENANT")
        raise ApiError(400, "TENANT_REQUIRED", wording.api_text("TENANT_REQUIRED", tenants=", ".join(names)),
                       tenants=names)
    if not name or ".." in name or re.search(r"[/\\\x00]", name):
        raise ApiError(400, "BAD_TENANT", wording.api_text("BAD_TENANT", tenant=name))
    if name not in names:
        raise ApiError(404, "UNKNOWN_TENANT", wording.api_text("UNKNOWN_TENANT", tenant=name,
                                                               tenants=", ".join(names) or "-"), tenants=names)
    return name


def _open(registry: Registry, name: str, fresh: bool = False):
    try:
        return registry.tenant(name, fresh=fresh)
    except FolderMissing:
        raise ApiError(503, "FOLDER_MISSING", wording.api_text("FOLDER_MISSING", tenant=name,
                                                               folder=registry.folder(name))) from None


def _over_tenant(action: str, fresh: bool = False):
    """A route over one tenant: validate, find the tenant, run ``CALLS[action]`` with the request's fields,
    name the result by the tenant's API name."""
    def route(registry: Registry, body: dict) -> tuple[int, dict]:
        request = _valid(action, body)
        name = tenant_name(registry, request.pop("tenant"))
        return 200, {**calls.CALLS[action](_open(registry, name, fresh), **request), "tenant": name}
    return route


def _answer_route(action: str):
    def route(registry: Registry, body: dict) -> tuple[int, dict]:
        request = _valid(action, body)
        name = tenant_name(registry, request.pop("tenant"))
        if request["llm"]:
            refusal = calls.llm_refusal(registry.config_dir)
            if refusal:
                raise ApiError(400, "LLM_OFF", wording.gateway_text(refusal), reason=refusal)
        tenant = _open(registry, name)
        result = {**calls.answer(tenant, **request, config_dir=registry.config_dir), "tenant": name}
        failed = request["llm"] and not result["answered"] and result["reason"] not in LLM_DID_NOT_ASK
        status = 502 if failed else 200
        if action == "view":
            return status, {"tenant": name, "question": result["question"], "answered": result["answered"],
                            "html": calls.evidence(tenant, result)}
        return status, result
    return route


def health(registry: Registry, body: dict) -> tuple[int, dict]:
    """Alive, which folders, which formats, how large a file, whether and where an LLM would be asked."""
    gateway = saved_gateway(registry.config_dir).describe()
    tenants = [{"tenant": n, "reading": registry.reading(n)} for n in registry.names()]
    return 200, {"ok": True, "tenants": tenants, "formats": FORMATS, "max_upload": max_upload(),
                 "llm": {k: gateway[k] for k in ("configured", "enabled", "host", "model", "external", "reason")}}


# ---- files ------------------------------------------------------------------------
def sent_file(body: dict) -> tuple[bytes, str]:
    """(bytes, file name) of a sent file: raw ``data`` with ``filename``, or the JSON form with base64."""
    limit = max_upload()
    if isinstance(body.get("data"), (bytes, bytearray)):
        data, name = bytes(body["data"]), body.get("filename")
    else:
        if not body.get("filename"):
            raise ApiError(400, "NO_FILENAME")
        request = _valid("parse", body)
        name, text = request["filename"], re.sub(r"\s+", "", request["data_base64"])
        if len(text) * 3 // 4 > limit:
            _too_large(len(text) * 3 // 4, limit)
        try:
            data = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise ApiError(400, "BAD_BASE64") from None
    name = re.split(r"[/\\]", name or "")[-1].strip()
    if not name:
        raise ApiError(400, "NO_FILENAME")
    if len(data) > limit:
        _too_large(len(data), limit)
    return data, name


def _too_large(size: int, limit: int):
    raise ApiError(413, "TOO_LARGE", wording.api_text("TOO_LARGE", size=f"{size / 1e6:.1f}",
                                                      limit=f"{limit / 1e6:.0f}"), max_upload=limit)


def parse(registry: Registry, body: dict) -> tuple[int, dict]:
    """One file → the contract's Document JSON (a ZIP: one Document per member)."""
    data, name = sent_file(body)
    docs = registry.files.read(data, name)
    if len(docs) == 1 and docs[0].source.filename == name:
        return 200, docs[0].to_dict()
    return 200, {"filename": name, "documents": [d.to_dict() for d in docs]}


def chunk(registry: Registry, body: dict) -> tuple[int, dict]:
    """One file → its Document and the chunks the index would store."""
    budget = body.get("budget")
    try:
        budget = DEFAULT_BUDGET if budget in (None, "") else int(budget)
    except (TypeError, ValueError):
        raise ApiError(400, "BAD_REQUEST", wording.api_text(
            "BAD_REQUEST", detail=wording.api_text("field_type", field="budget", expected=wording.api.TYPE_NAMES["int"]))) from None
    budget = max(MIN_CHUNK_BUDGET, min(budget, MAX_CHUNK_BUDGET))
    data, name = sent_file(body)
    parts = [{"document": d.to_dict(), "chunks": [c.to_dict() for c in chunk_document(d, budget=budget)]}
             for d in registry.files.read(data, name)]
    if len(parts) == 1 and parts[0]["document"]["source"]["filename"] == name:
        return 200, parts[0]
    return 200, {"filename": name, "documents": parts}


# ---- folders ----------------------------------------------------------------------
def add_folder(registry: Registry, body: dict) -> tuple[int, dict]:
    """Serve one more folder (the desktop's 넣기): it is read in the background, never written."""
    if not registry.editable:
        raise ApiError(403, "FOLDERS_FIXED")
    request = _valid("add_folder", body)
    path = Path(request["path"] or "").expanduser()
    if not request["path"] or not path.is_dir():
        raise ApiError(400, "NOT_A_FOLDER", wording.api_text("NOT_A_FOLDER", folder=request["path"] or ""))
    name = registry.add(path)
    if registry.watch:
        threading.Thread(target=registry.warm, args=([name],), name=f"noda-read-{name}", daemon=True).start()
    return 200, {"tenant": name, "folder": str(registry.folder(name)), "tenants": registry.names()}


def remove_folder(registry: Registry, body: dict) -> tuple[int, dict]:
    """Stop serving a folder (the desktop's 빼기); nothing in it is deleted."""
    if not registry.editable:
        raise ApiError(403, "FOLDERS_FIXED")
    request = _valid("remove_folder", body)
    name = request["tenant"]
    if request["path"] and name is None:
        name = registry.name_of(request["path"])
        if name is None:
            raise ApiError(404, "UNKNOWN_TENANT", wording.api_text(
                "UNKNOWN_TENANT", tenant=request["path"], tenants=", ".join(registry.names()) or "-"))
    name = tenant_name(registry, name)
    folder = registry.remove(name)
    return 200, {"tenant": name, "folder": str(folder), "tenants": registry.names()}


@dataclass(frozen=True)
class Route:
    """One route: what runs, the request it takes, and how the HTTP API and MCP offer it."""

    run: Callable[[Registry, dict], tuple[int, dict]]
    body: Optional[type[BaseModel]] = None      # the request (validated by ``run``; OpenAPI's body)
    summary: str = ""       # its HTTP route's summary; "": not a generated HTTP route
    tool: str = ""          # its MCP tool's description; "": no tool
    tool_args: Optional[type[BaseModel]] = None   # the tool's arguments, when they are not ``body``
    query: tuple[str, ...] = ()   # HTTP: body fields also taken from the query (a GET; a file route's extras)
    html: bool = False      # HTTP: the payload's ``html`` is the page answered


# One entry per route: noda_desktop/http_api.py serves those with a summary, noda_desktop/mcp_server.py offers
# those with a tool description (in this order); a route over one folder runs engine/api/calls.py's CALLS.
ROUTES: dict[str, Route] = {
    "parse": Route(parse, FileRequest, summary="파일 하나 → 계약의 JSON (저장하지 않는다)", tool_args=ParseArgs,
                   tool="읽기 — 파일 하나를 읽어 계약의 문서 JSON(블록·표·구조·못 읽은 까닭)을 돌려준다. 저장하지 않는다"),
    "documents": Route(_over_tenant("documents", fresh=True), DocumentsRequest,
                       query=("tenant", "principal", "start", "count"),
                       summary="무엇이 들어와 있고 무엇을 못 읽었나",
                       tool="목록 — 폴더에 무엇이 들어와 있고 무엇을 못 읽었는지 (사유와 할 일)"),
    "search": Route(_over_tenant("search"), SearchRequest, summary="조각 + 인용 근거",
                    tool="찾기 — 질의에 맞는 조각과 인용 근거(파일·쪽·좌표). 온 차례가 엔진의 차례다"),
    "context": Route(_over_tenant("context"), ContextRequest, summary="LLM 에게 넘길 근거 묶음",
                     tool="근거 — 제 LLM 에게 넘길 번호 붙은 근거 묶음 ([n] 파일 · 쪽 · 제목 경로)"),
    "verify": Route(_over_tenant("verify"), VerifyRequest, summary="소비자의 답을 근거에 대고 본다",
                    tool="검증 — 답을 근거에 대어 근거에 없는 숫자·인용·번호를 자리로 알려 준다"),
    "answer": Route(_answer_route("answer"), AnswerRequest,
                    summary="답 + 줄마다 인용 (llm: true 면 사내 LLM 게이트웨이)",
                    tool="답 — 문서에서 발췌한 답 한두 줄과 줄마다 인용. llm: true 면 사내 LLM 게이트웨이"),
    "view": Route(_answer_route("view"), AnswerRequest, summary="근거를 원문 위에 칠한 화면 (HTML)", html=True,
                  query=("question", "tenant", "limit", "llm", "principal")),
    "chunk": Route(chunk, FileRequest, summary="파일 하나 → 문서 + 조각", query=("budget",)),
    "health": Route(health),
    "add_folder": Route(add_folder, FolderRequest, tool_args=AddFolderArgs,
                        tool="넣기 — 폴더 하나를 지켜볼 목록에 넣고 읽기 시작한다 (파일을 복사하지 않는다)"),
    "remove_folder": Route(remove_folder, FolderRequest, tool_args=RemoveFolderArgs,
                           tool="빼기 — 폴더를 지켜볼 목록에서 뺀다 (파일을 지우지 않는다)"),
}
