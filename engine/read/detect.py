"""Format detection by content (magic bytes and container layout), not by name."""
from __future__ import annotations

import codecs
import io
import os
import re
import zipfile
from dataclasses import dataclass
from typing import Optional

from engine.read.formats.zipsafe import part_name

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
HWP3_MAGIC = b"HWP Document File V3.00"
HWP2_MAGIC = b"HWP Document File V2."
MARKANY_MAGIC = b"<MARKANY_DOCUMENTSAFER>"

# Extension -> the formats a file with that extension may legitimately be.
EXTENSION_FORMATS = {
    ".pdf": {"pdf"}, ".docx": {"docx"}, ".xlsx": {"xlsx"}, ".xlsm": {"xlsx"},
    ".hwpx": {"hwpx"}, ".hwp": {"hwp", "hwp3"}, ".zip": {"zip"},
    ".png": {"png"}, ".jpg": {"jpeg"}, ".jpeg": {"jpeg"}, ".tif": {"tiff"},
    ".tiff": {"tiff"}, ".bmp": {"bmp"}, ".gif": {"gif"},
    ".doc": {"doc"}, ".xls": {"xls"}, ".ppt": {"ppt"}, ".pptx": {"pptx"},
    ".txt": {"text"}, ".csv": {"csv"}, ".tsv": {"csv"}, ".hml": {"hml"},
}
# Text has no signature: text bytes are read as a document only under these names ("" = no extension).
TEXT_EXTENSIONS = frozenset({".txt", ".text", ""})
CSV_EXTENSIONS = frozenset({".csv", ".tsv"})
HWPML_SAMPLE = 4096         # bytes searched for the HWPML root element (after the XML declaration)
_PDF_MARKER = re.compile(rb"%PDF-[12]\.")
TEXT_SAMPLE = 1 << 16       # bytes looked at to tell text from binary
TEXT_CONTROLS = 0.005       # share of control characters (besides tabs and line breaks) text may hold


@dataclass
class Detected:
    format: str                     # pdf, docx, xlsx, hwpx, hwp, hwp3, zip, png, jpeg, …, unknown
    encrypted_ooxml: bool = False   # an OOXML file wrapped in an encrypted OLE container
    drm_vendor: Optional[str] = None  # key of wording.DRM_VENDORS when a wrapper names one


def detect(data: bytes) -> Detected:
    """Tell what a file is from its first bytes and, for containers, its layout.

    Signatures at the very start come first; only then is "%PDF-" looked for
    within the first 1024 bytes, where PDF readers accept it (ISO 32000
    implementation notes). A stored ZIP whose first member is a PDF carries
    "%PDF-" within its first kilobyte, but it starts with a ZIP local header.
    """
    head = data[:64]
    if head.startswith(b"%PDF-"):
        return Detected("pdf")
    if head.startswith(MARKANY_MAGIC):
        return Detected("drm", drm_vendor="markany")
    if head.startswith(HWP3_MAGIC):
        return Detected("hwp3")
    if head.startswith(HWP2_MAGIC):
        return Detected("hwp2")
    if head.startswith(OLE_MAGIC):
        return _detect_ole(data)
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")):
        return Detected(_zip_kind(data))
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return Detected("png")
    if head.startswith(b"\xff\xd8\xff"):
        return Detected("jpeg")
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return Detected("tiff")
    if head.startswith(b"BM") and len(data) > 26:
        return Detected("bmp")
    if head.startswith((b"GIF87a", b"GIF89a")):
        return Detected("gif")
    if _PDF_MARKER.search(data[:1024]):   # a PDF behind a little junk (mail gateways, old scanners)
        return Detected("pdf")
    if _is_hwpml(data):
        return Detected("hml")
    if looks_like_text(data):
        return Detected("text")
    return Detected("unknown")


