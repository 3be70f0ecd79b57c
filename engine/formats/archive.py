"""ZIP archives: every member becomes its own Document, read recursively.

Everything happens in memory: nothing is ever written to disk. The archive
is checked before anything is extracted (member count, total and per-member
sizes, compression ratio, nesting depth, member paths); if any rule is broken
the whole archive is refused as ARCHIVE_UNSAFE. While extracting, declared
sizes are not trusted: members are read in chunks up to a hard cap.
"""
from __future__ import annotations

import hashlib
import io
import re
import zipfile
from typing import Optional

from engine import wording
from engine.limits import Limits
from engine.model import Document, Warning
from engine.parse import parse_bytes, unreadable

UTF8_FLAG = 0x800
ENCRYPTED_FLAG = 0x1
RATIO_MIN_BYTES = 1024 * 1024     # the ratio rule applies to members at least this large
CHUNK = 64 * 1024
JUNK_NAMES = {".DS_Store", "Thumbs.db"}
JUNK_DIRS = {"__MACOSX"}
_DRIVE = re.compile(r"^[A-Za-z]:")


class MemberTooLarge(Exception):
    """A member yielded more bytes than the cap allows."""


def read_archive(data: bytes, filename: str, *, container_path: list[str],
                 limits: Limits, depth: int) -> list[Document]:
    """One Document per file member (a nested ZIP expands too); never raises.

    A ZIP that cannot be opened gives one CORRUPT Document, one without file
    members one EMPTY Document, an unsafe one one ARCHIVE_UNSAFE Document
    with a warning naming the rule that was broken.
    """
    sha = hashlib.sha256(data).hexdigest()

    def whole(code: str, warning: Optional[Warning] = None) -> list[Document]:
        doc = unreadable(filename, "zip", code, size=len(data),
                         container_path=container_path, sha256=sha)
        if warning:
            doc.warnings.append(warning)
        return [doc]

    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
        names = [member_name(i) for i in infos]
    except Exception:  # BadZipFile, truncated data, absurd headers …
        return whole("CORRUPT")
    with zf:
        broken = unsafe_rule(infos, names, limits, depth)
        if broken:
            return whole("ARCHIVE_UNSAFE", broken)
        members = [(i, n) for i, n in zip(infos, names) if not n.endswith("/") and not is_junk(n)]
        if not members:
            return whole("EMPTY")
        inner_path = list(container_path) + [filename]
        docs: list[Document] = []
        for info, name in members:
            docs += _read_member(zf, info, f"{filename}/{name}", inner_path, limits, depth)
        return docs


def member_name(info: zipfile.ZipInfo) -> str:
    """The member's real name with '/' separators (some Windows tools write '\\')."""
    name = info.filename if info.flag_bits & UTF8_FLAG else _redecode(info.filename)
    return name.replace("\\", "/")


def _redecode(name: str) -> str:
    """zipfile decoded a flagless name as CP437: take the raw bytes back, try UTF-8 then CP949."""
    try:
        raw = name.encode("cp437")
    except UnicodeEncodeError:
        return name
    for encoding in ("utf-8", "cp949"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return name


def is_junk(name: str) -> bool:
    """OS litter that is not a document (macOS resource forks, Finder and Explorer caches)."""
    parts = name.split("/")
    return parts[-1] in JUNK_NAMES or any(p in JUNK_DIRS for p in parts)


def unsafe_rule(infos: list[zipfile.ZipInfo], names: list[str], limits: Limits,
                depth: int) -> Optional[Warning]:
    """The first safety rule the archive breaks, as a warning, or None when it is safe."""
    if depth > limits.max_archive_depth:
        return _warning("ARCHIVE_TOO_DEEP", limit=limits.max_archive_depth)
    if len(infos) > limits.max_archive_members:
        return _warning("ARCHIVE_TOO_MANY_MEMBERS", count=len(infos),
                        limit=limits.max_archive_members)
    total = sum(i.file_size for i in infos)
    if total > limits.max_archive_total_bytes:
        return _warning("ARCHIVE_TOO_BIG", size=_mb(total), limit=_mb(limits.max_archive_total_bytes))
    for info, name in zip(infos, names):
        if info.file_size >= RATIO_MIN_BYTES:
            ratio = info.file_size / max(info.compress_size, 1)
            if ratio > limits.max_archive_ratio:
                return _warning("ARCHIVE_HIGH_RATIO", name=name, ratio=int(ratio),
                                limit=int(limits.max_archive_ratio))
        if is_unsafe_path(name):
            return _warning("ARCHIVE_UNSAFE_PATH", name=name)
    return None


def is_unsafe_path(name: str) -> bool:
    """Absolute paths, drive letters and '..' components (with / or \\ separators)."""
    if name.startswith(("/", "\\")) or _DRIVE.match(name):
        return True
    return ".." in re.split(r"[/\\]", name)


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, display: str,
                 container_path: list[str], limits: Limits, depth: int) -> list[Document]:
    """Documents for one member: its parse, or the reason it could not be taken out."""
    if info.flag_bits & ENCRYPTED_FLAG:
        return [unreadable(display, "unknown", "PASSWORD_PROTECTED", size=info.file_size,
                           container_path=container_path)]
    if info.file_size > limits.max_file_bytes:
        return [unreadable(display, "unknown", "TOO_LARGE", size=info.file_size,
                           container_path=container_path)]
    try:
        data = read_capped(zf, info, limits.max_file_bytes)
    except (MemberTooLarge, MemoryError):
        return [unreadable(display, "unknown", "TOO_LARGE", size=info.file_size,
                           container_path=container_path)]
    except Exception as exc:  # bad CRC, broken deflate stream, unknown method …
        return [unreadable(display, "unknown", "CORRUPT", size=info.file_size,
                           container_path=container_path, detail=type(exc).__name__)]
    return parse_bytes(data, display, container_path=container_path, limits=limits, depth=depth + 1)


def read_capped(zf: zipfile.ZipFile, info: zipfile.ZipInfo, cap: int) -> bytes:
    """The member's bytes, read in chunks; raises MemberTooLarge past ``cap`` whatever the header says."""
    out = bytearray()
    with zf.open(info) as fh:
        while chunk := fh.read(CHUNK):
            out += chunk
            if len(out) > cap:
                raise MemberTooLarge(info.filename)
    return bytes(out)


def _warning(code: str, **values) -> Warning:
    return Warning(code=code, text=wording.warning_text(code, **values))


def _mb(size: int) -> str:
    return f"{size / (1024 * 1024):,.0f}"
