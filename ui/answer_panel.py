"""The question box, the unreadable documents the answer leaves out, the answer and its citations."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QCheckBox, QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QPushButton, QTextBrowser, QVBoxLayout, QWidget)

from ui import report, texts

CitationRole = Qt.ItemDataRole.UserRole + 1
MAX_SKIPPED_SHOWN = 4
MAX_QUOTE_SHOWN = 240      # characters of a quote in the citation list (the tooltip has all of it)


class AnswerPanel(QWidget):
    asked = Signal(str)                # a non-empty question
    citation_clicked = Signal(dict)    # one citation of the shown answer

    def __init__(self, parent=None):
        super().__init__(parent)
        self.answer: Optional[dict] = None
        self.question = QLineEdit()
        self.question.setPlaceholderText(texts.QUESTION_PLACEHOLDER)
        self.question.setClearButtonEnabled(True)
        self.question.returnPressed.connect(self._ask)
        self.ask_button = QPushButton(texts.ASK)
        self.ask_button.setDefault(True)
        self.ask_button.clicked.connect(self._ask)
        self.llm_toggle = QCheckBox(texts.LLM_TOGGLE)
        self.set_gateway(None)

        self.skipped = QLabel()
        self.skipped.setWordWrap(True)
        self.skipped.setTextFormat(Qt.TextFormat.PlainText)
        self.skipped.setStyleSheet("color:#b3261e; background:#fdecea; padding:4px; border-radius:3px")
        self.skipped.hide()

        self.text = QTextBrowser()
        self.text.setOpenLinks(False)
        self.text.anchorClicked.connect(self._anchor_clicked)
        self.text.setPlaceholderText(texts.ANSWER_PLACEHOLDER)

        self.citations_label = QLabel(texts.CITATIONS_HEADER)
        self.citations = QListWidget()
        self.citations.setWordWrap(True)
        self.citations.itemClicked.connect(self._item_clicked)
        self.citations.itemActivated.connect(self._item_clicked)

        row = QHBoxLayout()
        row.addWidget(self.question, 1)
        row.addWidget(self.llm_toggle)
        row.addWidget(self.ask_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.skipped)
        layout.addWidget(self.text, 3)
        layout.addWidget(self.citations_label)
        layout.addWidget(self.citations, 2)

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

    def show_busy(self) -> None:
        self.answer = None
        self.skipped.hide()
        self.citations.clear()
        self.text.setPlainText(texts.ASKING)

    def show_error(self, message: str) -> None:
        self.answer = None
        self.citations.clear()
        self.text.setPlainText(message)

    def clear(self) -> None:
        self.answer = None
        self.skipped.hide()
        self.citations.clear()
        self.text.clear()

    def show_answer(self, answer: dict) -> None:
        """Show the answer with [n] links, the unreadable documents first, and the citation list."""
        self.answer = answer
        short = report.skipped_lines(answer, short=True)
        shown = short[:MAX_SKIPPED_SHOWN]
        if len(short) > len(shown):
            shown.append(texts.MORE_SKIPPED.format(n=len(short) - len(shown)))
        self.skipped.setText("\n".join([report.skipped_head(answer), *shown]))
        self.skipped.setToolTip("\n".join(report.skipped_lines(answer)))
        self.skipped.setVisible(bool(short))
        self.text.setHtml(report.answer_html(answer))
        self.citations.clear()
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
