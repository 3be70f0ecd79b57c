"""A folder's saved state: one entry per file in ``state.json``, and the journal of the batches since.

An entry holds the file's size, mtime_ns, sha256, parser generation, whether the parse cache has it,
and a summary of each Document it gave (engine/library/workers.py ``summary``). A refresh appends one
line per committed batch to ``state.journal`` (the entries it took, the files it dropped), so a killed
refresh resumes where it stopped; the end of a refresh folds the journal into ``state.json``. Both
files are private (0600), written whole or not at all.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Optional

from engine.private import private_dir

STATE_VERSION = 1


def load(home: Path) -> Optional[dict[str, dict]]:
    """The saved entries with the journal of later batches replayed; None when there is no usable state."""
    try:
        state = json.loads((home / "state.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        state = {"version": STATE_VERSION, "files": {}}
    if state.get("version") != STATE_VERSION:
        return None
    files = state.get("files", {})
    try:
        lines = (home / "state.journal").read_text(encoding="utf-8").splitlines()
    except OSError:
        lines = []
        if not (home / "state.json").is_file():
            return None
    for line in lines:
        try:
            batch = json.loads(line)
        except ValueError:     # the last line of a killed write
            break
        for key in batch["removed"]:
            files.pop(key, None)
        files.update(batch["files"])
    return files


def append(home: Path, entries: dict[str, dict], removed: list[str]) -> None:
    """Append one committed batch to ``state.journal`` (folded into state.json at the end)."""
    line = json.dumps({"files": entries, "removed": list(removed)}, ensure_ascii=False) + "\n"
    private_dir(home)
    fd = os.open(home / "state.journal", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as fh:
        fh.write(line)


def save(home: Path, folder: Path, files: dict[str, dict]) -> None:
    """Write ``state.json`` whole and drop the journal it now holds."""
    state = {"version": STATE_VERSION, "folder": str(folder), "files": files}
    write_atomic(home / "state.json", json.dumps(state, ensure_ascii=False).encode("utf-8"))
    (home / "state.journal").unlink(missing_ok=True)


def journal_left(home: Path) -> bool:
    """Whether batches wait in the journal (state.json is then behind)."""
    return (home / "state.journal").exists()


def known_folders(cache_root: Path) -> list[str]:
    """The folders the cache holds something of (from each tenant's saved state)."""
    folders = []
    for state in sorted((cache_root / "tenants").glob("*/state.json")):
        try:
            folder = json.loads(state.read_text(encoding="utf-8")).get("folder")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(folder, str):
            folders.append(folder)
    return folders


def write_atomic(path: Path, data: bytes) -> None:
    """``data`` into ``path`` through a private temporary file beside it: whole or not at all."""
    private_dir(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
