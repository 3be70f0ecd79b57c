"""What old Office files (OLE compound files) say about themselves in their summary properties."""
from __future__ import annotations

import io
from typing import Optional

import olefile

# Code pages of the summary property set -> Python codecs (949: Korean Windows).
_CODEPAGES = {949: "cp949", 1252: "cp1252", 65001: "utf-8", 1200: "utf-16-le"}


def ole_title(data: bytes) -> Optional[str]:
    """The title in ``\\x05SummaryInformation``, decoded with the code page the file names."""
    try:
        with olefile.OleFileIO(io.BytesIO(data)) as ole:
            meta = ole.get_metadata()
    except Exception:   # no or broken property set: no title
        return None
    title = meta.title
    if isinstance(title, bytes):
        encoding = _CODEPAGES.get(meta.codepage or 0, "cp949")
        title = title.decode(encoding, errors="replace")
    return title.strip("\x00 ").strip() or None if title else None
