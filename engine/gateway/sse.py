"""Server-sent events: split a byte stream of lines into (event name, data) pairs.

Follows the WHATWG rules the providers use: ``event:`` names the event,
``data:`` lines are joined with newlines, a blank line dispatches, lines
starting with ``:`` are comments. An event cut off by the end of the stream
(no blank line after it) is not dispatched — the caller decides whether the
stream ended properly.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator


@dataclass(frozen=True)
class ServerEvent:
    event: str      # "message" when the server named none
    data: str


def iter_events(lines: Iterable[bytes]) -> Iterator[ServerEvent]:
    """The events in ``lines`` (raw lines as read from the response, with or without line ends)."""
    name, data = "", []
    for raw in lines:
        line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
        if not line:
            if data:
                yield ServerEvent(name or "message", "\n".join(data))
            name, data = "", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
