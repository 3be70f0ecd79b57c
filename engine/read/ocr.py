"""Offline Korean OCR through PyMuPDF's built-in Tesseract.

Language data is looked up, never downloaded, in this order: the folder in
``NODA_TESSDATA``, the bundled ``resources/tessdata``, the system's Tesseract
folders, then whatever ``pymupdf.get_tessdata()`` finds. ``NODA_OCR=0`` turns
OCR off.

A page is rendered in grey to a fixed long side (``LONG_SIDE``), table rules
are erased (Tesseract skips ruled cells otherwise) and Tesseract reads the
rest. PyMuPDF's OCR reports no confidence, so every OCR block gets the fixed
``CONFIDENCE`` below. The Korean model often splits words into single
syllables and loses spaces; a space is put back where two words stand apart
(``SPACE_GAP``), but search must not rely on OCR spacing. Only one OCR runs at
a time in a process (Leptonica is not thread-safe).
"""
from __future__ import annotations

import contextlib
import functools
import glob
import math
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from engine.read.mupdf import pymupdf  # MuPDF's messages kept off stdout

LANGUAGE = "kor"            # "kor+eng" reads no better here and takes twice as long (bench/ocr_quality.py)
LONG_SIDE = 2000            # pixels: every page or picture is scaled to this long side for Tesseract
MIN_LONG_SIDE = 1000        # the time limit never scales a page below this
MAX_ZOOM = 4.0              # a tiny picture is enlarged at most this much
PAGE_TIME_LIMIT = 30.0      # seconds per page, best effort (see OcrSession)
CONFIDENCE = 0.8            # fixed: PyMuPDF gives no per-word confidence
SPACE_GAP = 0.35            # gap between two OCR words, in line heights, that stands for a space
MAX_EM_PER_CHAR = 1.3       # widest a recognised character may be, in heights of its word
DARK = 170                  # grey level (0-255) below which a pixel counts as ink
RULE_LENGTH = 1 / 15        # table rules: dark runs at least this share of the page's long side …
RULE_THICKNESS = 1 / 400    # … and thinner than this share of it

BUNDLED_TESSDATA = Path(__file__).resolve().parents[2] / "resources" / "tessdata"   # beside engine/
SYSTEM_TESSDATA = ("/usr/share/tesseract-ocr/*/tessdata", "/usr/share/tessdata",
                   "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata")

# Text flags for OCR output: no images, keep whitespace and ligatures as they are.
_FLAGS = pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
# Tesseract (Leptonica) refuses to run in two threads at once; the window parses in a pool.
_LOCK = threading.Lock()
_TEXT_PASS: list["TextPass"] = []     # the text pass a parse worker is in, if any


@dataclass
class TextPass:
    """A read without OCR (see ``text_pass``); ``needed`` tells whether some page wanted it."""
    needed: bool = False


@contextlib.contextmanager
def text_pass():
    """Within this block readers do no OCR: where a page or picture would need it they note it
    (``defer``) instead. A refresh reads every file this way first, so text search is ready
    soon, and reads the files that needed OCR again after all the others (engine/library/workers.py)."""
    current = TextPass()
    _TEXT_PASS.append(current)
    try:
        yield current
    finally:
        _TEXT_PASS.remove(current)


def defer() -> bool:
    """For a reader about to OCR: True (and noted) when this read is a text pass and must not."""
    if _TEXT_PASS:
        _TEXT_PASS[-1].needed = True
        return True
    return False


def find_tessdata(language: Optional[str] = None) -> Optional[str]:
    """The first folder holding ``<lang>.traineddata`` for every language in ``language``, or None."""
    language = language or LANGUAGE
    candidates = [os.environ.get("NODA_TESSDATA"), str(BUNDLED_TESSDATA)]
    for pattern in SYSTEM_TESSDATA:
        candidates += sorted(glob.glob(pattern), reverse=True)  # newest Tesseract first
    candidates.append(_pymupdf_tessdata())
    for folder in candidates:
        if folder and _has_languages(folder, language):
            return folder
    return None


def ocr_available(language: Optional[str] = None) -> bool:
    """True when OCR is switched on and its language data is installed."""
    if os.environ.get("NODA_OCR", "").strip().lower() in ("0", "off", "false", "no"):
        return False
    return find_tessdata(language) is not None


@dataclass
class OcrText:
    """One block of OCR text and where it stands on the page (points, top-left origin)."""
    text: str
    bbox: list[float]


