"""Cut a JSON payload down to a size a minimal client can take, and say what was cut.

MCP results travel as one line of text (a client such as the Norma SDK reads
lines of up to 8 MiB), so a very large payload — a long document's blocks, a
folder of thousands of files — is cut: the largest list (or long text)
loses its tail, in proportion to the excess, until the whole fits. The payload
then carries ``cut``: a Korean note and, per cut, where, how many items were
kept of how many (or how many characters).
"""
from __future__ import annotations

import copy
import json
from typing import Any, Optional

from engine import wording


def size(value: Any) -> int:
    """Bytes of ``value`` as compact UTF-8 JSON."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def fit(payload: dict, max_bytes: int) -> dict:
    """``payload`` unchanged when it fits in ``max_bytes``, otherwise a cut copy with a ``cut`` note."""
    if size(payload) <= max_bytes:
        return payload
    payload = copy.deepcopy(payload)
    cuts: dict[str, dict] = {}
    while (total := size(payload)) > max_bytes:
        found = _largest(payload, "")
        if found is None:
            break
        found_size, path, parent, key, value = found
        share = max(0.0, 1 - (total - max_bytes) / found_size) * 0.95   # what may stay of it, with a margin
        kept = max(1, min(len(value) - 1, int(len(value) * share)))   # one item stays, to be cut inside
        if isinstance(value, list):
            parent[key] = value[:kept]
            entry = cuts.setdefault(path, {"path": path, "total": len(value)})
            entry["kept"] = kept
        else:
            parent[key] = value[:kept] + "…"
            entry = cuts.setdefault(path, {"path": path, "chars": len(value)})
            entry["kept_chars"] = kept
    what = ", ".join(_describe(c) for c in cuts.values())
    payload["cut"] = {"note": wording.api_text("cut", what=what), "parts": list(cuts.values())}
    return payload


def _describe(cut: dict) -> str:
    if "total" in cut:
        return f"{cut['path']} {cut['kept']}/{cut['total']}"
    return wording.api_text("cut_chars", path=cut["path"], kept=cut["kept_chars"], total=cut["chars"])


def _largest(value: Any, path: str) -> Optional[tuple[str, Any, Any, Any]]:
    """(path, parent, key, value) of the largest list of two or more items or string over 200 characters."""
    best, best_size = None, 0
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        here = f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}" if path else key
        if isinstance(child, (dict, list)):
            inner = _largest(child, here)
            if inner is not None and inner[0] > best_size:
                best_size, best = inner[0], inner[1:]
        if (isinstance(child, list) and len(child) > 1) or (isinstance(child, str) and len(child) > 200):
            child_size = size(child)
            if child_size >= best_size:
                best_size, best = child_size, (here, value, key, child)
    return None if best is None else (best_size, *best)
