"""Small helpers the provider formats share: JSON payloads, error objects, token counts."""
from __future__ import annotations

import json
from typing import Any, Optional

from engine.gateway.events import GatewayError


def decode(payload: str | bytes) -> dict:
    """A JSON object from a body or an SSE data field; GATEWAY_BAD_RESPONSE when it is not one."""
    try:
        value = json.loads(payload)
    except ValueError:
        raise GatewayError("GATEWAY_BAD_RESPONSE", "the answer is not JSON") from None
    if not isinstance(value, dict):
        raise GatewayError("GATEWAY_BAD_RESPONSE", "the answer is not a JSON object")
    return value


def raise_error(obj: dict, *, error_key: str = "error") -> None:
    """Raise GATEWAY_PROVIDER_ERROR when ``obj`` is or carries an error object (even inside a 200)."""
    error: Any = obj.get(error_key)
    if obj.get("type") == "error" or obj.get("object") == "error":
        error = error or obj
    if error:
        raise GatewayError("GATEWAY_PROVIDER_ERROR", error_message(error))


def error_message(error: Any) -> str:
    """The provider's own words for an error object (or string)."""
    if isinstance(error, dict):
        kind = error.get("type") or error.get("code")
        message = error.get("message")
        if isinstance(message, dict):
            message = message.get("message")
        text = str(message or "") or json.dumps(error, ensure_ascii=False)[:300]
        return f"{kind}: {text}" if kind and kind != "error" else text
    return str(error)[:300]


def count(value: Any) -> Optional[int]:
    """An integer token count, or None when the provider did not give one."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None
