"""Picture reader (PNG, JPEG, TIFF, BMP, GIF): the text found by OCR on a one-page document.

Coordinates: the picture is taken as one page of ``width x height`` points,
one point per pixel, origin top-left. A block's bbox is therefore the pixel
rectangle of its text in the picture, and a viewer shows the picture as that
page. Only the first frame of a multi-frame TIFF or GIF is read.

Without OCR language data (engine.read.ocr) a picture has no text to give:
NO_TEXT, whose wording says how to turn OCR on.
"""
from __future__ import annotations

from engine.read import mupdf, ocr
from engine.read.failures import ReadFailure
from engine.read.formats.base import DocumentBuilder
from engine.read.mupdf import pymupdf  # MuPDF's messages kept off stdout


def read(data: bytes, doc: DocumentBuilder) -> None:
    """OCR a picture into ``doc`` as one page."""
    with mupdf.reading(doc):
        _read(data, doc)


def _read(data: bytes, doc: DocumentBuilder) -> None:
    doc.set_pages(1)
    try:
        picture = pymupdf.Pixmap(data)
        pdf = picture_pdf(data, picture.width, picture.height)
    except Exception:
        raise ReadFailure("CORRUPT") from None
    if not ocr.ocr_available() or ocr.defer():
        raise ReadFailure("NO_TEXT")
    found = ocr.OcrSession().read_page(pdf[0])
    if not found:
        raise ReadFailure("NO_TEXT")
    for text in found:
        doc.add_block("paragraph", text.text, page=1, bbox=text.bbox,
                      extractor="ocr", confidence=ocr.CONFIDENCE)
    doc.warn("OCR_TEXT")


def picture_pdf(data: bytes, width: int, height: int) -> pymupdf.Document:
    """A one-page PDF of width x height points showing the picture (transparency on white)."""
    pdf = pymupdf.open()
    page = pdf.new_page(width=width, height=height)
    page.insert_image(page.rect, stream=data)
    return pdf
