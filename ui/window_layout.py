"""The window's size and pane layout: fitted to the screen the first time, as the user left it afterwards.

The window was designed at 1400×860, which does not fit the most common office
laptop (1366×768, often at 125 %: 1093×614 logical pixels, less the taskbar).
So the first size is that design size shrunk to the screen's free area, and
every pane has a minimum size that keeps the question box, the progress bar
and 취소 on screen down to that laptop. Qt's own saved states (geometry,
splitters, table columns) are kept in the settings as base64 text.
"""
from __future__ import annotations

from PySide6.QtCore import QByteArray, QRect, QSize

DESIGN_SIZE = QSize(1400, 860)
SCREEN_SHARE = 0.94        # of the free area: the frame and a little desktop stay visible
PANE_SHARES = (0.17, 0.41, 0.42)   # folders · documents · answer and evidence


def first_size(available: QSize) -> QSize:
    """The design size, shrunk to fit the screen's free area (taskbar excluded)."""
    return QSize(min(DESIGN_SIZE.width(), int(available.width() * SCREEN_SHARE)),
                 min(DESIGN_SIZE.height(), int(available.height() * SCREEN_SHARE)))


def pane_sizes(width: int) -> list[int]:
    return [int(width * share) for share in PANE_SHARES]


def fit_to_screen(window, available: QRect) -> None:
    """Size the window for a first start on this screen and centre it there."""
    size = first_size(available.size()).expandedTo(window.minimumSizeHint()).boundedTo(available.size())
    window.resize(size)
    window.move(available.center().x() - size.width() // 2, available.center().y() - size.height() // 2)
    window.splitter.setSizes(pane_sizes(size.width()))


def saved_states(window) -> dict[str, str]:
    """The window's geometry and pane layout as text for the settings file."""
    parts = {"geometry": window.saveGeometry(), "panes": window.splitter.saveState(),
             "answer_evidence": window.right_splitter.saveState(),
             "documents_detail": window.documents.split.saveState(),
             "columns": window.documents.table.horizontalHeader().saveState()}
    return {name: bytes(data.toBase64()).decode("ascii") for name, data in parts.items()}


def restore_states(window, saved: dict) -> bool:
    """Put back what ``saved_states`` kept; False when there was no saved geometry to restore."""
    def data(name: str) -> QByteArray:
        return QByteArray.fromBase64(str(saved.get(name, "")).encode("ascii"))

    restored = bool(saved.get("geometry")) and window.restoreGeometry(data("geometry"))
    for name, target in (("panes", window.splitter), ("answer_evidence", window.right_splitter),
                         ("documents_detail", window.documents.split),
                         ("columns", window.documents.table.horizontalHeader())):
        if saved.get(name):
            target.restoreState(data(name))
    return restored
