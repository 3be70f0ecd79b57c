"""The local HTTP API: seed 004's routes over engine/api, built on FastAPI (served by uvicorn, noda_desktop/serve.py).

Each route validates its body with the models of engine/api/schemas.py (so
the OpenAPI document at /openapi.json is generated from the same code) and
calls ``handle``. Around them, three layers a browser on the same PC cannot
get around:

- the ``Host`` header must be 127.0.0.1 or localhost (a DNS-rebinding page
  names its own host) — Starlette's TrustedHostMiddleware, 400 otherwise;
- every route except /health needs ``Authorization: Bearer <token>`` (401);
- no CORS headers at all, so a page of another origin never reads an answer.

Bodies are read up to a cap before any route sees them (413 beyond it), and
each request leaves one line in the usage log (engine/api/usage.py). There
is no interactive docs page: those load scripts from the internet.
"""
from __future__ import annotations

import json
import time
from inspect import Parameter, Signature
from typing import Optional
from urllib.parse import unquote

from fastapi import Body, Depends, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.security import HTTPBearer
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from engine import wording
from engine.api import ROUTES, Registry, handle
from engine.api.files import max_upload
from engine.api.routes import Route
from engine.api.schemas import FileRequest, explain
from engine.api.usage import Usage
from noda_desktop import __version__
from noda_desktop.api_access import LOOPBACK, Keys

OPEN_PATHS = ("/health",)
FILE_PATHS = ("/parse", "/chunk")   # every other body is JSON, whatever Content-Type says (curl -d sends a form type)
SLACK_BYTES = 1024 * 1024     # JSON around a base64 file


class Error(BaseModel):
    error: str
    error_text: str


ERRORS = {status: {"model": Error} for status in (400, 401, 404, 413, 503)}
_bearer = HTTPBearer(auto_error=False, description="noda serve --print-token 이 보여 주는 토큰")
_auth = [Depends(_bearer)]    # documents the scheme in OpenAPI; the check itself is the Access middleware
FILE_BODY = {"requestBody": {"required": True, "content": {
    "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
    "application/json": {"schema": FileRequest.model_json_schema()},
}}}


def build_app(registry: Registry, keys: Keys, usage: Usage, *, any_host: bool = False) -> FastAPI:
    """The API app over ``registry``; ``any_host`` (a public bind with a key) drops the Host check."""
    app = FastAPI(title="Noda Desktop API", version=__version__, docs_url=None, redoc_url=None,
                  description="노다 데스크톱의 로컬 API — docs/api.md")

    @app.get("/health", summary="살아 있는가 · 폴더 목록 (토큰 없이 열린다)")
    def health() -> JSONResponse:
        status, payload = handle(registry, "health", {})
        payload.update(endpoints=sorted({r.path for r in app.routes if r.path.startswith("/")}),
                       auth="bearer", app="noda-desktop", version=__version__)
        return JSONResponse(payload, status_code=status)

    for name, route in ROUTES.items():
        if route.summary:
            _serve(app, registry, name, route)

    @app.get("/usage", summary="소비자별 사용량", dependencies=_auth)
    def usage_summary() -> JSONResponse:
        return JSONResponse(usage.summary())

    @app.exception_handler(RequestValidationError)
    async def invalid(_request, exc: RequestValidationError) -> JSONResponse:
        return _error(400, "BAD_REQUEST", wording.api_text("BAD_REQUEST", detail=explain(exc.errors())))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, "NOT_FOUND", wording.api_text("NOT_FOUND", action=request.url.path))

    app.add_middleware(Access, keys=keys, limit=max_upload() * 4 // 3 + SLACK_BYTES)
    if not any_host:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=[h for h in LOOPBACK if h != "::1"])
    app.add_middleware(UsageLog, usage=usage, routes=frozenset(r.path for r in app.routes))
    return app


