"""The OLE2 container of an HWP 5.0 file: its streams, sections and preview.

Compressed streams are raw deflate without a zlib header [spec 3.1].
"""
from __future__ import annotations

import io
import re
import struct
import zlib
from typing import Optional

import olefile

from engine.read.failures import ReadFailure
MAX_STREAM_BYTES = 256 * 1024 * 1024   # one inflated stream; more is a bomb, not a document
_CHUNK = 1 << 20                       # inflate input in pieces so a damaged tail keeps what came before
_SECTION = re.compile(r"Section(\d{1,6})")


class HwpContainer:
    """An opened HWP file: named streams, read on demand."""

    def __init__(self, data: bytes):
        try:
            self.ole = olefile.OleFileIO(io.BytesIO(data))
        except Exception as exc:   # olefile raises many kinds on damaged containers
            raise ReadFailure("CORRUPT", f"not an OLE file: {type(exc).__name__}") from exc
        self.names = {"/".join(entry) for entry in self.ole.listdir(streams=True, storages=False)}

    def close(self) -> None:
        self.ole.close()

    def has(self, name: str) -> bool:
        return name in self.names

    def size(self, name: str) -> int:
        """The size in bytes the directory gives a stream that ``has`` it."""
        return self.ole.get_size(name)

    def read(self, name: str) -> bytes:
        """The raw bytes of a stream; a stream the container cannot give back is CORRUPT."""
        try:
            with self.ole.openstream(name) as stream:
                return stream.read()
        except Exception as exc:   # olefile reports broken sector chains in many ways
            raise ReadFailure("CORRUPT", f"stream {name}: {type(exc).__name__}") from exc

    def has_pictures(self) -> bool:
        """True when the file stores pictures or other embedded objects (its BinData storage)."""
        return any(name.startswith("BinData/") for name in self.names)

    def sections(self, storage: str) -> list[str]:
        """Stream names ``storage/SectionN`` that exist, ordered by N."""
        found = []
        for name in self.names:
            folder, _, leaf = name.partition("/")
            match = _SECTION.fullmatch(leaf)
            if folder == storage and match:
                found.append((int(match.group(1)), name))
        return [name for _, name in sorted(found)]

    def title(self) -> Optional[str]:
        """The title (PIDSI_TITLE) from the HWP summary stream, or None when absent or empty."""
        name = "\x05HwpSummaryInformation"
        if name not in self.names:
            return None
        try:
            return summary_title(self.read(name))
        except ReadFailure:
            return None


def summary_title(stream: bytes) -> Optional[str]:
    """Property 2 (title) of an OLE property-set stream [MS-OLEPS 2.21].

    Read here rather than with olefile's ``getproperties``: olefile 0.47 takes
    the length of UTF-16 strings wrong and walks vectors of any claimed length,
    which a damaged stream turns into minutes of work.
    """
    try:
        start = struct.unpack_from("<I", stream, 44)[0]          # offset of the first property set
        count = struct.unpack_from("<I", stream, start + 4)[0]
        for i in range(min(count, 1000)):
            prop_id, offset = struct.unpack_from("<II", stream, start + 8 + 8 * i)
            if prop_id != 2:
                continue
            at = start + offset
            kind, length = struct.unpack_from("<HxxI", stream, at)
            if kind == 0x1F:      # VT_LPWSTR: length in characters
                text = stream[at + 8:at + 8 + 2 * length].decode("utf-16-le", "replace")
            elif kind == 0x1E:    # VT_LPSTR: length in bytes, in the ANSI code page
                text = stream[at + 8:at + 8 + length].decode("cp949", "replace")
            else:
                return None
            return text.split("\x00", 1)[0].strip() or None
    except struct.error:
        return None
    return None


def inflate(data: bytes, limit: int = MAX_STREAM_BYTES) -> tuple[bytes, bool]:
    """Raw-inflate ``data``; return (bytes, complete). A cut or damaged stream gives what came out."""
    inflater = zlib.decompressobj(-15)
    parts: list[bytes] = []
    room = limit
    for start in range(0, len(data), _CHUNK):
        try:
            piece = inflater.decompress(data[start:start + _CHUNK], room)
        except zlib.error:
            return b"".join(parts), False
        parts.append(piece)
        room -= len(piece)
        if room <= 0 or inflater.eof:
            break
    return b"".join(parts), inflater.eof

