"""The window as an office worker meets it: single files dropped, a 1366×768 laptop, folders switched,
honest progress, a quick restart, 원본 열기 that says what happened."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, QRect, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QLabel

from engine import wording
from noda_desktop import settings as settings_store
from tests.gui.samples import docx_bytes
from tests.gui.test_window import ask, rows, wait_read
from ui import drops, export, originals, texts, window_layout
from ui.answer_panel import QUIET_STYLE, SKIPPED_STYLE
from ui.main_window import MainWindow
from ui.service import RefreshProgress

LAPTOP = QRect(0, 0, 1366, 728)             # 1366×768 less a 40 px taskbar
LAPTOP_125 = QRect(0, 0, 1093, 582)         # the same screen at 125 % (logical pixels)


@pytest.fixture
def window(qtbot, engine_host):
    w = MainWindow(host=engine_host)
    qtbot.addWidget(w)
    opened = []
    w.opener = lambda url: opened.append(url.toLocalFile()) or True   # never start a real program
    w.opened = opened
    w.show()
    return w


def drop_as_file_manager(window, *paths) -> tuple[bool, Qt.DropAction]:
    """A drop that offers Copy or Move and proposes Move, as a file manager's drag inside one disk does."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    actions = Qt.DropAction.CopyAction | Qt.DropAction.MoveAction
    enter = QDragEnterEvent(window.rect().center(), actions, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    event = QDropEvent(QPointF(window.rect().center()), actions, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    event.setDropAction(Qt.DropAction.MoveAction)
    QApplication.sendEvent(window, event)
    return event.isAccepted(), event.dropAction()      # plain values: the event is Qt's once sent


def inside(window, widget) -> bool:
    """Whether the widget is shown whole inside the window's own rectangle."""
    if not widget.isVisible():
        return False
    top_left = widget.mapTo(window, QPoint(0, 0))
    return window.rect().contains(QRect(top_left, widget.size()))


def test_a_single_dropped_file_is_read_on_its_own(qtbot, window, tmp_path):
    downloads = tmp_path / "다운로드"
    downloads.mkdir()
    wanted = downloads / "회의결과.docx"
    wanted.write_bytes(docx_bytes("회의 결과: 예산 3억 원을 승인했다."))
    for i in range(3):
        (downloads / f"다른파일{i}.docx").write_bytes(docx_bytes(f"{i}번 다른 문서"))
    before = wanted.read_bytes()

    accepted, action = drop_as_file_manager(window, wanted)
    assert accepted and action == Qt.DropAction.CopyAction                # never a move
    qtbot.waitUntil(lambda: len(window.service.folders()) == 1, timeout=10_000)
    folder = Path(window.service.folders()[0])
    assert folder.name == drops.SINGLE_FILES_NAME
    wait_read(qtbot, window, folder)
    assert set(rows(window)) == {"회의결과.docx"}                     # not the rest of 다운로드
    assert "회의결과.docx" in window.statusBar().currentMessage()
    assert drops.SINGLE_FILES_NAME in window.statusBar().currentMessage()
    assert window.tenants.list.item(0).toolTip() == texts.SINGLE_FILES_TIP
    qtbot.waitUntil(lambda: (window.documents.selected_entry() or {}).get("filename") == "회의결과.docx",
                    timeout=5000)
    assert wanted.read_bytes() == before and sorted(p.name for p in downloads.iterdir()) == sorted(
        ["회의결과.docx", "다른파일0.docx", "다른파일1.docx", "다른파일2.docx"])

    # a second file joins the same list; 원본 열기 opens the user's own file, not our copy
    other = downloads / "다른파일1.docx"
    drop_as_file_manager(window, other)
    qtbot.waitUntil(lambda: set(rows(window)) == {"회의결과.docx", "다른파일1.docx"}, timeout=30_000)
    window.open_original("회의결과.docx", str(folder))
    assert window.opened == [str(wanted.resolve())]
    assert window.statusBar().currentMessage() == texts.OPENING.format(name="회의결과.docx")
    # removing the list deletes only our copies
    window.remove_folder(str(folder), confirm=False)
    assert not folder.exists() and wanted.read_bytes() == before


def test_opening_an_original_says_when_it_cannot(qtbot, window, office):
    window.add_folder(office)
    wait_read(qtbot, window, office)
    window.opener = lambda url: False                          # no program for this kind of file
    assert not originals.open_path(window, office / "공고.pdf", "공고.pdf")
    assert window.statusBar().currentMessage() == texts.OPEN_NO_PROGRAM.format(name="공고.pdf",
                                                                              path=office / "공고.pdf")
    assert not originals.open_path(window, office / "없어진.pdf", "없어진.pdf")
    assert window.statusBar().currentMessage() == texts.OPEN_MISSING.format(name="없어진.pdf")


@pytest.mark.parametrize("available", [LAPTOP, LAPTOP_125], ids=["1366x768", "1366x768-at-125%"])
def test_the_window_fits_a_1366x768_laptop(qtbot, engine_host, office, available):
    window = MainWindow(host=engine_host, persist=False)
    qtbot.addWidget(window)
    window_layout.fit_to_screen(window, available)
    window.show()
    window.add_folder(office)
    wait_read(qtbot, window, office)
    assert available.contains(window.geometry())
    # long texts (a file name while reading, a long gateway line) never widen the window
    window.status.set_progress(texts.PROGRESS_READING.format(folder="민원서류", done=10, total=11,
                                                             file="아주_긴_이름의_스캔_문서_" * 6 + ".pdf"), 10, 11)
    window.status.set_gateway(texts.GATEWAY_STATUS_ON.format(host="llm-server.intra.agency.go.kr",
                                                             model="qwen2.5-72b-instruct-awq"), "")
    qtbot.wait(50)
    hint = window.minimumSizeHint()
    assert hint.width() <= available.width() and hint.height() <= available.height()
    window.resize(window.minimumSize().expandedTo(hint))          # as small as the window lets itself be
    qtbot.wait(50)
    for widget in (window.answer_panel.ask_button, window.answer_panel.question, window.progress_bar,
                   window.cancel_button, window.documents.table, window.evidence.open_button):
        assert inside(window, widget), widget
    assert "…" in window.gateway_label.text() and "qwen2.5-72b-instruct-awq" in window.gateway_label.toolTip()


def test_panes_keep_their_place_when_answers_come(qtbot, window, office):
    window.add_folder(office)
    wait_read(qtbot, window, office)
    window.resize(1366, 728)
    qtbot.wait(50)
    before = (window.splitter.sizes(), window.right_splitter.sizes())
    ask(qtbot, window, "신청 기간은 언제인가?")
    qtbot.wait(50)
    window.answer = None
    ask(qtbot, window, "지원 금액은 얼마인가?")
    qtbot.wait(50)
    assert (window.splitter.sizes(), window.right_splitter.sizes()) == before


def test_window_size_and_panes_come_back_after_a_restart(qtbot, engine_host, office):
    first = MainWindow(host=engine_host)
    qtbot.addWidget(first)
    first.show()
    first.add_folder(office)
    first.resize(780, 640)                        # within the offscreen screen (800×800): Qt keeps it
    qtbot.wait(20)
    first.splitter.setSizes([140, 270, 360])
    first.right_splitter.setSizes([260, 300])
    panes, right = first.splitter.sizes(), first.right_splitter.sizes()
    first.close()
    assert set(settings_store.load().window) >= {"geometry", "panes", "answer_evidence", "columns"}
    second = MainWindow(host=engine_host)
    qtbot.addWidget(second)
    second.show()
    qtbot.wait(20)
    assert second.size() == first.size()
    assert second.splitter.sizes() == panes and second.right_splitter.sizes() == right


def test_first_start_takes_its_size_from_the_screen():
    assert window_layout.first_size(LAPTOP.size()).width() <= LAPTOP.width()
    assert window_layout.first_size(LAPTOP.size()).height() <= LAPTOP.height()
    assert window_layout.first_size(QRect(0, 0, 2560, 1400).size()) == window_layout.DESIGN_SIZE


def two_folders(tmp_path, office) -> Path:
    other = tmp_path / "회의자료"
    other.mkdir()
    (other / "회의록.docx").write_bytes(docx_bytes("다음 회의는 5월 3일에 연다."))
    (other / "깨진.pdf").write_bytes(b"%PDF-1.4 broken")
    (other / "빈.docx").write_bytes(b"")
    return other


def test_switching_folders_clears_the_answer_and_shows_that_folders_errors(qtbot, window, office, tmp_path):
    other = two_folders(tmp_path, office)
    a = window.add_folder(office)
    wait_read(qtbot, window, office)
    b = window.add_folder(other)
    wait_read(qtbot, window, other)
    window.tenants.select(a)
    assert ask(qtbot, window, "신청 기간은 언제인가?")["answered"]
    window.documents.table.horizontalScrollBar().setValue(window.documents.table.horizontalScrollBar().maximum())
    assert window.errors.rowCount() == 2
    assert {window.errors.item(r, 0).text() for r in range(2)} == {"빈파일.hwpx", "암호.pdf"}

    window.tenants.select(b)
    assert window.answer is None and window.answer_panel.citations.count() == 0
    assert window.answer_panel.text.toPlainText() == "" and window.evidence.evidence is None
    assert not window.print_action.isEnabled()
    assert window.documents.table.horizontalScrollBar().value() == 0        # the file names are in view
    assert {window.errors.item(r, 0).text() for r in range(window.errors.rowCount())} == {"깨진.pdf", "빈.docx"}
    assert window.errors_button.text() == texts.ERRORS_BUTTON.format(n=2)
    assert window.centre_tabs.tabText(1) == f"{texts.ERRORS_TAB} (2)"


def test_the_unreadable_box_comes_once_per_folder(qtbot, window, office):
    window.add_folder(office)
    wait_read(qtbot, window, office)
    panel = window.answer_panel
    ask(qtbot, window, "신청 기간은 언제인가?")
    assert panel.skipped.isVisible() and panel.skipped.styleSheet() == SKIPPED_STYLE
    assert "빈파일.hwpx" in panel.skipped.text() and "암호.pdf" in panel.skipped.text()
    window.answer = None
    ask(qtbot, window, "지원 금액은 얼마인가?")
    assert panel.skipped.isVisible() and panel.skipped.styleSheet() == QUIET_STYLE
    assert texts.SKIPPED_AGAIN.format(count=2) in panel.skipped.text() and "암호.pdf" not in panel.skipped.text()
    with qtbot.waitSignal(panel.errors_requested):
        panel.skipped.linkActivated.emit("errors:")
    assert window.centre_tabs.currentWidget() is window.errors


def test_the_count_to_look_at_agrees_with_the_cli(qtbot, window, office, capsys):
    from noda_desktop import cli
    window.add_folder(office)
    state = wait_read(qtbot, window, office)
    assert cli.main(["documents", str(office)]) == 0
    printed = capsys.readouterr().out
    documents = state.documents
    assert wording.cli.documents(total=len(documents["documents"]), readable=documents["readable"],
                                 unreadable=documents["unreadable"], needs_review=documents["needs_review"],
                                 chunks=documents["chunks"]) in printed
    line = window.tenants.list.item(0).text()
    assert f"확인 필요 {documents['needs_review']}" in line and f"못 읽음 {documents['unreadable']}" in line
    window.documents.set_status_filter("review")
    assert len(window.documents.visible_filenames()) == documents["needs_review"]


def test_progress_names_the_file_being_read_now(window, office):
    key = window.add_folder(office)
    window.service.progress.emit(RefreshProgress(key, 10, 11, "앞의문서.pdf", "reading", ("스캔본.pdf",)))
    assert window.progress_label.text() == texts.PROGRESS_READING.format(folder=office.name, done=10, total=11,
                                                                          file="스캔본.pdf")
    assert window.progress_bar.isVisible() and window.progress_bar.value() == 10


def test_a_question_asked_while_another_folder_is_read_says_so(qtbot, window, office, tmp_path):
    window.add_folder(office)
    wait_read(qtbot, window, office)
    big = tmp_path / "큰폴더"
    big.mkdir()
    for i in range(60):
        (big / f"보고{i:02}.docx").write_bytes(docx_bytes(f"{i}번 보고: 예산 {i}억 원."))
    window.add_folder(big, remember=False)
    qtbot.waitUntil(lambda: window.service.running_folder() == str(big.resolve()), timeout=20_000)
    window.tenants.select(str(office.resolve()))
    window.ask("신청 기간은 언제인가?")
    if window.answer is None:                                     # still waiting: it says for what
        assert window.answer_panel.text.toPlainText() == texts.ASKING_WHILE_READING.format(folder="큰폴더")
    qtbot.waitUntil(lambda: window.answer is not None, timeout=60_000)
    assert not window.answer_panel.notes.isVisible()             # the asked folder was read in full
    wait_read(qtbot, window, big)


def test_a_restart_shows_the_saved_list_at_once_then_refreshes(qtbot, engine_host, office):
    first = MainWindow(host=engine_host)
    qtbot.addWidget(first)
    first.add_folder(office)
    wait_read(qtbot, first, office)
    first.close()
    second = MainWindow(host=engine_host)
    qtbot.addWidget(second)
    seen = []
    second.service.documents_changed.connect(
        lambda f: seen.append((second.service.state(f).from_cache, second.documents.cached_note.isVisibleTo(second),
                               second.service.busy)))
    second.show()
    qtbot.waitUntil(lambda: bool(seen) and not seen[-1][0], timeout=30_000)
    assert seen[0][0] and seen[0][1]                   # first: the saved list, said to be so …
    assert not seen[0][2]                              # … before any reading began
    assert seen[-1][:2] == (False, False)              # then the refreshed one, the note gone
    assert set(rows(second)) == {"공고.pdf", "회의록.docx", "빈파일.hwpx", "암호.pdf"}


def test_acl_names_the_user_and_the_name_can_be_changed(qtbot, window, office):
    (office / "ACL.json").write_text(json.dumps({"default": ["*"], "rules": [{"files": "회의록.docx",
                                                                              "allow": ["김주무관"]}]}),
                                     encoding="utf-8")
    window.add_folder(office)
    wait_read(qtbot, window, office)
    assert window.service.principal == settings_store.os_user_name()
    assert "회의록.docx" not in rows(window)
    dialog = window.make_settings_dialog()
    qtbot.addWidget(dialog)
    assert settings_store.os_user_name() in dialog.principal.placeholderText()
    dialog.principal.setText("김주무관")
    window.accept_settings(dialog)
    qtbot.waitUntil(lambda: "회의록.docx" in rows(window), timeout=20_000)
    assert settings_store.load().principal == "김주무관"
    assert window.documents.summary.toolTip() == texts.PRINCIPAL_SHOWN.format(name="김주무관")


def test_file_dialogs_speak_korean(qtbot):
    from ui.file_dialogs import korean_dialog
    dialog = korean_dialog(None, texts.FOLDER_DIALOG)
    qtbot.addWidget(dialog)
    dialog.setOption(dialog.Option.DontUseNativeDialog)
    dialog.show()
    shown = [label.text() for label in dialog.findChildren(QLabel)]
    assert texts.DIALOG_LOOK_IN in shown and texts.DIALOG_FILE_TYPE in shown
    assert not any("Look in" in t or "Files of" in t for t in shown)


def test_the_gateway_example_address_is_one_the_gateway_takes(qtbot, tmp_path):
    from ui.gateway_settings import GatewaySettings
    from ui.runners import SyncRunner
    section = GatewaySettings(tmp_path / "config", SyncRunner())
    qtbot.addWidget(section)
    example = texts.GATEWAY_ADDRESS_HINT.split()[1]
    section.address.setText(example)
    section.model.setText("qwen")
    assert section.gateway().describe()["enabled"], section.state.text()
    assert section.state.text().startswith("켜짐")


def test_one_product_name_everywhere():
    root = Path(__file__).resolve().parents[2]
    desktop = (root / "installer" / "deb" / "noda-desktop.desktop").read_text(encoding="utf-8")
    assert f"Name={wording.PRODUCT_NAME}" in desktop and texts.WINDOW_TITLE == wording.PRODUCT_NAME


def test_the_menu_entry_opens_folders_and_files_and_validates():
    root = Path(__file__).resolve().parents[2]
    text = (root / "installer" / "deb" / "noda-desktop.desktop").read_text(encoding="utf-8")
    entries = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    assert entries["Exec"] == "noda-desktop %F" and "inode/directory" in entries["MimeType"].split(";")
    validator = shutil.which("desktop-file-validate")
    if validator:
        import subprocess
        result = subprocess.run([validator, str(root / "installer" / "deb" / "noda-desktop.desktop")],
                                capture_output=True, text=True)
        assert result.returncode == 0 and not result.stdout.strip(), result.stdout


def test_a_file_named_on_the_command_line_is_opened_on_its_own(qtbot, engine_host, tmp_path):
    paper = tmp_path / "공문.docx"
    paper.write_bytes(docx_bytes("공문: 제출 기한은 6월 30일이다."))
    window = MainWindow([str(paper)], host=engine_host, persist=False)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: len(window.service.folders()) == 1, timeout=10_000)
    folder = Path(window.service.folders()[0])
    wait_read(qtbot, window, folder)
    assert folder.name == drops.SINGLE_FILES_NAME and set(rows(window)) == {"공문.docx"}


def test_people_read_korean_not_codes(qtbot, window, office, tmp_path):
    from ui.documents import detail_html, reason_tooltip
    locked = {"filename": "공문.hwp", "readable": False, "format": "hwp", "reason": "DRM_ENCRYPTED",
              "reason_text": wording.reason_text("DRM_ENCRYPTED"), "drm_vendor": "마크애니 문서보안", "warnings": []}
    for text in (detail_html(locked), reason_tooltip(locked)):
        assert "DRM_ENCRYPTED" not in text and wording.next_step("DRM_ENCRYPTED") in text
    assert wording.extractors_text(["pymupdf", "ocr", "pymupdf"]) == "PDF 글자층, 기계가 읽은 글자(OCR)"
    window.add_folder(office)
    wait_read(qtbot, window, office)
    ask(qtbot, window, "신청 기간은 언제인가?")
    page = tmp_path / "근거.html"
    export.save_html(window, page)
    qtbot.waitUntil(page.exists, timeout=20_000)
    html = page.read_text(encoding="utf-8")
    assert wording.evidence_text("read_by", extractors="PDF 글자층") in html
    assert wording.evidence_text("read_by", extractors="pymupdf") not in html
