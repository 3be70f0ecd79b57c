"""ZIP members copied out of their archive for the viewer and the 원본 열기 button, once, into ``unpacked/``.

A copy is named by the member's sha256 and checked against it, so a ZIP that changed since it was read
gives no copy rather than the wrong one. The folder itself is never written to.
"""
from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path
from typing import Optional

from engine.library.state import write_atomic
from engine.model import Document
from engine.private import Removed, remove
from engine.read.formats.archive import member_name, read_capped


def unpacked(cache_root: Path, folder: Path, key: str, doc: Document, sha: str, max_bytes: int) -> Optional[Path]:
    """The copy of ``doc`` (a member, nested ZIPs too, of the file ``key`` in ``folder``), made if needed."""
    filename = doc.source.filename
    target = cache_root / "unpacked" / sha / filename.rsplit("/", 1)[-1]
    if target.is_file():
        return target
    try:
        data = (folder / key).read_bytes()
        prefix = key
        for name in doc.source.container_path[1:] + [filename]:
            member = name[len(prefix) + 1:]
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                info = next(i for i in zf.infolist() if member_name(i) == member)
                data = read_capped(zf, info, max_bytes)
            prefix = name
    except Exception:   # the ZIP changed or broke since it was read
        return None
    if hashlib.sha256(data).hexdigest() != sha:
        return None
    write_atomic(target, data)
    return target


def drop_unpacked(cache_root: Path, key: str, entry: dict) -> Removed:
    """Delete the copies of the members of the file ``key`` (a state entry)."""
    freed = Removed()
    for summary in entry["docs"]:
        if summary.get("sha256") and summary["filename"] != key:
            freed.add(remove(cache_root / "unpacked" / summary["sha256"]))
    return freed