class OcrSession:
    """OCR for the pages of one document.

    Each page is rendered so that its long side has ``long_side`` pixels
    (about 170 dpi for A4: small print stays legible, big scans stay quick)
    and read by Tesseract. A running OCR call cannot be stopped, so the time
    limit is best effort: when a page takes longer than ``time_limit`` the
    following pages are rendered smaller (never below ``MIN_LONG_SIDE``) so
    that they should fit. Unset arguments take the module settings above.
    """

    def __init__(self, *, long_side: Optional[int] = None, language: Optional[str] = None,
                 time_limit: Optional[float] = None):
        self.long_side = long_side or LONG_SIDE
        self.language = language or LANGUAGE
        self.time_limit = time_limit or PAGE_TIME_LIMIT
        self.tessdata = find_tessdata(self.language)
        if self.tessdata is None:
            raise RuntimeError(f"no Tesseract language data for {self.language!r}")

    def read_page(self, page: pymupdf.Page) -> list[OcrText]:
        """The text Tesseract finds on ``page``, block by block, in page coordinates."""
        zoom = min(MAX_ZOOM, self.long_side / max(page.rect.width, page.rect.height, 1.0))
        dpi = max(1, round(72 * zoom))
        started = time.perf_counter()
        picture = _without_rules(page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY))
        with _LOCK:
            ocr_pdf = pymupdf.open(stream=picture.pdfocr_tobytes(language=self.language,
                                                                 tessdata=self.tessdata))
        ocr_page = ocr_pdf[0]
        blocks = ocr_page.get_text("dict", flags=_FLAGS)["blocks"]
        elapsed = time.perf_counter() - started
        if elapsed > self.time_limit:
            self.long_side = max(MIN_LONG_SIDE, int(self.long_side * math.sqrt(self.time_limit / elapsed)))
        unzoom = page.rect.width / ocr_page.rect.width
        to_page = pymupdf.Matrix(unzoom, unzoom) * page.derotation_matrix
        bounds = page.rect * page.derotation_matrix
        found = [_read_block(b) for b in blocks if b.get("type") == 0]
        return [OcrText(t.text, list(pymupdf.Rect(t.bbox) * to_page & bounds)) for t in found if t.text]


def _without_rules(gray: pymupdf.Pixmap) -> pymupdf.Pixmap:
    """The rendered page in RGB (as Tesseract wants it) with table rules and underlines erased.

    Tesseract reads next to nothing inside a ruled table; with the rules gone it
    reads the cells like any other text (bench/ocr_quality.py). A rule is a dark
    run longer than RULE_LENGTH of the page's long side and thinner than
    RULE_THICKNESS of it; the inside of a large dark area is kept.
    """
    pixels = np.frombuffer(gray.samples, dtype=np.uint8).reshape(gray.h, gray.stride)[:, :gray.w].copy()
    dark = pixels < DARK
    long_side = max(gray.w, gray.h)
    length = max(2, int(long_side * RULE_LENGTH))
    thick = max(2, int(long_side * RULE_THICKNESS))
    rules = _in_long_runs(dark, length) & ~(_shifted(dark, thick) & _shifted(dark, -thick))
    rules |= (_in_long_runs(dark.T, length) & ~(_shifted(dark.T, thick) & _shifted(dark.T, -thick))).T
    pixels[rules] = 255
    cleaned = pymupdf.Pixmap(pymupdf.csGRAY, gray.w, gray.h, pixels.tobytes(), False)
    cleaned.set_dpi(*(min(max(res, 72), 2400) for res in (gray.xres, gray.yres)))  # Tesseract's range
    return pymupdf.Pixmap(pymupdf.csRGB, cleaned)


def _in_long_runs(dark: np.ndarray, length: int) -> np.ndarray:
    """Pixels lying in a horizontal run of at least ``length`` dark pixels."""
    if dark.shape[1] < length:
        return np.zeros_like(dark)
    sums = np.cumsum(dark, axis=1, dtype=np.int32)
    sums = np.pad(sums, ((0, 0), (1, 0)))
    full = (sums[:, length:] - sums[:, :-length]) == length   # the run starting here is all dark
    starts = np.pad(np.cumsum(full, axis=1, dtype=np.int32), ((0, 0), (1, 0)))
    x = np.arange(dark.shape[1])
    last = full.shape[1]
    covered = starts[:, np.clip(x + 1, 0, last)] - starts[:, np.clip(x - length + 1, 0, last)]
    return covered > 0


def _shifted(mask: np.ndarray, by: int) -> np.ndarray:
    """``mask`` moved down by ``by`` rows (up when negative), new rows False."""
    out = np.zeros_like(mask)
    if by > 0:
        out[by:] = mask[:-by]
    elif by < 0:
        out[:by] = mask[-by:]
    return out


def _read_block(block: dict) -> OcrText:
    """A block's words (OCR page coordinates): a space where two words stand apart, a newline between rows.

    Tesseract often cuts one printed row into several lines; those are joined
    back. Middle dots, which the Korean model reads as the letter ㆍ, are unified.
    A word's box is cut to MAX_EM_PER_CHAR of its height per character: for words
    standing alone on a line MuPDF reports boxes far wider than the print.
    """
    text, previous, box = "", None, pymupdf.Rect()
    for line in block["lines"]:
        for span in line["spans"]:
            word = span["text"].replace("\u318d", "\u00b7")
            if not word.strip():
                continue
            x0, y0, x1, y1 = span["bbox"]
            x1 = min(x1, x0 + len(word.strip()) * (y1 - y0) * MAX_EM_PER_CHAR)
            if previous is not None:
                same_row = previous[1] <= (y0 + y1) / 2 <= previous[3]
                if not same_row:
                    text += "\n"
                elif x0 - previous[2] > SPACE_GAP * max(y1 - y0, 1.0) and not text[-1].isspace():
                    text += " "
            text += word
            previous = (x0, y0, x1, y1)
            box |= (x0, y0, x1, y1)
    return OcrText(text.strip(), list(box))


def _has_languages(folder: str, language: str) -> bool:
    return all(os.path.isfile(os.path.join(folder, f"{lang}.traineddata"))
               for lang in language.split("+") if lang)


@functools.lru_cache(maxsize=1)
def _pymupdf_tessdata() -> Optional[str]:
    """PyMuPDF's own guess (TESSDATA_PREFIX, or asking an installed tesseract); None if it has none."""
    try:
        return pymupdf.get_tessdata()
    except Exception:
        return None
