"""The 읽기 오류 tab: the unreadable documents of the folder on screen (document / what to do / path)."""
from __future__ import annotations

import os
from typing import Optional

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from ui import texts
from ui.documents import UNREADABLE, reason_label, reason_tooltip, status_of


class ErrorsView(QTableWidget):
    def __init__(self, parent=None):
        super().__init__(0, len(texts.ERROR_COLUMNS), parent)
        self.setHorizontalHeaderLabels(texts.ERROR_COLUMNS)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().hide()
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.horizontalHeader().setStretchLastSection(True)
        self.setColumnWidth(0, 200)
        self.setColumnWidth(1, 380)
        self.setWordWrap(False)

    def set_folder(self, folder: Optional[str], documents: Optional[dict]) -> int:
        """Show one folder's unreadable documents (from its Tenant.documents()); how many there are."""
        rows = []
        for entry in (documents or {}).get("documents", []):
            if status_of(entry) == UNREADABLE:
                filename = entry.get("filename", "")
                path = os.path.join(folder or "", *filename.split("/"))
                rows.append((filename, reason_label(entry), path, reason_tooltip(entry)))
        rows.sort(key=lambda r: r[0])
        self.setSortingEnabled(False)
        self.setRowCount(len(rows))
        for i, (name, reason, path, tip) in enumerate(rows):
            for col, text in enumerate((name, reason, path)):
                item = QTableWidgetItem(text)
                item.setToolTip(tip if col == 1 else text)
                self.setItem(i, col, item)
        self.setSortingEnabled(True)
        return len(rows)
