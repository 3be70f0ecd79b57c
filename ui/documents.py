"""The centre of the window: the selected folder's documents, filterable by status."""
from __future__ import annotations

import html
import os
from typing import Optional

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QFrame, QHBoxLayout, QHeaderView, QLabel,
                               QSizePolicy, QSplitter, QTableView, QVBoxLayout, QWidget)

from engine import wording
from engine.names import shown_name
from engine.read.detect import EXTENSION_FORMATS
from ui import texts

READ, REVIEW, UNREADABLE = "read", "review", "unreadable"
STATUS_TEXT = {READ: texts.STATUS_READ, REVIEW: texts.STATUS_REVIEW, UNREADABLE: texts.STATUS_UNREADABLE}
STATUS_COLOR = {READ: "#1b7f3b", REVIEW: "#a15c00", UNREADABLE: "#b3261e"}
FILE, FORMAT, STATUS, REASON, TITLE, NUMBER, DATE, ISSUER = range(8)
EntryRole = Qt.ItemDataRole.UserRole + 1


def status_of(entry: dict) -> str:
    """read / review / unreadable for one entry of Tenant.documents()['documents']."""
    if not entry.get("readable"):
        return UNREADABLE
    return REVIEW if entry.get("review") else READ


def count_statuses(documents: Optional[dict]) -> dict[str, int]:
    """The engine's figures, as `noda documents` prints them: 읽음 (readable), 못 읽음, and 확인 필요 — the
    unreadable documents and the read ones to look over, i.e. every document whose original must be opened."""
    rows = (documents or {}).get("documents", [])
    unreadable = sum(1 for e in rows if status_of(e) == UNREADABLE)
    review = sum(1 for e in rows if status_of(e) == REVIEW)
    return {READ: (documents or {}).get("readable", len(rows) - unreadable),
            UNREADABLE: (documents or {}).get("unreadable", unreadable),
            REVIEW: (documents or {}).get("needs_review", unreadable + review)}


def shown_for(status: Optional[str], entry: dict) -> bool:
    """Whether the status filter lets a row through: 확인 필요 shows what its count counts."""
    own = status_of(entry)
    if status == REVIEW:
        return own in (REVIEW, UNREADABLE)
    if status == READ:
        return own in (READ, REVIEW)
    return status is None or own == status


def format_label(entry: dict) -> str:
    """The document's format in Korean: the engine's when it names one, else the extension's."""
    fmt = entry.get("format")
    if fmt not in wording.FORMAT_NAMES or fmt == "unknown":
        ext = os.path.splitext(entry.get("filename", ""))[1].lower()
        fmt = sorted(EXTENSION_FORMATS.get(ext, {fmt or "unknown"}))[0]
    return wording.format_name(fmt)


def reason_label(entry: dict) -> str:
    """What went wrong and what to do next (unreadable), or what to look at (review)."""
    status = status_of(entry)
    if status == UNREADABLE:
        text = entry.get("reason_text") or wording.reason_text(entry.get("reason")) or ""
        vendor = entry.get("drm_vendor")
        return f"{text} ({vendor})" if vendor else text
    if status == REVIEW:
        reasons = [r.get("text", "") for r in entry.get("review_reasons", [])]
        return texts.REVIEW_PREFIX + " / ".join(r for r in reasons if r)
    return ""


def reason_tooltip(entry: dict) -> str:
    """What happened and what to do, one reason per line (in Korean: the codes are for programs)."""
    if status_of(entry) == UNREADABLE:
        return reason_label(entry).replace(" — ", "\n")
    return "\n".join(r.get("text", "") for r in entry.get("review_reasons", []))


def counts_label(counts: dict[str, int]) -> str:
    """'읽음 n · 못 읽음 n · 확인 필요 n', the same three numbers as `noda documents`."""
    return texts.TENANT_COUNTS.format(readable=counts[READ], unreadable=counts[UNREADABLE],
                                      review=counts[REVIEW])


def detail_html(entry: dict) -> str:
    """Everything about one document for the box under the table: reason, next step, structure."""
    e = html.escape
    status = status_of(entry)
    parts = [f"<b>{e(shown_name(entry.get('filename', '')))}</b> — {e(format_label(entry))} · "
             f"<span style='color:{STATUS_COLOR[status]}'>{e(STATUS_TEXT[status])}</span>"]
    code = entry.get("reason")
    if status == UNREADABLE and code in wording.REASONS:
        what, step = wording.REASONS[code]
        vendor = f" ({entry['drm_vendor']})" if entry.get("drm_vendor") else ""
        parts.append(f"{e(texts.DETAIL_WHAT)}: {e(what + vendor)}")
        parts.append(f"<b>{e(texts.DETAIL_STEP)}: {e(step)}</b>")
    elif status == UNREADABLE:
        parts.append(e(reason_label(entry)))
    for warning in entry.get("warnings", []):
        parts.append(f"{e(texts.DETAIL_NOTE)}: {e(warning.get('text', ''))}")
    structure = entry.get("structure") or {}
    fields = [(texts.COLUMNS[TITLE], structure.get("title")), (texts.COLUMNS[NUMBER], structure.get("doc_number")),
              (texts.COLUMNS[DATE], structure.get("issued_date")), (texts.COLUMNS[ISSUER], structure.get("issuer")),
              (texts.DETAIL_RECIPIENT, structure.get("recipient"))]
    shown = " · ".join(f"{e(label)}: {e(value)}" for label, value in fields if value)
    if shown:
        parts.append(shown)
    for label, items in ((texts.DETAIL_RECIPIENTS, structure.get("recipients")),
                         (texts.DETAIL_ATTACHMENTS, structure.get("attachments"))):
        if items:
            parts.append(f"{e(label)}: {e(', '.join(map(str, items)))}")
    return "<br>".join(parts)


