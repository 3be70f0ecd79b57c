"""Answers that read like answers: the answering phrase in bold, a table row under its header, the file and
page on the line, and a plain "찾지 못했습니다" saying where it looked and what it could not look in.

The answer dicts are written here in the shape engine.answer.extract and `noda answer --json` give (with and without
the picker's ``answer_span``/``table``/``document``/``chunks_searched``): this tests the rendering, not the picker.
"""
from __future__ import annotations

import socket
import threading
import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtPrintSupport import QPrintPreviewWidget

from engine import wording
from tests.gui.test_window import wait_read
from ui import export, texts
from ui.answer_panel import AnswerPanel
from ui.answer_render import answer_html
from ui.main_window import MainWindow

PDF_CITATION = {"n": 1, "chunk_id": "c1", "doc_id": "sha256:a", "filename": "공고.pdf", "quote": "",
                "path": ["공고"], "outline": [], "anchors": [{"page": 3, "bbox": [1, 2, 3, 4], "cell_range": None}],
                "extractors": ["pymupdf"], "revisions": []}
XLSX_CITATION = {"n": 1, "chunk_id": "c7", "doc_id": "sha256:b", "filename": "사업비_집행현황.xlsx", "quote": "",
                 "path": ["집행현황"], "outline": [],
                 "anchors": [{"page": None, "bbox": None, "cell_range": "집행현황!A5:D5"}],
                 "extractors": ["openpyxl"], "revisions": []}
SKIPPED = [{"filename": "암호.pdf", "readable": False, "reason": "PASSWORD_PROTECTED",
            "reason_text": wording.reason_text("PASSWORD_PROTECTED")},
           {"filename": "빈파일.hwpx", "readable": False, "reason": "EMPTY", "reason_text": wording.reason_text("EMPTY")}]


SENTENCE = "신청 기간은 2026년 3월 2일부터 3월 27일까지입니다."
PHRASE = "2026년 3월 2일부터 3월 27일까지"
PHRASE_SPAN = (SENTENCE.index(PHRASE), SENTENCE.index(PHRASE) + len(PHRASE))


def span(text: str, part: str) -> list[int]:
    return [text.index(part), text.index(part) + len(part)]


def sentence_answer(span=PHRASE_SPAN) -> dict:
    text = SENTENCE
    return {"question": "신청 기간은 언제까지인가요?", "answered": True, "reason": None, "skipped": [],
            "made_by": wording.answer_text("made_by"), "text": text,
            "lines": [{"text": text, "citations": [1], "answer_span": list(span) if span else None, "table": None}],
            "citations": [dict(PDF_CITATION, quote=text)], "document": None, "chunks_searched": 40}


def table_answer() -> dict:
    text = "초기 창업 | 최대 3천만 원 | 10개 기업"
    return {"question": "초기 창업 지원 금액은?", "answered": True, "reason": None, "skipped": [],
            "made_by": wording.answer_text("made_by"), "text": text,
            "lines": [{"text": text, "citations": [1], "answer_span": span(text, "최대 3천만 원"),
                       "table": {"header": ["구분", "지원 금액", "선정 규모"],
                                 "cells": ["초기 창업", "최대 3천만 원", "10개 기업"]}}],
            "citations": [dict(PDF_CITATION, quote=text)]}


def xlsx_answer() -> dict:
    text = "교육훈련비 | 4,500,000 | 3,120,000 | 69%"
    return {"question": "교육훈련비 집행액은?", "answered": True, "reason": None, "skipped": SKIPPED,
            "made_by": wording.answer_text("made_by"), "text": text,
            "lines": [{"text": text, "citations": [1], "answer_span": span(text, "3,120,000"),
                       "table": {"header": ["항목", "예산", "집행액", "집행률"],
                                 "cells": ["교육훈련비", "4,500,000", "3,120,000", "69%"]}}],
            "citations": [dict(XLSX_CITATION, quote=text)]}


def not_found(code="NO_EVIDENCE", **more) -> dict:
    return {"question": "주차장 이용 요금은?", "answered": False, "reason": code,
            "reason_text": wording.evidence_text(code) if code.startswith("NO_") else wording.gateway_text(code),
            "skipped": SKIPPED, "made_by": wording.answer_text("made_by"),
            "text": "", "lines": [], "citations": [], **more}


@pytest.fixture
def panel(qtbot):
    p = AnswerPanel()
    qtbot.addWidget(p)
    p.resize(600, 500)
    p.show()
    return p


def test_the_answering_phrase_is_bold_and_the_line_names_its_file_and_page(panel):
    panel.show_answer(sentence_answer())
    html = panel.text.toHtml()
    assert "font-weight:700;\">2026년 3월 2일부터 3월 27일까지</span>" in html
    shown = panel.text.toPlainText()
    assert "신청 기간은 2026년 3월 2일부터 3월 27일까지입니다. [1] — 공고.pdf · 3쪽" in shown


def test_without_a_span_the_line_is_shown_plain(panel):
    for bad in (None, (30, 5), (0, 999)):               # missing, backwards, past the end
        panel.show_answer(sentence_answer(bad))
        assert "font-weight:700" not in panel.text.toHtml()
        assert "3월 27일까지입니다. [1] — 공고.pdf · 3쪽" in panel.text.toPlainText()
    legacy = sentence_answer()
    for line in legacy["lines"]:
        del line["answer_span"], line["table"]
    panel.show_answer(legacy)
    assert "공고.pdf · 3쪽" in panel.text.toPlainText()


