"""OpenAI Responses: ``POST {base}/responses`` with a Bearer key.

Every request sends the whole conversation as ``input`` with ``store: false``
(nothing is kept on the server, no ``previous_response_id``). Streams are
named events: text arrives in ``response.output_text.delta``, the end in
``response.completed`` or ``response.incomplete``; events we do not know are
skipped. There is no empty-answer retry for this format.
"""
from __future__ import annotations

from typing import Iterable, Iterator

from engine.gateway import wire
from engine.gateway.config import GatewayConfig
from engine.gateway.events import Event, GatewayError, Stop, Text, Usage, stop_reason
from engine.gateway.sse import ServerEvent
from engine.gateway.openai_chat import headers  # noqa: F401  (the same Bearer auth)

RETRY_EMPTY = False
DEFAULT_MAX_TOKENS = 4096


def path(base_path: str) -> str:
    """The endpoint path for a base path (a pasted full endpoint is not doubled either)."""
    return (base_path.removesuffix("/responses") or "/v1") + "/responses"


def body(config: GatewayConfig, system: str, messages: list[dict], stream: bool) -> dict:
    out = {"model": config.model,
           "input": [{"role": m["role"], "content": m["content"]} for m in messages],
           "max_output_tokens": config.max_tokens or DEFAULT_MAX_TOKENS,
           "store": False, "stream": stream}
    if system:
        out["instructions"] = system
    if config.temperature is not None:
        out["temperature"] = config.temperature
    return out


def parse_body(obj: dict) -> list[Event]:
    """The events of a whole (non-streamed) answer."""
    wire.raise_error(obj)
    if obj.get("status") == "failed":
        raise GatewayError("GATEWAY_PROVIDER_ERROR", "the response failed")
    output = obj.get("output")
    if not isinstance(output, list):
        raise GatewayError("GATEWAY_BAD_RESPONSE", "no output in the answer")
    text = "".join(part.get("text") or ""
                   for item in output if isinstance(item, dict) and item.get("type") == "message"
                   for part in item.get("content") or []
                   if isinstance(part, dict) and part.get("type") == "output_text")
    return [Text(text), _usage(obj.get("usage")), Stop(_stop(obj))]


def parse_stream(events: Iterable[ServerEvent]) -> Iterator[Event]:
    """The events of a streamed answer."""
    for event in events:
        obj = wire.decode(event.data)
        kind = obj.get("type") or event.event
        if kind == "response.output_text.delta":
            if obj.get("delta"):
                yield Text(obj["delta"])
        elif kind in ("response.completed", "response.incomplete"):
            response = obj.get("response") or {}
            yield _usage(response.get("usage"))
            yield Stop(_stop(response))
            return
        elif kind == "response.failed":
            error = (obj.get("response") or {}).get("error")
            raise GatewayError("GATEWAY_PROVIDER_ERROR", wire.error_message(error or "the response failed"))
        elif kind == "error":
            raise GatewayError("GATEWAY_PROVIDER_ERROR", wire.error_message(obj.get("error") or obj))
    raise GatewayError("GATEWAY_INTERRUPTED", "the stream ended before response.completed")


def _stop(response: dict) -> str:
    if response.get("status") == "incomplete":
        return stop_reason((response.get("incomplete_details") or {}).get("reason") or "incomplete")
    return "end"


def _usage(raw) -> Usage:
    raw = raw if isinstance(raw, dict) else {}
    return Usage(wire.count(raw.get("input_tokens")), wire.count(raw.get("output_tokens")))
