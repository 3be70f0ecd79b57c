"""A hit's text cut into candidate answer lines: sentences, list items and table rows, exactly as written.

A table of contents is never a candidate (``CONTENTS``); a note is matched as if it named the starred word it
explains.

A text line is cut after a sentence end and before a list bullet; in text whose lines the page broke
(PDF, OCR; not a table's rows) a full-width line that does not end a sentence runs on into the next. Each ``Line`` keeps
its quote as the chunk has it and, flattened (engine/korean.flat), what stands around it: its file
name, title, headings and table header, the lines just before and after it, the rest of its chunk.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from engine.korean import ENDS_SENTENCE, LINE_BREAK, NOTE, STARRED, broken_word, flat, one_line, opens_item
from engine.model import PAGE_WRAPPED_EXTRACTORS

CELL = " | "                # how a table chunk joins the cells of a row

NEAR_LINES = 2              # the lines just before a line that count as its lead-in
LONG_LINE = 250             # characters: a longer line is long (scoring), and a wrapped line stops growing
WRAP_SHARE = 0.7            # in page-wrapped text a line this long against the chunk's longest was wrapped
BRACKETS = ("()", "<>", "《》", "〈〉", "「」", "『』", "“”", "[]")   # a sentence does not end inside one
# A table of contents: headings each followed by its page ("1. 신청 방법 및 접수 기간 3 2. 제출 서류 4 …"), or a
# heading led by dots to its page ("사업 개요 ········ 3"). It names every topic and answers none.
CONTENTS = re.compile(r"(?:\S\s+\d{1,3}\s+(?:[ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩ]+|\d{1,2}|[가-하])\.[^0-9]{1,60}){2,}"
                      r"|[·․.…]{4,}\s*\d{1,3}\s*$")


@dataclass
class Line:
    """A candidate answer line: its text exactly as in the chunk (``quote``), and where it sits."""

    quote: str
    hit: dict
    rank: int
    flat: str           # the normalised text (engine/korean.flat)
    context: str        # normalised file name, title, headings and table header
    shared: str         # the part of it every line of the document or table shares: file name, title, header
    header: str         # the first row of its table (table chunks only)
    near: str           # the normalised lines just before it in the chunk
    chunk: str          # the normalised text of the whole chunk
    prior: str = ""     # the line just before it in the chunk, as written
    after: str = ""     # the normalised line just after it in the chunk
    score: float = 0.0
    learned: float = 0.0  # the learned score that orders the best lines (ranker)
    first_row: bool = False   # the first row of a table chunk: its header, or a form's first field
    features: dict = field(default_factory=dict)   # what the score is made of (scoring._score)

    @property
    def text(self) -> str:
        """The quote on one line (whitespace runs as single spaces)."""
        return one_line(self.quote)


def split_lines(text: str, wrapped: bool = False) -> list[str]:
    """The lines of a chunk's text, each exactly as it stands there: text lines cut into sentences
    and list items. In ``wrapped`` text (PDF, OCR) the page broke the lines: a full-width line that
    does not end a sentence runs on into the next line unless that one starts a list item. A table of
    contents is left out (``CONTENTS``)."""
    rows = _unwrap(text.split("\n")) if wrapped else text.split("\n")
    out = []
    for row in (row for row in rows if not CONTENTS.search(row)):
        out.extend(row[start:end].strip() for start, end in _closed(_pieces(row), row) if row[start:end].strip())
    return out


def _pieces(row: str) -> list[tuple[int, int]]:
    """Where the pieces of ``row`` between LINE_BREAK's cuts start and end."""
    spans, start = [], 0
    for cut in LINE_BREAK.finditer(row):
        spans.append((start, cut.start()))
        start = cut.end()
    return spans + [(start, len(row))]


def _closed(spans: list[tuple[int, int]], row: str) -> list[tuple[int, int]]:
    """The pieces, a piece that leaves a bracket open ("타이틀 곡 <오!") joined to the next ones until
    it closes, as long as the line stays shorter than LONG_LINE."""
    out = []
    for start, end in spans:
        if out and _open_brackets(row[out[-1][0]:out[-1][1]]) and end - out[-1][0] < LONG_LINE:
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def _open_brackets(text: str) -> bool:
    return any(text.count(a) > text.count(b) for a, b in BRACKETS)


