"""Usage of the API: one line per request — who, which route, status, bytes, milliseconds. Never document text.

``record`` appends a JSON line to the usage log (when one is given) and adds
to the counts ``summary`` returns (``{consumer: {route: {calls, errors,
bytes_in, bytes_out, ms}}}``). The log is rolled over to ``<name>.1`` when it
passes ``MAX_LOG_BYTES``, so it never grows without bound.
"""
from __future__ import annotations

import datetime
import json
import logging
import os
import threading
from collections import defaultdict
from pathlib import Path
from typing import Optional

MAX_LOG_BYTES = 10 * 1024 * 1024

log = logging.getLogger(__name__)


class Usage:
    def __init__(self, path: Optional[str | Path] = None):
        self.path = Path(path) if path else None
        self._lock = threading.Lock()
        self._counts: dict = defaultdict(lambda: defaultdict(lambda: {"calls": 0, "errors": 0, "bytes_in": 0,
                                                                      "bytes_out": 0, "ms": 0}))

    def record(self, consumer: str, route: str, status: int, bytes_in: int, bytes_out: int, ms: float) -> None:
        line = {"at": datetime.datetime.now().astimezone().isoformat(timespec="seconds"), "consumer": consumer,
                "route": route, "status": status, "bytes_in": bytes_in, "bytes_out": bytes_out, "ms": round(ms)}
        with self._lock:
            counts = self._counts[consumer][route]
            counts["calls"] += 1
            counts["errors"] += status >= 400
            counts["bytes_in"] += bytes_in
            counts["bytes_out"] += bytes_out
            counts["ms"] += round(ms)
            if self.path is not None:
                self._append(json.dumps(line, ensure_ascii=False))

    def summary(self) -> dict:
        with self._lock:
            return {consumer: {route: dict(c) for route, c in routes.items()}
                    for consumer, routes in self._counts.items()}

    def _append(self, text: str) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.is_file() and self.path.stat().st_size > MAX_LOG_BYTES:
                os.replace(self.path, self.path.with_name(self.path.name + ".1"))
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(text + "\n")
        except OSError:
            log.warning("could not write the usage log %s", self.path)
