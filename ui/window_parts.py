"""The main window's parts, built as Qt Designer's ``setupUi`` builds a form: its actions, menus and tool bar,
the three panes (folders · documents and 읽기 오류 · answer over evidence), the empty state and the status bar.

``build(window)`` sets them as the window's attributes (``window.documents``,
``window.print_action`` …) and connects each action to what it does; what the
window does with them is ui/main_window.py's.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import QSplitter, QStackedWidget, QTabWidget, QToolBar

from noda_desktop import paths
from ui import export, originals, texts
from ui.answer_panel import AnswerPanel
from ui.documents import DocumentsPanel
from ui.empty_state import empty_state
from ui.errors_view import ErrorsView
from ui.evidence_view import EvidenceView
from ui.scope_chip import ScopeChip
from ui.status_area import StatusArea
from ui.tenants_panel import TenantsPanel

MIN_PANE_WIDTHS = (130, 260, 340)   # folders · documents · answer and evidence (fits 1093 px: 1366 at 125 %)


def app_icon() -> QIcon:
    """The window icon (SVG, with a PNG fallback)."""
    icons = paths.resources_dir() / "icons"
    icon = QIcon(str(icons / "noda.svg"))
    if icon.isNull():
        icon = QIcon(str(icons / "noda.png"))
    return icon


def build(window) -> None:
    _actions(window)
    _panes(window)
    _scope(window)


def _action(window, text: str, slot, shortcut=None) -> QAction:
    action = QAction(text, window)
    action.triggered.connect(slot)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    return action


def _actions(window) -> None:
    window.add_action = _action(window, texts.ADD_FOLDER, window.choose_folder, QKeySequence.StandardKey.Open)
    window.add_files_action = _action(window, texts.ADD_FILES, window.choose_files)
    window.remove_action = _action(window, texts.REMOVE_FOLDER, lambda: window.remove_current_folder())
    window.refresh_action = _action(window, texts.REFRESH, window.refresh_current, QKeySequence.StandardKey.Refresh)
    window.print_action = _action(window, texts.PRINT, lambda: export.print_preview(window),
                                  QKeySequence.StandardKey.Print)
    window.html_action = _action(window, texts.SAVE_HTML, lambda: export.save_html_dialog(window),
                                 QKeySequence.StandardKey.Save)
    window.open_action = _action(window, texts.OPEN_ORIGINAL, lambda: originals.open_selected(window))
    window.settings_action = _action(window, texts.SETTINGS, window.settings_dialog)
    window.about_action = _action(window, texts.ABOUT, window.about)
    window.help_action = _action(window, texts.HELP, window.show_help, QKeySequence.StandardKey.HelpContents)
    window.quit_action = _action(window, texts.QUIT, window.close, QKeySequence.StandardKey.Quit)

    menu = window.menuBar().addMenu(texts.MENU_FILE)
    for action in (window.add_action, window.add_files_action, window.remove_action, window.refresh_action, None,
                   window.print_action, window.html_action, window.open_action, None, window.settings_action, None,
                   window.quit_action):
        menu.addSeparator() if action is None else menu.addAction(action)
    help_menu = window.menuBar().addMenu(texts.MENU_HELP)
    help_menu.addAction(window.help_action)
    help_menu.addAction(window.about_action)

    toolbar = QToolBar()
    toolbar.setMovable(False)
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    for action in (window.add_action, window.add_files_action, window.refresh_action, window.remove_action, None,
                   window.print_action, window.html_action, window.open_action, None, window.settings_action,
                   window.help_action):
        toolbar.addSeparator() if action is None else toolbar.addAction(action)
    window.addToolBar(toolbar)


def _panes(window) -> None:
    window.tenants = TenantsPanel()
    window.documents = DocumentsPanel()
    window.errors = ErrorsView()
    window.centre_tabs = QTabWidget()
    window.centre_tabs.addTab(window.documents, texts.DOCUMENTS_TAB)
    window.centre_tabs.addTab(window.errors, texts.ERRORS_TAB)
    window.answer_panel = AnswerPanel()
    window.evidence = EvidenceView()

    window.right_splitter = QSplitter(Qt.Orientation.Vertical)
    window.right_splitter.addWidget(window.answer_panel)
    window.right_splitter.addWidget(window.evidence)
    window.right_splitter.setSizes([400, 460])
    window.right_splitter.setChildrenCollapsible(False)
    window.splitter = QSplitter(Qt.Orientation.Horizontal)
    for pane, width in zip((window.tenants, window.centre_tabs, window.right_splitter), MIN_PANE_WIDTHS):
        pane.setMinimumWidth(width)
        window.splitter.addWidget(pane)
    window.splitter.setChildrenCollapsible(False)
    window.splitter.setStretchFactor(1, 1)
    window.splitter.setStretchFactor(2, 1)

    window.empty = empty_state(app_icon(), window.choose_folder, window.choose_files,
                               lambda: window.add_folder(paths.sample_tenant()))
    window.stack = QStackedWidget()
    window.stack.addWidget(window.empty)
    window.stack.addWidget(window.splitter)
    window.setCentralWidget(window.stack)

    window.status = StatusArea(window.statusBar())
    window.progress_bar, window.progress_label = window.status.progress_bar, window.status.progress_label
    window.cancel_button, window.errors_button = window.status.cancel_button, window.status.errors_button
    window.gateway_label = window.status.gateway_label
    window.status.add_note(window.api_switch.label)
    window.errors_button.clicked.connect(lambda: window.centre_tabs.setCurrentWidget(window.errors))


def _scope(window) -> None:
    """ "이 문서에 묻기" on the selected document (its row's context menu and the tool bar) and the chip
    above the answer that shows the scope and takes it away."""
    window.ask_document_action = _action(window, texts.ASK_THIS_DOCUMENT, window.ask_selected_document)
    window.ask_document_action.setToolTip(texts.ASK_THIS_DOCUMENT_TIP)
    window.documents.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    window.documents.table.addAction(window.ask_document_action)
    window.findChild(QToolBar).addAction(window.ask_document_action)
    window.scope_chip = ScopeChip()
    window.answer_panel.layout().insertWidget(1, window.scope_chip)
    window.documents.table.selectionModel().selectionChanged.connect(lambda *_: window.update_actions())
