"""The evidence view: cited pages with their boxes painted, or the cited passage as text."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QPixmap, QTransform
from PySide6.QtWidgets import (QGraphicsPixmapItem, QGraphicsRectItem, QGraphicsScene, QGraphicsView,
                               QHBoxLayout, QLabel, QPushButton, QStackedWidget, QTextBrowser,
                               QVBoxLayout, QWidget)

from engine import wording
from engine.answer.evidence import mark_quote
from ui import report, texts
from ui.elided_label import ElidedLabel
from ui.evidence import Evidence
from ui.pages import PageImage

HIGHLIGHT_FILL = QColor(255, 200, 0, 90)
HIGHLIGHT_EDGE = QColor(230, 110, 0, 220)
PAGE_GAP = 24.0          # points between stacked pages
MIN_ZOOM, MAX_ZOOM = 0.1, 8.0
MARK_OPEN = "<span style='background-color:#ffd84d'>"   # Qt rich text has no <mark>


class PageView(QGraphicsView):
    """Pages stacked top to bottom in a scene measured in PDF points; zoom with Ctrl+wheel."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setBackgroundBrush(QColor("#8a8f98"))
        self.highlights: list[QGraphicsRectItem] = []
        self.page_rects: dict[int, QRectF] = {}
        self._fit_width = True

    # ---- content ---------------------------------------------------------
    def show_pages(self, pages: list[PageImage], anchors: list[dict]) -> None:
        """Draw the pages and a semi-transparent box for every anchor on them."""
        scene = self.scene()
        scene.clear()
        self.highlights, self.page_rects = [], {}
        single = len(pages) == 1
        y = 0.0
        for page in pages:
            item = QGraphicsPixmapItem(QPixmap.fromImage(page.image))
            item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
            item.setScale(page.width / max(1, page.image.width()))
            item.setPos(0, y)
            scene.addItem(item)
            label = scene.addSimpleText(wording.evidence_text("page", page=page.number))
            label.setBrush(QColor("white"))
            label.setPos(0, y - 16)
            self.page_rects[page.number] = QRectF(0, y, page.width, page.height)
            for anchor in anchors:
                on_page = anchor.get("page") == page.number or (single and anchor.get("page") is None)
                bbox = anchor.get("bbox")
                if on_page and bbox and len(bbox) == 4:
                    x0, y0, x1, y1 = (float(v) for v in bbox)
                    box = QGraphicsRectItem(QRectF(x0, y + y0, max(1.0, x1 - x0), max(1.0, y1 - y0)))
                    box.setBrush(QBrush(HIGHLIGHT_FILL))
                    box.setPen(QPen(HIGHLIGHT_EDGE, 1.2))
                    box.setZValue(1)
                    scene.addItem(box)
                    self.highlights.append(box)
            y += page.height + PAGE_GAP
        scene.setSceneRect(scene.itemsBoundingRect().adjusted(-PAGE_GAP, -PAGE_GAP, PAGE_GAP, PAGE_GAP))
        self.fit_width()
        self.scroll_to_first_box()

    def scroll_to_first_box(self) -> None:
        """Bring the first highlighted box (or the first page's top) into view."""
        if self.highlights:
            self.centerOn(self.highlights[0])
        elif self.page_rects:
            first = self.page_rects[min(self.page_rects)]
            self.centerOn(first.center().x(), first.top() + self.viewport().height() / 2 / self.zoom())

    # ---- zoom --------------------------------------------------------------
    def zoom(self) -> float:
        return self.transform().m11()

    def set_zoom(self, factor: float) -> None:
        factor = min(MAX_ZOOM, max(MIN_ZOOM, factor))
        self.setTransform(QTransform.fromScale(factor, factor))

    def zoom_by(self, step: float) -> None:
        self._fit_width = False
        self.set_zoom(self.zoom() * step)

    def fit_width(self) -> None:
        """Scale so the widest page fills the view's width (and keep it so when the view is resized)."""
        self._fit_width = True
        if not self.page_rects:
            return
        widest = max(r.width() for r in self.page_rects.values())
        self.set_zoom((self.viewport().width() - 8) / max(1.0, widest))

    # ---- events ------------------------------------------------------------
    def wheelEvent(self, event) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.zoom_by(1.15 if event.angleDelta().y() > 0 else 1 / 1.15)
        else:
            super().wheelEvent(event)

    def resizeEvent(self, event) -> None:
        centre = self.mapToScene(self.viewport().rect().center())
        super().resizeEvent(event)
        if self._fit_width:
            self.fit_width()
            self.centerOn(centre)     # what was in the middle (the cited box) stays in view


