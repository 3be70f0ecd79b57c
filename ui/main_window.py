"""The main window: folders on the left, documents in the centre, questions and evidence on the right."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable, Optional

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QIcon, QKeySequence
from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import (QDialog, QMainWindow, QMessageBox, QSplitter, QStackedWidget, QTabWidget, QToolBar)

from engine import wording
from engine.gateway import Gateway, load_config as load_gateway_config
from noda_desktop import paths
from noda_desktop import settings as settings_store
from noda_desktop.settings import Settings
from ui import drops, file_dialogs, printing, texts, window_layout
from ui.about_dialog import AboutDialog
from ui.answer_panel import AnswerPanel
from ui.api_switch import ApiSwitch
from ui.documents import DocumentsPanel
from ui.empty_state import empty_state
from ui.engine_host import EngineHost
from ui.errors_view import ErrorsView
from ui.evidence import prepare
from ui.evidence_view import EvidenceView
from ui.help_dialog import HelpDialog
from ui.scope_chip import ScopeChip
from ui.service import EngineService, RefreshProgress
from ui.settings_dialog import SettingsDialog
from ui.status_area import StatusArea
from ui.tenants_panel import TenantsPanel
from ui.watcher import FolderWatcher

WINDOW_TITLE = texts.WINDOW_TITLE
MIN_PANE_WIDTHS = (130, 260, 340)   # folders · documents · answer and evidence (fits 1093 px: 1366 at 125 %)


def app_icon() -> QIcon:
    """The window icon (SVG, with a PNG fallback)."""
    icons = paths.resources_dir() / "icons"
    icon = QIcon(str(icons / "noda.svg"))
    if icon.isNull():
        icon = QIcon(str(icons / "noda.png"))
    return icon


class MainWindow(QMainWindow):
    def __init__(self, folders=(), *, settings: Optional[Settings] = None, host: Optional[EngineHost] = None,
                 api: Optional[type] = None, runner=None, persist: bool = True):
        """``host``: an engine process to share (tests); ``api``: what serves the local API in our own engine
        process (noda_desktop's HostedApi); ``runner``: e.g. SyncRunner; ``persist``: save settings."""
        super().__init__()
        self.settings = settings if settings is not None else settings_store.load()
        self.persist = persist
        self.service = EngineService(cache_root=self.settings.cache_root(), limits=self.settings.parse_limits(),
                                     runner=runner, host=host, api=api, parent=self)
        self.service.principal = self.settings.acl_principal()
        self.watcher = FolderWatcher(self.settings.poll_seconds, parent=self)
        self.api_switch = ApiSwitch(self.service, parent=self)
        self.opener: Callable[[QUrl], bool] = QDesktopServices.openUrl   # tests swap it to open nothing
        self.answer: Optional[dict] = None
        self.answer_folder: Optional[str] = None
        self._request = 0          # newest question; older answers are dropped
        self._evidence_request = 0
        self._skipped_shown: dict[str, frozenset] = {}   # folder -> unreadable files its red box has named
        self._select_when_listed: Optional[tuple[str, str]] = None   # (folder, file) dropped a moment ago
        self._say_when_read: dict[str, str] = {}   # folder -> what to say once its reading ends

        self.setWindowTitle(WINDOW_TITLE)
        self.setWindowIcon(app_icon())
        self.setAcceptDrops(True)
        self._build_actions()
        self._build_widgets()
        self._build_scope()
        self._connect()
        self._update_actions()
        self.update_gateway_state()
        if not window_layout.restore_states(self, self.settings.window):
            window_layout.fit_to_screen(self, self.screen().availableGeometry())

        for folder in self.settings.folders:
            self.add_folder(folder, remember=True)
        self.open_paths(folders)
        self._show_state()
        self.api_switch.apply(self.settings.api_enabled, self.settings.api_port)

    # ---- construction ----------------------------------------------------------
    def _action(self, text: str, slot, shortcut=None) -> QAction:
        action = QAction(text, self)
        action.triggered.connect(slot)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        return action

    def _build_actions(self) -> None:
        self.add_action = self._action(texts.ADD_FOLDER, self.choose_folder, QKeySequence.StandardKey.Open)
        self.add_files_action = self._action(texts.ADD_FILES, self.choose_files)
        self.remove_action = self._action(texts.REMOVE_FOLDER, lambda: self.remove_current_folder())
        self.refresh_action = self._action(texts.REFRESH, self.refresh_current, QKeySequence.StandardKey.Refresh)
        self.print_action = self._action(texts.PRINT, self.print_preview, QKeySequence.StandardKey.Print)
        self.html_action = self._action(texts.SAVE_HTML, self.save_html_dialog, QKeySequence.StandardKey.Save)
        self.open_action = self._action(texts.OPEN_ORIGINAL, self.open_selected_original)
        self.settings_action = self._action(texts.SETTINGS, self.settings_dialog)
        self.about_action = self._action(texts.ABOUT, self.about)
        self.help_action = self._action(texts.HELP, self.show_help, QKeySequence.StandardKey.HelpContents)
        self.quit_action = self._action(texts.QUIT, self.close, QKeySequence.StandardKey.Quit)

        menu = self.menuBar().addMenu(texts.MENU_FILE)
        for action in (self.add_action, self.add_files_action, self.remove_action, self.refresh_action, None,
                       self.print_action, self.html_action, self.open_action, None, self.settings_action, None,
                       self.quit_action):
            menu.addSeparator() if action is None else menu.addAction(action)
        help_menu = self.menuBar().addMenu(texts.MENU_HELP)
        help_menu.addAction(self.help_action)
        help_menu.addAction(self.about_action)

        toolbar = QToolBar()
        toolbar.setMovable(False)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for action in (self.add_action, self.add_files_action, self.refresh_action, self.remove_action, None,
                       self.print_action, self.html_action, self.open_action, None, self.settings_action,
                       self.help_action):
            toolbar.addSeparator() if action is None else toolbar.addAction(action)
        self.addToolBar(toolbar)

    def _build_widgets(self) -> None:
        self.tenants = TenantsPanel()
        self.documents = DocumentsPanel()
        self.errors = ErrorsView()
        self.centre_tabs = QTabWidget()
        self.centre_tabs.addTab(self.documents, texts.DOCUMENTS_TAB)
        self.centre_tabs.addTab(self.errors, texts.ERRORS_TAB)
        self.answer_panel = AnswerPanel()
        self.evidence = EvidenceView()

        self.right_splitter = QSplitter(Qt.Orientation.Vertical)
        self.right_splitter.addWidget(self.answer_panel)
        self.right_splitter.addWidget(self.evidence)
        self.right_splitter.setSizes([400, 460])
        self.right_splitter.setChildrenCollapsible(False)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for pane, width in zip((self.tenants, self.centre_tabs, self.right_splitter), MIN_PANE_WIDTHS):
            pane.setMinimumWidth(width)
            self.splitter.addWidget(pane)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setStretchFactor(2, 1)

        self.empty = empty_state(app_icon(), self.choose_folder, self.choose_files,
                                 lambda: self.add_folder(paths.sample_tenant()))
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.splitter)
        self.setCentralWidget(self.stack)

        self.status = StatusArea(self.statusBar())
        self.progress_bar, self.progress_label = self.status.progress_bar, self.status.progress_label
        self.cancel_button, self.errors_button = self.status.cancel_button, self.status.errors_button
        self.gateway_label = self.status.gateway_label
        self.status.add_note(self.api_switch.label)
        self.errors_button.clicked.connect(lambda: self.centre_tabs.setCurrentWidget(self.errors))

    def _build_scope(self) -> None:
        """ "이 문서에 묻기" on the selected document (its row's context menu and the tool bar) and the chip
        above the answer that shows the scope and takes it away."""
        self.ask_document_action = self._action(texts.ASK_THIS_DOCUMENT, self.ask_selected_document)
        self.ask_document_action.setToolTip(texts.ASK_THIS_DOCUMENT_TIP)
        self.documents.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.documents.table.addAction(self.ask_document_action)
        self.findChild(QToolBar).addAction(self.ask_document_action)
        self.scope_chip = ScopeChip()
        self.answer_panel.layout().insertWidget(1, self.scope_chip)
        self.documents.table.selectionModel().selectionChanged.connect(lambda *_: self._update_actions())

    def ask_selected_document(self) -> None:
        """Questions go to the selected (readable) document only, until the chip's ✕."""
        entry = self.documents.selected_entry()
        if entry and entry.get("readable"):
            self.scope_chip.set_document(entry["filename"])
            self.answer_panel.question.setFocus()

    def _connect(self) -> None:
        s = self.service
        s.tenants_changed.connect(self._tenants_changed)
        s.documents_changed.connect(self._documents_changed)
        s.progress.connect(self._progress)
        s.refresh_finished.connect(self._refresh_finished)
        s.refresh_failed.connect(self._refresh_failed)
        s.busy_changed.connect(self._busy_changed)
        self.watcher.changed.connect(s.refresh)
        self.cancel_button.clicked.connect(s.cancel)
        self.tenants.folder_selected.connect(self._folder_selected)
        self.answer_panel.asked.connect(self.ask)
        self.answer_panel.stop_waiting.connect(self.stop_waiting)
        self.answer_panel.citation_clicked.connect(self.show_citation)
        self.answer_panel.errors_requested.connect(lambda: self.centre_tabs.setCurrentWidget(self.errors))
        self.evidence.open_original.connect(self.open_evidence_original)
        self.documents.document_activated.connect(lambda entry: self.open_original(entry.get("filename", "")))

    # ---- folders and files ----------------------------------------------------------
    def add_folder(self, folder, remember: bool = True) -> Optional[str]:
        """Open a folder as a tenant, watch it and remember it; returns its key."""
        path = Path(folder)
        if not path.is_dir():
            self.statusBar().showMessage(texts.FOLDER_MISSING.format(folder=folder), 8000)
            return None
        key = self.service.add_folder(path)
        self.watcher.add(key)
        if remember and self.settings.add_folder(key):
            self._save_settings()
        self.tenants.select(key)
        return key

    def add_zip(self, zip_path) -> None:
        """Open a ZIP file as a folder: a private copy in the app cache (the original is left alone)."""
        zip_path, cache = Path(zip_path), self.settings.cache_root()
        self.service.call(lambda: drops.zip_copy(cache, zip_path), self.add_folder,   # a ZIP may be large
                          lambda exc: self.statusBar().showMessage(
                              texts.ZIP_FAILED.format(name=zip_path.name, error=exc), 10000))

    def add_files(self, files) -> None:
        """Read single files: copies in the "개별 파일" folder (their own folders are not read)."""
        files, cache = [Path(f) for f in files], self.settings.cache_root()

        def added(result) -> None:
            folder, names = result
            key = self.add_folder(folder)
            if key and names:
                self._select_when_listed = (key, names[0])
                message = texts.FILES_ADDED.format(names="’, ‘".join(names), folder=drops.SINGLE_FILES_NAME)
                self._say_when_read[key] = message       # said again when read, over the counts
                self.statusBar().showMessage(message, 15000)

        self.service.call(lambda: drops.copy_single_files(cache, files), added,
                          lambda exc: self.statusBar().showMessage(texts.FILES_FAILED.format(error=exc), 10000))

    def open_dropped(self, dropped: drops.Dropped) -> None:
        for folder in dropped.folders:
            self.add_folder(folder)
        for zip_path in dropped.zips:
            self.add_zip(zip_path)
        if dropped.files:
            self.add_files(dropped.files)
        if dropped.rejected:
            self.statusBar().showMessage(texts.DROP_REJECTED.format(names=", ".join(dropped.rejected)), 8000)

    def choose_folder(self) -> None:
        folder = file_dialogs.choose_folder(self, texts.FOLDER_DIALOG)
        if folder:
            self.add_folder(folder)

    def open_paths(self, paths_given) -> None:
        """Open folders, ZIP files and files named on the command line or chosen in a dialog."""
        missing = [str(p) for p in paths_given if not Path(p).exists()]
        self.open_dropped(drops.sort_dropped([QUrl.fromLocalFile(str(Path(p).resolve()))
                                              for p in paths_given if Path(p).exists()]))
        if missing:
            self.statusBar().showMessage(texts.FOLDER_MISSING.format(folder=", ".join(missing)), 8000)

    def choose_files(self) -> None:
        files = file_dialogs.choose_files(self, texts.FILES_DIALOG)
        if files:
            self.open_paths(files)

    def remove_current_folder(self, confirm: bool = True) -> None:
        folder = self.tenants.current_folder()
        if folder:
            self.remove_folder(folder, confirm=confirm)

    def remove_folder(self, folder: str, confirm: bool = True) -> None:
        """Stop showing a folder. Its files are never deleted (only our own copies are)."""
        if confirm and QMessageBox.question(self, texts.REMOVE_FOLDER,
                                            texts.REMOVE_CONFIRM.format(folder=folder)) \
                != QMessageBox.StandardButton.Yes:
            return
        self.watcher.remove(folder)
        self.service.remove_folder(folder)
        self.settings.remove_folder(folder)
        self._save_settings()
        self._skipped_shown.pop(folder, None)
        zips, singles = drops.own_copy_roots(self.settings.cache_root())
        resolved = Path(folder).resolve()
        if zips in resolved.parents:
            shutil.rmtree(resolved.parent, ignore_errors=True)
        elif singles in resolved.parents:
            shutil.rmtree(resolved, ignore_errors=True)
        if self.answer_folder == folder:
            self._clear_answer()

    def refresh_current(self) -> None:
        folder = self.tenants.current_folder()
        if folder:
            self.service.refresh(folder)

    # ---- drag and drop ----------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if not (drops.sort_dropped(event.mimeData().urls()) and _take_as_copy(event)):
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        dropped = drops.sort_dropped(event.mimeData().urls())
        if not (dropped and _take_as_copy(event)):
            event.ignore()
            return
        self.open_dropped(dropped)

    # ---- service events -----------------------------------------------------------
    def _tenants_changed(self) -> None:
        self.tenants.set_folders(self.service.folders())
        for folder in self.service.folders():
            self._update_tenant_line(folder)
        self._update_errors()
        self._show_state()

    def _update_tenant_line(self, folder: str) -> None:
        state = self.service.state(folder)
        if state:
            self.tenants.update_folder(folder, state.documents, reading=self.service.reading(folder),
                                       error=state.error)

    def _documents_changed(self, folder: str) -> None:
        self._update_tenant_line(folder)
        if folder == self.tenants.current_folder():
            self._show_folder(folder)
        pending = self._select_when_listed
        if pending and pending[0] == folder and folder == self.tenants.current_folder() \
                and self.documents.select(pending[1]):
            self._select_when_listed = None

    def _folder_selected(self, folder: str) -> None:
        """Another folder chosen: its documents and errors; the answer from the folder before goes away."""
        if self.answer_folder is not None and folder != self.answer_folder:
            self._clear_answer()
        self.scope_chip.set_document(None)       # the scope was a document of the folder before
        self.documents.scroll_to_start()
        self._show_folder(folder)

    def _show_folder(self, folder: str) -> None:
        state = self.service.state(folder) if folder else None
        documents = state.documents if state else None
        self.documents.set_documents(documents, from_cache=bool(state and state.from_cache))
        self.documents.summary.setToolTip(texts.PRINCIPAL_SHOWN.format(name=self.service.principal or "-"))
        self.answer_panel.documents_read = documents.get("readable") if documents else None
        self.answer_panel.set_enabled_for_questions(bool(state and state.documents is not None))
        self._update_errors()
        self._update_actions()

    def _update_actions(self) -> None:
        """Enable what makes sense now: folder actions with a folder, print/export with an answer."""
        has_folder = self.tenants.current_folder() is not None
        self.remove_action.setEnabled(has_folder)
        self.refresh_action.setEnabled(has_folder)
        self.open_action.setEnabled(has_folder)
        self.print_action.setEnabled(self.answer is not None)
        self.html_action.setEnabled(self.answer is not None)
        entry = self.documents.selected_entry() if has_folder else None
        self.ask_document_action.setEnabled(bool(entry and entry.get("readable")))

    def _progress(self, p: RefreshProgress) -> None:
        name = Path(p.folder).name
        if p.phase in ("parse", "reading") and p.total:
            if p.reading:
                text = texts.PROGRESS_READING.format(folder=name, done=p.done, total=p.total, file=p.reading[0])
                if len(p.reading) > 1:
                    text += texts.MORE.format(n=len(p.reading) - 1)
            else:
                text = texts.PROGRESS.format(folder=name, done=p.done, total=p.total, current=p.current or "")
            self.status.set_progress(text, p.done, p.total)
        elif p.phase == "index" and p.total:
            self.status.set_progress(texts.PROGRESS_INDEX.format(folder=name))
        elif p.phase == "scan":
            self.status.set_progress(texts.PROGRESS_SCAN.format(folder=name))
        self._update_tenant_line(p.folder)

    def _refresh_finished(self, folder: str, result: dict) -> None:
        name = Path(folder).name
        if result.get("cancelled"):
            message = texts.REFRESH_CANCELLED.format(folder=name)
        else:
            message = texts.REFRESH_DONE.format(folder=name, added=len(result.get("added", [])),
                                                changed=len(result.get("changed", [])),
                                                removed=len(result.get("removed", [])))
        if folder in self._say_when_read and not result.get("cancelled"):
            self.statusBar().showMessage(self._say_when_read.pop(folder), 15000)
        elif result.get("cancelled") or result.get("added") or result.get("changed") or result.get("removed"):
            self.statusBar().showMessage(message, 10000)
        if result.get("notices"):   # the engine healed its index or cache: said once (engine Tenant.refresh)
            self.statusBar().showMessage(" · ".join(n["text"] for n in result["notices"]), 15000)
        self._update_tenant_line(folder)

    def _refresh_failed(self, folder: str, message: str) -> None:
        self._update_tenant_line(folder)
        self.statusBar().showMessage(texts.TENANT_FAILED.format(error=message), 10000)

    def _busy_changed(self, busy: bool) -> None:
        if not busy:
            self.status.clear_progress()
        for folder in self.service.folders():
            self._update_tenant_line(folder)

    def _update_errors(self) -> None:
        """The 읽기 오류 tab and button speak of the folder on screen only."""
        folder = self.tenants.current_folder()
        state = self.service.state(folder) if folder else None
        documents = state.documents if state else None
        n = self.errors.set_folder(folder, documents)
        self.status.set_errors(n)
        self.centre_tabs.setTabText(1, f"{texts.ERRORS_TAB} ({n})" if n else texts.ERRORS_TAB)

    def _show_state(self) -> None:
        self.stack.setCurrentWidget(self.splitter if self.service.folders() else self.empty)

    # ---- questions ---------------------------------------------------------------
    def ask(self, question: str) -> None:
        """Answer a question from the selected folder (in the background; through the LLM if chosen)."""
        folder = self.tenants.current_folder()
        if not folder:
            return
        self._request += 1
        request = self._request
        self.answer = None
        self.evidence.clear()
        self._update_actions()
        reading = self.service.running_folder()
        use_llm = self.answer_panel.use_llm()
        if use_llm:
            info = self.gateway_info
            self.answer_panel.show_busy(texts.ASKING_LLM.format(host=info["host"], model=info["model"]),
                                        can_stop=True)
        elif reading:
            self.answer_panel.show_busy(texts.ASKING_WHILE_READING.format(folder=Path(reading).name))
        else:
            self.answer_panel.show_busy(texts.ASKING)

        def on_done(answer):
            self._answered(request, folder, answer, read_in_full=reading != folder)

        def on_error(exc):
            self._answer_failed(request, exc)

        llm = {"llm": True, "config_dir": str(paths.config_dir())} if use_llm else {}
        self.service.run(folder, "answer", question, principal=self.service.principal,
                         document=self.scope_chip.document(), on_done=on_done, on_error=on_error, **llm)

    def stop_waiting(self) -> None:
        """Drop the question in flight (its answer, when it comes, is not shown)."""
        self._request += 1
        self.answer_panel.show_error(texts.STOPPED_WAITING)

    def _answered(self, request: int, folder: str, answer: dict, read_in_full: bool = True) -> None:
        if request != self._request:
            return
        self.answer, self.answer_folder = answer, folder
        skipped = frozenset(s.get("filename", "") for s in answer.get("skipped") or [])
        first_time = skipped != self._skipped_shown.get(folder)
        self._skipped_shown[folder] = skipped
        notes = [] if read_in_full else [texts.ANSWERED_WHILE_READING]
        self.answer_panel.show_answer(answer, skipped_in_full=first_time, notes=notes)
        self._update_actions()
        citations = answer.get("citations") or []
        if citations:
            self.answer_panel.select_citation(citations[0])

    def _answer_failed(self, request: int, exc: BaseException) -> None:
        if request != self._request:
            return
        self.answer_panel.show_error(texts.ANSWER_FAILED.format(error=exc))

    def _clear_answer(self) -> None:
        self._request += 1          # an answer still on its way belongs to the folder before
        self.answer = self.answer_folder = None
        self.answer_panel.clear()
        self.evidence.clear()
        self._update_actions()

    def show_citation(self, citation: dict) -> None:
        """Show a citation's pages with its boxes (or its passage) in the evidence view."""
        folder = self.answer_folder or ""
        if self.service.state(folder) is None:
            return
        self._evidence_request += 1
        request = self._evidence_request
        self.service.call(lambda: prepare(self.service.tenant(folder), citation),
                          lambda evidence: self._evidence_ready(request, evidence),
                          lambda exc: self.evidence.clear(wording.evidence_text("render_failed",
                                                                                error=type(exc).__name__)))

    def _evidence_ready(self, request: int, evidence) -> None:
        if request == self._evidence_request:
            self.evidence.show_evidence(evidence)

    # ---- print, export, open -----------------------------------------------------------
    def cited_pictures(self, on_done: Callable[[list], None]) -> bool:
        """Render the shown answer's cited pages in the background, then ``on_done(pictures)``; False: no answer."""
        if not self.answer or not self.answer_folder:
            self.statusBar().showMessage(texts.NOTHING_TO_PRINT, 5000)
            return False
        answer, folder = self.answer, self.answer_folder
        self.statusBar().showMessage(texts.PRINTING)
        self.service.call(lambda: printing.cited_pictures(self.service.tenant(folder), answer), on_done,
                          lambda exc: self.statusBar().showMessage(texts.PRINT_FAILED.format(error=exc), 8000))
        return True

    def print_to(self, printer: QPrinter, on_done=None) -> bool:
        """Print the shown answer with every cited page; False when there is none. ``on_done()`` once printed."""
        answer = self.answer

        def send(pictures) -> None:
            printing.print_answer(printer, answer, pictures)
            self.statusBar().showMessage(texts.PRINTED, 5000)
            if on_done:
                on_done()

        return self.cited_pictures(send)

    def make_print_preview(self, pictures: list) -> QPrintPreviewDialog:
        """The preview of the shown answer as it will be printed (its 인쇄 button prints it)."""
        answer = self.answer
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        dialog = QPrintPreviewDialog(printer, self)
        dialog.printer = printer          # the dialog only borrows its printer: it must live as long
        dialog.setWindowTitle(texts.PRINT_PREVIEW)
        dialog.paintRequested.connect(lambda printer: printing.print_answer(printer, answer, pictures))
        return dialog

    def print_preview(self) -> None:
        def show(pictures) -> None:
            self.statusBar().clearMessage()
            _run_dialog(self.make_print_preview(pictures))

        self.cited_pictures(show)

    def save_html(self, path) -> bool:
        """Write the evidence HTML of the shown answer to ``path`` (in the background)."""
        if not self.answer or not self.answer_folder:
            self.statusBar().showMessage(texts.NOTHING_TO_PRINT, 5000)
            return False
        answer, folder, service = self.answer, self.answer_folder, self.service
        service.call(lambda: Path(path).write_text(service.tenant(folder).evidence(answer), encoding="utf-8"),
                     lambda _: self.statusBar().showMessage(texts.HTML_SAVED.format(path=path), 8000),
                     lambda exc: self.statusBar().showMessage(texts.HTML_FAILED.format(error=exc), 10000))
        return True

    def save_html_dialog(self) -> None:
        if not self.answer:
            self.statusBar().showMessage(texts.NOTHING_TO_PRINT, 5000)
            return
        path = file_dialogs.choose_save_file(self, texts.SAVE_HTML, texts.HTML_FILE_NAME, texts.HTML_FILTER, "html")
        if path:
            self.save_html(path)

    def open_original(self, filename: str, folder: Optional[str] = None) -> None:
        """Open a document's original with the system's program (a copy we keep: its original, if still there)."""
        folder = folder or self.tenants.current_folder() or ""
        if not (self.service.state(folder) and filename):
            return
        original = drops.original_of(folder, filename)
        if original is not None:
            self.open_path(original, filename)
            return
        self.service.run(folder, "source_path", filename, on_done=lambda path: self.open_path(path, filename),
                         on_error=lambda _exc: self.open_path(None, filename))

    def open_path(self, path, name: str) -> bool:
        """Hand a file to the system's program for it, saying on the status bar what happened."""
        if not path or not Path(path).is_file():
            self.statusBar().showMessage(texts.OPEN_MISSING.format(name=name), 15000)
            return False
        if not self.opener(QUrl.fromLocalFile(str(path))):
            self.statusBar().showMessage(texts.OPEN_NO_PROGRAM.format(name=name, path=path), 20000)
            return False
        self.statusBar().showMessage(texts.OPENING.format(name=name), 5000)
        return True

    def open_selected_original(self) -> None:
        if self.evidence.evidence is not None and self.evidence.isVisible():
            self.open_evidence_original()
            return
        entry = self.documents.selected_entry()
        if entry:
            self.open_original(entry.get("filename", ""))

    def open_evidence_original(self) -> None:
        evidence = self.evidence.evidence
        if evidence is not None:
            self.open_original(evidence.citation.get("filename", ""), self.answer_folder)

    # ---- settings, about, close ---------------------------------------------------------
    def make_settings_dialog(self) -> SettingsDialog:
        return SettingsDialog(self.settings, self, runner=self.service.runner, config_dir=paths.config_dir())

    def settings_dialog(self) -> None:
        dialog = self.make_settings_dialog()
        if _run_dialog(dialog):
            self.accept_settings(dialog)

    def accept_settings(self, dialog: SettingsDialog) -> None:
        """Keep what the settings dialog says: the gateway's settings, then the app's."""
        dialog.gateway.save()
        self.update_gateway_state()
        self.apply_settings(dialog.result_settings())

    def update_gateway_state(self) -> None:
        """Show where question text would go (or that it goes nowhere); offer the LLM switch only when on."""
        info = Gateway(load_gateway_config(paths.config_dir())).describe()   # no key needed to say where
        self.gateway_info = info
        if info["enabled"]:
            text = texts.GATEWAY_STATUS_ON.format(host=info["host"], model=info["model"])
            tip = info["endpoint"]
        else:
            text = texts.GATEWAY_STATUS_REFUSED if info["configured"] else texts.GATEWAY_STATUS_OFF
            tip = info["reason_text"]
        self.status.set_gateway(text, tip)
        self.answer_panel.set_gateway(info)

    def apply_settings(self, new: Settings) -> None:
        """Save new settings; a new cache location or new limits reopen every folder; a new name relists."""
        reopen = (new.cache_root() != self.settings.cache_root()
                  or new.parse_limits() != self.settings.parse_limits())
        self.settings = new
        self._save_settings()
        self.watcher.set_poll_seconds(new.poll_seconds)
        self.api_switch.apply(new.api_enabled, new.api_port)
        if reopen:
            folders = self.service.folders()
            self.service.shutdown()
            self.service.cache_root, self.service.limits = new.cache_root(), new.parse_limits()
            self._clear_answer()
            for folder in folders:
                self.service.add_folder(folder)
        if new.acl_principal() != self.service.principal:
            self._clear_answer()
            self.service.set_principal(new.acl_principal())

    def about_box(self) -> AboutDialog:
        return AboutDialog(app_icon(), self)

    def about(self) -> None:
        _run_dialog(self.about_box())

    def help_box(self) -> HelpDialog:
        return HelpDialog(self)

    def show_help(self) -> None:
        _run_dialog(self.help_box())

    def _save_settings(self) -> None:
        if self.persist:
            settings_store.save(self.settings)

    def closeEvent(self, event) -> None:
        self.service.shutdown()
        self.settings.window = window_layout.saved_states(self)
        self._save_settings()
        super().closeEvent(event)


def _take_as_copy(event) -> bool:
    """Take a drag as a copy (or a link), never a move: a file manager must not delete what it lets go of."""
    for action in (Qt.DropAction.CopyAction, Qt.DropAction.LinkAction):
        if event.possibleActions() & action:
            event.setDropAction(action)
            event.accept()
            return True
    return False


def _run_dialog(dialog) -> bool:
    """Show a modal dialog; True when accepted. It is deleted afterwards (its fields stay readable until
    the event loop runs again), so closed dialogs never pile up under the window with their callbacks."""
    accepted = dialog.exec() == QDialog.DialogCode.Accepted
    dialog.deleteLater()
    return accepted
