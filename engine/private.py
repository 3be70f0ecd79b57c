"""The app's own files hold document text, so they are private, and removing them follows no link.

Directories Noda creates in its cache are 0700 and its files 0600, so other
accounts on a shared PC cannot read what the originals may forbid them (on
Windows ``chmod`` does next to nothing; the cache lives in the user's profile,
whose ACL already keeps other users out). ``remove`` deletes a file or a tree
without ever following a symbolic link: a link is removed as a link, and only
what was really deleted is counted.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: str | Path) -> Path:
    """``path`` as a directory only its owner may enter (missing parents made the same way)."""
    path = Path(path)
    missing = []
    probe = path
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=DIR_MODE)
        except FileExistsError:   # made meanwhile by another process
            pass
    if not path.is_symlink():
        _chmod(path, DIR_MODE)
    return path


def private_file(path: str | Path) -> None:
    """Make an existing file readable by its owner only."""
    _chmod(Path(path), FILE_MODE)


@dataclass
class Removed:
    """What ``remove`` deleted: regular files and their bytes, and links removed as links."""

    files: int = 0
    bytes: int = 0
    links: int = 0

    def add(self, other: "Removed") -> "Removed":
        self.files += other.files
        self.bytes += other.bytes
        self.links += other.links
        return self


def remove(path: str | Path) -> Removed:
    """Delete ``path`` (a file, a link or a directory tree), following no symbolic link."""
    path = Path(path)
    done = Removed()
    try:
        info = path.lstat()
    except FileNotFoundError:
        return done
    if not stat.S_ISDIR(info.st_mode):   # a file, or a link to anything: removed itself
        _unlink(path, info, done)
        return done
    for root, dirs, files in os.walk(path, topdown=False, followlinks=False):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            entry = Path(root) / name
            try:
                _unlink(entry, entry.lstat(), done)
            except FileNotFoundError:
                pass
        try:
            os.rmdir(root)
        except OSError:
            pass
    return done


def _unlink(path: Path, info: os.stat_result, done: Removed) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode):
        done.links += 1
    else:
        done.files += 1
        done.bytes += info.st_size


def _chmod(path: Path, mode: int) -> None:
    try:
        os.chmod(path, mode)
    except OSError:   # not ours to change (a shared folder the user chose): keep going
        pass
