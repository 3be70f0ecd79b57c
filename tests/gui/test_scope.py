"""'이 문서에 묻기': the window asks one document, shows the scope as a chip above the answer, and its ✕ takes it away."""
from __future__ import annotations

from PySide6.QtCore import Qt

from tests.gui.test_window import READ_TIMEOUT, ask, drop, rows, wait_read
from ui import texts
from ui.documents import FILE


def _select(window, filename: str) -> None:
    model = window.documents.model
    row = next(r for r in range(model.rowCount()) if model.index(r, FILE).data() == filename)
    window.documents.table.selectRow(row)


def test_asking_one_document_scopes_the_answer_and_the_chip_removes_the_scope(qtbot, window, office):
    drop(window, office)
    wait_read(qtbot, window, office)
    assert "회의록.docx" in rows(window)
    chip, action = window.scope_chip, window.ask_document_action
    assert not chip.isVisible() and action.text() == texts.ASK_THIS_DOCUMENT
    assert action in window.documents.table.actions()              # the row's context menu offers it

    _select(window, "빈파일.hwpx")                                   # nothing to ask in an unreadable file
    assert not action.isEnabled()
    _select(window, "회의록.docx")
    assert action.isEnabled()
    action.trigger()
    assert chip.isVisible() and "회의록.docx" in chip.label.text() and chip.document() == "회의록.docx"

    answer = ask(qtbot, window, "집행 현황은 언제까지 알리나요?")
    assert answer["document"] == "회의록.docx"
    assert {c["filename"] for c in answer["citations"]} <= {"회의록.docx"}

    qtbot.mouseClick(chip.remove_button, Qt.MouseButton.LeftButton)
    assert not chip.isVisible() and chip.document() is None
    window.answer = None
    again = ask(qtbot, window, "집행 현황은 언제까지 알리나요?")
    assert again["document"] is None
    qtbot.waitUntil(lambda: not window.service.busy, timeout=READ_TIMEOUT)
