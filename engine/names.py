"""File names and principal names: how they are compared and how they are shown.

Compared after NFC normalisation: macOS and some file servers write Hangul
names decomposed (NFD), so ``인사_기안.hwpx`` may arrive as jamo that match no
NFC pattern. On Windows, where names are case-insensitive, also case-folded.

Shown with control and bidirectional-formatting characters escaped
(``\\u202e``): a member name carrying U+202E can make ``exe.pdf`` look like
``fdp.exe``, and raw control characters can rewrite a terminal's line.
"""
from __future__ import annotations

import re
import sys
import unicodedata

_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")
_FOLDER_MARK = re.compile(r"^(?:\./)+")
# bidirectional formatting characters (Unicode's Bidi_Control) and the invisible marks that act like them
_BIDI = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}


def name_key(name: str) -> str:
    """``name`` as names are compared: NFC, and case-folded on Windows."""
    key = unicodedata.normalize("NFC", name)
    return key.casefold() if sys.platform == "win32" else key


def loose_keys(name: str) -> tuple[str, str, str, str]:
    """The forms a person may write a folder's file name in, strictest first: its path in the folder
    ("\\" for "/" and a leading "./" aside), that without its extension, its last part, that without
    its extension."""
    path = _FOLDER_MARK.sub("", name_key(name.strip().replace("\\", "/")))
    last = path.rpartition("/")[2]
    return path, _EXTENSION.sub("", path), last, _EXTENSION.sub("", last)


def shown_name(name: str) -> str:
    """``name`` for a person to read: control and bidi-formatting characters as \\uXXXX escapes."""
    if name.isprintable() and not any(ord(ch) in _BIDI for ch in name):
        return name
    return "".join(f"\\u{ord(ch):04x}" if _hidden(ch) else ch for ch in name)


def _hidden(ch: str) -> bool:
    return ord(ch) in _BIDI or unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp")
