"""Where the API key is kept: the OS keyring when there is one, else a user-only file — never both."""
from __future__ import annotations

import stat

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.errors import KeyringLocked

from engine.gateway import load_key, save_key
from engine.gateway.config import KEY_FILE, KEYRING_SERVICE, key_store

KEY = "sk-keyring-4242"


class MemoryKeyring(KeyringBackend):
    """A keyring that keeps passwords in a dict (stands in for the OS's; keyring's own backend API)."""

    priority = 1

    def __init__(self, locked: bool = False):
        super().__init__()
        self.items: dict[tuple[str, str], str] = {}
        self.locked = locked

    def get_password(self, service, username):
        if self.locked:
            raise KeyringLocked("locked")
        return self.items.get((service, username))

    def set_password(self, service, username, password):
        if self.locked:
            raise KeyringLocked("locked")
        self.items[(service, username)] = password

    def delete_password(self, service, username):
        self.items.pop((service, username))


@pytest.fixture
def os_keyring(monkeypatch):
    monkeypatch.delenv("NODA_KEYRING", raising=False)
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def test_the_key_goes_to_the_keyring_when_there_is_one(os_keyring, tmp_path):
    assert key_store() == "keyring"
    assert save_key(KEY, tmp_path) == "keyring"
    assert not (tmp_path / KEY_FILE).exists()
    [(service, user)] = os_keyring.items
    assert service == KEYRING_SERVICE and str(tmp_path.resolve()) in user
    assert load_key(tmp_path) == KEY
    assert load_key(tmp_path / "other") == ""                 # one entry per config folder
    assert save_key("", tmp_path) == "" and os_keyring.items == {} and load_key(tmp_path) == ""


def test_a_key_saved_to_the_keyring_replaces_an_older_key_file(os_keyring, tmp_path, monkeypatch):
    monkeypatch.setenv("NODA_KEYRING", "off")
    assert save_key("old-key", tmp_path) == "file"
    monkeypatch.delenv("NODA_KEYRING")
    assert load_key(tmp_path) == "old-key"                    # read from the file while the keyring has none
    assert save_key(KEY, tmp_path) == "keyring"
    assert not (tmp_path / KEY_FILE).exists() and load_key(tmp_path) == KEY


def test_a_locked_keyring_falls_back_to_a_user_only_file(os_keyring, tmp_path):
    os_keyring.locked = True
    assert save_key(KEY, tmp_path) == "file"
    path = tmp_path / KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_key(tmp_path) == KEY


def test_without_a_keyring_the_key_is_in_a_user_only_file(monkeypatch, tmp_path):
    monkeypatch.setenv("NODA_KEYRING", "off")
    assert key_store() == "file"
    assert save_key(KEY, tmp_path) == "file"
    assert stat.S_IMODE((tmp_path / KEY_FILE).stat().st_mode) == 0o600
    assert load_key(tmp_path) == KEY
