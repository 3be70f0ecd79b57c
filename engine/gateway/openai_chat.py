"""OpenAI Chat Completions: ``POST {base}/chat/completions`` with a Bearer key.

The base URL may end in ``/v1`` or not: a bare host gets ``/v1``, a path the
administrator wrote (``/v1``, ``/api``) is used as it is. The request carries
exactly one max-token key (``max_tokens`` or ``max_completion_tokens``). A
stream ends with ``data: [DONE]``; one that stops before it and before any
finish reason was cut off.
"""
from __future__ import annotations

from typing import Iterable, Iterator, Optional

from engine.gateway import wire
from engine.gateway.config import GatewayConfig
from engine.gateway.events import Event, GatewayError, Stop, Text, Usage, stop_reason
from engine.gateway.sse import ServerEvent

RETRY_EMPTY = True            # an empty answer with a normal stop is asked again
DEFAULT_MAX_TOKENS = 4096
MAX_TOKEN_KEYS = ("max_tokens", "max_completion_tokens")


def path(base_path: str) -> str:
    """The endpoint path for a base path (a pasted full endpoint is not doubled either)."""
    return (base_path.removesuffix("/chat/completions") or "/v1") + "/chat/completions"


def headers(key: str, config: GatewayConfig) -> dict[str, str]:
    out = {"Content-Type": "application/json"}
    if key:
        out["Authorization"] = f"Bearer {key}"
    return out


def body(config: GatewayConfig, system: str, messages: list[dict], stream: bool) -> dict:
    key = config.max_tokens_key if config.max_tokens_key in MAX_TOKEN_KEYS else "max_tokens"
    wire_messages = ([{"role": "system", "content": system}] if system else []) + [
        {"role": m["role"], "content": m["content"]} for m in messages]
    out = {"model": config.model, "messages": wire_messages,
           key: config.max_tokens or DEFAULT_MAX_TOKENS, "stream": stream}
    if stream:
        out["stream_options"] = {"include_usage": True}
    if config.temperature is not None:
        out["temperature"] = config.temperature
    return out


def parse_body(obj: dict) -> list[Event]:
    """The events of a whole (non-streamed) answer."""
    wire.raise_error(obj)
    choices = obj.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise GatewayError("GATEWAY_BAD_RESPONSE", "no choices in the answer")
    message = choices[0].get("message") or {}
    return [Text(message.get("content") or ""), _usage(obj.get("usage")),
            Stop(stop_reason(choices[0].get("finish_reason")))]


def parse_stream(events: Iterable[ServerEvent]) -> Iterator[Event]:
    """The events of a streamed answer."""
    finish: Optional[str] = None
    usage = Usage()
    done = False
    for event in events:
        if event.data.strip() == "[DONE]":
            done = True
            break
        obj = wire.decode(event.data)
        wire.raise_error(obj)
        for choice in obj.get("choices") or []:
            delta = choice.get("delta") or {}
            if delta.get("content"):
                yield Text(delta["content"])
            finish = choice.get("finish_reason") or finish
        if obj.get("usage"):
            usage = _usage(obj["usage"])
    if not done and finish is None:
        raise GatewayError("GATEWAY_INTERRUPTED", "the stream ended before [DONE]")
    yield usage
    yield Stop(stop_reason(finish))


def _usage(raw) -> Usage:
    raw = raw if isinstance(raw, dict) else {}
    return Usage(wire.count(raw.get("prompt_tokens")), wire.count(raw.get("completion_tokens")))
