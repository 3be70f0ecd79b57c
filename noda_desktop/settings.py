"""The window's remembered settings: opened folders, cache location, parse limits, the local API switch,
who the user is for ACL.json, and the window's size and pane layout.

Stored as one JSON file in ``paths.config_dir()`` (``NODA_CONFIG_DIR`` in tests).
A missing or broken file gives the defaults; saving writes a temporary file and
renames it, so a crash never leaves half a settings file behind.
"""
from __future__ import annotations

import getpass
import json
import os
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Optional

from engine.limits import DEFAULT_LIMITS, Limits
from noda_desktop import paths

FILENAME = "settings.json"

# Limits the settings dialog lets a user change (the rest keep their defaults).
EDITABLE_LIMITS = ("max_file_bytes", "max_pdf_pages", "max_archive_members", "max_xlsx_cells")


@dataclass
class Settings:
    folders: list[str] = field(default_factory=list)
    cache_dir: Optional[str] = None        # None: paths.cache_dir()
    limits: dict = field(default_factory=dict)  # overrides of engine.limits.Limits fields
    poll_seconds: int = 30                 # polling fallback for network shares
    api_enabled: bool = False              # 다른 프로그램이 노다를 쓰도록 허용 (the local API, ui/api_switch.py)
    api_port: int = 8756
    principal: Optional[str] = None        # the name ACL.json rules are read for; None: the OS user name
    window: dict = field(default_factory=dict)  # Qt's saved geometry and pane states (base64 text), by name

    # ---- derived values ------------------------------------------------
    def cache_root(self) -> Path:
        """Where parse caches and indexes live."""
        return Path(self.cache_dir) if self.cache_dir else paths.cache_dir()

    def parse_limits(self) -> Limits:
        """engine Limits with this user's overrides applied (unknown keys ignored)."""
        known = {f.name: f.type for f in fields(Limits)}
        changes = {}
        for key, value in self.limits.items():
            if key in known and isinstance(value, (int, float)) and value > 0:
                default = getattr(DEFAULT_LIMITS, key)
                changes[key] = type(default)(value)
        return replace(DEFAULT_LIMITS, **changes)

    def acl_principal(self) -> Optional[str]:
        """Who the window shows documents for: the chosen name, else the OS user name (None if unknown)."""
        if self.principal and self.principal.strip():
            return self.principal.strip()
        return os_user_name()

    # ---- folders --------------------------------------------------------
    def add_folder(self, folder: str) -> bool:
        """Remember a folder; False when it was already there."""
        folder = str(folder)
        if folder in self.folders:
            return False
        self.folders.append(folder)
        return True

    def remove_folder(self, folder: str) -> None:
        """Forget a folder (the folder itself is never touched)."""
        self.folders = [f for f in self.folders if f != str(folder)]


def os_user_name() -> Optional[str]:
    """The login name of this OS user, None when it cannot be told."""
    try:
        return getpass.getuser() or None
    except Exception:   # no name in the environment and no password-database entry
        return None


def settings_path() -> Path:
    return paths.config_dir() / FILENAME


def load() -> Settings:
    """The saved settings, or defaults when there are none or they cannot be read."""
    try:
        data = json.loads(settings_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    if not isinstance(data, dict):
        return Settings()
    names = {f.name for f in fields(Settings)}
    settings = Settings(**{k: v for k, v in data.items() if k in names})
    if not isinstance(settings.folders, list):
        settings.folders = []
    if not isinstance(settings.limits, dict):
        settings.limits = {}
    if not isinstance(settings.api_enabled, bool):
        settings.api_enabled = False
    if not isinstance(settings.api_port, int) or not 1024 <= settings.api_port <= 65535:
        settings.api_port = Settings.api_port
    if not isinstance(settings.window, dict):
        settings.window = {}
    if not isinstance(settings.principal, (str, type(None))):
        settings.principal = None
    return settings


def save(settings: Settings) -> None:
    """Write the settings atomically."""
    target = settings_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(settings), ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, target)
