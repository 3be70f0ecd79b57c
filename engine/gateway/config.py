"""The gateway's settings and its API key, kept in the user's config folder.

``gateway.json`` holds the settings an administrator chose; an empty
``base_url`` means the gateway is off (the default). The API key lives apart,
so the settings file can be shown, copied or logged without it: in the
operating system's keyring (Windows Credential Manager, macOS Keychain, the
desktop's Secret Service) when one is available, otherwise in ``gateway.key``,
readable and writable by the user only (0600). ``NODA_KEYRING=off`` keeps it
in the file.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Optional

import platformdirs

from engine.gateway.policy import DEFAULT_ALLOWED

APP_NAME = "noda-desktop"
SETTINGS_FILE = "gateway.json"
KEY_FILE = "gateway.key"
KEYRING_SERVICE = "noda-desktop"
FORMATS = ("openai-chat", "openai-responses", "anthropic")


@dataclass
class GatewayConfig:
    format: str = "openai-chat"         # one of FORMATS
    base_url: str = ""                  # "" = gateway off
    model: str = ""
    allowed_hosts: list[str] = field(default_factory=lambda: list(DEFAULT_ALLOWED))
    proxy: str = ""                     # "http://proxy.intra:3128"; "" = direct
    ca_file: str = ""                   # the organisation's CA certificates (PEM)
    max_tokens: int = 0                 # 0 = the format's default
    max_tokens_key: str = "max_tokens"  # OpenAI Chat: or "max_completion_tokens"
    temperature: Optional[float] = None
    anthropic_version: str = "2023-06-01"
    stream: bool = True
    timeout_s: float = 120.0            # longest silence while waiting or reading
    retries: int = 3                    # establishment retries
    retry_interval_s: Optional[float] = None   # fixed wait instead of 0.5 s → 1 s → … 8 s
    empty_retries: int = 2              # OpenAI Chat: re-ask when the answer is empty
    per_second: float = 0               # request starts per second (0 = no limit)
    per_minute: float = 0               # request starts per minute (0 = no limit)


def default_config_dir() -> Path:
    """The user config folder (NODA_CONFIG_DIR overrides), as noda_desktop.paths.config_dir()."""
    return Path(os.environ.get("NODA_CONFIG_DIR")
                or platformdirs.user_config_dir(APP_NAME, appauthor=False))


def _folder(config_dir) -> Path:
    return Path(config_dir) if config_dir else default_config_dir()


def load_config(config_dir: Optional[Path] = None) -> GatewayConfig:
    """The saved settings; the defaults (gateway off) when there are none or they cannot be read."""
    path = _folder(config_dir) / SETTINGS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return GatewayConfig()
    if not isinstance(data, dict):
        return GatewayConfig()
    defaults = GatewayConfig()
    values = {f.name: data[f.name] for f in fields(GatewayConfig)
              if f.name in data and _fits(data[f.name], getattr(defaults, f.name))}
    return GatewayConfig(**values)


def _fits(value, default) -> bool:
    """Whether a saved value has the type of the field's default (numbers may be None where the default is)."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if default is None:
        return value is None or number
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, float):
        return number
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, list):
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return isinstance(value, type(default))


def save_config(config: GatewayConfig, config_dir: Optional[Path] = None) -> None:
    """Write the settings atomically."""
    folder = _folder(config_dir)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / (SETTINGS_FILE + ".tmp")
    tmp.write_text(json.dumps(asdict(config), ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, folder / SETTINGS_FILE)


def load_key(config_dir: Optional[Path] = None) -> str:
    """The stored API key (keyring first, then the file), or "" when there is none."""
    folder = _folder(config_dir)
    backend = _keyring()
    if backend is not None:
        try:
            key = backend.get_password(KEYRING_SERVICE, _keyring_user(folder))
        except Exception:   # a locked or broken keyring: the file may still hold the key
            key = None
        if key:
            return key.strip()
    try:
        return (folder / KEY_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def save_key(key: str, config_dir: Optional[Path] = None) -> str:
    """Store the API key — in the keyring when there is one, else in a user-only file; "" removes it.

    Returns where it went: "keyring", "file" or "" (removed).
    """
    folder = _folder(config_dir)
    key = key.strip()
    backend = _keyring()
    if backend is not None:
        try:
            if key:
                backend.set_password(KEYRING_SERVICE, _keyring_user(folder), key)
            else:
                _forget(backend, folder)
        except Exception:
            backend = None
    path = folder / KEY_FILE
    if not key or backend is not None:      # never two copies of the key
        path.unlink(missing_ok=True)
        return "keyring" if key else ""
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / (KEY_FILE + ".tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(key)
    os.replace(tmp, path)
    return "file"


def key_store() -> str:
    """Where a saved key goes on this machine: "keyring" or "file"."""
    return "keyring" if _keyring() is not None else "file"


def _keyring():
    """The OS keyring backend, or None when there is no usable one (or NODA_KEYRING=off)."""
    if os.environ.get("NODA_KEYRING", "").lower() in ("off", "0", "no"):
        return None
    try:
        import keyring
        backend = keyring.get_keyring()
    except Exception:
        return None
    return backend if getattr(backend, "priority", 0) > 0 else None


def _keyring_user(folder: Path) -> str:
    """One keyring entry per config folder, so separate settings keep separate keys."""
    return f"gateway:{Path(folder).resolve()}"


def _forget(backend, folder: Path) -> None:
    try:
        backend.delete_password(KEYRING_SERVICE, _keyring_user(folder))
    except Exception:   # nothing stored there
        pass
