"""Turn files into Documents: detect the format, run its reader, never raise.

``parse_path`` and ``parse_bytes`` return a list because a ZIP yields one
Document per member; every other file yields exactly one.
"""
from __future__ import annotations

import hashlib
import importlib
import os
import re
import time
from typing import Iterator, Optional, Sequence

from engine import wording
from engine.korean import closed_up, one_line
from engine.limits import DEFAULT_LIMITS, Limits
from engine.model import Document, Source, Table, Warning
from engine.read.detect import Detected, claims_known_format, detect, extension_mismatch, text_format
from engine.read.form_fields import PRESS_MARKS
from engine.read.failures import ContentLimit, ReadFailure, mark_unreadable, unreadable
from engine.read.formats import archive
from engine.read.formats.base import DocumentBuilder
from engine.read.formats.zipsafe import ExpansionBudget

# format -> (reader module, extractor name)
READERS = {
    "pdf": ("engine.read.formats.pdf", "pymupdf"),
    "docx": ("engine.read.formats.docx", "python-docx"),
    "xlsx": ("engine.read.formats.xlsx", "openpyxl"),
    "hwpx": ("engine.read.formats.hwpx", "hwpx-native"),
    "hwp": ("engine.read.formats.hwp", "hwp-native"),
    "png": ("engine.read.formats.image", "image"),
    "jpeg": ("engine.read.formats.image", "image"),
    "tiff": ("engine.read.formats.image", "image"),
    "bmp": ("engine.read.formats.image", "image"),
    "gif": ("engine.read.formats.image", "image"),
    "text": ("engine.read.formats.text", "text"),
    "csv": ("engine.read.formats.csvfile", "csv"),
    "hml": ("engine.read.formats.hwpml", "hwpml-native"),
    "hwp3": ("engine.read.formats.hwp3", "hwp3-native"),
    "xls": ("engine.read.formats.xls", "xlrd"),
    "doc": ("engine.read.formats.doc", "doc-native"),
    "pptx": ("engine.read.formats.pptx", "python-pptx"),
}
# Formats we recognise but do not read, with the reason they get.
NOT_READ = {
    "hwp2": "UNSUPPORTED_VERSION",
    "drm": "DRM_ENCRYPTED",
    "ooxml": "PASSWORD_PROTECTED",
    "ppt": "UNSUPPORTED_FORMAT",
    "unknown": "UNSUPPORTED_FORMAT",
}


def parse_path(path: str, *, limits: Limits = DEFAULT_LIMITS,
               display_name: Optional[str] = None) -> list[Document]:
    """Read one file from disk (a ZIP gives several Documents). Never raises."""
    name = display_name or os.path.basename(path)
    try:
        size = os.path.getsize(path)
        if size > limits.max_file_bytes:
            return [unreadable(name, "unknown", "TOO_LARGE", size=size)]
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        return [unreadable(name, "unknown", "READ_ERROR", detail=type(exc).__name__)]
    return parse_bytes(data, name, limits=limits)


def parse_bytes(data: bytes, filename: str, *, container_path: Sequence[str] = (),
                limits: Limits = DEFAULT_LIMITS, depth: int = 0,
                budget: Optional[ExpansionBudget] = None) -> list[Document]:
    """Read bytes named ``filename``; a ZIP expands to its members' Documents.

    ``budget`` is the expansion budget of the outermost file (engine/read/formats/zipsafe.py);
    a file read on its own gets a new one.
    """
    if len(data) > limits.max_file_bytes:
        return [unreadable(filename, "unknown", "TOO_LARGE", size=len(data),
                           container_path=container_path)]
    budget = budget or ExpansionBudget(limits, held=len(data))
    if data[:2] == b"PK" and detect(data).format == "zip":  # only ZIP-like bytes need the layout check
        return archive.read_archive(data, filename, container_path=list(container_path), limits=limits,
                                    depth=depth, read_member=parse_bytes, budget=budget)
    return [parse_document(data, filename, container_path=container_path, limits=limits, budget=budget)]


