"""ZIP archives: every member becomes its own Document, read recursively.

Everything happens in memory: nothing is ever written to disk. The archive is
opened through the file's ExpansionBudget (engine/read/formats/zipsafe.py), which
checks the directory before anything is inflated (member count, declared
total, compression ratio, nesting depth) and counts every byte inflated, all
nesting levels together; member paths that climb out are checked here. A rule
broken by one archive refuses that archive as ARCHIVE_UNSAFE; a rule about the
whole file (total bytes, members, depth) refuses the outermost archive as one
Document, however deep it broke. Declared sizes are not trusted: members are
read in chunks up to a hard cap, which also keeps the members held in memory
along a nesting chain under ``Limits.held_bytes``.
"""
from __future__ import annotations

import hashlib
import re
import zipfile
from typing import Callable, Optional

from engine.limits import Limits
from engine.model import Document, Warning
from engine.read.failures import unreadable
from engine.read.formats.zipsafe import ExpansionBudget, MemberTooLarge, Refused, mb, read_capped_stream, rule

UTF8_FLAG = 0x800
ENCRYPTED_FLAG = 0x1
JUNK_NAMES = {".DS_Store", "Thumbs.db"}
JUNK_DIRS = {"__MACOSX"}
_DRIVE = re.compile(r"^[A-Za-z]:")
ReadMember = Callable[..., list[Document]]   # (data, name, *, container_path, limits, depth, budget)


def read_archive(data: bytes, filename: str, *, container_path: list[str], limits: Limits, depth: int,
                 read_member: ReadMember, budget: Optional[ExpansionBudget] = None) -> list[Document]:
    """One Document per file member (a nested ZIP expands too); never raises.

    ``read_member`` reads a member's bytes (``engine.read.parse.parse_bytes``, which comes back here for
    a nested ZIP); it is handed in so this module stays below the one that dispatches to it.

    A ZIP that cannot be opened gives one CORRUPT Document, one without file
    members one EMPTY Document, an unsafe one one ARCHIVE_UNSAFE Document
    with a warning naming the rule that was broken.
    """
    budget = budget or ExpansionBudget(limits, held=len(data))
    sha = hashlib.sha256(data).hexdigest()

    def whole(code: str, warning: Optional[Warning] = None) -> list[Document]:
        doc = unreadable(filename, "zip", code, size=len(data),
                         container_path=container_path, sha256=sha)
        if warning:
            doc.warnings.append(warning)
        return [doc]

    try:
        zf = budget.open(data, filename, archive=True, depth=depth, tree=lambda part: False)
        infos = zf.infolist()
        names = [member_name(i) for i in infos]
    except Refused as refused:
        return _refused(budget, depth, whole, refused.warning)
    except Exception:  # BadZipFile, truncated data, absurd headers …
        return whole("CORRUPT")
    with zf:
        broken = unsafe_path_rule(names)
        if broken:
            return whole("ARCHIVE_UNSAFE", broken)
        members = [(i, n) for i, n in zip(infos, names) if not n.endswith("/") and not is_junk(n)]
        if not members:
            return whole("EMPTY")
        inner_path = list(container_path) + [filename]
        docs: list[Document] = []
        for info, name in members:
            docs += _read_member(zf, info, f"{filename}/{name}", inner_path, budget, depth, read_member)
            if budget.broken:
                return _refused(budget, depth, whole, budget.broken)
        return docs


def _refused(budget: ExpansionBudget, depth: int, whole, warning: Optional[Warning]) -> list[Document]:
    """An archive refused: as one Document, or nothing when the outermost archive will refuse the file."""
    if budget.broken and depth > 0:
        return []
    return whole("ARCHIVE_UNSAFE", budget.broken or warning)


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


def unsafe_path_rule(names: list[str]) -> Optional[Warning]:
    """A warning naming the first member whose path is absolute or climbs out, or None."""
    for name in names:
        if is_unsafe_path(name):
            return rule("ARCHIVE_UNSAFE_PATH", name=name)
    return None


def is_unsafe_path(name: str) -> bool:
    """Absolute paths, drive letters and '..' components (with / or \\ separators)."""
    if name.startswith(("/", "\\")) or _DRIVE.match(name):
        return True
    return ".." in re.split(r"[/\\]", name)


def _read_member(zf, info: zipfile.ZipInfo, display: str, container_path: list[str],
                 budget: ExpansionBudget, depth: int, read_member: ReadMember) -> list[Document]:
    """Documents for one member: its parse, or the reason it could not be taken out."""
    limits = budget.limits
    if info.flag_bits & ENCRYPTED_FLAG:
        return [unreadable(display, "unknown", "PASSWORD_PROTECTED", size=info.file_size,
                           container_path=container_path)]
    cap = budget.room()
    too_large = unreadable(display, "unknown", "TOO_LARGE", size=info.file_size, container_path=container_path)
    if info.file_size > cap:
        return [_with_memory_warning(too_large, limits, cap)]
    try:
        data = zf.read_capped(info, cap)
    except (MemberTooLarge, MemoryError):
        return [_with_memory_warning(too_large, limits, cap)]
    except Refused:   # the whole file's budget is spent: the outermost archive says so
        return []
    except Exception as exc:  # bad CRC, broken deflate stream, unknown method …
        return [unreadable(display, "unknown", "CORRUPT", size=info.file_size,
                           container_path=container_path, detail=type(exc).__name__)]
    with budget.holding(len(data)):
        return read_member(data, display, container_path=container_path, limits=limits,
                           depth=depth + 1, budget=budget)


def _with_memory_warning(doc: Document, limits: Limits, cap: int) -> Document:
    """A member over the file size limit, or over what may be held in memory around it, says which."""
    if cap < limits.max_file_bytes:
        doc.warnings.append(rule("MEMBER_TOO_LARGE_NESTED", limit=mb(limits.held_bytes)))
    return doc


def read_capped(zf: zipfile.ZipFile, info: zipfile.ZipInfo, cap: int) -> bytes:
    """A member's bytes from a plain ZipFile, in chunks; raises MemberTooLarge past ``cap``."""
    with zf.open(info) as fh:
        return read_capped_stream(fh, cap, info.filename)