def _unwrap(rows: list[str]) -> list[str]:
    widths = sorted(len(row) for row in rows)
    full = WRAP_SHARE * widths[-1]
    # a line of the usual width that stops on a letter before one ("… 최근에는 브" / "론즈 방식과 …") was wrapped
    # though a wider line (a heading, a line of another size) stands in the chunk
    usual = WRAP_SHARE * widths[len(widths) * 3 // 4]
    out = [rows[0]]
    for prev, row in zip(rows, rows[1:]):
        wrapped = len(prev) >= full or len(prev) >= usual and broken_word(prev, row)
        if (wrapped and not ENDS_SENTENCE.search(prev) and not opens_item(row, out)
                and len(out[-1]) + len(row) < LONG_LINE):
            out[-1] += "\n" + row
        else:
            out.append(row)
    return out


def candidate_lines(hit: dict, rank: int) -> list[Line]:
    """The lines of one hit (``rank``: its place among the search results) with what stands around each."""
    rows = hit["text"].split("\n")
    table = hit.get("kind") == "table" and len(rows) > 1
    header = " ".join([hit.get("caption") or "", rows[0]]).strip() if table else ""
    own = flat(" ".join([hit.get("filename") or "", *(hit.get("path") or [])]))   # file name and title
    shared = own + flat(header)
    context = shared + flat(" ".join(hit.get("outline") or []))
    chunk = flat(hit["text"])
    # a table's rows are its lines, whatever their width (a PDF's rows are as wide as each other)
    wrapped = not table and any(x in PAGE_WRAPPED_EXTRACTORS for x in hit.get("extractors") or [])
    texts = split_lines(hit["text"], wrapped)
    # a note holds the word it explains ("* 정보주체인 …" under "마이데이터*"), as far as matching goes
    flats = [flat(_explained(texts, i, hit.get("outline") or []) + text) for i, text in enumerate(texts)]
    # a section's heading names its topic and answers nothing: it counts for the lines under it only
    headings = set(hit.get("outline") or [])
    # the first row itself is not shared with itself: a form's first row is often a field ("정수장명 | 석성정수장")
    return [Line(text, hit, rank, flats[i], context, own if table and i == 0 else shared, header,
                 "".join(flats[max(0, i - NEAR_LINES):i]), chunk,
                 texts[i - 1] if i else "", flats[i + 1] if i + 1 < len(flats) else "",
                 first_row=table and i == 0)
            for i, text in enumerate(texts) if text not in headings]


def _explained(texts: list[str], i: int, outline: list[str]) -> str:
    """The word the note ``texts[i]`` explains: the last starred word of the line above the notes it stands
    among, else of the chunk's last outline entry (a note that starts a chunk); "" for other lines."""
    if not NOTE.match(texts[i]):
        return ""
    above = next((text for text in reversed(texts[:i]) if not NOTE.match(text)), None)
    words = STARRED.findall(above if above is not None else (outline[-1] if outline else ""))
    return words[-1] if words else ""


def table_row(line: Line) -> Optional[dict]:
    """A table row's cells under its table's first row (``{"header": [...], "cells": [...]}``), or None: for a
    line that is not a row of a table chunk or is that first row itself, and for a table where a row of
    several cells has another number of them than the first row — a chunk's rows leave out empty and merged
    cells, so which header stands over which cell is then unknown — and for a line that is only a piece of a
    row (a note mark inside a cell starts a line of its own: "※ 전년도 총 인원 | 00명 | 3명 이상")."""
    rows = line.hit["text"].split("\n")
    if line.hit.get("kind") != "table" or len(rows) < 2 or line.quote == rows[0] or CELL not in line.quote:
        return None
    width = rows[0].count(CELL)
    if line.quote.count(CELL) != width or any(row.count(CELL) not in (0, width) for row in rows[1:]):
        return None
    return {"header": [one_line(cell) for cell in rows[0].split(CELL)],
            "cells": [one_line(cell) for cell in line.quote.split(CELL)]}
