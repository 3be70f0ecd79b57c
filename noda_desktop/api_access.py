"""Who may use the local API: the per-user token, an administrator's key, and where the server may listen.

The token is made once per user (random, 256 bits) and kept in the config
folder in a file only that user can read (0600); ``noda serve --print-token``
shows it. Programs of the same user read it from there; a web page in a
browser cannot, and without it every route but /health is refused. The
server listens on 127.0.0.1 only; another address needs ``--host`` and an
explicit key (``--key`` or ``NODA_API_KEY``) of at least ``MIN_KEY_CHARS``.
"""
from __future__ import annotations

import hmac
import os
import secrets
import stat
import time
from pathlib import Path
from typing import Optional

from noda_desktop.paths import token_path

LOOPBACK = ("127.0.0.1", "localhost", "::1")
MIN_KEY_CHARS = 16


def load_or_create_token(path: Optional[Path] = None) -> str:
    """The user's API token, created (0600) on first use."""
    path = path or token_path()
    for _ in range(50):
        token = _read(path)
        if token:
            return token
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:   # another program is writing it right now
            time.sleep(0.02)
            continue
        token = secrets.token_urlsafe(32)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(token + "\n")
        return token
    raise OSError(f"cannot read the API token file {path}")


def _read(path: Path) -> str:
    try:
        if os.name == "posix" and stat.S_IMODE(path.stat().st_mode) & 0o077:
            os.chmod(path, 0o600)     # someone widened it: only the user may read the token
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def is_loopback(host: str) -> bool:
    return host in LOOPBACK


class Keys:
    """The secrets a request may carry, each with the consumer name the usage log gives it."""

    def __init__(self, token: str, key: Optional[str] = None):
        self._pairs = [(token, "local")] + ([(key, "key")] if key else [])

    def consumer(self, authorization: Optional[str]) -> Optional[str]:
        """The consumer named by an ``Authorization: Bearer …`` header, or None when it is missing or wrong."""
        if not authorization or not authorization[:7].lower() == "bearer ":
            return None
        given = authorization[7:].strip().encode("utf-8", "replace")
        found = None
        for secret, name in self._pairs:
            if hmac.compare_digest(given, secret.encode("utf-8")):
                found = name
        return found
