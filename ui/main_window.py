"""The main window: folders on the left, documents in the centre, questions and evidence on the right."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMainWindow, QMessageBox

from engine import wording
from engine.gateway import Gateway, load_config as load_gateway_config
from noda_desktop import paths
from noda_desktop import settings as settings_store
from noda_desktop.settings import Settings
from ui import file_dialogs, intake, originals, texts, window_layout, window_parts
from ui.about_dialog import AboutDialog
from ui.api_switch import ApiSwitch
from ui.engine_host import EngineHost
from ui.evidence import prepare
from ui.file_dialogs import run_dialog
from ui.help_dialog import HelpDialog
from ui.service import EngineService
from ui.settings_dialog import SettingsDialog
from ui.watcher import FolderWatcher


class MainWindow(QMainWindow):
    """What the window does: folders opened, watched and read; their lists; questions and their evidence;
    settings. Its parts are built by ui/window_parts.py; bringing files in (ui/intake.py), printing and saving
    (ui/export.py) and opening originals (ui/originals.py) are one-line operations from here."""

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
        self.select_when_listed: Optional[tuple[str, str]] = None   # (folder, file) dropped a moment ago
        self.say_when_read: dict[str, str] = {}    # folder -> what to say once its reading ends

        self.setWindowTitle(texts.WINDOW_TITLE)
        self.setWindowIcon(window_parts.app_icon())
        self.setAcceptDrops(True)
        window_parts.build(self)
        self._connect()
        self.update_actions()
        self.update_gateway_state()
        if not window_layout.restore_states(self, self.settings.window):
            window_layout.fit_to_screen(self, self.screen().availableGeometry())

        for folder in self.settings.folders:
            self.add_folder(folder, remember=True)
        self.open_paths(folders)
        self._show_state()
        self.api_switch.apply(self.settings.api_enabled, self.settings.api_port)

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
        self.evidence.open_original.connect(lambda: originals.open_evidence(self))
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

    def open_paths(self, given) -> None:
        """Open folders, ZIP files and files named on the command line or chosen in a dialog (ui/intake.py)."""
        intake.open_paths(self, given)

    def choose_folder(self) -> None:
        folder = file_dialogs.choose_folder(self, texts.FOLDER_DIALOG)
        if folder:
            self.add_folder(folder)

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
        intake.delete_own_copy(self.settings.cache_root(), folder)
        if self.answer_folder == folder:
            self._clear_answer()

    def refresh_current(self) -> None:
        folder = self.tenants.current_folder()
        if folder:
            self.service.refresh(folder)

    # ---- drag and drop ----------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        intake.taken(event)

    def dragMoveEvent(self, event) -> None:
        intake.taken(event)

    def dropEvent(self, event) -> None:
        dropped = intake.taken(event)
        if dropped:
            intake.open_dropped(self, dropped)

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
        pending = self.select_when_listed
        if pending and pending[0] == folder and folder == self.tenants.current_folder() \
                and self.documents.select(pending[1]):
            self.select_when_listed = None

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
        self.update_actions()

    def update_actions(self) -> None:
        """Enable what makes sense now: folder actions with a folder, print/export with an answer."""
        has_folder = self.tenants.current_folder() is not None
        self.remove_action.setEnabled(has_folder)
        self.refresh_action.setEnabled(has_folder)
        self.open_action.setEnabled(has_folder)
        self.print_action.setEnabled(self.answer is not None)
        self.html_action.setEnabled(self.answer is not None)
        entry = self.documents.selected_entry() if has_folder else None
        self.ask_document_action.setEnabled(bool(entry and entry.get("readable")))

    def _progress(self, p) -> None:
        self.status.show_refresh(p)
        self._update_tenant_line(p.folder)

    def _refresh_finished(self, folder: str, result: dict) -> None:
        self.status.say_refreshed(folder, result,
                                  instead=None if result.get("cancelled") else self.say_when_read.pop(folder, None))
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
        self.update_actions()
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
        self.update_actions()
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
        self.update_actions()

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

    def open_original(self, filename: str, folder: Optional[str] = None) -> None:
        """Open a document's original with the system's program (ui/originals.py)."""
        originals.open_original(self, filename, folder)

    # ---- settings, about, close ---------------------------------------------------------
    def make_settings_dialog(self) -> SettingsDialog:
        return SettingsDialog(self.settings, self, runner=self.service.runner, config_dir=paths.config_dir())

    def settings_dialog(self) -> None:
        dialog = self.make_settings_dialog()
        if run_dialog(dialog):
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
        return AboutDialog(window_parts.app_icon(), self)

    def about(self) -> None:
        run_dialog(self.about_box())

    def help_box(self) -> HelpDialog:
        return HelpDialog(self)

    def show_help(self) -> None:
        run_dialog(self.help_box())

    def _save_settings(self) -> None:
        if self.persist:
            settings_store.save(self.settings)

    def closeEvent(self, event) -> None:
        self.service.shutdown()
        self.settings.window = window_layout.saved_states(self)
        self._save_settings()
        super().closeEvent(event)
