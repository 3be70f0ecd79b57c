"""Exact phrases in a query: a part in quotes ("…", “…”, 「…」) must occur as written.

"Written" means the same characters in the same order; spaces do not count
("해외직접투자 동향" finds "해외직접투자동향" and "해외직접투자  동향"), letter
case and full-width forms do not either (NFKC, lower case), and anything may
follow or precede it — so Korean particles after a phrase ("동향은") still
match. The rest of the query is searched as usual; a hit is kept only when
every phrase occurs in its text (``has_phrases``), so the index needs no
positions: the phrases' character bigrams narrow the candidates, then the
stored text is checked.
"""
from __future__ import annotations

import re

from engine.korean import compact, one_line

_QUOTED = re.compile(r'"([^"]*)"|“([^”]*)”|「([^」]*)」|『([^』]*)』')


def split_query(query: str) -> tuple[str, list[str]]:
    """(the query with its quote marks removed, the quoted phrases that have characters)."""
    phrases = [next(g for g in m.groups() if g is not None).strip() for m in _QUOTED.finditer(query)]
    plain = _QUOTED.sub(lambda m: " " + next(g for g in m.groups() if g is not None) + " ", query)
    plain = one_line(plain.replace('"', " "))
    return plain, [p for p in phrases if compact(p)]


def has_phrases(text: str, phrases: list[str]) -> bool:
    """Whether every phrase occurs in ``text`` (spaces, case and width aside)."""
    flat = compact(text)
    return all(compact(p) in flat for p in phrases)
