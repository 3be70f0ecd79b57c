"""What the engine does for one folder: every operation over one Tenant, by name, in ``CALLS``.

``CALLS[name](tenant, *args, **kwargs)`` is how every face runs an operation:
the API routes give it a request's fields (engine/api/routes.py), the window's
engine process runs it by the name the window sends (ui/engine_host.py), the
CLI goes through the routes. So the defaults (how many chunks an answer looks
at, the cap of 20) and the choice between the extractive answer and the LLM
gateway live in one place. ``tenant`` is an engine Tenant (engine/library/tenant.py).
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from engine.answer import llm_context as _context
from engine.answer import verify as _verify
from engine.answer.extract import answer as extract
from engine.answer.evidence import evidence_html
from engine.gateway.grounded import answer_with_saved, saved_gateway
from engine.library.tenant import MAX_LIMIT, Tenant

EXTRACT_LIMIT = 5       # chunks an extractive answer ranks first
LLM_LIMIT = 10          # chunks of evidence the gateway is given


def capped(limit: Optional[int], default: int) -> int:
    """``limit`` (or ``default``) within 1 … MAX_LIMIT: a caller never gets more than 20."""
    return max(1, min(int(default if limit is None else limit), MAX_LIMIT))


def documents(tenant, principal: Optional[str] = None, start: int = 0, count: Optional[int] = None) -> dict:
    return tenant.documents(principal, start, count)


def cached_documents(tenant, principal: Optional[str] = None, start: int = 0,
                     count: Optional[int] = None) -> Optional[dict]:
    """The folder's listing from its saved state, at once; None for a folder never read (no reading here)."""
    return tenant.documents(principal, start, count) if tenant.read_before else None


def search(tenant, query: str, limit: Optional[int] = None, principal: Optional[str] = None) -> dict:
    return tenant.search(query, limit=capped(limit, 10), principal=principal)


def answer(tenant, question: str, *, limit: Optional[int] = None, principal: Optional[str] = None,
           llm: bool = False, config_dir=None, document: Optional[str] = None) -> dict:
    """The extractive answer, or with ``llm`` the gateway's grounded answer (saved in ``config_dir``);
    only from ``document`` (a file name as listed) when it is given."""
    if llm:
        return answer_with_saved(tenant, question, config_dir, limit=capped(limit, LLM_LIMIT), principal=principal,
                                 document=document)
    return extract(tenant, question, limit=capped(limit, EXTRACT_LIMIT), principal=principal, document=document)


def evidence(tenant, result: dict) -> str:
    """The self-contained evidence page (HTML) of an answer."""
    return evidence_html(tenant, result)


def context(tenant, query: str, budget: int = 4000, limit: Optional[int] = None,
            principal: Optional[str] = None) -> dict:
    return _context.context(tenant, query, budget=budget, limit=capped(limit, 10), principal=principal)


def verify(tenant, answer: str, sources: list[dict], citations: Optional[list[dict]] = None,
           principal: Optional[str] = None) -> dict:
    """``answer`` (its text) checked against ``sources``."""
    return _verify.verify(tenant, answer, sources, citations=citations, principal=principal)


def llm_refusal(config_dir=None) -> Optional[str]:
    """Why the saved LLM gateway may not be used (its reason code), or None when it is on."""
    gateway = saved_gateway(config_dir)
    return None if gateway.enabled else gateway.refusal.code


CALLS: dict[str, Callable[..., Any]] = {
    # the API's routes over one folder (a request's fields are the keyword arguments)
    "documents": documents, "search": search, "answer": answer, "context": context, "verify": verify,
    # the window's (pickled to it by its engine process)
    "cached_documents": cached_documents, "evidence": evidence, "refresh": Tenant.refresh,
    "document": Tenant.document, "chunks": Tenant.chunks, "chunk": Tenant.chunk, "source_path": Tenant.source_path,
}
