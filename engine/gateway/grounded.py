"""Grounded answers: the model answers from the tenant's evidence only, and the answer is checked.

The evidence is engine.answer.llm_context's numbered bundle; the model is told to cite
``[n]`` after every statement. Its answer goes through engine.answer.verify, which
finds numbers missing from the evidence, references to sources that do not
exist and quotes the cited chunk does not contain; those come back as
``flags`` beside the answer, never silently dropped. When the gateway is off
or fails the answer says so (``answered: false`` and the gateway's reason) —
there is no quiet fallback to extraction under the LLM's name.

Each citation carries a ``quote`` exactly as in the source: the phrase the
model quoted from it when verify found it there, otherwise the cited chunk's
whole text — so the window and the evidence page mark real source text.
"""
from __future__ import annotations

import json
import re
import threading
from dataclasses import asdict
from typing import Optional

from engine import wording
from engine.answer.llm_context import context
from engine.answer.verify import verify
from engine.gateway.client import Gateway
from engine.gateway.config import load_config, load_key
from engine.gateway.events import GatewayError
from engine.wording.gateway import INSTRUCTIONS, question_prompt

# A quoted phrase and the first [n] after it: 「…」, “…” or "…" followed by a reference.
_QUOTED_REF = re.compile(r"[「“\"]([^」”\"\n]{2,200})[」”\"][^\[\n]{0,80}?\[(\d+)\]")


def answer(tenant, question: str, gateway: Gateway, *, limit: int = 10, budget: int = 4000,
           principal: Optional[str] = None, document: Optional[str] = None) -> dict:
    """Ask the gateway about ``question`` with the tenant's evidence (only ``document``'s when given); the
    answer, its citations and flags."""
    result = {"tenant": tenant.folder.name, "question": question, "answered": False, "reason": None,
              "reason_text": None, "made_by": None, "text": "", "citations": [], "grounded": False,
              "flags": [], "unsupported_numbers": [], "skipped": [], "gateway": gateway.describe()}
    if not gateway.enabled:
        return _refused(result, gateway.refusal.code)
    evidence = context(tenant, question, budget=budget, limit=limit, principal=principal, document=document)
    result["skipped"] = evidence["skipped"]
    sources = evidence["sources"]
    if not sources:
        return _refused(result, "NO_MATCH")
    try:
        reply = gateway.complete(question_prompt(context=evidence["context"], question=question),
                                 system=INSTRUCTIONS)
    except GatewayError as err:
        return _refused(result, err.code)
    quotes = [{"n": int(n), "quote": q.strip()} for q, n in _QUOTED_REF.findall(reply.text)
              if 1 <= int(n) <= len(sources)]
    check = verify(tenant, reply.text, sources, citations=quotes or None, principal=principal)
    refs = sorted({n for s in check["sentences"] for n in s["refs"] if 1 <= n <= len(sources)})
    result.update(answered=True, made_by=wording.gateway_text("made_by"), text=reply.text,
                  citations=[_citation(tenant, n, sources[n - 1], check) for n in refs],
                  grounded=bool(refs) and check["grounded"],
                  unsupported_numbers=check["unsupported_numbers"], flags=_flags(refs, check),
                  verification=check, stop=reply.stop,
                  usage={"input_tokens": reply.usage.input_tokens, "output_tokens": reply.usage.output_tokens})
    return result


def _refused(result: dict, code: str) -> dict:
    result.update(reason=code, reason_text=wording.gateway_text(code))
    return result


def _citation(tenant, n: int, source: dict, check: dict) -> dict:
    keys = ("chunk_id", "doc_id", "filename", "kind", "path", "outline", "anchors", "extractors")
    quoted = [c["quote"] for c in check["citations"]
              if c["found"] and c.get("chunk_id") == source.get("chunk_id") and c.get("doc_id") == source.get("doc_id")]
    if quoted:
        quote = quoted[0]
    else:
        chunk = tenant.chunk(source.get("filename") or "", source.get("chunk_id"))
        quote = chunk.text if chunk is not None else ""
    return {"n": n, **{k: source.get(k) for k in keys}, "quote": quote}


_SAVED: dict[str, Gateway] = {}
_SAVED_LOCK = threading.Lock()


def saved_gateway(config_dir=None) -> Gateway:
    """The gateway as saved in ``config_dir``; the same object while the settings and key stay the same.

    Keeping one Gateway per settings keeps its rate limit across questions.
    """
    config, key = load_config(config_dir), load_key(config_dir)
    signature = json.dumps([asdict(config), key], sort_keys=True)
    with _SAVED_LOCK:
        gateway = _SAVED.get(signature)
        if gateway is None:
            _SAVED.clear()
            gateway = _SAVED[signature] = Gateway(config, key)
        return gateway


def answer_with_saved(tenant, question: str, config_dir=None, **kwargs) -> dict:
    """``answer`` with the gateway the administrator saved (the window's and CLI's entry point)."""
    return answer(tenant, question, saved_gateway(config_dir), **kwargs)


def _flags(refs: list[int], check: dict) -> list[dict]:
    """What a reader should know before trusting the answer, as {code, text}."""
    found = []
    if not refs:
        found.append(("NO_CITATIONS", {}))
    if check["unknown_refs"]:
        found.append(("UNKNOWN_REFS", {"refs": ", ".join(f"[{n}]" for n in check["unknown_refs"])}))
    if check["unsupported_numbers"]:
        found.append(("UNSUPPORTED_NUMBERS", {"numbers": ", ".join(map(str, check["unsupported_numbers"]))}))
    missing = [c["quote"] for c in check["citations"] if not c["found"]]
    if missing:
        found.append(("UNFOUND_QUOTES", {"quotes": ", ".join(f"「{q}」" for q in missing)}))
    return [{"code": code, "text": wording.gateway_text(code, **values)} for code, values in found]
