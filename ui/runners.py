"""Where the window's background work runs: ``run_task(fn, on_done, on_error)``, callbacks back on the GUI thread.

``ThreadPoolRunner`` runs tasks on a QThreadPool (the app); ``SyncRunner`` runs
them at once on the calling thread (tests, scripts, the settings dialog's
test of the gateway when no pool is given).
"""
from __future__ import annotations

import logging
import traceback
from typing import Any, Callable, Optional

from PySide6.QtCore import QObject, Qt, QThreadPool, Signal, Slot

log = logging.getLogger(__name__)


class _MainThreadCall(QObject):
    """Runs callables on the thread this object lives in (the GUI thread)."""

    _call = Signal(object)

    def __init__(self, parent: Optional[QObject] = None):
        super().__init__(parent)
        self._call.connect(self._run, Qt.ConnectionType.QueuedConnection)

    def __call__(self, fn: Callable[[], Any]) -> None:
        self._call.emit(fn)

    @Slot(object)
    def _run(self, fn) -> None:
        fn()


class ThreadPoolRunner:
    """Runs tasks on a QThreadPool and hands results back to the GUI thread.

    With a ``parent`` (the service) the pool and the call-back object are Qt children: they are
    deleted with it on the GUI thread, never by a cycle collection wherever it happens to run.
    """

    def __init__(self, pool: Optional[QThreadPool] = None, threads: int = 4, parent: Optional[QObject] = None):
        if pool is None:
            pool = QThreadPool(parent)
            pool.setMaxThreadCount(threads)  # a long refresh must not hold up questions and pages
        self.pool = pool
        self.to_main = _MainThreadCall(parent)

    def run_task(self, fn: Callable[[], Any], on_done: Optional[Callable[[Any], None]] = None,
                 on_error: Optional[Callable[[BaseException], None]] = None) -> None:
        """Run ``fn()`` in the pool; then ``on_done(result)`` or ``on_error(exc)`` on the GUI thread."""
        def work():
            try:
                result = fn()
            except Exception as exc:  # reported to the GUI, never lost
                exc.traceback_text = traceback.format_exc()
                self.to_main(lambda error=exc: _report(error, on_error))
            else:
                if on_done:
                    self.to_main(lambda: on_done(result))
        self.pool.start(work)

    def wait(self, msecs: int = -1) -> bool:
        """Wait for all running tasks (used when closing the window)."""
        return self.pool.waitForDone(msecs)


class SyncRunner:
    """Runs tasks immediately on the calling thread (tests, scripts)."""

    def run_task(self, fn, on_done=None, on_error=None) -> None:
        try:
            result = fn()
        except Exception as exc:
            exc.traceback_text = traceback.format_exc()
            _report(exc, on_error)
        else:
            if on_done:
                on_done(result)

    def to_main(self, fn) -> None:
        fn()

    def wait(self, msecs: int = -1) -> bool:
        return True


def _report(exc: BaseException, on_error) -> None:
    if on_error:
        on_error(exc)
    else:
        log.error("background task failed:\n%s", getattr(exc, "traceback_text", exc))

