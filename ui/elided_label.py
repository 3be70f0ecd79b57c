"""A one-line label that cuts its text with "…" to the width it is given (the tooltip keeps all of it)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy


class ElidedLabel(QLabel):
    """Never asks for more width than it gets: long file names and addresses do not push buttons away."""

    def __init__(self, text: str = "", parent=None):
        super().__init__(parent)
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text)

    def setText(self, text: str) -> None:
        self._full = text or ""
        self.setToolTip(self._full)
        self._elide()

    def full_text(self) -> str:
        return self._full

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = self.width() if self.isVisible() else self.sizeHint().width()
        shown = self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideMiddle, max(width, 40))
        super().setText(shown if self.isVisible() else self._full)
