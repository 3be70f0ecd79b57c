"""Where the app finds its resources and keeps its own files (never inside a user's folder)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs

APP_NAME = "noda-desktop"
TOKEN_FILE = "api-token"


def resources_dir() -> Path:
    """The resources folder: beside the source tree, or inside a PyInstaller bundle."""
    override = os.environ.get("NODA_RESOURCES")
    if override:
        return Path(override)
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def sample_tenant() -> Path:
    return resources_dir() / "sample"


def cache_dir() -> Path:
    """Parse cache and indexes (override with NODA_CACHE_DIR, e.g. in tests)."""
    return Path(os.environ.get("NODA_CACHE_DIR") or platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    return Path(os.environ.get("NODA_CONFIG_DIR") or platformdirs.user_config_dir(APP_NAME, appauthor=False))


def token_path() -> Path:
    """The user's local API token (noda_desktop/api_access.py)."""
    return config_dir() / TOKEN_FILE
