"""The About box: version, what Noda does, the Hancom notice and the licences (noda_desktop.about)."""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QTextBrowser, QVBoxLayout

from noda_desktop import about
from ui import texts


class AboutDialog(QDialog):
    def __init__(self, icon: QIcon, parent=None):
        super().__init__(parent)
        self.setWindowTitle(texts.ABOUT)
        picture = QLabel()
        picture.setPixmap(icon.pixmap(QSize(64, 64)))
        picture.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.text = QTextBrowser()
        self.text.setHtml(about.about_html())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        buttons.accepted.connect(self.accept)
        row = QHBoxLayout()
        row.addWidget(picture)
        row.addWidget(self.text, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(buttons)
        self.resize(720, 560)
