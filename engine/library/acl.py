"""Who may see which document: the tenant folder's ACL.json sidecar.

Format (seed 004)::

    {"default": ["*"], "rules": [{"files": "인사_*.hwpx", "allow": ["hr", "대표"]}]}

The first rule whose pattern matches wins, otherwise ``default`` applies. A
pattern is an fnmatch pattern (case-insensitive, names and patterns compared
after NFC normalisation: engine/names.py) tried against the
tenant-relative file name, every folder or ZIP it sits in ("붙임",
"붙임/자료.zip") and each of their plain names — so a rule on a folder or a
ZIP also covers what is inside. ``"*"`` in an allow list means everyone,
including a caller that gives no principal.

No ACL.json: everything is public. An ACL.json that is not valid JSON or not
of that shape locks everything: nobody sees anything (a typo must never
publish documents).

Principals whose admitted allow lists are the same see the same documents
whatever files come and go; they form one *group* and share one index.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Optional

from engine.names import name_key

ACL_FILENAME = "ACL.json"
EVERYONE = "*"

AllowList = tuple[str, ...]


@dataclass(frozen=True)
class Acl:
    default: AllowList = (EVERYONE,)
    rules: tuple[tuple[str, AllowList], ...] = ()
    broken: bool = False

    def allow_list(self, filename: str) -> AllowList:
        """The allow list that governs ``filename`` (first matching rule, else the default)."""
        names = _candidates(filename)
        for pattern, allow in self.rules:
            if any(fnmatchcase(name, pattern) for name in names):
                return allow
        return self.default

    def can_see(self, principal: Optional[str], filename: str) -> bool:
        """Whether ``principal`` (None: anonymous) may see ``filename``."""
        return not self.broken and self.allow_list(filename) in self._admitted(principal)

    def group_of(self, principal: Optional[str]) -> Optional[str]:
        """The id of the group ``principal`` belongs to; None when the ACL is broken."""
        return None if self.broken else _group_id(self._admitted(principal))

    def groups(self) -> dict[str, frozenset[AllowList]]:
        """Every group any principal can fall in: id -> the allow lists it admits."""
        if self.broken:
            return {}
        named = {p for allow in self._allow_lists() for p in allow if p != EVERYONE}
        out = {}
        for principal in [None, *sorted(named)]:
            admitted = self._admitted(principal)
            out[_group_id(admitted)] = admitted
        return out

    def _allow_lists(self) -> set[AllowList]:
        return {self.default, *(allow for _pattern, allow in self.rules)}

    def _admitted(self, principal: Optional[str]) -> frozenset[AllowList]:
        who = None if principal is None else name_key(principal)
        return frozenset(a for a in self._allow_lists() if EVERYONE in a or (who is not None and who in a))


PUBLIC = Acl()
LOCKED = Acl(default=(), broken=True)


def load_acl(folder: str | Path) -> Acl:
    """The ACL of a tenant folder: PUBLIC without ACL.json, LOCKED when it is broken."""
    path = Path(folder) / ACL_FILENAME
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return PUBLIC
    except OSError:
        return LOCKED
    return parse_acl(raw)


def parse_acl(raw: bytes) -> Acl:
    """Parse ACL.json bytes (a UTF-8 BOM is fine); anything malformed gives LOCKED."""
    try:
        data = json.loads(raw.decode("utf-8-sig"))
        if not isinstance(data, dict) or set(data) - {"default", "rules"}:
            return LOCKED
        default = _allow(data.get("default", [EVERYONE]))
        if not isinstance(data.get("rules", []), list):
            return LOCKED
        rules = []
        for rule in data.get("rules", []):
            if not isinstance(rule, dict) or set(rule) != {"files", "allow"}:
                return LOCKED
            pattern = rule["files"]
            if not isinstance(pattern, str) or not pattern.strip():
                return LOCKED
            rules.append((_folded(pattern.strip()), _allow(rule["allow"])))
        return Acl(default=default, rules=tuple(rules))
    except (ValueError, TypeError):
        return LOCKED


def is_acl_file(key: str) -> bool:
    """True for the tenant's own ACL.json (it is a rule file, not a document)."""
    return _folded(key) == _folded(ACL_FILENAME)


def _allow(value) -> AllowList:
    if not isinstance(value, list) or not all(isinstance(p, str) and p for p in value):
        raise ValueError("allow must be a list of names")
    return tuple(sorted({name_key(p) for p in value}))


def _candidates(filename: str) -> set[str]:
    """The file's path, the paths of the folders/ZIPs it sits in, and all their plain names."""
    parts = _folded(filename).split("/")
    return {"/".join(parts[:i]) for i in range(1, len(parts) + 1)} | set(parts)


def _folded(name: str) -> str:
    """How names and patterns are matched: NFC (engine/names.py), case-insensitive everywhere."""
    return name_key(name).casefold()


def _group_id(admitted: frozenset[AllowList]) -> str:
    text = json.dumps(sorted(admitted), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
