"""The question box, the unreadable documents an answer leaves out, the answer and its citations.

The parts stack top to bottom in ``self.layout()``: the question row, the
notes (unreadable documents, answers found while reading), the answer, the
citation list. What is added later (a scope chip above the answer, say)
goes into that layout.
"""
from __future__ import annotations

import html
from typing import Optional

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QCheckBox, QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QPushButton, QSizePolicy, QTextBrowser, QVBoxLayout, QWidget)

from ui import answer_render, report, texts

CitationRole = Qt.ItemDataRole.UserRole + 1
MAX_QUOTE_SHOWN = 240      # characters of a quote in the citation list (the tooltip has all of it)
SKIPPED_STYLE = "color:#b3261e; background:#fdecea; padding:4px; border-radius:3px"
QUIET_STYLE = "color:#666"
NOTE_STYLE = "color:#a15c00"
ERRORS_LINK = "errors:"


class AnswerPanel(QWidget):
    asked = Signal(str)                # a non-empty question
    citation_clicked = Signal(dict)    # one citation of the shown answer
    stop_waiting = Signal()            # "그만 기다리기" while an LLM answer is awaited
    errors_requested = Signal()        # the link to the 읽기 오류 tab

    def __init__(self, parent=None):
        super().__init__(parent)
        self.answer: Optional[dict] = None
        self.documents_read: Optional[int] = None   # the folder's readable documents, for "찾아본 곳"
        self.question = QLineEdit()
        self.question.setPlaceholderText(texts.QUESTION_PLACEHOLDER)
        self.question.setClearButtonEnabled(True)
        self.question.returnPressed.connect(self._ask)
        self.ask_button = QPushButton(texts.ASK)
        self.ask_button.setDefault(True)
        self.ask_button.clicked.connect(self._ask)
        self.llm_toggle = QCheckBox(texts.LLM_TOGGLE)
        self.set_gateway(None)

        self.skipped = _wrapping_label()
        self.skipped.linkActivated.connect(lambda _link: self.errors_requested.emit())
        self.notes = _wrapping_label(NOTE_STYLE)

        self.text = QTextBrowser()
        self.text.setOpenLinks(False)
        self.text.anchorClicked.connect(self._anchor_clicked)
        self.text.setPlaceholderText(texts.ANSWER_PLACEHOLDER)
        self.text.setMinimumHeight(self.fontMetrics().lineSpacing() * 3)
        self.stop_button = QPushButton(texts.STOP_WAITING)
        self.stop_button.clicked.connect(self.stop_waiting)
        self.stop_button.hide()

        self.citations_label = QLabel(texts.CITATIONS_HEADER)
        self.citations = QListWidget()
        self.citations.setWordWrap(True)
        self.citations.setMinimumHeight(self.fontMetrics().lineSpacing() * 3)
        self.citations.itemClicked.connect(self._item_clicked)
        self.citations.itemActivated.connect(self._item_clicked)

        row = QHBoxLayout()
        row.addWidget(self.question, 1)
        row.addWidget(self.llm_toggle)
        row.addWidget(self.ask_button)
        stop_row = QHBoxLayout()
        stop_row.addStretch(1)
        stop_row.addWidget(self.stop_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.skipped)
        layout.addWidget(self.notes)
        layout.addWidget(self.text, 3)
        layout.addLayout(stop_row)
        layout.addWidget(self.citations_label)
        layout.addWidget(self.citations, 2)
        self.clear()

    # ---- states -------------------------------------------------------------
    def set_enabled_for_questions(self, enabled: bool) -> None:
        self.question.setEnabled(enabled)
        self.ask_button.setEnabled(enabled)

    def set_gateway(self, info: Optional[dict]) -> None:
        """Offer "LLM으로 답하기" only when the gateway (its ``describe()``) is on; say why not otherwise."""
        enabled = bool(info and info.get("enabled"))
        self.llm_toggle.setEnabled(enabled)
        if not enabled:
            self.llm_toggle.setChecked(False)
            why = (info or {}).get("reason_text") or ""
            self.llm_toggle.setToolTip(texts.LLM_TOGGLE_OFF_TIP.format(why=why))
        else:
            self.llm_toggle.setToolTip(texts.LLM_TOGGLE_ON_TIP.format(host=info["host"], model=info["model"]))

    def use_llm(self) -> bool:
        return self.llm_toggle.isEnabled() and self.llm_toggle.isChecked()

    def show_busy(self, text: str = texts.ASKING, can_stop: bool = False) -> None:
        """Say what the question is waiting for; ``can_stop`` offers 그만 기다리기."""
        self.clear()
        self.text.setPlainText(text)
        self.stop_button.setVisible(can_stop)

    def show_error(self, message: str) -> None:
        self.clear()
        self.text.setPlainText(message)

    def clear(self) -> None:
        self.answer = None
        for label in (self.skipped, self.notes):
            label.clear()
            label.hide()
        self.stop_button.hide()
        self.citations.clear()
        self.text.clear()

    def show_answer(self, answer: dict, *, skipped_in_full: bool = True, notes: list[str] = ()) -> None:
        """Show the answer with [n] links and its citation list.

        The unreadable documents it left out get the red box the first time (``skipped_in_full``), a quiet
        line with a link to the 읽기 오류 tab afterwards; a not-found answer names them itself.
        """
        self.clear()
        self.answer = answer
        if answer.get("skipped") and (answer.get("answered") or answer.get("reason") not in
                                      answer_render.NOT_FOUND_CODES):
            self._show_skipped(answer, skipped_in_full)
        self.notes.setText("\n".join(notes))
        self.notes.setVisible(bool(notes))
        self.text.setHtml(answer_render.answer_html(answer, documents_read=self.documents_read))
        for citation in answer.get("citations") or []:
            quote = citation.get("quote", "")
            shown = quote if len(quote) <= MAX_QUOTE_SHOWN else quote[:MAX_QUOTE_SHOWN].rstrip() + " …"
            tags = report.revision_tags(citation)
            item = QListWidgetItem(f"{report.citation_title(citation)}\n“{shown}”" + (f" {tags}" if tags else ""))
            item.setData(CitationRole, citation)
            item.setToolTip(quote)
            if report.is_machine_read(citation):
                item.setForeground(QColor("#a15c00"))
            self.citations.addItem(item)

    def _show_skipped(self, answer: dict, in_full: bool) -> None:
        if in_full:        # the names only: what happened to each is in the tooltip and the 읽기 오류 tab
            self.skipped.setTextFormat(Qt.TextFormat.PlainText)
            self.skipped.setStyleSheet(SKIPPED_STYLE)
            self.skipped.setText(f"{report.skipped_head(answer)}\n{answer_render.skipped_names(answer)}"
                                 f"{texts.SKIPPED_WHERE}")
        else:
            line = html.escape(texts.SKIPPED_AGAIN.format(count=len(answer["skipped"])))
            self.skipped.setTextFormat(Qt.TextFormat.RichText)
            self.skipped.setStyleSheet(QUIET_STYLE)
            self.skipped.setText(f"<a href='{ERRORS_LINK}'>{line}</a>")
        self.skipped.setToolTip("\n".join(report.skipped_lines(answer)))
        self.skipped.show()

    def citation(self, n: int) -> Optional[dict]:
        for citation in (self.answer or {}).get("citations") or []:
            if citation.get("n") == n:
                return citation
        return None

    # ---- events ------------------------------------------------------------
    def _ask(self) -> None:
        question = self.question.text().strip()
        if question and self.question.isEnabled():
            self.asked.emit(question)

    def _anchor_clicked(self, url: QUrl) -> None:
        if url.scheme() == report.CITE_SCHEME:
            try:
                citation = self.citation(int(url.path()))
            except ValueError:
                return
            if citation:
                self.select_citation(citation)

    def _item_clicked(self, item: QListWidgetItem) -> None:
        citation = item.data(CitationRole)
        if citation:
            self.citation_clicked.emit(citation)

    def select_citation(self, citation: dict) -> None:
        """Select a citation in the list and announce it."""
        for row in range(self.citations.count()):
            if (self.citations.item(row).data(CitationRole) or {}).get("n") == citation.get("n"):
                self.citations.setCurrentRow(row)
        self.citation_clicked.emit(citation)


def _wrapping_label(style: str = "") -> QLabel:
    """A label that wraps and never widens its pane (long file names stay inside)."""
    label = QLabel()
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    if style:
        label.setStyleSheet(style)
    return label
