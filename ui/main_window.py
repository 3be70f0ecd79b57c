"""The main window: folders on the left, documents in the centre, questions and evidence on the right."""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Optional

from PySide6.QtCore import QSize, Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QIcon, QKeySequence
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import (QDialog, QFileDialog, QHBoxLayout, QLabel, QMainWindow, QMessageBox, QProgressBar,
                               QPushButton, QSplitter, QStackedWidget, QTabWidget, QToolBar, QVBoxLayout,
                               QWidget)

from engine import wording
from engine.gateway import Gateway, load_config as load_gateway_config
from noda_desktop import paths
from noda_desktop import settings as settings_store
from noda_desktop.settings import Settings
from ui import printing, texts
from ui.about_dialog import AboutDialog
from ui.answer_panel import AnswerPanel
from ui.api_switch import ApiSwitch
from ui.documents import DocumentsPanel, UNREADABLE, count_statuses
from ui.engine_host import EngineHost
from ui.errors_view import ErrorsView
from ui.evidence import prepare
from ui.evidence_view import EvidenceView
from ui.help_dialog import HelpDialog
from ui.service import EngineService, RefreshProgress
from ui.settings_dialog import SettingsDialog
from ui.tenants_panel import TenantsPanel
from ui.watcher import FolderWatcher

WINDOW_TITLE = texts.WINDOW_TITLE
ZIP_FOLDERS = "zip-folders"   # under the cache root: private copies of dropped ZIP files


def app_icon() -> QIcon:
    """The window icon (SVG, with a PNG fallback)."""
    icons = paths.resources_dir() / "icons"
    icon = QIcon(str(icons / "noda.svg"))
    if icon.isNull():
        icon = QIcon(str(icons / "noda.png"))
    return icon


def dropped_targets(urls) -> tuple[list[Path], list[Path], list[str]]:
    """Split dropped URLs into folders, ZIP files and rejected names."""
    folders, zips, rejected = [], [], []
    for url in urls:
        path = Path(url.toLocalFile()) if url.isLocalFile() else None
        if path and path.is_dir():
            folders.append(path)
        elif path and path.is_file() and path.suffix.lower() == ".zip":
            zips.append(path)
        else:
            rejected.append(path.name if path else url.toString())
    return folders, zips, rejected


