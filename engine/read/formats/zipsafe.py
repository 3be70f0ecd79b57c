"""One expansion budget for everything inflated out of ZIP containers.

ZIP archives (nested ones too) and the ZIP-based office formats (HWPX, DOCX,
XLSX, PPTX) all open their bytes with ``ExpansionBudget.open`` and read parts
through the ``BudgetZip`` it returns, so one set of rules covers every path
into a file:

- the directory, before anything is inflated: part count and, for an archive
  (whose members are all taken out), the compression ratio of every member of
  1 MB or more and the declared total against what is left of the budget;
  office packages have no ratio rule, since real XML can deflate 200-fold and
  more (a report repeating one phrase: 217x), and their parts are bounded by
  the declared-size checks below instead;
- every read, while it streams, in 64 KB chunks: the bytes really inflated
  (a header that lies is caught too), counted against one total for the whole
  file — all nesting levels together — and, for parts a reader parses into an
  XML tree, against ``Limits.xml_tree_bytes`` per document.

A broken rule raises ``Refused`` (a ReadFailure: ARCHIVE_UNSAFE for a bomb,
TOO_LARGE for a part too big to read within the memory limit) carrying the
warning that names it. A rule about the whole file (total inflated bytes,
members, nesting depth) is also remembered in ``ExpansionBudget.broken``, so
the outermost archive is refused as one Document instead of thousands.

Part names are read with '/' separators whatever the file says: some Windows
tools write ``Contents\\section0.xml``, which the formats' own lookups
(``Contents/section0.xml``) would otherwise miss. Only the name changes; every
rule above applies to the part as before.

``slim_package`` is for readers built on python-docx / python-pptx, which load
every part of a package into memory: it gives the same package with only its
XML parts, pictures and other binary parts left empty (never inflated).
"""
from __future__ import annotations

import io
import zipfile
from contextlib import contextmanager
from typing import Callable, Iterator, Optional

from engine import wording
from engine.limits import DEFAULT_LIMITS, Limits
from engine.model import Warning
from engine.names import shown_name
from engine.read.failures import ReadFailure

RATIO_MIN_BYTES = 1024 * 1024     # the ratio rule applies to parts at least this large
CHUNK = 64 * 1024
XML_SUFFIXES = (".xml", ".rels")


class Refused(ReadFailure):
    """A budget rule broke; ``warning`` says which (ReadFailure code ARCHIVE_UNSAFE or TOO_LARGE)."""


class MemberTooLarge(Exception):
    """A member yielded more bytes than the cap allows."""


def part_name(name: str) -> str:
    """A ZIP entry name with '/' separators (some Windows tools write '\\')."""
    return name.replace("\\", "/")


def is_xml_part(name: str) -> bool:
    """An OOXML part a library parses as XML (by name: ``.xml`` or ``.rels``)."""
    return name.lower().endswith(XML_SUFFIXES)


def rule(code: str, **values) -> Warning:
    """The warning that names a broken rule (a name in it with hidden characters escaped)."""
    if "name" in values:
        values["name"] = shown_name(values["name"])
    return Warning(code=code, text=wording.warning_text(code, **values))


def mb(size: int) -> str:
    return f"{size / (1024 * 1024):,.0f}"


