"""The main window of Noda Desktop."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMainWindow

WINDOW_TITLE = "노다 — 문서 근거 찾기"
EMPTY_STATE = ("문서 폴더를 이 창에 끌어다 놓으세요.\n"
               "노다가 문서를 읽고, 못 읽은 문서는 까닭과 할 일을 알려 드립니다.")


class MainWindow(QMainWindow):
    def __init__(self, folders=()):
        super().__init__()
        self.setWindowTitle(WINDOW_TITLE)
        self.resize(1200, 800)
        self.empty_label = QLabel(EMPTY_STATE)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setCentralWidget(self.empty_label)
        self.folders = list(folders)
