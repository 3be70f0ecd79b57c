"""What every command prints the same way: JSON lines, the console's encoding, the documents left out."""
from __future__ import annotations

import sys

from engine import jsonout, wording
from engine.names import shown_name


def print_json(value, indent=None) -> None:
    """JSON on stdout that every JSON and line reader takes (engine/jsonout.py), written as it is made."""
    jsonout.write(value, sys.stdout, indent=indent)


def prepare_output(json_mode: bool) -> None:
    """JSON goes out as UTF-8; text never crashes on a console that lacks a character (cp949)."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            if json_mode and stream is sys.stdout:
                stream.reconfigure(encoding="utf-8")
            else:
                stream.reconfigure(errors="replace")


def print_skipped(skipped: list[dict]) -> None:
    """The documents a search or an answer left out because they could not be read, with why."""
    if skipped:
        print(wording.tenant_text("skipped", count=len(skipped)))
        for s in skipped:
            print(f"  {shown_name(s['filename'])}: {s['reason_text']}")
