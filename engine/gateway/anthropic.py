"""Anthropic Messages: ``POST {base}/v1/messages`` with ``x-api-key`` and ``anthropic-version``.

A base URL given with or without ``/v1`` gives the same endpoint. Messages
of the same role in a row are merged (the API wants them alternating);
``max_tokens`` is required, 8192 when the settings leave it at 0. Only text
is kept from the stream: thinking and tool deltas are skipped, as are
``ping`` and events we do not know. ``message_stop`` ends a stream.
"""
from __future__ import annotations

from typing import Iterable, Iterator, Optional

from engine.gateway import wire
from engine.gateway.config import GatewayConfig
from engine.gateway.events import Event, GatewayError, Stop, Text, Usage, stop_reason
from engine.gateway.sse import ServerEvent

RETRY_EMPTY = False
DEFAULT_MAX_TOKENS = 8192


def path(base_path: str) -> str:
    """The endpoint path for a base path (a pasted full endpoint is not doubled either)."""
    base_path = base_path.removesuffix("/v1/messages").removesuffix("/v1")
    return base_path + "/v1/messages"


def headers(key: str, config: GatewayConfig) -> dict[str, str]:
    out = {"Content-Type": "application/json", "anthropic-version": config.anthropic_version}
    if key:
        out["x-api-key"] = key
    return out


def body(config: GatewayConfig, system: str, messages: list[dict], stream: bool) -> dict:
    merged: list[dict] = []
    for m in messages:
        if merged and merged[-1]["role"] == m["role"]:
            merged[-1]["content"] += "\n\n" + m["content"]
        else:
            merged.append({"role": m["role"], "content": m["content"]})
    out = {"model": config.model, "messages": merged,
           "max_tokens": config.max_tokens or DEFAULT_MAX_TOKENS, "stream": stream}
    if system:
        out["system"] = system
    if config.temperature is not None:
        out["temperature"] = config.temperature
    return out


def parse_body(obj: dict) -> list[Event]:
    """The events of a whole (non-streamed) answer."""
    wire.raise_error(obj)
    content = obj.get("content")
    if not isinstance(content, list):
        raise GatewayError("GATEWAY_BAD_RESPONSE", "no content in the answer")
    text = "".join(part.get("text") or "" for part in content
                   if isinstance(part, dict) and part.get("type") == "text")
    usage = obj.get("usage") or {}
    return [Text(text), Usage(wire.count(usage.get("input_tokens")), wire.count(usage.get("output_tokens"))),
            Stop(stop_reason(obj.get("stop_reason")))]


def parse_stream(events: Iterable[ServerEvent]) -> Iterator[Event]:
    """The events of a streamed answer."""
    input_tokens: Optional[int] = None
    output_tokens: Optional[int] = None
    stop: Optional[str] = None
    for event in events:
        obj = wire.decode(event.data)
        kind = obj.get("type") or event.event
        if kind == "error":
            wire.raise_error(obj)
        elif kind == "message_start":
            usage = (obj.get("message") or {}).get("usage") or {}
            input_tokens = wire.count(usage.get("input_tokens"))
            output_tokens = wire.count(usage.get("output_tokens"))
        elif kind == "content_block_delta":
            delta = obj.get("delta") or {}
            if delta.get("type") == "text_delta" and delta.get("text"):
                yield Text(delta["text"])
        elif kind == "message_delta":
            stop = (obj.get("delta") or {}).get("stop_reason") or stop
            output_tokens = wire.count((obj.get("usage") or {}).get("output_tokens")) or output_tokens
        elif kind == "message_stop":
            yield Usage(input_tokens, output_tokens)
            yield Stop(stop_reason(stop))
            return
    raise GatewayError("GATEWAY_INTERRUPTED", "the stream ended before message_stop")