class DocumentsModel(QAbstractTableModel):
    """Rows of Tenant.documents()['documents'], filtered by status and sorted in Python.

    Filtering and sorting happen on the list (not in a proxy that asks every
    row through data()), so ten thousand documents never stall the window.
    """

    def __init__(self, parent=None):
        super().__init__(parent)
        self.all_entries: list[dict] = []
        self.entries: list[dict] = []        # the rows shown, in order
        self.status: Optional[str] = None
        self.sort_column, self.sort_order = FILE, Qt.SortOrder.AscendingOrder

    def set_documents(self, documents: Optional[dict]) -> None:
        self.all_entries = list((documents or {}).get("documents", []))
        self._rebuild()

    def set_status(self, status: Optional[str]) -> None:
        """Show only one status (None: all)."""
        self.status = status
        self._rebuild()

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        self.sort_column, self.sort_order = column, order
        self._rebuild()

    def _rebuild(self) -> None:
        self.beginResetModel()
        rows = [e for e in self.all_entries if shown_for(self.status, e)]
        rows.sort(key=lambda e: (self._text(e, self.sort_column), e.get("filename", "")),
                  reverse=self.sort_order == Qt.SortOrder.DescendingOrder)
        self.entries = rows
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.entries)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(texts.COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return texts.COLUMNS[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        entry = self.entries[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(entry, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col in (STATUS, REASON):
                return reason_tooltip(entry) or None
            return self._text(entry, col) or None
        if role == Qt.ItemDataRole.ForegroundRole and col == STATUS:
            return QBrush(QColor(STATUS_COLOR[status_of(entry)]))
        if role == EntryRole:
            return entry
        return None

    def row_of(self, filename: str) -> int:
        """The shown row of a document, -1 when filtered out or absent."""
        return next((i for i, e in enumerate(self.entries) if e.get("filename") == filename), -1)

    @staticmethod
    def _text(entry: dict, col: int) -> str:
        structure = entry.get("structure") or {}
        if col == FILE:
            return shown_name(entry.get("filename", ""))
        if col == FORMAT:
            return format_label(entry)
        if col == STATUS:
            return STATUS_TEXT[status_of(entry)]
        if col == REASON:
            return reason_label(entry)
        key = {TITLE: "title", NUMBER: "doc_number", DATE: "issued_date", ISSUER: "issuer"}[col]
        return structure.get(key) or ""


class DocumentsPanel(QWidget):
    """Status filter above a sortable table of documents."""

    document_activated = Signal(dict)  # double click / Enter on a row

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model = DocumentsModel(self)

        self.filter = QComboBox()
        self.filter.addItem(texts.FILTER_ALL, None)
        for status in (READ, UNREADABLE, REVIEW):
            self.filter.addItem(STATUS_TEXT[status], status)
        self.filter.currentIndexChanged.connect(lambda _: self.model.set_status(self.filter.currentData()))
        self.summary = QLabel()
        self.cached_note = QLabel(texts.FROM_CACHE)
        self.cached_note.setStyleSheet("color:#666")
        self.cached_note.hide()

        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(FILE, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for col, width in ((FILE, 200), (FORMAT, 90), (STATUS, 70), (REASON, 300), (TITLE, 220),
                           (NUMBER, 120), (DATE, 90)):
            self.table.setColumnWidth(col, width)
        self.table.doubleClicked.connect(self._activated)
        self.table.selectionModel().selectionChanged.connect(self._show_detail)

        self.detail = QLabel(texts.DETAIL_EMPTY)
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.detail.setFrameShape(QFrame.Shape.StyledPanel)
        self.detail.setMargin(6)
        self.split = split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 1)
        split.setSizes([420, 140])
        split.setChildrenCollapsible(False)
        self.detail.setMinimumHeight(self.fontMetrics().lineSpacing() * 3 + 12)
        self.detail.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.table.setMinimumHeight(self.fontMetrics().lineSpacing() * 4)

        top = QHBoxLayout()
        top.addWidget(QLabel(texts.FILTER_LABEL))
        top.addWidget(self.filter)
        top.addStretch(1)
        top.addWidget(self.summary)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.cached_note)
        layout.addWidget(split)

    def set_documents(self, documents: Optional[dict], from_cache: bool = False) -> None:
        """Show a folder's listing; ``from_cache``: it is the one saved at the last reading (being checked)."""
        selected = (self.selected_entry() or {}).get("filename")
        self.model.set_documents(documents)
        if selected:
            self.select(selected)
        self._show_detail()
        self.summary.setText(counts_label(count_statuses(documents)) if documents is not None else "")
        self.cached_note.setVisible(from_cache)

    def scroll_to_start(self) -> None:
        """Back to the first row and the file-name column (another folder is shown)."""
        self.table.clearSelection()
        self.table.scrollToTop()
        self.table.horizontalScrollBar().setValue(0)

    def set_status_filter(self, status: Optional[str]) -> None:
        self.filter.setCurrentIndex(max(0, self.filter.findData(status)))

    def selected_entry(self) -> Optional[dict]:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].data(EntryRole) if rows else None

    def select(self, filename: str) -> bool:
        """Select a document's row (when the filter shows it)."""
        row = self.model.row_of(filename)
        if row >= 0:
            self.table.selectRow(row)
        return row >= 0

    def visible_filenames(self) -> list[str]:
        """File names of the rows the filter lets through, in view order."""
        return [e.get("filename", "") for e in self.model.entries]

    def _show_detail(self, *_args) -> None:
        entry = self.selected_entry()
        self.detail.setText(detail_html(entry) if entry else texts.DETAIL_EMPTY)

    def _activated(self, index) -> None:
        entry = index.data(EntryRole)
        if entry:
            self.document_activated.emit(entry)