def parse_document(data: bytes, filename: str, *, container_path: Sequence[str] = (),
                   limits: Limits = DEFAULT_LIMITS, budget: Optional[ExpansionBudget] = None) -> Document:
    """Read one non-archive file into a Document. Never raises."""
    started = time.perf_counter()
    if not data:
        return unreadable(filename, "unknown", "EMPTY", container_path=container_path)
    found = detect(data)
    if found.format == "text":   # a .hwp that is text is a damaged .hwp; a .json is data, not a document
        found = Detected(text_format(filename) or "unknown")
    sha = hashlib.sha256(data).hexdigest()
    doc = Document(doc_id=f"sha256:{sha}",
                   source=Source(filename=filename, format=found.format, bytes=len(data),
                                 sha256=sha, container_path=list(container_path)))
    ext = extension_mismatch(filename, found.format)
    if ext:
        doc.warnings.append(Warning("EXTENSION_MISMATCH", wording.warning_text(
            "EXTENSION_MISMATCH", ext=ext, actual=wording.format_name(found.format))))

    if found.format == "unknown" and claims_known_format(filename):
        mark_unreadable(doc, "CORRUPT")  # named like a document we read, but its bytes are no such document
    elif found.format in NOT_READ:
        mark_unreadable(doc, NOT_READ[found.format], found.drm_vendor)
    else:
        module_name, extractor = READERS[found.format]
        budget = budget or ExpansionBudget(limits, held=len(data))
        budget.start_document()
        builder = DocumentBuilder(doc, extractor, limits, budget)
        try:
            importlib.import_module(module_name).read(data, builder)
        except ContentLimit:   # keep what fits in memory, and say so
            doc.warnings.append(Warning("CONTENT_LIMIT", wording.warning_text(
                "CONTENT_LIMIT", mb=f"{limits.max_rss_bytes // (1024 * 1024):,}")))
        except ReadFailure as failure:
            mark_unreadable(doc, failure.code, failure.drm_vendor)
            if failure.warning:
                doc.warnings.append(failure.warning)
        except MemoryError:
            mark_unreadable(doc, "TOO_LARGE")
        except Exception as exc:  # a reader must never take the caller down
            mark_unreadable(doc, "CORRUPT")
            doc.warnings.append(Warning("PARSER_ERROR", wording.warning_text(
                "PARSER_ERROR", detail=type(exc).__name__)))
        if doc.access.readable and not doc.all_text().strip() and found.format not in (
                "png", "jpeg", "tiff", "bmp", "gif"):
            mark_unreadable(doc, "NO_TEXT" if builder.drawn else "EMPTY")   # pictures only: the file is fine
    _finish(doc, started)
    return doc