def passage_html(passage: str, quote: str) -> str:
    """The passage as Qt rich text with the quote marked (engine.answer.evidence's matching rule)."""
    marked = mark_quote(passage, quote).replace("<mark>", MARK_OPEN).replace("</mark>", "</span>")
    return "<div style='line-height:150%'>" + marked.replace("\n", "<br>") + "</div>"


class EvidenceView(QWidget):
    """Header, zoom buttons, notes, and either the page view or the passage."""

    open_original = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.evidence: Optional[Evidence] = None
        self.header = ElidedLabel()
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setStyleSheet("color:#a15c00")
        self.notes.hide()

        self.page_view = PageView()
        self.passage = QTextBrowser()
        self.passage.setOpenLinks(False)
        self.placeholder = QLabel(texts.EVIDENCE_EMPTY)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.placeholder.setStyleSheet("color:#666")
        self.stack = QStackedWidget()
        for widget in (self.placeholder, self.page_view, self.passage):
            self.stack.addWidget(widget)

        self.zoom_out = QPushButton(texts.ZOOM_OUT)
        self.zoom_in = QPushButton(texts.ZOOM_IN)
        self.fit = QPushButton(texts.ZOOM_FIT)
        self.open_button = QPushButton(texts.OPEN_ORIGINAL)
        self.zoom_out.clicked.connect(lambda: self.page_view.zoom_by(1 / 1.25))
        self.zoom_in.clicked.connect(lambda: self.page_view.zoom_by(1.25))
        self.fit.clicked.connect(self._fit)
        self.open_button.clicked.connect(self.open_original)
        bar = QHBoxLayout()
        bar.addWidget(self.header, 1)
        for button in (self.zoom_out, self.zoom_in, self.fit, self.open_button):
            bar.addWidget(button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.notes)
        layout.addWidget(self.stack, 1)
        self.clear()

    def clear(self, message: str = texts.EVIDENCE_EMPTY) -> None:
        self.evidence = None
        self.header.setText("")
        self.placeholder.setText(message)
        self._set_notes([])
        self.stack.setCurrentWidget(self.placeholder)
        self._enable_buttons(pages=False, source=False)

    def show_evidence(self, evidence: Evidence) -> None:
        """Show one citation: its pages with boxes, or its passage with the quote marked."""
        self.evidence = evidence
        self.header.setText(report.citation_head(evidence.citation))
        read_by = wording.extractors_text(evidence.citation.get("extractors"))
        self.header.setToolTip("\n".join([report.citation_title(evidence.citation),
                                          *([wording.evidence_text("read_by", extractors=read_by)] if read_by else [])]))
        self._set_notes(evidence.notes)
        if evidence.pages:
            self.stack.setCurrentWidget(self.page_view)
            self.page_view.show_pages(evidence.pages, evidence.anchors)
        else:
            self.stack.setCurrentWidget(self.passage)
            self.passage.setHtml(passage_html(evidence.passage, evidence.citation.get("quote", "")))
        self._enable_buttons(pages=bool(evidence.pages), source=evidence.source is not None)

    def showing_pages(self) -> bool:
        return self.stack.currentWidget() is self.page_view

    def _set_notes(self, notes: list[str]) -> None:
        self.notes.setText("\n".join(notes))
        self.notes.setVisible(bool(notes))

    def _enable_buttons(self, *, pages: bool, source: bool) -> None:
        for button in (self.zoom_out, self.zoom_in, self.fit):
            button.setEnabled(pages)
        self.open_button.setEnabled(source)

    def _fit(self) -> None:
        self.page_view.fit_width()
        self.page_view.scroll_to_first_box()