def test_a_table_row_comes_under_its_header_as_a_small_table(panel):
    panel.show_answer(table_answer())
    doc = panel.text.document()
    html = panel.text.toHtml()
    assert "<table" in html and html.count("<tr>") == 2
    assert "구분" in html and "지원 금액" in html and "선정 규모" in html
    assert "font-weight:700;\">최대 3천만 원</span>" in html                 # only the answering cell in bold
    assert "|" not in doc.toPlainText()
    assert "[1] — 공고.pdf · 3쪽" in doc.toPlainText()


def test_an_xlsx_row_has_its_header_and_its_cells(panel):
    panel.show_answer(xlsx_answer())
    html = panel.text.toHtml()
    for header in ("항목", "예산", "집행액", "집행률"):
        assert f">{header}<" in html
    assert "font-weight:700;\">3,120,000</span>" in html
    assert "사업비_집행현황.xlsx · 칸 집행현황!A5:D5" in panel.text.toPlainText()


def test_not_found_says_so_where_it_looked_and_what_it_skipped(panel):
    panel.documents_read = 28
    panel.show_answer(not_found(chunks_searched=312))
    shown = panel.text.toPlainText()
    assert shown.startswith(texts.NOT_FOUND)
    assert "아래 근거를 직접 보십시오" not in shown                      # there is no evidence below
    assert texts.SEARCHED.format(what="읽은 문서 28개 · 대목 312곳") in shown
    assert texts.NOT_SEARCHED.format(names="암호.pdf, 빈파일.hwpx") in shown
    assert not panel.skipped.isVisible()                           # named once, in the answer
    assert panel.citations.count() == 0


def test_not_found_in_one_document_names_that_document(panel):
    panel.show_answer(not_found("NO_MATCH", document="회의록.docx", skipped=[]))
    shown = panel.text.toPlainText()
    assert texts.SEARCHED_ONE.format(document="회의록.docx") in shown
    assert texts.NOT_SEARCHED.split(":")[0] not in shown


def test_a_failed_llm_answer_is_shown_as_such(panel):
    panel.show_answer(not_found("GATEWAY_UNREACHABLE"))
    assert wording.gateway_text("GATEWAY_UNREACHABLE") in panel.text.toPlainText()
    assert texts.NOT_FOUND not in panel.text.toPlainText()


def test_print_carries_one_line_on_unreadable_documents():
    printed = answer_html(xlsx_answer(), for_print=True)
    assert texts.PRINT_SKIPPED.format(names="암호.pdf, 빈파일.hwpx") in printed
    assert wording.evidence_text("skipped_head", count=2) not in printed


class SilentServer:
    """A loopback server that takes connections and never answers (a model server that hangs)."""

    def __enter__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.held = []
        self.stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        return self

    def _accept(self):
        self.sock.settimeout(0.2)
        while not self.stop.is_set():
            try:
                self.held.append(self.sock.accept()[0])
            except OSError:
                continue

    def __exit__(self, *exc):
        self.stop.set()
        time.sleep(0.3)
        for conn in self.held:
            conn.close()
        self.sock.close()


def test_an_llm_that_does_not_answer_can_be_given_up_on(qtbot, engine_host, office):
    window = MainWindow(host=engine_host, persist=False)
    qtbot.addWidget(window)
    window.show()
    window.add_folder(office)
    wait_read(qtbot, window, office)
    with SilentServer() as server:
        dialog = window.make_settings_dialog()
        qtbot.addWidget(dialog)
        dialog.gateway.address.setText(server.base + "/v1")
        dialog.gateway.model.setText("qwen")
        window.accept_settings(dialog)
        window.answer_panel.llm_toggle.setChecked(True)
        window.ask("신청 기간은 언제까지인가?")
        panel = window.answer_panel
        assert panel.text.toPlainText() == texts.ASKING_LLM.format(host="127.0.0.1", model="qwen")
        assert panel.stop_button.isVisible()
        qtbot.mouseClick(panel.stop_button, Qt.MouseButton.LeftButton)
        assert panel.text.toPlainText() == texts.STOPPED_WAITING and not panel.stop_button.isVisible()
    qtbot.wait(1500)                                # the connection is gone; the late failure is not shown
    assert window.answer_panel.text.toPlainText() == texts.STOPPED_WAITING


def test_print_preview_shows_the_pages_before_printing(qtbot, engine_host, office):
    window = MainWindow(host=engine_host, persist=False)
    qtbot.addWidget(window)
    window.show()
    window.add_folder(office)
    wait_read(qtbot, window, office)
    window.answer_panel.question.setText("신청 기간은 언제인가?")
    window.answer_panel.question.returnPressed.emit()
    qtbot.waitUntil(lambda: window.answer is not None, timeout=30_000)
    pictures = []
    assert export.cited_pictures(window, pictures.append)
    qtbot.waitUntil(lambda: bool(pictures), timeout=20_000)
    dialog = export.print_preview_dialog(window, pictures[0])
    qtbot.addWidget(dialog)
    dialog.show()
    preview = dialog.findChild(QPrintPreviewWidget)
    preview.updatePreview()
    assert dialog.windowTitle() == texts.PRINT_PREVIEW
    assert preview.pageCount() >= 2                 # the answer, then the cited page's picture