def iter_files(folder: str) -> Iterator[str]:
    """Every file under ``folder``, recursively, in a stable order, and every link that leaves the
    folder (to be listed as LINK_OUTSIDE, see ``leaves_folder``; links to folders are never walked)."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        links_out = [d for d in dirs if leaves_folder(os.path.join(root, d), folder)]
        for name in sorted(files + links_out):
            if name.startswith(".") or name.startswith("~$"):
                continue
            path = os.path.join(root, name)
            if os.path.isfile(path) or name in links_out or leaves_folder(path, folder):
                yield path


def leaves_folder(path: str, folder: str) -> bool:
    """Whether ``path`` is a symbolic link whose target is outside ``folder`` (or nowhere): such a link
    is listed, never followed, so a folder cannot pull in files from elsewhere on the PC."""
    if not os.path.islink(path):
        return False
    target = os.path.realpath(path)
    root = os.path.realpath(folder)
    return not os.path.exists(target) or os.path.commonpath([target, root]) != root


def _finish(doc: Document, started: float) -> None:
    """Fill the fields every reader shares: form fields (engine/read/form_fields.py), the heading outline
    (engine/read/outline.py), geometry warnings (engine/read/review.py), title fallback, metrics."""
    if doc.access.readable:
        try:
            from engine.read.outline import sections
            from engine.read.review import review_warnings
            from engine.read.form_fields import extract_structure
            extract_structure(doc)
            doc.structure.sections = sections(doc)
            for code in review_warnings(doc):
                if code not in doc.warning_codes():
                    doc.warnings.append(Warning(code, wording.warning_text(code)))
        except Exception:  # the form's fields, outline and geometry warnings are extras: never lose a read over them
            pass
    if doc.access.readable and not doc.structure.title:
        doc.structure.title = _guess_title(doc)
    if doc.structure.title:
        doc.structure.title = closed_up(doc.structure.title)   # "통 합 재 정 통 계" reads as one word
    doc.metrics.parse_ms = int((time.perf_counter() - started) * 1000)
    chars: dict[str, int] = {}
    for b in doc.blocks:
        chars[b.extractor] = chars.get(b.extractor, 0) + len(b.text)
    total = sum(chars.values())
    doc.metrics.extractor_mix = {k: round(v / total, 3) for k, v in chars.items()} if total else {}


_NOTICE_NUMBER = re.compile(r"제\s*\d{2,4}\s*-\s*\d+\s*호")
# Who signs a notice: a region, then the office holder ("서울특별시 강남구청장", "울산광역시 남구청장").
_SIGNER = re.compile(r"[가-힣]+(특별시|광역시|특별자치시|특별자치도|도|시|군)(\s+[가-힣]+)?\s*[가-힣]*(청장|시장|군수|도지사|교육감)$")
_DATE = re.compile(r"\d{2,4}\s*[.\-/년]\s*\d{1,2}\s*[.\-/월]?(\s*\d{1,2}\s*[.일]?)?")


# Lines a document opens with that are not its title: a note ("※ 신청서 작성에 …", "* 표지의 …"), a body
# paragraph's square bullet ("□ 과학기술정보통신부는 …"), a long sentence ("…선정되었다고 밝혔다.").
_NOT_TITLE = re.compile(r"^\s*[※□*]|^.{40,}다\.\s*$")


def _guess_title(doc: Document) -> Optional[str]:
    if doc.source.format in ("xlsx", "xls", "csv"):  # sheet names and cells are not titles
        return None
    for b in doc.blocks:
        if b.type in ("title", "heading") and b.text.strip():
            return b.text.strip()[:200]
    tables = {t.block: t for t in doc.tables}
    for b in doc.blocks:
        # the first short line with letters (not a date line, not a notice's number "공고 제2023-745호",
        # not the signer "서울특별시 강남구청장"), or a title box: a table of one cell, or the first row of a
        # table that is one merged cell (a form or an annex drawn whole as a table: "정책연구과제 선정 결과보고서")
        first = b.text.strip().split("\n")[0]
        text = one_line(first if b.type == "table" else b.text)
        box = b.type == "table" and _title_box(tables.get(b.id))
        if ((b.type == "paragraph" or box) and 2 <= len(text) <= 100 and sum(ch.isalpha() for ch in _DATE.sub("", text)) >= 2
                and not _NOTICE_NUMBER.search(text) and not _SIGNER.match(text) and not _NOT_TITLE.search(text)
                and not re.sub(r"\s", "", text).startswith(PRESS_MARKS)):   # 「보도자료」 marks what it is
            return text
    return None


def _title_box(table: Optional[Table]) -> bool:
    """Whether ``table`` opens with a row that is one cell across the whole table (a one-cell title box, a
    form's merged title row), not a field label beside its value ("생산등록번호 | (빈 칸)")."""
    if table is None or not table.cells:
        return False
    first = [c for c in table.cells if c.row == 0]
    return len(first) == 1 and first[0].col_span >= table.cols
