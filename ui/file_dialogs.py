"""File dialogs that speak Korean everywhere, and how the window runs any modal dialog (``run_dialog``).

Qt's Korean translation leaves two labels of its own file dialog in English
("Look in:", "Files of type:" — their source strings gained a mnemonic the
translation file lacks), so the window sets every label itself. Where the
system has a native dialog (Windows, macOS, a desktop portal) Qt uses it and
it already speaks the system's language.
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtWidgets import QDialog, QFileDialog

from engine.read.detect import EXTENSION_FORMATS
from ui import texts

LABELS = {QFileDialog.DialogLabel.LookIn: texts.DIALOG_LOOK_IN, QFileDialog.DialogLabel.FileName: texts.DIALOG_FILE_NAME,
          QFileDialog.DialogLabel.FileType: texts.DIALOG_FILE_TYPE, QFileDialog.DialogLabel.Accept: texts.DIALOG_ACCEPT,
          QFileDialog.DialogLabel.Reject: texts.CANCEL}


def korean_dialog(parent, title: str, directory: str = "") -> QFileDialog:
    dialog = QFileDialog(parent, title, directory)
    for label, text in LABELS.items():
        dialog.setLabelText(label, text)
    return dialog


def run_dialog(dialog: QDialog) -> bool:
    """Show a modal dialog; True when accepted. It is deleted afterwards (its fields stay readable until
    the event loop runs again), so closed dialogs never pile up under the window with their callbacks."""
    accepted = dialog.exec() == QDialog.DialogCode.Accepted
    dialog.deleteLater()
    return accepted


def _run(dialog: QFileDialog) -> list[str]:
    return dialog.selectedFiles() if run_dialog(dialog) else []


def choose_folder(parent, title: str, directory: str = "") -> Optional[str]:
    """One folder, or None."""
    dialog = korean_dialog(parent, title, directory)
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly)
    chosen = _run(dialog)
    return chosen[0] if chosen else None


def choose_files(parent, title: str) -> list[str]:
    """Existing files (any number)."""
    dialog = korean_dialog(parent, title)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
    patterns = " ".join(f"*{ext}" for ext in sorted(EXTENSION_FORMATS))
    dialog.setNameFilters([f"{texts.DOCUMENT_FILTER} ({patterns})", texts.ALL_FILES_FILTER])
    return _run(dialog)


def choose_save_file(parent, title: str, name: str, name_filter: str, suffix: str) -> Optional[str]:
    """A file name to write, or None."""
    dialog = korean_dialog(parent, title)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setNameFilter(name_filter)
    dialog.selectFile(name)
    dialog.setDefaultSuffix(suffix)
    chosen = _run(dialog)
    return chosen[0] if chosen else None
