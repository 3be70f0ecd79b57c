"""A client of the local API in the standard library only, for the tests and bench/api.py (docs/api.md shows a short one to copy).

    client = NodaClient(token=open(TOKEN_FILE).read().strip())     # noda serve --print-token
    status, result = client.call("/search", {"tenant": "sample", "query": "신청 기간"})

It talks to 127.0.0.1 directly, never through a proxy from the environment.
"""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Optional


class NodaClient:
    def __init__(self, base: str = "http://127.0.0.1:8756", token: Optional[str] = None, timeout: float = 120.0):
        self.base = base.rstrip("/")
        self.token = token
        self.timeout = timeout
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))   # no proxies

    def request(self, method: str, path: str, data: Optional[bytes] = None,
                headers: Optional[dict] = None) -> tuple[int, dict, bytes]:
        """(status, headers, body) of one request; an HTTP error status is returned, not raised."""
        sent = dict(headers or {})
        if self.token:
            sent.setdefault("Authorization", f"Bearer {self.token}")
        req = urllib.request.Request(self.base + path, data=data, headers=sent, method=method)
        try:
            with self._opener.open(req, timeout=self.timeout) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as err:
            return err.code, dict(err.headers), err.read()

    def call(self, path: str, body: Optional[dict] = None, method: str = "POST") -> tuple[int, dict]:
        """(status, JSON payload) of a route; ``body`` is sent as JSON."""
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        status, _headers, raw = self.request(method, path, data, {"Content-Type": "application/json"})
        return status, json.loads(raw) if raw else {}

    def wait_ready(self, timeout_s: float = 120.0, alive=lambda: True) -> dict:
        """Wait until the server answers /health with every folder read; its health. ``alive()`` false stops it."""
        deadline = time.monotonic() + timeout_s
        while True:
            if not alive():
                raise RuntimeError("the server ended")
            try:
                status, health = self.call("/health", method="GET")
                if status == 200 and not any(t["reading"] for t in health["tenants"]):
                    return health
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError("the server did not come up")
            time.sleep(0.1)
