"""The last document list the window showed for each folder, kept so a restart can show it at once.

At a restart the engine process needs most of a second before it can list
anything (a new interpreter, the engine's imports, the folder's state), so the
window first shows the list it saved when the folder was last read — marked
as such — then the engine's own saved listing, then what the refresh finds.
A list saved for another ACL name is never shown. Files live in the app cache.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Optional

FOLDER = "window-lists"
VERSION = 1


def _path(cache_root, folder: str) -> Path:
    key = hashlib.sha256(os.path.normcase(str(folder)).encode("utf-8")).hexdigest()[:16]
    return Path(cache_root) / FOLDER / f"{key}.json"


def save(cache_root, folder: str, principal: Optional[str], documents: dict) -> None:
    """Keep ``documents`` (a Tenant.documents() answer) as the folder's last list."""
    target = _path(cache_root, folder)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    data = {"version": VERSION, "folder": str(folder), "principal": principal, "documents": documents}
    tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, target)


def load(cache_root, folder: str, principal: Optional[str]) -> Optional[dict]:
    """The folder's last list for ``principal``; None when there is none (or it cannot be read)."""
    try:
        data = json.loads(_path(cache_root, folder).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (not isinstance(data, dict) or data.get("version") != VERSION or data.get("folder") != str(folder)
            or data.get("principal") != principal or not isinstance(data.get("documents"), dict)):
        return None
    return data["documents"]


def forget(cache_root, folder: str) -> None:
    _path(cache_root, folder).unlink(missing_ok=True)