def _serve(app: FastAPI, registry: Registry, name: str, route: Route) -> None:
    """``/name`` for one route of engine/api/routes.py: a file route takes raw bytes or JSON, any other a JSON
    body by POST and, when it has ``query`` fields, those by GET."""
    def answer(body: dict):
        status, payload = handle(registry, name, body)
        if route.html and "html" in payload:
            return HTMLResponse(payload["html"], status_code=status)
        return JSONResponse(payload, status_code=status)

    def given(**values):
        return answer({k: v for k, v in values.items() if v is not None})

    def posted(body: Optional[BaseModel]):
        return answer(body.model_dump(exclude_unset=True) if body is not None else {})

    async def sent(request: Request, filename: Optional[str] = None, **values):
        body = await _file_body(request, filename)
        body.update({k: v for k, v in values.items() if v is not None})
        return await run_in_threadpool(answer, body)

    fields = route.body.model_fields
    query = [_parameter(f, fields[f].annotation, Parameter.empty if fields[f].is_required() else fields[f].default)
             for f in route.query]
    options = dict(summary=route.summary, dependencies=_auth,
                   responses={**ERRORS, **({502: {"description": "LLM 게이트웨이가 답하지 못했다"}}
                                           if "llm" in fields else {})},
                   response_class=HTMLResponse if route.html else JSONResponse)
    if route.body is FileRequest:
        _endpoint(app.post, f"/{name}", sent, name,
                  [_parameter("request", Request), _parameter("filename", Optional[str], None), *query],
                  openapi_extra=FILE_BODY, **options)
        return
    if query:
        _endpoint(app.get, f"/{name}", given, f"{name}_get", query, **options)
    if any(field.is_required() for field in fields.values()):
        body = _parameter("body", route.body)
    else:   # POST /documents may come without a body
        body = _parameter("body", Optional[route.body], Body(None))
    _endpoint(app.post, f"/{name}", posted, f"{name}_post" if query else name, [body], **options)


def _parameter(name: str, annotation, default=Parameter.empty) -> Parameter:
    return Parameter(name, Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


def _endpoint(method, path: str, fn, name: str, parameters: list[Parameter], **options) -> None:
    """Register ``fn`` at ``path`` under ``name``, FastAPI reading its parameters (and OpenAPI) from them."""
    fn.__signature__, fn.__name__ = Signature(parameters), name
    method(path, **options)(fn)


def _error(status: int, code: str, text: str, headers: Optional[dict] = None) -> JSONResponse:
    return JSONResponse({"error": code, "error_text": text}, status_code=status, headers=headers)


async def _file_body(request: Request, filename: Optional[str]) -> dict:
    """A sent file: the JSON form as it came, or the raw bytes with X-Filename (percent-encoded) or ?filename=."""
    raw = await request.body()
    if request.headers.get("content-type", "").split(";")[0].strip() == "application/json":
        try:
            body = json.loads(raw)
        except ValueError:
            return {"filename": None}    # no usable name: handle() says so
        return body if isinstance(body, dict) else {"filename": None}
    header = request.headers.get("x-filename")
    if header is not None:   # ASGI headers arrive as latin-1; a client may also send UTF-8 unencoded
        header = unquote(header.encode("latin-1").decode("utf-8", "replace"))
    return {"data": raw, "filename": header or filename}


class Access:
    """ASGI middleware: the token on every route but /health, and bodies read up to ``limit`` bytes (else 413)."""

    def __init__(self, app, keys: Keys, limit: int):
        self.app, self.keys, self.limit = app, keys, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        consumer = self.keys.consumer(headers.get("authorization"))
        if consumer is None and scope["path"] not in OPEN_PATHS:
            return await _error(401, "UNAUTHORIZED", wording.api_text("UNAUTHORIZED"),
                                {"WWW-Authenticate": "Bearer"})(scope, receive, send)
        scope.setdefault("state", {})["consumer"] = consumer or "anonymous"
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.limit:
            return await self._too_large(scope, receive, send)
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                return await self._too_large(scope, receive, send)
            more = message.get("more_body", False)
        body, replayed = b"".join(chunks), False

        async def replay():
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        scope.setdefault("state", {})["bytes_in"] = len(body)
        if body and scope["path"] not in FILE_PATHS:
            scope["headers"] = [(k, v) for k, v in scope["headers"] if k.lower() != b"content-type"]
            scope["headers"].append((b"content-type", b"application/json"))
        await self.app(scope, replay, send)

    async def _too_large(self, scope, receive, send):
        limit = max_upload()
        text = wording.api_text("TOO_LARGE", size="?", limit=f"{limit / 1e6:.0f}")
        await _error(413, "TOO_LARGE", text)(scope, receive, send)


class UsageLog:
    """ASGI middleware: one usage line per request (consumer, route, status, bytes, ms)."""

    def __init__(self, app, usage: Usage, routes: frozenset):
        self.app, self.usage, self.routes = app, usage, routes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started, status, sent = time.perf_counter(), 500, 0

        async def counting(message):
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, counting)
        finally:
            state = scope.get("state") or {}
            route = scope["path"] if scope["path"] in self.routes else "other"   # never a caller's free text
            self.usage.record(state.get("consumer", "unknown"), route, status, state.get("bytes_in", 0),
                              sent, (time.perf_counter() - started) * 1000)
