"""The scope chip: "이 문서에서만 묻습니다: 보도자료.hwpx ✕" above the answer while questions go to one document.

Set by the documents list's "이 문서에 묻기"; the ✕ removes it and questions go to the
whole folder again. Hidden while there is no scope.
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton

from ui import texts

CHIP_STYLE = ("QFrame#scopeChip { background:#e8f0fe; border:1px solid #aecbfa; border-radius:10px; }"
              " QLabel { color:#174ea6; }")


class ScopeChip(QFrame):
    changed = Signal(object)           # the document questions now go to, or None for the whole folder

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("scopeChip")
        self.setStyleSheet(CHIP_STYLE)
        self._document: Optional[str] = None
        self.label = QLabel()
        self.remove_button = QToolButton()
        self.remove_button.setText("✕")
        self.remove_button.setAutoRaise(True)
        self.remove_button.setToolTip(texts.SCOPE_REMOVE_TIP)
        self.remove_button.setAccessibleName(texts.SCOPE_REMOVE_TIP)
        self.remove_button.clicked.connect(lambda: self.set_document(None))
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 2, 2, 2)
        row.addWidget(self.label, 1)
        row.addWidget(self.remove_button)
        self.hide()

    def document(self) -> Optional[str]:
        return self._document

    def set_document(self, filename: Optional[str]) -> None:
        """Ask ``filename`` from now on (None: the whole folder)."""
        if filename == self._document:
            return
        self._document = filename
        self.label.setText(texts.SCOPE_CHIP.format(name=filename) if filename else "")
        self.label.setToolTip(filename or "")
        self.setVisible(filename is not None)
        self.changed.emit(filename)
