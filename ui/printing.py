"""Print an answer with its evidence: every cited PDF or picture page, the cited boxes drawn on it.

``cited_pictures`` renders the pages (a worker thread may call it: it makes
QImages, never pixmaps); ``print_answer`` lays out the question, the
unreadable documents, the answer, the citations and the page pictures.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, QUrl
from PySide6.QtGui import QColor, QImage, QPageLayout, QPageSize, QPainter, QPen, QTextDocument
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QApplication

from ui import answer_render
from ui.evidence import prepare

IMAGE_WIDTH = 600      # layout px (¾ pt): a portrait A4 page picture fits the printed text area
PRINT_ZOOM = 1.5       # render scale (× 72 dpi) of printed pages
MAX_PRINTED_PAGES = 16
BOX_FILL = QColor(255, 213, 0, 90)
BOX_EDGE = QColor(230, 120, 0)


@dataclass
class CitedPicture:
    n: int             # the citation's number
    filename: str
    page: int
    image: QImage      # the page with the cited boxes drawn


def cited_pictures(tenant, answer: dict, zoom: float = PRINT_ZOOM,
                   max_pages: int = MAX_PRINTED_PAGES) -> list[CitedPicture]:
    """The cited pages of the answer's PDF and picture sources, boxes drawn, in citation order."""
    out: list[CitedPicture] = []
    for citation in answer.get("citations") or []:
        if len(out) >= max_pages:
            break
        evidence = prepare(tenant, citation, zoom)
        for page in evidence.pages[:max_pages - len(out)]:
            boxes = [a["bbox"] for a in evidence.anchors
                     if a.get("bbox") and (a.get("page") or 1) == page.number]
            out.append(CitedPicture(int(citation.get("n") or 0), citation.get("filename", ""), page.number,
                                    _with_boxes(page.image, boxes, page.image.width() / page.width)))
    return out


def _with_boxes(image: QImage, boxes: list[list[float]], scale: float) -> QImage:
    marked = image.convertToFormat(QImage.Format.Format_RGB32)
    painter = QPainter(marked)
    painter.setPen(QPen(BOX_EDGE, max(1.0, scale)))
    painter.setBrush(BOX_FILL)
    for x0, y0, x1, y1 in boxes:
        painter.drawRect(QRectF(x0 * scale, y0 * scale, (x1 - x0) * scale, (y1 - y0) * scale))
    painter.end()
    return marked


def answer_document(answer: dict, pictures: list[CitedPicture] = ()) -> QTextDocument:
    """The printable answer: question, unreadable documents, answer, evidence, page pictures."""
    doc = QTextDocument()
    doc.setDefaultFont(QApplication.font())
    shown = []
    for i, picture in enumerate(pictures):
        url = f"noda://page-{i}.png"
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(url),
                        picture.image.scaledToWidth(min(picture.image.width(), 1400)))
        shown.append((url, f"[{picture.n}] {picture.filename}", picture.page))
    doc.setHtml(answer_render.answer_html(answer, for_print=True, images=shown, image_width=IMAGE_WIDTH))
    return doc


def print_answer(printer: QPrinter, answer: dict, pictures: list[CitedPicture] = ()) -> None:
    """Send the answer to a printer (a real one, or a PDF file) with the given page pictures."""
    answer_document(answer, pictures).print_(printer)


def pdf_printer(path: str) -> QPrinter:
    """A printer writing A4 PDF to ``path``."""
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(path)
    printer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                      printer.pageLayout().margins()))
    return printer
