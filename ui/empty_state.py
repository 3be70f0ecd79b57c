"""What the window shows before any folder is open: what to do first, with buttons for it."""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from noda_desktop import paths
from ui import texts


def empty_state(icon: QIcon, add_folder, add_files, open_sample) -> QWidget:
    """The first screen; the callables run when its buttons are pressed."""
    widget = QWidget()
    picture = QLabel()
    picture.setPixmap(icon.pixmap(QSize(96, 96)))
    picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
    title = QLabel(texts.EMPTY_TITLE)
    title.setAlignment(Qt.AlignmentFlag.AlignCenter)
    title.setStyleSheet("font-size:20pt; font-weight:bold")
    body = QLabel(texts.EMPTY_BODY)
    body.setAlignment(Qt.AlignmentFlag.AlignCenter)
    body.setWordWrap(True)
    body.setStyleSheet("font-size:12pt; color:#444")
    buttons = QHBoxLayout()
    buttons.addStretch(1)
    for text, slot, enabled in ((texts.ADD_FOLDER, add_folder, True), (texts.ADD_FILES, add_files, True),
                                (texts.EMPTY_SAMPLE, open_sample, paths.sample_tenant().is_dir())):
        button = QPushButton(text)
        button.clicked.connect(slot)
        button.setEnabled(enabled)
        buttons.addWidget(button)
    buttons.addStretch(1)
    layout = QVBoxLayout(widget)
    layout.addStretch(2)
    for w in (picture, title, body):
        layout.addWidget(w)
    layout.addSpacing(16)
    layout.addLayout(buttons)
    layout.addStretch(3)
    return widget
