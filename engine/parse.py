"""Turn files into Documents: detect the format, run its reader, never raise.

``parse_path`` and ``parse_bytes`` return a list because a ZIP yields one
Document per member; every other file yields exactly one.
"""
from __future__ import annotations

import hashlib
import importlib
import os
import time
from typing import Iterator, Optional, Sequence

from engine import wording
from engine.detect import Detected, claims_known_format, detect, extension_mismatch, text_format
from engine.formats.base import ContentLimit, DocumentBuilder, ReadFailure
from engine.formats.zipsafe import ExpansionBudget
from engine.limits import DEFAULT_LIMITS, Limits
from engine.model import Document, Source, Warning

# format -> (reader module, extractor name)
READERS = {
    "pdf": ("engine.formats.pdf", "pymupdf"),
    "docx": ("engine.formats.docx", "python-docx"),
    "xlsx": ("engine.formats.xlsx", "openpyxl"),
    "hwpx": ("engine.formats.hwpx", "hwpx-native"),
    "hwp": ("engine.formats.hwp", "hwp-native"),
    "png": ("engine.formats.image", "image"),
    "jpeg": ("engine.formats.image", "image"),
    "tiff": ("engine.formats.image", "image"),
    "bmp": ("engine.formats.image", "image"),
    "gif": ("engine.formats.image", "image"),
    "text": ("engine.formats.text", "text"),
    "csv": ("engine.formats.csvfile", "csv"),
    "hml": ("engine.formats.hwpml", "hwpml-native"),
    "hwp3": ("engine.formats.hwp3", "hwp3-native"),
    "xls": ("engine.formats.xls", "xlrd"),
    "doc": ("engine.formats.doc", "doc-native"),
    "pptx": ("engine.formats.pptx", "python-pptx"),
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

    ``budget`` is the expansion budget of the outermost file (engine/formats/zipsafe.py);
    a file read on its own gets a new one.
    """
    if len(data) > limits.max_file_bytes:
        return [unreadable(filename, "unknown", "TOO_LARGE", size=len(data),
                           container_path=container_path)]
    budget = budget or ExpansionBudget(limits, held=len(data))
    if data[:2] == b"PK" and detect(data).format == "zip":  # only ZIP-like bytes need the layout check
        from engine.formats import archive
        return archive.read_archive(data, filename, container_path=list(container_path),
                                    limits=limits, depth=depth, budget=budget)
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
        _mark_unreadable(doc, "CORRUPT")  # named like a document we read, but its bytes are no such document
    elif found.format in NOT_READ:
        _mark_unreadable(doc, NOT_READ[found.format], found.drm_vendor)
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
            _mark_unreadable(doc, failure.code, failure.drm_vendor)
            if failure.warning:
                doc.warnings.append(failure.warning)
        except MemoryError:
            _mark_unreadable(doc, "TOO_LARGE")
        except Exception as exc:  # a reader must never take the caller down
            _mark_unreadable(doc, "CORRUPT")
            doc.warnings.append(Warning("PARSER_ERROR", wording.warning_text(
                "PARSER_ERROR", detail=type(exc).__name__)))
        if doc.access.readable and not doc.all_text().strip() and found.format not in (
                "png", "jpeg", "tiff", "bmp", "gif"):
            _mark_unreadable(doc, "EMPTY")
    _finish(doc, started)
    return doc


def unreadable(filename: str, fmt: str, code: str, *, size: int = 0,
               container_path: Sequence[str] = (), detail: str = "",
               sha256: Optional[str] = None) -> Document:
    """A Document for a file we could not even open, with its reason."""
    doc = Document(doc_id=f"sha256:{sha256}" if sha256 else None,
                   source=Source(filename=filename, format=fmt, bytes=size, sha256=sha256,
                                 container_path=list(container_path)))
    _mark_unreadable(doc, code)
    if detail:
        doc.warnings.append(Warning("PARSER_ERROR", wording.warning_text("PARSER_ERROR", detail=detail)))
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


def _mark_unreadable(doc: Document, code: str, drm_vendor: Optional[str] = None) -> None:
    doc.blocks.clear()
    doc.tables.clear()
    doc.access.readable = False
    doc.access.reason = code
    doc.access.reason_text = wording.reason_text(code)
    if code == "PASSWORD_PROTECTED":
        doc.access.password_protected = True
    if code == "DRM_ENCRYPTED":
        doc.access.drm = True
        if drm_vendor:
            doc.access.drm_vendor = wording.DRM_VENDORS.get(drm_vendor, drm_vendor)


def _finish(doc: Document, started: float) -> None:
    """Fill the fields every reader shares: form fields (engine/structure.py), the heading outline
    (engine/outline.py), geometry warnings (engine/review.py), title fallback, metrics."""
    if doc.access.readable:
        try:
            from engine.outline import sections
            from engine.review import review_warnings
            from engine.structure import extract_structure
            extract_structure(doc)
            doc.structure.sections = sections(doc)
            for code in review_warnings(doc):
                if code not in doc.warning_codes():
                    doc.warnings.append(Warning(code, wording.warning_text(code)))
        except Exception:  # the form's fields, outline and geometry warnings are extras: never lose a read over them
            pass
    if doc.access.readable and not doc.structure.title:
        doc.structure.title = _guess_title(doc)
    doc.metrics.parse_ms = int((time.perf_counter() - started) * 1000)
    chars: dict[str, int] = {}
    for b in doc.blocks:
        chars[b.extractor] = chars.get(b.extractor, 0) + len(b.text)
    total = sum(chars.values())
    doc.metrics.extractor_mix = {k: round(v / total, 3) for k, v in chars.items()} if total else {}


def _guess_title(doc: Document) -> Optional[str]:
    if doc.source.format in ("xlsx", "xls", "csv"):  # sheet names and cells are not titles
        return None
    for b in doc.blocks:
        if b.type in ("title", "heading") and b.text.strip():
            return b.text.strip()[:200]
    for b in doc.blocks:
        text = " ".join(b.text.split())
        if b.type == "paragraph" and 2 <= len(text) <= 100:
            return text
    return None