class MainWindow(QMainWindow):
    def __init__(self, folders=(), *, settings: Optional[Settings] = None, host: Optional[EngineHost] = None,
                 runner=None, persist: bool = True):
        """``host``: an engine process to share (tests); ``runner``: e.g. SyncRunner; ``persist``: save settings."""
        super().__init__()
        self.settings = settings if settings is not None else settings_store.load()
        self.persist = persist
        self.service = EngineService(cache_root=self.settings.cache_root(), limits=self.settings.parse_limits(),
                                     runner=runner, host=host, parent=self)
        self.watcher = FolderWatcher(self.settings.poll_seconds, parent=self)
        self.api_switch = ApiSwitch(self.service, parent=self)
        self.answer: Optional[dict] = None
        self.answer_folder: Optional[str] = None
        self._request = 0          # newest question; older answers are dropped
        self._evidence_request = 0

        self.setWindowTitle(WINDOW_TITLE)
        self.setWindowIcon(app_icon())
        self.resize(1400, 860)
        self.setAcceptDrops(True)
        self._build_actions()
        self._build_widgets()
        self._connect()
        self._update_actions()
        self.update_gateway_state()

        for folder in [*self.settings.folders, *folders]:
            self.add_folder(folder, remember=True)
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
        self.remove_action = self._action(texts.REMOVE_FOLDER, lambda: self.remove_current_folder())
        self.refresh_action = self._action(texts.REFRESH, self.refresh_current, QKeySequence.StandardKey.Refresh)
        self.print_action = self._action(texts.PRINT, self.print_dialog, QKeySequence.StandardKey.Print)
        self.html_action = self._action(texts.SAVE_HTML, self.save_html_dialog, QKeySequence.StandardKey.Save)
        self.open_action = self._action(texts.OPEN_ORIGINAL, self.open_selected_original)
        self.settings_action = self._action(texts.SETTINGS, self.settings_dialog)
        self.about_action = self._action(texts.ABOUT, self.about)
        self.help_action = self._action(texts.HELP, self.show_help, QKeySequence.StandardKey.HelpContents)
        self.quit_action = self._action(texts.QUIT, self.close, QKeySequence.StandardKey.Quit)

        menu = self.menuBar().addMenu(texts.MENU_FILE)
        for action in (self.add_action, self.remove_action, self.refresh_action, None, self.print_action,
                       self.html_action, self.open_action, None, self.settings_action, None, self.quit_action):
            menu.addSeparator() if action is None else menu.addAction(action)
        help_menu = self.menuBar().addMenu(texts.MENU_HELP)
        help_menu.addAction(self.help_action)
        help_menu.addAction(self.about_action)

        toolbar = QToolBar()
        toolbar.setMovable(False)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for action in (self.add_action, self.refresh_action, self.remove_action, None, self.print_action,
                       self.html_action, self.open_action, None, self.settings_action, self.help_action,
                       self.about_action):
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

        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.answer_panel)
        right.addWidget(self.evidence)
        right.setSizes([400, 460])
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.tenants)
        self.splitter.addWidget(self.centre_tabs)
        self.splitter.addWidget(right)
        self.splitter.setSizes([200, 760, 640])
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setStretchFactor(2, 1)

        self.empty = self._empty_state()
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.splitter)
        self.setCentralWidget(self.stack)

        # status bar: progress, current file, cancel, errors
        self.progress_bar = QProgressBar()
        self.progress_bar.setFormat("%v/%m")
        self.progress_bar.setMaximumWidth(220)
        self.progress_label = QLabel()
        self.cancel_button = QPushButton(texts.CANCEL)
        self.errors_button = QPushButton()
        self.errors_button.setFlat(True)
        self.errors_button.clicked.connect(lambda: self.centre_tabs.setCurrentWidget(self.errors))
        self.gateway_label = QLabel()
        bar = self.statusBar()
        bar.addWidget(self.progress_label, 1)
        bar.addPermanentWidget(self.api_switch.label)
        bar.addPermanentWidget(self.gateway_label)
        bar.addPermanentWidget(self.progress_bar)
        bar.addPermanentWidget(self.cancel_button)
        bar.addPermanentWidget(self.errors_button)
        self._show_progress(False)
        self.errors_button.hide()

    def _empty_state(self) -> QWidget:
        widget = QWidget()
        icon = QLabel()
        icon.setPixmap(app_icon().pixmap(QSize(96, 96)))
        icon.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title = QLabel(texts.EMPTY_TITLE)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title.setStyleSheet("font-size:20pt; font-weight:bold")
        body = QLabel(texts.EMPTY_BODY)
        body.setAlignment(Qt.AlignmentFlag.AlignCenter)
        body.setWordWrap(True)
        body.setStyleSheet("font-size:12pt; color:#444")
        add = QPushButton(texts.EMPTY_ADD)
        add.clicked.connect(self.choose_folder)
        sample = QPushButton(texts.EMPTY_SAMPLE)
        sample.clicked.connect(lambda: self.add_folder(paths.sample_tenant()))
        sample.setEnabled(paths.sample_tenant().is_dir())
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(add)
        buttons.addWidget(sample)
        buttons.addStretch(1)
        layout = QVBoxLayout(widget)
        layout.addStretch(2)
        for w in (icon, title, body):
            layout.addWidget(w)
        layout.addSpacing(16)
        layout.addLayout(buttons)
        layout.addStretch(3)
        return widget

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
        self.answer_panel.citation_clicked.connect(self.show_citation)
        self.evidence.open_original.connect(self.open_evidence_original)
        self.documents.document_activated.connect(lambda entry: self.open_original(entry.get("filename", "")))

    # ---- folders ---------------------------------------------------------------
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
        zip_path = Path(zip_path)
        digest = hashlib.sha256(str(zip_path.resolve()).encode("utf-8")).hexdigest()[:12]
        folder = self.settings.cache_root() / ZIP_FOLDERS / digest / zip_path.stem

        def copy() -> Path:   # off the GUI thread: a ZIP may be large
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copy2(zip_path, folder / zip_path.name)
            return folder

        self.service.call(copy, self.add_folder,
                          lambda exc: self.statusBar().showMessage(
                              texts.ZIP_FAILED.format(name=zip_path.name, error=exc), 10000))

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, texts.FOLDER_DIALOG)
        if folder:
            self.add_folder(folder)

    def remove_current_folder(self, confirm: bool = True) -> None:
        folder = self.tenants.current_folder()
        if folder:
            self.remove_folder(folder, confirm=confirm)

    def remove_folder(self, folder: str, confirm: bool = True) -> None:
        """Stop showing a folder. Its files are never deleted (only our own ZIP copy is)."""
        if confirm and QMessageBox.question(self, texts.REMOVE_FOLDER,
                                            texts.REMOVE_CONFIRM.format(folder=folder)) \
                != QMessageBox.StandardButton.Yes:
            return
        self.watcher.remove(folder)
        self.service.remove_folder(folder)
        self.settings.remove_folder(folder)
        self._save_settings()
        zips = (self.settings.cache_root() / ZIP_FOLDERS).resolve()
        if zips in Path(folder).resolve().parents:
            shutil.rmtree(Path(folder).parent, ignore_errors=True)
        if self.answer_folder == folder:
            self._clear_answer()

    def refresh_current(self) -> None:
        folder = self.tenants.current_folder()
        if folder:
            self.service.refresh(folder)

    # ---- drag and drop ----------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        folders, zips, _ = dropped_targets(event.mimeData().urls())
        if folders or zips:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        folders, zips, rejected = dropped_targets(event.mimeData().urls())
        if not (folders or zips):
            event.ignore()
            return
        event.acceptProposedAction()
        for folder in folders:
            self.add_folder(folder)
        for zip_path in zips:
            self.add_zip(zip_path)
        if rejected:
            self.statusBar().showMessage(texts.DROP_REJECTED.format(names=", ".join(rejected)), 8000)

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
            self._folder_selected(folder)
        self._update_errors()

    def _folder_selected(self, folder: str) -> None:
        state = self.service.state(folder) if folder else None
        self.documents.set_documents(state.documents if state else None)
        self.answer_panel.set_enabled_for_questions(bool(state and state.documents is not None))
        self._update_actions()

    def _update_actions(self) -> None:
        """Enable what makes sense now: folder actions with a folder, print/export with an answer."""
        has_folder = self.tenants.current_folder() is not None
        self.remove_action.setEnabled(has_folder)
        self.refresh_action.setEnabled(has_folder)
        self.open_action.setEnabled(has_folder)
        self.print_action.setEnabled(self.answer is not None)
        self.html_action.setEnabled(self.answer is not None)

    def _progress(self, p: RefreshProgress) -> None:
        name = Path(p.folder).name
        if p.phase == "parse" and p.total:
            self._show_progress(True)
            self.progress_bar.setRange(0, p.total)
            self.progress_bar.setValue(p.done)
            self.progress_label.setText(texts.PROGRESS.format(folder=name, done=p.done, total=p.total,
                                                              current=p.current or ""))
        elif p.phase == "index" and p.total:
            self.progress_label.setText(texts.PROGRESS_INDEX.format(folder=name))
        elif p.phase == "scan":
            self.progress_label.setText(texts.PROGRESS_SCAN.format(folder=name))
        self._update_tenant_line(p.folder)

    def _refresh_finished(self, folder: str, result: dict) -> None:
        name = Path(folder).name
        if result.get("cancelled"):
            message = texts.REFRESH_CANCELLED.format(folder=name)
        else:
            message = texts.REFRESH_DONE.format(folder=name, added=len(result.get("added", [])),
                                                changed=len(result.get("changed", [])),
                                                removed=len(result.get("removed", [])))
        if result.get("cancelled") or result.get("added") or result.get("changed") or result.get("removed"):
            self.statusBar().showMessage(message, 10000)
        self._update_tenant_line(folder)

    def _refresh_failed(self, folder: str, message: str) -> None:
        self._update_tenant_line(folder)
        self.statusBar().showMessage(texts.TENANT_FAILED.format(error=message), 10000)

    def _busy_changed(self, busy: bool) -> None:
        if not busy:
            self._show_progress(False)
            self.progress_label.clear()
        for folder in self.service.folders():
            self._update_tenant_line(folder)

    def _show_progress(self, visible: bool) -> None:
        if self.progress_bar.isVisibleTo(self) != visible:   # a visibility change re-lays the status bar out
            self.progress_bar.setVisible(visible)
            self.cancel_button.setVisible(visible)

    def _update_errors(self) -> None:
        by_folder = {f: s.documents for f, s in self.service.tenants.items() if s.documents}
        self.errors.set_folders(by_folder)
        n = sum(count_statuses(d)[UNREADABLE] for d in by_folder.values())
        self.errors_button.setText(texts.ERRORS_BUTTON.format(n=n))
        self.errors_button.setVisible(n > 0)
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
        self.answer_panel.show_busy()
        self.evidence.clear()
        self._update_actions()
        def on_done(answer):
            self._answered(request, folder, answer)

        def on_error(exc):
            self._answer_failed(request, exc)

        if self.answer_panel.use_llm():
            self.service.ask_llm(folder, question, paths.config_dir(), on_done, on_error)
        else:
            self.service.ask(folder, question, on_done, on_error)

    def _answered(self, request: int, folder: str, answer: dict) -> None:
        if request != self._request:
            return
        self.answer, self.answer_folder = answer, folder
        self.answer_panel.show_answer(answer)
        self._update_actions()
        citations = answer.get("citations") or []
        if citations:
            self.answer_panel.select_citation(citations[0])

    def _answer_failed(self, request: int, exc: BaseException) -> None:
        if request != self._request:
            return
        self.answer_panel.show_error(texts.ANSWER_FAILED.format(error=exc))

    def _clear_answer(self) -> None:
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
    def print_to(self, printer: QPrinter, on_done=None) -> bool:
        """Print the shown answer with every cited page (rendered in the background); False when none.

        ``on_done()`` is called once the printer has the pages.
        """
        if not self.answer or not self.answer_folder:
            self.statusBar().showMessage(texts.NOTHING_TO_PRINT, 5000)
            return False
        answer, folder = self.answer, self.answer_folder
        self.statusBar().showMessage(texts.PRINTING)

        def send(pictures) -> None:
            printing.print_answer(printer, answer, pictures)
            self.statusBar().showMessage(texts.PRINTED, 5000)
            if on_done:
                on_done()

        def failed(exc) -> None:
            self.statusBar().showMessage(texts.PRINT_FAILED.format(error=exc), 8000)

        self.service.call(lambda: printing.cited_pictures(self.service.tenant(folder), answer), send, failed)
        return True

    def print_dialog(self) -> None:
        if not self.answer:
            self.statusBar().showMessage(texts.NOTHING_TO_PRINT, 5000)
            return
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        if _run_dialog(QPrintDialog(printer, self)):
            self.print_to(printer)

    def save_html(self, path) -> bool:
        """Write the evidence HTML of the shown answer to ``path`` (in the background)."""
        if not self.answer or not self.answer_folder:
            self.statusBar().showMessage(texts.NOTHING_TO_PRINT, 5000)
            return False
        self.service.save_evidence_html(
            self.answer_folder, self.answer, path,
            lambda _: self.statusBar().showMessage(texts.HTML_SAVED.format(path=path), 8000),
            lambda exc: self.statusBar().showMessage(texts.HTML_FAILED.format(error=exc), 10000))
        return True

    def save_html_dialog(self) -> None:
        if not self.answer:
            self.statusBar().showMessage(texts.NOTHING_TO_PRINT, 5000)
            return
        path, _ = QFileDialog.getSaveFileName(self, texts.SAVE_HTML, "노다_근거.html", texts.HTML_FILTER)
        if path:
            self.save_html(path)

    def open_original(self, filename: str, folder: Optional[str] = None) -> None:
        """Open a document's original with the system's program (a ZIP member: our unpacked copy)."""
        folder = folder or self.tenants.current_folder() or ""
        if self.service.state(folder) and filename:
            self.service.call(lambda: self.service.tenant(folder).source_path(filename), _open_path)

    def open_selected_original(self) -> None:
        if self.evidence.evidence is not None and self.evidence.isVisible():
            self.open_evidence_original()
            return
        entry = self.documents.selected_entry()
        if entry:
            self.open_original(entry.get("filename", ""))

    def open_evidence_original(self) -> None:
        if self.evidence.evidence and self.evidence.evidence.source:
            _open_path(self.evidence.evidence.source)

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
        self.gateway_label.setText(text)
        self.gateway_label.setToolTip(tip)
        self.answer_panel.set_gateway(info)

    def apply_settings(self, new: Settings) -> None:
        """Save new settings; a new cache location or new limits reopen every folder."""
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
        self._save_settings()
        super().closeEvent(event)


def _run_dialog(dialog) -> bool:
    """Show a modal dialog; True when accepted. It is deleted afterwards (its fields stay readable until
    the event loop runs again), so closed dialogs never pile up under the window with their callbacks."""
    accepted = dialog.exec() == QDialog.DialogCode.Accepted
    dialog.deleteLater()
    return accepted


def _open_path(path) -> None:
    if path:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))
