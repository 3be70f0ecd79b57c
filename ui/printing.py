"""Print an answer with its evidence (and the highlighted page picture when there is one)."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QUrl
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QTextDocument
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QApplication

from ui import report

IMAGE_URL = "noda://evidence.png"
IMAGE_WIDTH = 480  # points on paper


def answer_document(answer: dict, image: Optional[QImage] = None, page: Optional[int] = None) -> QTextDocument:
    """The printable answer: question, unreadable documents, answer, evidence, page picture."""
    doc = QTextDocument()
    doc.setDefaultFont(QApplication.font())
    url = None
    if image is not None and not image.isNull():
        scaled = image.scaledToWidth(min(image.width(), 1400))
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(IMAGE_URL), scaled)
        url = IMAGE_URL
    html = report.answer_html(answer, for_print=True, image_url=url, image_page=page)
    if url:
        html = html.replace(f"<img src='{url}'>", f"<img src='{url}' width='{IMAGE_WIDTH}'>")
    doc.setHtml(html)
    return doc


def print_answer(printer: QPrinter, answer: dict, image: Optional[QImage] = None,
                 page: Optional[int] = None) -> None:
    """Send the answer to a printer (a real one, or a PDF file); ``image`` pictures page ``page``."""
    answer_document(answer, image, page).print_(printer)


def pdf_printer(path: str) -> QPrinter:
    """A printer writing A4 PDF to ``path``."""
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(path)
    printer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                      printer.pageLayout().margins()))
    return printer
