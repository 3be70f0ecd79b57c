"""The request bodies of the API routes, as pydantic models.

One definition serves every face: ``routes.handle`` validates bodies with
them, the HTTP server's OpenAPI document and the MCP tools' input schemas are
generated from them. Unknown fields are refused, so a misspelt field name is
an error instead of a silently ignored option.
"""
from __future__ import annotations

from typing import Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine import wording

MAX_QUERY = 4000          # characters of a query or question (the index reads the first 1000)
MAX_ANSWER = 200_000      # characters of an answer to verify

_TENANT = Field(None, description="폴더 이름 (GET /health 의 tenants). 폴더가 하나뿐이면 생략할 수 있다")
_PRINCIPAL = Field(None, description="이 사람이 볼 수 있는 문서에서만 (폴더의 ACL.json)")


class StrictBody(BaseModel):
    """A request body: unknown fields are refused."""

    # the class docstrings are for this code; the schemas' own descriptions are the Korean field texts
    model_config = ConfigDict(extra="forbid", json_schema_extra=lambda schema, _model: schema.pop("description", None))


class DocumentsRequest(StrictBody):
    """What a folder holds and what could not be read (the folder is re-read when it changed)."""

    tenant: Optional[str] = _TENANT
    principal: Optional[str] = _PRINCIPAL


class SearchRequest(StrictBody):
    """Chunks that match ``query``, in the engine's order, with their anchors."""

    tenant: Optional[str] = _TENANT
    query: str = Field(max_length=MAX_QUERY, description="찾을 말")
    limit: int = Field(10, description="결과 수 (최대 20)")
    principal: Optional[str] = _PRINCIPAL


class AnswerRequest(StrictBody):
    """An answer quoted from the documents, each line with its citation; ``llm`` asks the gateway."""

    tenant: Optional[str] = _TENANT
    question: str = Field(max_length=MAX_QUERY, description="질문")
    limit: Optional[int] = Field(None, description="답을 고를 조각 수 (발췌 5, LLM 10, 최대 20)")
    llm: bool = Field(False, description="관리자가 켠 사내 LLM 게이트웨이로 답한다 (꺼져 있으면 400)")
    principal: Optional[str] = _PRINCIPAL
    document: Optional[str] = Field(None, max_length=1000,
                                    description="이 문서(문서 목록의 파일 이름)에서만 답한다")


class ContextRequest(StrictBody):
    """Numbered evidence for the caller's own LLM, within a character budget."""

    tenant: Optional[str] = _TENANT
    query: str = Field(max_length=MAX_QUERY, description="질의")
    budget: int = Field(4000, description="글자 예산 (기본 4000, 최대 40000)")
    limit: int = Field(10, description="찾을 조각 수 (최대 20)")
    principal: Optional[str] = _PRINCIPAL


class VerifyRequest(StrictBody):
    """An answer checked against its sources: unsupported numbers, unknown references, quotes not found."""

    tenant: Optional[str] = _TENANT
    answer: str = Field(max_length=MAX_ANSWER, description="확인할 답 ([n] 이 sources[n-1] 을 가리킨다)")
    sources: list[dict] = Field(default_factory=list,
                                description="/context 의 sources 를 차례대로 (doc_id 와 chunk_id)")
    citations: Optional[list[dict]] = Field(None, description="인용 [{n 또는 doc_id+chunk_id, quote}]")
    principal: Optional[str] = _PRINCIPAL


class FileRequest(StrictBody):
    """One file as JSON: its name and its bytes in base64 (the raw-bytes form uses X-Filename instead)."""

    filename: str = Field(description="파일 이름 (포맷 판별과 인용에 쓰인다; 경로는 떼고 이름만 쓴다)")
    data_base64: str = Field(description="파일의 바이트 (base64)")
    budget: Optional[int] = Field(None, description="/chunk: 조각 하나의 글자 수")


class FolderRequest(StrictBody):
    """A folder on this PC to watch (add) or to stop watching (remove). Its files are never changed."""

    path: Optional[str] = Field(None, description="폴더 경로 (넣기) — 빼기는 tenant 로도 된다")
    tenant: Optional[str] = Field(None, description="뺄 폴더의 이름 (빼기)")


BODIES: dict[str, type[BaseModel]] = {
    "documents": DocumentsRequest, "search": SearchRequest, "answer": AnswerRequest, "view": AnswerRequest,
    "context": ContextRequest, "verify": VerifyRequest, "parse": FileRequest, "chunk": FileRequest,
    "add_folder": FolderRequest, "remove_folder": FolderRequest,
}


# pydantic error kinds ("int_parsing", "string_type" …) by their first word, as Korean names of what was expected
_EXPECTED = {"int": "정수", "float": "수", "string": "글자", "bool": "참/거짓", "list": "목록",
             "dict": "객체", "model": "객체", "none": "null"}


def explain(error: ValidationError | list[dict]) -> str:
    """A Korean sentence naming each field a body got wrong (from pydantic's errors)."""
    problems = []
    for item in (error.errors() if isinstance(error, ValidationError) else error):
        field = ".".join(str(part) for part in item.get("loc", ()) if part != "body") or "본문"
        kind = item.get("type", "")
        if kind == "missing":
            problems.append(wording.api_text("field_missing", field=field))
        elif kind == "extra_forbidden":
            problems.append(wording.api_text("field_extra", field=field))
        elif kind == "string_too_long":
            problems.append(wording.api_text("field_too_long", field=field))
        elif kind in ("model_type", "dict_type") and field == "본문":
            problems.append(wording.api_text("body_not_object"))
        elif kind == "json_invalid":
            problems.append(wording.api_text("body_not_json"))
        else:
            expected = _EXPECTED.get(kind.split("_")[0], kind)
            problems.append(wording.api_text("field_type", field=field, expected=expected))
    return " · ".join(problems)
