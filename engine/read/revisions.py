"""Read 신·구조문대비표 (current | revised comparison tables) row by row.

Such a table has a header row with a 「현행」 column and a 「개정안」 column.
Each row below it is marked with what the revision does to that provision:
``added`` (<신 설>), ``deleted`` (<삭 제>), ``amended``, ``unchanged``
(「현행과 같음」, dashes, the same words) or ``renumbered`` (the same words
under a new article or item number). ``current`` and ``revised`` are the
cells' text exactly as the document has them; only ``kind`` and ``label``
are added so nobody has to decode the conventions again.
"""
from __future__ import annotations

import re
from typing import Optional

from engine.korean import PROVISION_LABEL, one_line
from engine.model import Document, Table

HEADER_ROWS = 3  # the 현행 | 개정안 header is looked for in this many first rows
MIN_QUOTE = 8    # a quote shorter than this does not pick a row by being part of it

_ADDED = re.compile(r"^[<〈《(（\[]\s*신\s*설\s*[>〉》)）\]]$")
_DELETED = re.compile(r"^[<〈《(（\[]\s*삭\s*제\s*[>〉》)）\]]$")
_SAME = re.compile(r"^[(（]?\s*(현\s*행\s*(제\s*\S+\s*)?(과|와)\s*같\s*음|생\s*략|좌\s*동|동\s*일)\s*[)）]?$")
_FILLER = re.compile(r"[-‐‑–—─━―·ㆍ…\.\s]+")


def revisions_for_table(table: Table) -> list[dict]:
    """One entry per body row of a 신·구조문대비표: row, kind, label, current, revised.

    An empty list when ``table`` is not such a table.
    """
    columns = _header(table)
    if columns is None:
        return []
    header_row, cur_col, rev_col = columns
    cells = {(c.row, c.col): c.text for c in table.cells}
    out = []
    for row in range(header_row + 1, table.rows):
        current = (cells.get((row, cur_col)) or "").strip()
        revised = (cells.get((row, rev_col)) or "").strip()
        if not current and not revised:
            continue
        kind, label = _classify(current, revised)
        out.append({"row": row, "kind": kind, "label": label,
                    "current": current, "revised": revised})
    return out


def document_revisions(doc: Document) -> list[dict]:
    """Every comparison-table row of ``doc``, each naming its table id and table block id."""
    out = []
    for table in doc.tables:
        for entry in revisions_for_table(table):
            out.append({"table": table.id, "block": table.block, **entry})
    return out


def revisions_for_text(doc: Document, block_ids: list[str], text: str) -> list[dict]:
    """The revisions of ``doc`` whose rows sit in the given blocks and whose words appear in ``text``.

    For a citation: pass the chunk's ``blocks`` and the quoted text; returns the
    seed's shape ``{kind, label, current, revised}``.
    """
    flat = one_line(text)
    out = []
    for entry in doc.structure.revisions:
        if entry.get("block") not in block_ids:
            continue
        sides = [one_line(entry.get("current", "")), one_line(entry.get("revised", ""))]
        if any(side and (side in flat or (len(flat) >= MIN_QUOTE and flat in side))
               for side in sides):
            out.append({k: entry[k] for k in ("kind", "label", "current", "revised")})
    return out


# ---- helpers ------------------------------------------------------------------
def _header(table: Table) -> Optional[tuple[int, int, int]]:
    """(header row, 현행 column, 개정안 column) when the table has that header."""
    for row in range(min(HEADER_ROWS, table.rows)):
        cur = rev = None
        for c in sorted((c for c in table.cells if c.row == row), key=lambda c: c.col):
            word = re.sub(r"\s+", "", c.text)
            if cur is None and word.startswith("현행"):
                cur = c.col
            elif rev is None and (word.startswith("개정") or word.startswith("변경")):
                rev = c.col
        if cur is not None and rev is not None:
            return row, cur, rev
    return None


def _classify(current: str, revised: str) -> tuple[str, Optional[str]]:
    cur_label, cur_body = _split_label(current)
    rev_label, rev_body = _split_label(revised)
    if not current or _ADDED.match(one_line(cur_body)):
        return "added", rev_label
    if not revised or _DELETED.match(one_line(rev_body)):
        return "deleted", cur_label
    same = _is_same(rev_body) or _words(cur_body) == _words(rev_body)
    if same and cur_label and rev_label and cur_label != rev_label:
        return "renumbered", f"{cur_label} → {rev_label}"
    if same:
        return "unchanged", cur_label or rev_label
    return "amended", cur_label or rev_label


def _split_label(text: str) -> tuple[Optional[str], str]:
    """('제13조', rest) when the text opens with an article or item number."""
    found = PROVISION_LABEL.match(text)
    if not found:
        return None, text
    return re.sub(r"\s+", "", found.group(0)), text[found.end():]


def _is_same(body: str) -> bool:
    """Whether a revised cell only says 'as now': dashes, 「(현행과 같음)」, 「(생 략)」."""
    rest = one_line(body)
    if _SAME.match(rest):
        return True
    rest = re.sub(r"^[(（][^)）]*[)）]", "", rest).strip()  # the article heading, e.g. 「(정의)」
    return not _FILLER.sub("", rest) or bool(_SAME.match(rest))


def _words(text: str) -> str:
    return re.sub(r"\s+", "", text)
