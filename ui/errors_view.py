"""The indexing-errors view: every unreadable document of every folder (document / reason / path)."""
from __future__ import annotations

import os

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from ui import texts
from ui.documents import UNREADABLE, reason_label, status_of


class ErrorsView(QTableWidget):
    def __init__(self, parent=None):
        super().__init__(0, len(texts.ERROR_COLUMNS), parent)
        self.setHorizontalHeaderLabels(texts.ERROR_COLUMNS)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().hide()
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.horizontalHeader().setStretchLastSection(True)
        self.setColumnWidth(0, 240)
        self.setColumnWidth(1, 420)

    def set_folders(self, documents_by_folder: dict[str, dict]) -> None:
        """Fill from {folder: Tenant.documents()} with the unreadable documents only."""
        rows = []
        for folder, documents in documents_by_folder.items():
            for entry in (documents or {}).get("documents", []):
                if status_of(entry) == UNREADABLE:
                    filename = entry.get("filename", "")
                    path = os.path.join(folder, *filename.split("/"))
                    rows.append((filename, reason_label(entry), path, entry.get("reason") or ""))
        rows.sort(key=lambda r: r[2])
        self.setSortingEnabled(False)
        self.setRowCount(len(rows))
        for i, (name, reason, path, code) in enumerate(rows):
            for col, text in enumerate((name, reason, path)):
                item = QTableWidgetItem(text)
                item.setToolTip(f"{code}\n{reason}" if col == 1 else text)
                self.setItem(i, col, item)
        self.setSortingEnabled(True)
