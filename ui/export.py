"""The shown answer taken out of the window: printed (with a preview) with its cited pages, or saved as HTML.

The cited pages are rendered and the evidence page written in the background
(ui/printing.py, engine.api.calls ``evidence``); the status bar says what
happened. ``window`` is the MainWindow: its shown ``answer``, ``answer_folder``
and ``service``.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog

from ui import file_dialogs, printing, texts


def _shown(window) -> bool:
    """Whether an answer is shown; if not the status bar says there is nothing to print."""
    if window.answer and window.answer_folder:
        return True
    window.statusBar().showMessage(texts.NOTHING_TO_PRINT, 5000)
    return False


def cited_pictures(window, on_done: Callable[[list], None]) -> bool:
    """Render the shown answer's cited pages in the background, then ``on_done(pictures)``; False: no answer."""
    if not _shown(window):
        return False
    answer, folder, service = window.answer, window.answer_folder, window.service
    window.statusBar().showMessage(texts.PRINTING)
    service.call(lambda: printing.cited_pictures(service.tenant(folder), answer), on_done,
                 lambda exc: window.statusBar().showMessage(texts.PRINT_FAILED.format(error=exc), 8000))
    return True


def print_to(window, printer: QPrinter, on_done=None) -> bool:
    """Print the shown answer with every cited page; False when there is none. ``on_done()`` once printed."""
    answer = window.answer

    def send(pictures) -> None:
        printing.print_answer(printer, answer, pictures)
        window.statusBar().showMessage(texts.PRINTED, 5000)
        if on_done:
            on_done()

    return cited_pictures(window, send)


def print_preview_dialog(window, pictures: list) -> QPrintPreviewDialog:
    """The preview of the shown answer as it will be printed (its 인쇄 button prints it)."""
    answer = window.answer
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    dialog = QPrintPreviewDialog(printer, window)
    dialog.printer = printer          # the dialog only borrows its printer: it must live as long
    dialog.setWindowTitle(texts.PRINT_PREVIEW)
    dialog.paintRequested.connect(lambda printer: printing.print_answer(printer, answer, pictures))
    return dialog


def print_preview(window) -> None:
    def show(pictures) -> None:
        window.statusBar().clearMessage()
        file_dialogs.run_dialog(print_preview_dialog(window, pictures))

    cited_pictures(window, show)


def save_html(window, path) -> bool:
    """Write the evidence HTML of the shown answer to ``path`` (in the background)."""
    if not _shown(window):
        return False
    answer, folder, service = window.answer, window.answer_folder, window.service
    service.call(lambda: _write_whole(Path(path), service.tenant(folder).evidence(answer)),
                 lambda _: window.statusBar().showMessage(texts.HTML_SAVED.format(path=path), 8000),
                 lambda exc: window.statusBar().showMessage(texts.HTML_FAILED.format(error=exc), 10000))
    return True


def _write_whole(path: Path, text: str) -> None:
    """Write ``text`` beside ``path`` first, then put it in place: no reader ever sees half a file.
    (Not engine.library.state.write_atomic: that one makes the folder private and the file 0600, right for
    the app's cache, wrong for a file the user saves to share.)"""
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        part.write_text(text, encoding="utf-8")
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)


def save_html_dialog(window) -> None:
    if not _shown(window):
        return
    path = file_dialogs.choose_save_file(window, texts.SAVE_HTML, texts.HTML_FILE_NAME, texts.HTML_FILTER, "html")
    if path:
        save_html(window, path)