def _is_hwpml(data: bytes) -> bool:
    """HWPML (Hangul's XML format, .hml — also how 국가법령정보센터 hands out laws as .hwp): its root
    element ``<HWPML`` comes after at most an XML declaration, a DOCTYPE and comments."""
    sample = data[:HWPML_SAMPLE]
    if sample.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        sample = sample.decode("utf-16", errors="ignore").encode("utf-8")
    sample = sample.lstrip(codecs.BOM_UTF8 + b" \t\r\n")
    if not sample.startswith(b"<"):
        return False
    found = re.search(rb"<([A-Za-z_][\w.:-]*)", re.sub(rb"<[?!][^>]*>", b"", sample))
    return found is not None and found.group(1) == b"HWPML"


def looks_like_text(data: bytes) -> bool:
    """Whether ``data`` is plain text: a Unicode BOM, or no NUL byte and its start decodes as UTF-8
    or CP949 with hardly any control characters."""
    if data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return True
    sample = data[:TEXT_SAMPLE]
    if not sample or b"\x00" in sample:
        return False
    for encoding in ("utf-8", "cp949"):
        try:   # the sample may end inside a character: an incremental decoder waits for the rest
            text = codecs.getincrementaldecoder(encoding)().decode(sample, final=len(sample) == len(data))
        except UnicodeDecodeError:
            continue
        controls = sum(1 for ch in text if ord(ch) < 32 and ch not in "\t\n\r\f")
        return controls <= TEXT_CONTROLS * max(len(text), 1)
    return False


def _detect_ole(data: bytes) -> Detected:
    import olefile

    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except Exception:
        return Detected("hwp")  # OLE magic but unreadable: the HWP reader reports CORRUPT
    try:
        names = {"/".join(e) for e in ole.listdir(streams=True, storages=False)}
        if "FileHeader" in names:
            return Detected("hwp")
        if "EncryptionInfo" in names and "EncryptedPackage" in names:
            return Detected("ooxml", encrypted_ooxml=True)
        if "WordDocument" in names:
            return Detected("doc")
        if "Workbook" in names or "Book" in names:
            return Detected("xls")
        if "PowerPoint Document" in names:
            return Detected("ppt")
        return Detected("unknown")
    finally:
        ole.close()


def _zip_kind(data: bytes) -> str:
    """hwpx, docx, xlsx, pptx or plain zip (also for unreadable zips)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = {part_name(n) for n in zf.namelist()}  # '\\' from some Windows tools
            if "mimetype" in names:
                try:
                    with zf.open("mimetype") as fh:  # never inflate a whole (possibly hostile) member
                        mime = fh.read(64)
                except Exception:
                    mime = b""
                if b"hwp+zip" in mime:
                    return "hwpx"
            if any(n.startswith("Contents/section") for n in names) or "Contents/content.hpf" in names:
                return "hwpx"
            if "word/document.xml" in names:
                return "docx"
            if "xl/workbook.xml" in names:
                return "xlsx"
            if "ppt/presentation.xml" in names:
                return "pptx"
    except Exception:
        pass
    return "zip"


def extension_mismatch(filename: str, fmt: str) -> Optional[str]:
    """The extension if it contradicts the detected format, else None."""
    ext = os.path.splitext(filename)[1].lower()
    expected = EXTENSION_FORMATS.get(ext)
    if expected is None or fmt in expected or fmt in ("unknown", "drm", "ooxml"):
        return None
    return ext


def named_as_text(filename: str) -> bool:
    """Whether ``filename`` says it is plain text (or says nothing)."""
    return os.path.splitext(filename.rsplit("/", 1)[-1])[1].lower() in TEXT_EXTENSIONS


def text_format(filename: str) -> Optional[str]:
    """What text bytes are under ``filename``: "text", "csv", or None (not a document)."""
    if named_as_text(filename):
        return "text"
    ext = os.path.splitext(filename.rsplit("/", 1)[-1])[1].lower()
    return "csv" if ext in CSV_EXTENSIONS else None


def claims_known_format(filename: str) -> bool:
    """True when the extension names a format Noda reads (so unknown bytes mean damage).

    Old Office names are left out: offices often save web pages or other data as .xls/.doc."""
    ext = os.path.splitext(filename)[1].lower()
    return ext in EXTENSION_FORMATS and not EXTENSION_FORMATS[ext] & {
        "doc", "xls", "ppt", "pptx", "text", "csv"}
