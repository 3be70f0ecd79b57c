"""The main window end to end: drop a folder, watch it, ask, see the evidence, print, export."""
from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pymupdf
import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QGraphicsRectItem, QLabel

from engine import __version__, wording
from engine.wording import PRODUCT_NAME
from noda_desktop import settings as settings_store
from tests.corpus import CORPUS, requires_corpus
from tests.gui.samples import docx_bytes
from ui import export, printing, texts
from ui.documents import FILE, REASON, STATUS, UNREADABLE
from ui.main_window import MainWindow

READ_TIMEOUT = 40_000


def drag_enter(window, mime: QMimeData) -> QDragEnterEvent:
    """Send a drag-enter event (QPointF since Qt 6.12, QPoint before)."""
    args = (Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    try:
        enter = QDragEnterEvent(QPointF(window.rect().center()), *args)
    except TypeError:
        enter = QDragEnterEvent(window.rect().center(), *args)
    QApplication.sendEvent(window, enter)
    return enter


def drop(window, *paths) -> QDropEvent:
    """Drag files/folders onto the window and drop them, as a file manager does."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    assert drag_enter(window, mime).isAccepted()
    event = QDropEvent(QPointF(window.rect().center()), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, event)
    return event


def wait_read(qtbot, window, folder: Path):
    """Wait until the folder has been read (and nothing is being read any more)."""
    key = str(folder.resolve())
    qtbot.waitUntil(lambda: window.service.state(key) is not None
                    and window.service.state(key).documents is not None
                    and not window.service.busy, timeout=READ_TIMEOUT)
    return window.service.state(key)


def rows(window) -> dict[str, dict]:
    """filename -> {status, reason, tooltip} as the documents table shows them."""
    model = window.documents.model
    out = {}
    for r in range(model.rowCount()):
        name = model.index(r, FILE).data()
        out[name] = {"status": model.index(r, STATUS).data(), "reason": model.index(r, REASON).data(),
                     "tooltip": model.index(r, STATUS).data(Qt.ItemDataRole.ToolTipRole)}
    return out


def ask(qtbot, window, question: str) -> dict:
    panel = window.answer_panel
    panel.question.setText(question)          # keyClicks with Hangul aborts on a Qt assertion
    qtbot.keyClick(panel.question, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.answer is not None, timeout=READ_TIMEOUT)
    return window.answer


def test_empty_state_says_what_to_do_first(window):
    assert window.stack.currentWidget() is window.empty
    assert texts.EMPTY_TITLE in [label.text() for label in window.empty.findChildren(QLabel)]
    assert not window.print_action.isEnabled()
    assert window.add_action.shortcut().toString() == "Ctrl+O"
    assert window.print_action.shortcut().toString() == "Ctrl+P"
    assert not window.windowIcon().isNull()
    box = window.about_box()
    text = box.text.toPlainText()
    assert f"{PRODUCT_NAME} {__version__}" in text and "AGPL-3.0" in text
    assert window.windowTitle() == PRODUCT_NAME


def test_dropped_folder_lists_documents_with_statuses_and_reasons(qtbot, window, office):
    drop(window, office)
    wait_read(qtbot, window, office)
    assert window.stack.currentWidget() is window.splitter
    shown = rows(window)
    assert set(shown) == {"공고.pdf", "회의록.docx", "빈파일.hwpx", "암호.pdf"}
    assert shown["공고.pdf"]["status"] == texts.STATUS_READ
    assert shown["회의록.docx"]["status"] == texts.STATUS_READ
    assert shown["빈파일.hwpx"]["status"] == texts.STATUS_UNREADABLE
    assert shown["빈파일.hwpx"]["reason"] == wording.reason_text("EMPTY")
    assert wording.next_step("EMPTY") in shown["빈파일.hwpx"]["tooltip"]
    assert "EMPTY" not in shown["빈파일.hwpx"]["tooltip"]          # codes are for programs, not for people
    assert shown["암호.pdf"]["reason"] == wording.reason_text("PASSWORD_PROTECTED")
    # the folder's counts on the left, the errors view and its button
    item_text = window.tenants.list.item(0).text()
    assert "읽음 2" in item_text and "못 읽음 2" in item_text
    assert window.errors.rowCount() == 2
    paths = {window.errors.item(r, 2).text() for r in range(2)}
    assert str(office.resolve() / "빈파일.hwpx") in paths
    # filtering by status
    window.documents.set_status_filter(UNREADABLE)
    assert set(window.documents.visible_filenames()) == {"빈파일.hwpx", "암호.pdf"}
    # remembered across restarts; removing it forgets it and deletes nothing
    key = str(office.resolve())
    assert key in settings_store.load().folders
    before = sorted(p.name for p in office.iterdir())
    window.remove_folder(key, confirm=False)
    assert sorted(p.name for p in office.iterdir()) == before
    assert window.stack.currentWidget() is window.empty
    assert key not in settings_store.load().folders


def test_a_file_added_to_the_folder_appears_without_restart(qtbot, window, office):
    window.watcher._debounce.setInterval(100)
    window.add_folder(office)
    wait_read(qtbot, window, office)
    qtbot.waitUntil(lambda: str(office.resolve()) in window.watcher.watched_directories(), timeout=5000)
    (office / "새문서.docx").write_bytes(docx_bytes("새로 들어온 문서입니다."))
    qtbot.waitUntil(lambda: "새문서.docx" in rows(window), timeout=READ_TIMEOUT)
    assert rows(window)["새문서.docx"]["status"] == texts.STATUS_READ


def test_question_answer_citation_highlight_print_and_html(qtbot, window, office, tmp_path):
    window.add_folder(office)
    wait_read(qtbot, window, office)
    answer = ask(qtbot, window, "신청 기간은 언제인가?")
    assert answer["answered"], answer
    panel = window.answer_panel
    assert panel.citations.count() == len(answer["citations"]) >= 1
    # unreadable documents are listed above the answer
    assert panel.skipped.isVisible() and "빈파일.hwpx" in panel.skipped.text()

    # click the citation of the PDF: its page is drawn with the cited box
    row = next(r for r in range(panel.citations.count())
               if panel.citations.item(r).data(Qt.ItemDataRole.UserRole + 1)["filename"] == "공고.pdf")
    citation = panel.citations.item(row).data(Qt.ItemDataRole.UserRole + 1)
    window.evidence.clear()
    rect = panel.citations.visualItemRect(panel.citations.item(row))
    qtbot.mouseClick(panel.citations.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(window.evidence.showing_pages, timeout=10_000)
    view = window.evidence.page_view
    boxes = [i for i in view.scene().items() if isinstance(i, QGraphicsRectItem)]
    assert boxes and len(view.highlights) == len([a for a in citation["anchors"] if a.get("bbox")])
    first = next(a for a in citation["anchors"] if a.get("bbox"))
    page_top = view.page_rects[first["page"]].top()
    x0, y0, x1, y1 = first["bbox"]
    got = view.highlights[0].rect()
    assert (got.left(), got.top() - page_top, got.right(), got.bottom() - page_top) == pytest.approx(
        (x0, y0, x1, y1), abs=0.01)
    assert view.highlights[0].brush().color().alpha() < 255          # semi-transparent
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert visible.intersects(got)                                      # scrolled to the box

    # print to PDF: the answer text and a picture of every cited page are in it
    out = tmp_path / "답.pdf"
    printed = []
    assert export.print_to(window, printing.pdf_printer(str(out)), on_done=lambda: printed.append(True))
    qtbot.waitUntil(lambda: bool(printed), timeout=20_000)
    cited_pages = {(c["filename"], a["page"]) for c in answer["citations"] if c["filename"].endswith(".pdf")
                   for a in c["anchors"] if a.get("page")}
    with pymupdf.open(out) as pdf:
        text = "".join(page.get_text() for page in pdf)
        assert sum(len(page.get_images()) for page in pdf) == len(cited_pages) >= 1
    first_line = answer["lines"][0]["text"] if answer.get("lines") else answer["text"]
    squash = lambda s: "".join(s.split())
    assert squash(first_line)[:20] in squash(text)

    # evidence HTML: the answer and an embedded page picture
    html_path = tmp_path / "근거.html"
    assert export.save_html(window, html_path)
    qtbot.waitUntil(html_path.exists, timeout=20_000)
    html = html_path.read_text(encoding="utf-8")
    assert squash(first_line)[:20] in squash(html)
    assert "data:image/" in html and ";base64," in html


def test_saved_evidence_html_is_never_seen_half_written(qtbot, window, office, tmp_path):
    """Regression: the file existed before its text was written, so a reader could see it empty."""
    window.add_folder(office)
    wait_read(qtbot, window, office)
    answer = ask(qtbot, window, "신청 기간은 언제인가?")
    page = tmp_path / "근거.html"
    page.write_text("이전 근거", encoding="utf-8")
    earlier = page.stat().st_ino
    seen = []

    def saved() -> bool:
        seen.append(page.read_text(encoding="utf-8"))
        return seen[-1] != "이전 근거"

    assert export.save_html(window, page)
    qtbot.waitUntil(saved, timeout=20_000)
    first_line = "".join((answer["lines"][0]["text"] if answer.get("lines") else answer["text"]).split())
    assert all(text == "이전 근거" for text in seen[:-1])
    assert first_line[:20] in "".join(seen[-1].split())
    assert page.stat().st_ino != earlier          # put in place whole, not rewritten where it was
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["근거.html"]


@requires_corpus
def test_hwp_citation_shows_the_passage_and_why_there_is_no_picture(qtbot, window, tmp_path):
    source = CORPUS / "nts_서면2팀-1138_접대비.hwp"
    folder = tmp_path / "판례"
    folder.mkdir()
    shutil.copyfile(source, folder / "접대비.hwp")
    window.add_folder(folder)
    wait_read(qtbot, window, folder)
    answer = ask(qtbot, window, "접대비")
    assert answer["answered"], answer
    qtbot.waitUntil(lambda: window.evidence.evidence is not None, timeout=10_000)
    ev = window.evidence
    assert not ev.showing_pages()
    assert ev.notes.isVisible() and "한글(HWP)" in ev.notes.text()
    quote = ev.evidence.citation["quote"]
    assert "".join(quote.split())[:10] in "".join(ev.passage.toPlainText().split())
    assert "#ffd84d" in ev.passage.toHtml()


def test_dropped_zip_is_read_from_a_private_copy(qtbot, window, tmp_path):
    archive = tmp_path / "자료.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("a.docx", docx_bytes("코끼리 사육 예산은 30억 원이다."))
    before = archive.read_bytes()
    drop(window, archive)
    qtbot.waitUntil(lambda: window.service.folders() != [], timeout=10_000)
    folder = Path(window.tenants.current_folder())
    state = wait_read(qtbot, window, folder)
    names = [d["filename"] for d in state.documents["documents"]]
    assert names == ["자료.zip/a.docx"]
    assert archive.read_bytes() == before
    window.remove_folder(str(folder), confirm=False)
    assert archive.exists() and window.service.folders() == []


def test_a_web_link_is_not_taken(window):
    mime = QMimeData()
    mime.setUrls([QUrl("https://example.com/공고.pdf")])
    assert not drag_enter(window, mime).isAccepted()
    assert window.service.folders() == []


def test_folders_are_reopened_after_a_restart(qtbot, office, engine_host):
    first = MainWindow(host=engine_host)
    qtbot.addWidget(first)
    key = first.add_folder(office)
    first.close()
    second = MainWindow(host=engine_host)
    qtbot.addWidget(second)
    assert second.service.folders() == [key]
    assert second.tenants.current_folder() == key
    wait_read(qtbot, second, office)
    assert "공고.pdf" in rows(second)


def test_new_settings_reopen_folders_with_the_new_cache(qtbot, window, office, tmp_path):
    key = window.add_folder(office)
    wait_read(qtbot, window, office)
    new = settings_store.load()
    new.cache_dir = str(tmp_path / "새캐시")
    window.apply_settings(new)
    assert window.service.folders() == [key]
    wait_read(qtbot, window, office)
    assert (tmp_path / "새캐시" / "tenants").is_dir()
    assert settings_store.load().cache_dir == str(tmp_path / "새캐시")
    assert "공고.pdf" in rows(window)


def test_the_document_list_fills_while_a_big_folder_is_read(qtbot, window, tmp_path):
    folder = tmp_path / "큰폴더"
    folder.mkdir()
    for i in range(90):
        (folder / f"회의록{i:03}.docx").write_bytes(docx_bytes(f"{i}번 회의 결과: 예산 {i}억 원을 승인했다."))
    window.service.partial_list_s = 0.0
    seen = []
    window.service.documents_changed.connect(
        lambda f: seen.append((window.service.busy, len(window.service.state(f).documents["documents"]))))
    window.add_folder(folder)
    wait_read(qtbot, window, folder)
    assert seen[-1] == (False, 90)
    partial = [n for busy, n in seen if busy]
    assert any(0 < n < 90 for n in partial), seen       # rows appeared before the reading ended
    assert partial == sorted(partial)                   # and only ever grew
    assert window.documents.model.rowCount() == 90


def test_the_user_guide_explains_every_unreadable_reason(qtbot, window):
    dialog = window.help_box()
    qtbot.addWidget(dialog)
    text = dialog.text.toPlainText()
    assert text.startswith("노다 사용 설명서")
    for what, step in wording.REASONS.values():
        assert what in text and step in text
    assert texts.LLM_TOGGLE in text and "{reasons}" not in text
    assert window.help_action in window.menuBar().actions()[-1].menu().actions()
