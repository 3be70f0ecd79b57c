"""What every provider format is normalised to: text, usage and stop events, and one error type.

A provider module turns its wire format (JSON body or SSE stream) into a
sequence of these events, so the caller never sees which format answered.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union


@dataclass(frozen=True)
class Text:
    """A piece of the answer's text, in order."""

    text: str


@dataclass(frozen=True)
class Usage:
    """Token counts the provider reported (None when it did not say)."""

    input_tokens: Optional[int] = None
    output_tokens: Optional[int] = None


@dataclass(frozen=True)
class Stop:
    """The answer is complete. ``reason``: "end", "max_tokens" or the provider's own word."""

    reason: str


Event = Union[Text, Usage, Stop]


@dataclass
class Reply:
    """A whole answer: its text, the usage and stop reason, and how many HTTP attempts it took."""

    text: str
    stop: str
    usage: Usage = field(default_factory=Usage)
    attempts: int = 1


class GatewayError(Exception):
    """A request to the model could not give an answer.

    ``code`` is the contract (engine/wording.py has its Korean sentence);
    ``detail`` is for developers and never holds the API key.
    """

    def __init__(self, code: str, detail: str = "", *, status: Optional[int] = None,
                 retry_after: Optional[float] = None):
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail
        self.status = status
        self.retry_after = retry_after


def stop_reason(raw: Optional[str]) -> str:
    """One word for the providers' many ways of saying 'finished' or 'ran out of tokens'."""
    if raw in (None, "stop", "end_turn", "stop_sequence", "completed"):
        return "end"
    if raw in ("length", "max_tokens", "max_output_tokens"):
        return "max_tokens"
    return raw
