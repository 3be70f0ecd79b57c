"""The status bar: what is being read (with a progress bar and 취소), the folder's 읽기 오류, where LLM text goes.

Texts that can be long (a file name, a gateway address) never widen the
window: the progress line may shrink to nothing and the gateway line is cut
with "…" (its tooltip has all of it), so on a 1366×768 screen the bar keeps
its buttons in view.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QSizePolicy, QStatusBar

from ui import texts

GATEWAY_WIDTH = 330        # px at most for the LLM line


class StatusArea:
    """The window's status-bar widgets (the bar itself belongs to the window)."""

    def __init__(self, bar: QStatusBar):
        self.bar = bar
        self.progress_label = QLabel()
        self.progress_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.progress_label.setTextFormat(Qt.TextFormat.PlainText)
        self.progress_bar = QProgressBar()
        self.progress_bar.setFormat("%v/%m")
        self.progress_bar.setMaximumWidth(200)
        self.cancel_button = QPushButton(texts.CANCEL)
        self.errors_button = QPushButton()
        self.errors_button.setFlat(True)
        self.gateway_label = QLabel()
        self.gateway_label.setMaximumWidth(GATEWAY_WIDTH)
        bar.addWidget(self.progress_label, 1)
        for widget in (self.gateway_label, self.progress_bar, self.cancel_button, self.errors_button):
            bar.addPermanentWidget(widget)
        self.show_progress(False)
        self.errors_button.hide()

    def add_note(self, label: QLabel) -> None:
        """Another permanent note (e.g. the local API's), before the LLM line."""
        self.bar.insertPermanentWidget(1, label)     # Qt counts the progress line (the one normal widget) too

    def show_progress(self, visible: bool) -> None:
        if self.progress_bar.isVisibleTo(self.bar) != visible:   # a visibility change re-lays the bar out
            self.progress_bar.setVisible(visible)
            self.cancel_button.setVisible(visible)

    def set_progress(self, text: str, done: int = 0, total: int = 0) -> None:
        """The reading line; with a total, the progress bar and 취소 too."""
        self.progress_label.setText(text)
        self.progress_label.setToolTip(text)
        if total:
            self.show_progress(True)
            self.progress_bar.setRange(0, total)
            self.progress_bar.setValue(done)

    def show_refresh(self, p) -> None:
        """The reading line of a folder's refresh (a ui.service.RefreshProgress)."""
        name = Path(p.folder).name
        if p.phase in ("parse", "reading") and p.total:
            if p.reading:
                text = texts.PROGRESS_READING.format(folder=name, done=p.done, total=p.total, file=p.reading[0])
                if len(p.reading) > 1:
                    text += texts.MORE.format(n=len(p.reading) - 1)
            else:
                text = texts.PROGRESS.format(folder=name, done=p.done, total=p.total, current=p.current or "")
            self.set_progress(text, p.done, p.total)
        elif p.phase == "index" and p.total:
            self.set_progress(texts.PROGRESS_INDEX.format(folder=name))
        elif p.phase == "scan":
            self.set_progress(texts.PROGRESS_SCAN.format(folder=name))

    def say_refreshed(self, folder: str, result: dict, instead: Optional[str] = None) -> None:
        """What a finished refresh (Tenant.refresh's answer) added, changed or removed, if anything — or
        ``instead`` (e.g. where dropped files went) — then what the engine healed in its index or cache."""
        if instead:
            self.bar.showMessage(instead, 15000)
        elif result.get("cancelled"):
            self.bar.showMessage(texts.REFRESH_CANCELLED.format(folder=Path(folder).name), 10000)
        elif any(result.get(kind) for kind in ("added", "changed", "removed")):
            counts = {kind: len(result.get(kind, [])) for kind in ("added", "changed", "removed")}
            self.bar.showMessage(texts.REFRESH_DONE.format(folder=Path(folder).name, **counts), 10000)
        if result.get("notices"):   # said once (engine Tenant.refresh)
            self.bar.showMessage(" · ".join(n["text"] for n in result["notices"]), 15000)

    def clear_progress(self) -> None:
        self.show_progress(False)
        self.progress_label.clear()
        self.progress_label.setToolTip("")

    def set_gateway(self, text: str, tip: str) -> None:
        shown = self.gateway_label.fontMetrics().elidedText(text, Qt.TextElideMode.ElideMiddle, GATEWAY_WIDTH)
        self.gateway_label.setText(shown)
        self.gateway_label.setToolTip(f"{text}\n{tip}" if tip else text)

    def set_errors(self, count: int) -> None:
        """The current folder's unreadable documents: a button to the 읽기 오류 tab when there are any."""
        self.errors_button.setText(texts.ERRORS_BUTTON.format(n=count))
        self.errors_button.setVisible(count > 0)
