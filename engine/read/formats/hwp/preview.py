"""PrvText: the plain-text preview Hancom keeps of a document's start, as paragraphs.

The stream is UTF-16LE, about the first thousand characters of the document, a paragraph a line
(CR LF). A table is written as its cells, each inside '<' '>', a row a line; a nested table or a
cell of several lines leaves a cell open across lines. Documents write '<' '>' of their own too
("<붙임 1>", "ㅇ <우리말샘> 이용자 …"), so only lines that look like rows have their brackets read
as cells.
"""
from __future__ import annotations

import re

from engine.read.failures import ReadFailure
from engine.read.formats.hancom_chars import readable
from engine.read.formats.hwp.container import HwpContainer

EXTRACTOR = "hwp-preview"
MAX_PREVIEW_BYTES = 64 * 1024   # Hancom writes about 2 KB; a larger stream is not its preview
CELL_SEPARATOR = " | "          # as a table block's row reads (engine/read/formats/base.table_text)
_LINE_END = re.compile(r"\r\n|[\r\n\u2028\u2029]")
_UNWANTED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffd]")   # NULs, controls, undecodable units
_BRACKET = re.compile("[<>]")


def read_preview(container: HwpContainer) -> list[str]:
    """The paragraphs of the file's PrvText; [] when it has none the container can give back."""
    if not container.has("PrvText") or container.size("PrvText") > MAX_PREVIEW_BYTES:
        return []
    try:
        raw = container.read("PrvText")
    except ReadFailure:
        return []
    text = raw[:len(raw) - len(raw) % 2].decode("utf-16-le", "replace")
    return preview_paragraphs(readable(_UNWANTED.sub("", text)))


def preview_paragraphs(text: str) -> list[str]:
    """The non-empty lines of a preview text, a row of cells as its cells' texts joined by CELL_SEPARATOR."""
    paragraphs = []
    open_cells = 0
    for line in _LINE_END.split(text):
        if open_cells or _is_row(line):
            open_cells = _open_after(line, open_cells)
            line = CELL_SEPARATOR.join(part.strip() for part in _BRACKET.split(line) if part.strip())
        line = line.strip()
        if line:
            paragraphs.append(line)
    return paragraphs


def _is_row(line: str) -> bool:
    """A line of cells: it starts with one, or holds two side by side or an empty one."""
    return line.lstrip().startswith("<") or "><" in line or "<>" in line


def _open_after(line: str, open_cells: int) -> int:
    """How many cells are still open at the end of ``line`` when ``open_cells`` were at its start."""
    for char in line:
        if char == "<":
            open_cells += 1
        elif char == ">" and open_cells:
            open_cells -= 1
    return open_cells
