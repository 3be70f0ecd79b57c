"""The left column: opened folders with their 읽음 / 못 읽음 / 확인 필요 counts."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from ui import drops, texts
from ui.documents import count_statuses, counts_label

FolderRole = Qt.ItemDataRole.UserRole + 1


class TenantsPanel(QWidget):
    folder_selected = Signal(str)   # '' when none

    def __init__(self, parent=None):
        super().__init__(parent)
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.list.currentItemChanged.connect(self._changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(texts.TENANTS_HEADER))
        layout.addWidget(self.list)

    def set_folders(self, folders: list[str]) -> None:
        """Show these folders, keeping the current one selected when it stays."""
        current = self.current_folder()
        self.list.blockSignals(True)
        self.list.clear()
        for folder in folders:
            item = QListWidgetItem(Path(folder).name or folder)
            item.setData(FolderRole, folder)
            single = Path(folder).name == drops.SINGLE_FILES_NAME and Path(folder).parent.name == drops.SINGLE_FILES
            item.setToolTip(texts.SINGLE_FILES_TIP if single else folder)
            self.list.addItem(item)
        self.list.blockSignals(False)
        keep = current if current in folders else (folders[0] if folders else None)
        if keep:
            self.select(keep)
        self.folder_selected.emit(self.current_folder() or "")

    def update_folder(self, folder: str, documents: Optional[dict] = None, *, reading: bool = False,
                      error: Optional[str] = None) -> None:
        """Refresh one folder's second line: its counts, or that it is being read / failed."""
        item = self._item(folder)
        if item is None:
            return
        lines = [Path(folder).name or folder]
        if documents is not None:
            lines.append(counts_label(count_statuses(documents)))
        if reading:
            lines.append(texts.TENANT_READING)
        if error:
            lines.append(texts.TENANT_FAILED.format(error=error))
        text = "\n".join(lines)
        if item.text() != text:
            item.setText(text)

    def current_folder(self) -> Optional[str]:
        item = self.list.currentItem()
        return item.data(FolderRole) if item else None

    def select(self, folder: str) -> None:
        item = self._item(folder)
        if item:
            self.list.setCurrentItem(item)

    def _item(self, folder: str) -> Optional[QListWidgetItem]:
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(FolderRole) == folder:
                return item
        return None

    def _changed(self, current, _previous) -> None:
        self.folder_selected.emit(current.data(FolderRole) if current else "")
