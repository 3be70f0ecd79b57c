"""The request bodies of the API routes, as pydantic models.

One definition serves every face: each route of engine/api/routes.py names
its model, ``routes.handle`` validates bodies with it, the HTTP server's
OpenAPI document and the MCP tools' input schemas are generated from it (the
``*Args`` models are the MCP tools' arguments where they differ from the body).
Unknown fields are refused, so a misspelt field name is an error instead of
a silently ignored option.
"""
from __future__ import annotations

from typing import Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine import wording
from engine.wording import fields

MAX_QUERY = 4000          # characters of a query or question (the index reads the first 1000)
MAX_ANSWER = 200_000      # characters of an answer to verify

_TENANT = Field(None, description=fields.TENANT)
_PRINCIPAL = Field(None, description=fields.PRINCIPAL)


class StrictBody(BaseModel):
    """A request body: unknown fields are refused."""

    # the class docstrings are for this code; the schemas' own descriptions are the Korean field texts
    model_config = ConfigDict(extra="forbid", json_schema_extra=lambda schema, _model: schema.pop("description", None))


class DocumentsRequest(StrictBody):
    """What a folder holds and what could not be read (the folder is re-read when it changed)."""

    tenant: Optional[str] = _TENANT
    principal: Optional[str] = _PRINCIPAL
    start: int = Field(0, ge=0, description=fields.LIST_START)
    count: Optional[int] = Field(None, ge=0, description=fields.LIST_COUNT)


class SearchRequest(StrictBody):
    """Chunks that match ``query``, in the engine's order, with their anchors."""

    tenant: Optional[str] = _TENANT
    query: str = Field(max_length=MAX_QUERY, description=fields.QUERY)
    limit: int = Field(10, description=fields.SEARCH_LIMIT)
    principal: Optional[str] = _PRINCIPAL


class AnswerRequest(StrictBody):
    """An answer quoted from the documents, each line with its citation; ``llm`` asks the gateway."""

    tenant: Optional[str] = _TENANT
    question: str = Field(max_length=MAX_QUERY, description=fields.QUESTION)
    limit: Optional[int] = Field(None, description=fields.ANSWER_LIMIT)
    llm: bool = Field(False, description=fields.LLM)
    principal: Optional[str] = _PRINCIPAL
    document: Optional[str] = Field(None, max_length=1000,
                                    description=fields.DOCUMENT)


class ContextRequest(StrictBody):
    """Numbered evidence for the caller's own LLM, within a character budget."""

    tenant: Optional[str] = _TENANT
    query: str = Field(max_length=MAX_QUERY, description=fields.CONTEXT_QUERY)
    budget: int = Field(4000, description=fields.BUDGET)
    limit: int = Field(10, description=fields.CONTEXT_LIMIT)
    principal: Optional[str] = _PRINCIPAL


class VerifyRequest(StrictBody):
    """An answer checked against its sources: unsupported numbers, unknown references, quotes not found."""

    tenant: Optional[str] = _TENANT
    answer: str = Field(max_length=MAX_ANSWER, description=fields.ANSWER)
    sources: list[dict] = Field(default_factory=list,
                                description=fields.SOURCES)
    citations: Optional[list[dict]] = Field(None, description=fields.CITATIONS)
    principal: Optional[str] = _PRINCIPAL


class FileRequest(StrictBody):
    """One file as JSON: its name and its bytes in base64 (the raw-bytes form uses X-Filename instead)."""

    filename: str = Field(description=fields.FILENAME)
    data_base64: str = Field(description=fields.DATA_BASE64)
    budget: Optional[int] = Field(None, description=fields.CHUNK_BUDGET)


class FolderRequest(StrictBody):
    """A folder on this PC to watch (add) or to stop watching (remove). Its files are never changed."""

    path: Optional[str] = Field(None, description=fields.FOLDER_PATH)
    tenant: Optional[str] = Field(None, description=fields.FOLDER_TENANT)


class ParseArgs(StrictBody):
    """MCP's parse: a file on this PC by ``path``, or a file's bytes as ``filename`` and ``data_base64``."""

    path: Optional[str] = Field(None, description=fields.FILE_PATH)
    filename: Optional[str] = Field(None, description=fields.FILE_NAME)
    data_base64: Optional[str] = Field(None, description=fields.DATA_BASE64)


class AddFolderArgs(StrictBody):
    """MCP's add_folder."""

    path: str = Field(description=fields.WATCH_PATH)


class RemoveFolderArgs(StrictBody):
    """MCP's remove_folder."""

    tenant: Optional[str] = Field(None, description=fields.REMOVE_TENANT)
    path: Optional[str] = Field(None, description=fields.REMOVE_PATH)


def explain(error: ValidationError | list[dict]) -> str:
    """A Korean sentence naming each field a body got wrong (from pydantic's errors)."""
    problems = []
    for item in (error.errors() if isinstance(error, ValidationError) else error):
        field = ".".join(str(part) for part in item.get("loc", ()) if part != "body") or wording.api.BODY
        kind = item.get("type", "")
        if kind == "missing":
            problems.append(wording.api_text("field_missing", field=field))
        elif kind == "extra_forbidden":
            problems.append(wording.api_text("field_extra", field=field))
        elif kind == "string_too_long":
            problems.append(wording.api_text("field_too_long", field=field))
        elif kind in ("model_type", "dict_type") and field == wording.api.BODY:
            problems.append(wording.api_text("body_not_object"))
        elif kind == "json_invalid":
            problems.append(wording.api_text("body_not_json"))
        else:
            expected = wording.api.TYPE_NAMES.get(kind.split("_")[0], kind)
            problems.append(wording.api_text("field_type", field=field, expected=expected))
    return " · ".join(problems)
