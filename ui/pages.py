"""Render pages of a PDF or an image file to QImages with PyMuPDF.

Safe to call from a worker thread (QImage, unlike QPixmap, may be made
off the GUI thread). PyMuPDF is not thread-safe, so renders are serialised.
Page sizes are in PDF points, the unit of the Document contract's bbox.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import pymupdf
from PySide6.QtGui import QImage

# Formats whose page can be drawn; everything else is shown as text.
IMAGE_FORMATS = {"png", "jpeg", "tiff", "bmp", "gif"}
PAGE_FORMATS = {"pdf"} | IMAGE_FORMATS
MAX_PAGES = 12  # at most this many pages rendered for one citation

_LOCK = threading.Lock()


@dataclass
class PageImage:
    number: int      # 1-based
    image: QImage
    width: float     # page size in points
    height: float


def render_pages(path: Path, numbers: list[int], zoom: float = 2.0, fmt: str = "pdf") -> list[PageImage]:
    """Render the given 1-based pages (those that exist, at most MAX_PAGES) at ``zoom`` × 72 dpi.

    A picture is its own single page of one point per pixel (as engine.read.formats.image reads it).
    """
    if fmt in IMAGE_FORMATS:
        return [_picture(path)] if 1 in numbers else []
    out = []
    with _LOCK, pymupdf.open(path) as doc:
        for number in sorted(set(numbers))[:MAX_PAGES]:
            if not 1 <= number <= doc.page_count:
                continue
            page = doc[number - 1]
            pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
            image = QImage(pix.samples, pix.width, pix.height, pix.stride,
                           QImage.Format.Format_RGB888).copy()
            out.append(PageImage(number, image, page.rect.width, page.rect.height))
    return out


def _picture(path: Path) -> PageImage:
    with _LOCK:
        pix = pymupdf.Pixmap(str(path))
        if pix.colorspace is None or pix.colorspace.n != 3:
            pix = pymupdf.Pixmap(pymupdf.csRGB, pix)
        if pix.alpha:
            pix = pymupdf.Pixmap(pix, 0)
        image = QImage(pix.samples, pix.width, pix.height, pix.stride, QImage.Format.Format_RGB888).copy()
    return PageImage(1, image, float(pix.width), float(pix.height))