class ExpansionBudget:
    """What one file (with everything nested in it) may still inflate; see the module doc."""

    def __init__(self, limits: Limits = DEFAULT_LIMITS, held: int = 0):
        self.limits = limits
        self.inflated = 0                 # bytes inflated so far, every level
        self.members = 0                  # archive members seen so far, every level
        self.held = held                  # bytes held in memory by the file and the members around us
        self.tree_bytes = 0               # XML parsed into trees by the current document
        self.broken: Optional[Warning] = None   # first rule broken that concerns the whole file

    # ---- containers ------------------------------------------------------
    def open(self, data: bytes, name: str = "", *, archive: bool = False, depth: int = 0,
             tree: Callable[[str], bool] = lambda part: is_xml_part(part)) -> "BudgetZip":
        """A BudgetZip over ``data`` once its directory passes; raises Refused (or BadZipFile).

        ``archive``: every member will be taken out (a ZIP file, not an office
        package), so its declared total must fit and its members count for the
        whole file. ``tree(part)`` tells which parts the reader parses into a tree.
        """
        zf = BudgetZip(io.BytesIO(data), self, tree)
        try:
            self._admit(zf.infolist(), name, archive, depth)
        except BaseException:
            zf.close()
            raise
        return zf

    def _admit(self, infos: list[zipfile.ZipInfo], name: str, archive: bool, depth: int) -> None:
        limits = self.limits
        if archive and depth > limits.max_archive_depth:
            self._whole_file(rule("ARCHIVE_TOO_DEEP", limit=limits.max_archive_depth, name=name))
        count = len(infos) + (self.members if archive else 0)
        if count > limits.max_archive_members:
            warning = rule("ARCHIVE_TOO_MANY_MEMBERS", count=count, limit=limits.max_archive_members)
            if archive:
                self._whole_file(warning)
            raise Refused("ARCHIVE_UNSAFE", warning=warning)
        if archive:
            self.members = count
        for info in infos if archive else ():
            if info.file_size >= RATIO_MIN_BYTES:
                ratio = info.file_size / max(info.compress_size, 1)
                if ratio > limits.max_archive_ratio:
                    raise Refused("ARCHIVE_UNSAFE", warning=rule(
                        "ARCHIVE_HIGH_RATIO", name=info.filename, ratio=int(ratio),
                        limit=int(limits.max_archive_ratio)))
        if archive:
            total = sum(i.file_size for i in infos)
            if self.inflated + total > limits.max_archive_total_bytes:
                self._whole_file(self._too_big(self.inflated + total))

    # ---- charging ----------------------------------------------------------
    def charge(self, n: int, part: str, tree: bool) -> None:
        """Count ``n`` inflated bytes of ``part``; raises Refused past a limit."""
        self.inflated += n
        if self.inflated > self.limits.max_archive_total_bytes:
            self._whole_file(self._too_big(self.inflated))
        if tree:
            self.tree_bytes += n
            if self.tree_bytes > self.limits.xml_tree_bytes:
                raise Refused("TOO_LARGE", warning=self._tree_too_big(part, self.tree_bytes))

    def check_declared(self, info: zipfile.ZipInfo, tree: bool) -> None:
        """Refuse a part whose declared size already breaks a limit, before inflating it
        (zipfile never yields more than the declared size: a larger stream fails its CRC)."""
        if self.inflated + info.file_size > self.limits.max_archive_total_bytes:
            self._whole_file(self._too_big(self.inflated + info.file_size))
        if tree and self.tree_bytes + info.file_size > self.limits.xml_tree_bytes:
            raise Refused("TOO_LARGE", warning=self._tree_too_big(info.filename,
                                                                  self.tree_bytes + info.file_size))

    def start_document(self) -> None:
        """A new document begins: its XML trees are counted from zero (the last one's are gone)."""
        self.tree_bytes = 0

    # ---- holding members in memory -----------------------------------------
    def room(self) -> int:
        """Bytes one more member may take in memory."""
        return max(0, min(self.limits.max_file_bytes, self.limits.held_bytes - self.held))

    @contextmanager
    def holding(self, n: int) -> Iterator[None]:
        """``n`` bytes are held in memory while the block runs (a member being read)."""
        self.held += n
        try:
            yield
        finally:
            self.held -= n

    # ---- internals -----------------------------------------------------------
    def _whole_file(self, warning: Warning) -> None:
        if self.broken is None:
            self.broken = warning
        raise Refused("ARCHIVE_UNSAFE", warning=warning)

    def _too_big(self, total: int) -> Warning:
        return rule("ARCHIVE_TOO_BIG", size=mb(total), limit=mb(self.limits.max_archive_total_bytes))

    def _tree_too_big(self, part: str, size: int) -> Warning:
        return rule("PART_TOO_LARGE", name=part, size=mb(size), limit=mb(self.limits.xml_tree_bytes))


class BudgetZip(zipfile.ZipFile):
    """A read-only ZipFile whose every read is charged to an ExpansionBudget as it streams."""

    def __init__(self, file, budget: ExpansionBudget, tree: Callable[[str], bool]):
        super().__init__(file)
        self.budget = budget
        self.tree = tree
        for info in self.filelist:           # lookups by name see '/' separators (see the module doc)
            info.filename = part_name(info.filename)
        self.NameToInfo = {info.filename: info for info in self.filelist}

    def open(self, name, mode="r", pwd=None, *, force_zip64=False):
        if mode != "r":
            raise ValueError("a BudgetZip is read-only")
        info = name if isinstance(name, zipfile.ZipInfo) else self.getinfo(name)
        tree = self.tree(info.filename)
        self.budget.check_declared(info, tree)
        return _Charged(super().open(info, pwd=pwd), self.budget, info.filename, tree)

    def read_capped(self, info: zipfile.ZipInfo, cap: int) -> bytes:
        """The member's bytes; raises MemberTooLarge past ``cap`` whatever the header says."""
        if info.file_size > cap:
            raise MemberTooLarge(info.filename)
        with self.open(info) as fh:
            return read_capped_stream(fh, cap, info.filename)


def read_capped_stream(fh, cap: int, name: str) -> bytes:
    """Everything ``fh`` yields, read in chunks; raises MemberTooLarge past ``cap``."""
    out = bytearray()
    while chunk := fh.read(CHUNK):
        out += chunk
        if len(out) > cap:
            raise MemberTooLarge(name)
    return bytes(out)


class _Charged(io.RawIOBase):
    """A member stream that charges what it yields, in chunks (a whole-member read() is split)."""

    def __init__(self, raw, budget: ExpansionBudget, part: str, tree: bool):
        super().__init__()
        self._raw = raw
        self._budget = budget
        self._part = part
        self._tree = tree

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        if n is None or n < 0:
            return b"".join(iter(lambda: self.read(CHUNK), b""))
        data = self._raw.read(n)
        if data:
            self._budget.charge(len(data), self._part, self._tree)
        return data

    def readinto(self, buffer) -> int:
        data = self.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)

    def close(self) -> None:
        self._raw.close()
        super().close()


def slim_package(data: bytes, budget: ExpansionBudget) -> bytes:
    """The office package ``data`` with its XML parts only: every other part (pictures, fonts,
    embedded files) kept by name but empty, so a library that loads every part (python-docx,
    python-pptx) never holds them. Stored, not compressed. Raises Refused or BadZipFile."""
    out = io.BytesIO()
    with budget.open(data) as zf, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as slim:
        for info in zf.infolist():
            if info.is_dir():
                continue
            keep = is_xml_part(info.filename)
            slim.writestr(info.filename, zf.read(info) if keep else b"")
    return out.getvalue()
