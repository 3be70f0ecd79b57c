"""Python's cycle collector runs on the GUI thread only.

CPython collects reference cycles in whichever thread happens to allocate past
the threshold. In the window's process two other kinds of threads allocate a
lot: the engine-replies thread (it unpickles every document list and answer
from the engine process) and the task pool's threads. A collection there
finalises the Qt wrappers caught in cycles at that moment (widgets of a closed
dialog, a window's service objects) and so deletes Qt objects off the GUI
thread, which Qt does not allow: the crash comes seconds later, inside a
later collection. So automatic collection is switched off and this timer on
the GUI thread collects instead, generation by generation with CPython's own
thresholds (the approach pyqtgraph and calibre take).
"""
from __future__ import annotations

import gc
from typing import Optional

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 500


class GuiCollector(QObject):
    """Collects cycles from a GUI-thread timer; automatic collection stays off while it lives."""

    def __init__(self, parent: Optional[QObject] = None, interval_ms: int = INTERVAL_MS):
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.collect_due)
        self.timer.start(interval_ms)
        gc.disable()

    def collect_due(self) -> int:
        """Collect the generations whose counts passed their thresholds (as CPython would have)."""
        counts = gc.get_count()
        generation = -1
        for level, (count, threshold) in enumerate(zip(counts, self.thresholds)):
            if count <= threshold:
                break
            generation = level
        return gc.collect(generation) if generation >= 0 else 0

    def stop(self) -> None:
        """Give collection back to CPython (tests that end their window session)."""
        self.timer.stop()
        gc.enable()
        self.deleteLater()


def install_gui_collector(app) -> GuiCollector:
    """Collect cycles on the application's (GUI) thread only, for as long as the application lives."""
    existing = app.findChild(GuiCollector)
    return existing if existing is not None else GuiCollector(app)
