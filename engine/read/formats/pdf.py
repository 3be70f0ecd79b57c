"""PDF reader (PyMuPDF): text blocks with page and bbox, tables, OCR for scanned pages.

Each page is read once with ``get_text("dict")`` and MuPDF's own table
hunting (``TEXT_TABLE_HUNT``, done in C): text inside a detected table comes
back only inside the table, so it is never repeated as a paragraph.
``page.find_tables()`` is used only where the hunt missed a ruled table
(a form whose every cell came back as a paragraph of its own, among rules
no found table holds), on at most ``RULED_PAGES`` pages of a PDF: it costs a
few tenths of a second a page, and on the table-heavy corpus PDFs it made
reading about 25 times slower than the text extraction itself when run on
every page (bench/parse_speed.py).

Pages without a text layer are read by OCR (engine.read.ocr) when language data
is installed: every page of a PDF without any text, and pages with almost no
text that are mostly a picture (a scan bound into a text PDF).
"""
from __future__ import annotations

import bisect
import math
import re
import time
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Optional

from engine.korean import ENDS_SENTENCE, PAGE_NUMBER, one_line
from engine.model import Cell
from engine.read import mupdf, ocr
from engine.read.failures import ReadFailure
from engine.read.formats.base import DocumentBuilder
from engine.read.mupdf import pymupdf  # MuPDF's messages kept off stdout

FLAGS = (pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_PRESERVE_WHITESPACE
         | pymupdf.TEXT_MEDIABOX_CLIP | pymupdf.TEXT_COLLECT_VECTORS | pymupdf.TEXT_TABLE_HUNT)
ALMOST_NO_TEXT = 20    # a page with fewer characters than this …
LARGE_PICTURE = 0.4    # … and pictures covering this share of it is read by OCR
HEADING_RATIO = 1.25   # a short block whose font is this much larger than the body is a heading
HEADING_MAX_CHARS = 100
HYPHENS = ("-", "\xad")
WORD_GAP = 0.15        # of the font size: a gap between two pieces of a row this wide is a space
NUMBER_CELL = re.compile(r"[△▲▽▼+\-(]?\s*[0-9][0-9,.]*\s*%?\)?$")
GLYPH_COLUMNS = 30    # a hunted table this wide whose cells …
GLYPH_SHARE = 0.7      # … hold one character at least this often was cut between glyphs
PIECE_MARGIN = 2.0     # font sizes: a one-line block this close after a line on its row goes on that line
ROW_LOOKBACK = 8       # lines looked back for the row above the last one
GLYPH_PIECE = 2        # characters: a line this short of a two-line block may be a piece of a row
SPACE_WIDTH = 0.6      # font sizes: a glyph of the row above goes on it at most a space after its end
RULE_WIDTH = 3.0       # points: a drawn stroke at most this thick may be a table rule
SNAP = 2.0             # points of slack when matching rules to table lines
MISSED_RULES = 6       # rules each way, outside the tables MuPDF's hunt found, …
MISSED_CELLS = 10      # … among which this many paragraphs of at most CELL_CHARS characters stand: a form's table
CELL_CHARS = 40
CELL_LINES = 8         # a "cell" holding more lines than this is a frame around a passage, not a table's cell
EDGE_MIN = 3.0         # points: page.find_tables' shortest edge (edge_min_length)
RULED_PAGES = 12       # pages of one PDF at most read by page.find_tables (a few tenths of a second each)
FURNITURE_BAND = 0.2   # of the page's height: a running head stands in its top or bottom band …
FURNITURE_CHARS = 80   # … as one line of at most this many characters, …
FURNITURE_PAGES = 3    # … repeated on at least this many pages …
FURNITURE_SHARE = 0.3  # … and this share of the pages with text …
FURNITURE_SLACK = 6.0  # … at one height, within this many points
NUMBER_BAND = 0.1      # a lone page number stands this close to the top or bottom of its page
END_NUMBER = re.compile(r"^(\d{1,4}|[ivxIVX]{1,6})(?=\s)|(?<=\s)(\d{1,4}|[ivxIVX]{1,6})$")   # "326  학회지 …"
LINE_PITCH = 2.0       # font sizes: a paragraph's next printed line stands at most this far below the last …
PITCH_SLACK = 0.3      # … and, from its third line on, as far as the lines before it were, within this
SIZE_SLACK = 0.06      # of the font size: two lines this close in size are set in one size
LEFT_SLACK = 0.5       # font sizes: two lines starting this close start at one left edge
INDENT = 4.0           # font sizes: a first line's indent, or a hanging indent after an item's mark, at most
EDGE_SLACK = 1.5       # font sizes: a line ending this close to its column's right edge runs on …
WORD_SLACK = 5.0       # … or, wrapped before a word, as close as that word is wide, at most this
TAB_GAP = 2.0          # font sizes: a gap this wide inside a row makes it a table's row, not a sentence
# What opens a list item or a heading: a bullet or any other sign (not a bracket or quote a sentence may open
# with, nor a mark that closes one), a lone jamo ("ㅇ"), "1. " "2.1 " "(3)" "4)", "가. " "(나)" "다)", "Ⅱ.", "제3조(", "①",
# and a field's label ("전화: ").
ITEM_OPENING = re.compile(
    r"\s*(?:[^\w\s(\"'“‘「『)\]},.;:!?%”’」』~…\ue000-\uf8ff]|[①-⑳㉠-㉻ⓐ-ⓩ➀-➓]|[ㄱ-ㅎ]|[\u1100-\u1112](?![\u1160-\u11a7])"
    r"|[0-9]{1,2}(?:\.[0-9]{1,2})*[.)]\s|[0-9]{1,2}\.[0-9]{1,2}\s|\(?[0-9]{1,2}\)|[가-하]\.\s|\(?[가-하]\)"
    r"|[ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩ]+\s*[.)]?\s|[IVX]{1,4}\.\s|제\s*[0-9]+\s*(?:조\s*\(|[장절]\s)|[^\s:：]{1,8}\s?[:：]\s)")
LEADER = re.compile(r"[·.…‥ㆍ・]{3,}|(?:[·.ㆍ]\s){3,}")    # a contents line's dots
CHECK_BOX = re.compile(r"[□☐☑☒■]$")         # a form's row ends in the box to tick
NUMBERED = re.compile(r"\s*[0-9]{1,3}\s")     # the bare number of a numbered row ("11 「보조금 …」 … □")
NOT_A_TITLE = re.compile(r"(\.(hwpx?|hwt|docx?|pdf|xlsx?|pptx?|txt|rtf)$)|^(untitled|제목 없음)$"
                         r"|^microsoft (word|excel|powerpoint) - ", re.IGNORECASE)


@dataclass
class Paragraph:
    text: str
    bbox: list[float]
    size: float = 0.0            # font size of its longest span, to the half point
    extractor: Optional[str] = None


@dataclass
class Grid:
    rows: int
    cols: int
    bbox: list[float]
    cells: list[Cell] = field(default_factory=list)


def read(data: bytes, doc: DocumentBuilder) -> None:
    """Read a PDF into ``doc``: paragraphs and headings, tables, OCR text for scanned pages."""
    with mupdf.reading(doc):
        _read(data, doc)


def _read(data: bytes, doc: DocumentBuilder) -> None:
    try:
        pdf = pymupdf.open(stream=data, filetype="pdf")
    except Exception:
        raise ReadFailure("CORRUPT") from None
    if pdf.needs_pass:  # an empty user password has already been tried by open()
        raise ReadFailure("PASSWORD_PROTECTED")
    if pdf.page_count == 0:
        raise ReadFailure("CORRUPT", "no pages")
    if pdf.page_count > doc.limits.max_pdf_pages:
        raise ReadFailure("TOO_LARGE")
    doc.set_pages(pdf.page_count)
    doc.set_title(meaningful_title((pdf.metadata or {}).get("title")))

    ruled = [RULED_PAGES]     # pages left that may be read by page.find_tables
    pages = [read_page(page, ruled) for page in pdf]
    _ocr_pictures(pdf, pages, doc)
    if not any(pages):
        raise ReadFailure("NO_TEXT")
    levels = _heading_levels(pages)
    furniture = _page_furniture(pages, [page.rect.height for page in pdf])
    for number, items in enumerate(pages, start=1):
        for item in items:
            _emit(doc, item, number, levels, furniture.get(id(item)))
    empty = [n + 1 for n, items in enumerate(pages) if not items and _has_marks(pdf[n])]
    if empty:
        doc.warn("PAGES_WITHOUT_TEXT", pages=page_ranges(empty))


def read_page(page: pymupdf.Page, ruled: list[int]) -> list:
    """Paragraphs and Grids of one page in MuPDF's reading order. A ruled table MuPDF's hunt missed
    (each cell left a paragraph of its own) is read by ``page.find_tables`` instead (``_ruled_tables``)
    while ``ruled[0]`` pages are left for it: it costs a few tenths of a second a page."""
    blocks = page.get_text("dict", flags=FLAGS)["blocks"]
    rules = [b["bbox"] for b in blocks if b.get("type") == 3
             and min(b["bbox"][2] - b["bbox"][0], b["bbox"][3] - b["bbox"][1]) <= RULE_WIDTH]
    items = _items(blocks, rules, page.rect.width)
    if ruled[0] > 0 and _missed_grid(items, rules):
        ruled[0] -= 1
        items = _with_tables(items, _ruled_tables(page, items))
    return items


def meaningful_title(title: Optional[str]) -> Optional[str]:
    """The metadata title, unless it is empty, a file name or a program's placeholder."""
    title = one_line(title)
    if len(title) < 2 or not any(ch.isalpha() for ch in title) or NOT_A_TITLE.search(title):
        return None
    return title


def page_ranges(numbers: list[int]) -> str:
    """'1, 3, 5-7' for [1, 3, 5, 6, 7]."""
    parts, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            parts.append(str(n) if n == start else f"{start}-{n}")
            start = None
    return ", ".join(parts)


# ---- page content ----------------------------------------------------------

def _items(blocks: list[dict], rules: list, width: float = 0.0) -> list:
    """The Paragraphs and Grids of ``blocks``; ``width``: the page's, where known (``_lines_joined``)."""
    out: list = []
    for block in _lines_joined(_pieces_joined(blocks), width):
        kind = block.get("type")
        if kind == 0:
            para = _paragraph(block)
            if para:
                out.append(para)
        elif kind == 2 and block.get("std") == "Table":
            grid = _grid(block, rules)
            if grid is None:
                out += _items(block.get("blocks", []), rules, width)
            elif _split_into_glyphs(grid):      # a column per character: read as the text it is
                out += _items(_text_blocks(block), rules, width)
            elif grid.rows == 1 and grid.cols == 1:  # a framed box, not a table
                out.append(Paragraph("\n".join(c.text for c in grid.cells if c.text), grid.bbox))
            else:
                out.append(grid)
        elif kind == 2:
            out += _items(block.get("blocks", []), rules, width)
    return out


def _pieces_joined(blocks: list[dict]) -> list[dict]:
    """``blocks`` with each block of one line joined to the text block before it when it goes on that
    block's last line: on its row, within ``PIECE_MARGIN`` of the font size after it ("구  분" is one
    word, the next column is not). Some writers place every character of a table, or every few words
    of a line, by itself ("2" "0" "2" "1" "년"; "※ 중단" then "(중단처분·중도포기자) 포함"), which
    MuPDF gives as a block each, drawings often between them."""
    out: list[dict] = []
    text_at = None     # where in ``out`` the last text block is (drawings may lie between it and a piece)
    for block in blocks:
        if block.get("type") == 0 and not any(_line_text(line).strip() for line in block.get("lines") or []):
            continue       # a space placed by itself
        last = out[text_at] if text_at is not None else None
        pieces = _pieces(block)
        if last is not None and pieces and all(_goes_on(last["lines"], piece) for piece in pieces):
            last["lines"] += pieces      # in place: a row of thousands of glyphs stays linear
            last["bbox"] = [min(last["bbox"][0], block["bbox"][0]), min(last["bbox"][1], block["bbox"][1]),
                            max(last["bbox"][2], block["bbox"][2]), max(last["bbox"][3], block["bbox"][3])]
            continue
        if block.get("type") == 0:
            block = {**block, "lines": list(block.get("lines") or [])}     # MuPDF's own dict is left as it is
            text_at = len(out)
        elif block.get("type") != 3:
            text_at = None
        out.append(block)
    return out


def _goes_on(lines: list[dict], piece: dict) -> bool:
    """Whether ``piece`` goes on the last of ``lines`` or, a glyph after a glyph, just after the last line
    of the row before it: two rows set close together are sometimes placed glyph by glyph in turn, one of
    the upper row, then one of the lower ("2026년 딥테크창" over "개인 및 기업 (신", then "업", "용", ")",
    "사", "정" …)."""
    last = lines[-1]
    if _continues(last, piece):
        return True
    if not (_glyph(piece) and _glyph(last)):
        return False
    above = next((line for line in reversed(lines[-ROW_LOOKBACK:-1]) if not _same_row(last, line)), None)
    return above is not None and _continues(above, piece, margin=SPACE_WIDTH)


def _glyph(line: dict) -> bool:
    return len(_line_text(line).strip()) <= GLYPH_PIECE


def _same_row(line: dict, other: dict) -> bool:
    middle = (other["bbox"][1] + other["bbox"][3]) / 2
    return line["bbox"][1] <= middle <= line["bbox"][3]


def _pieces(block: dict) -> list[dict]:
    """The lines of a text block that may go on the rows before it: its one line, or the few glyphs of a
    block that holds one piece of each of two rows ("학" over " ", "교" over "수")."""
    if block.get("type") != 0:
        return []
    lines = block.get("lines") or []
    if len(lines) == 1:
        return lines
    texts = [line for line in lines if _line_text(line).strip()]
    return texts if len(lines) == 2 and all(_glyph(line) for line in texts) else []


def _continues(line: dict, piece: dict, margin: Optional[float] = None) -> bool:
    """Whether ``piece`` (a line) stands on the row of ``line``, just after it (within ``margin`` font
    sizes, ``PIECE_MARGIN`` unless told), or anywhere after it when it is a number and no margin is told
    (the cells of a table drawn without rules: "합 계" … "22,565" … "24,887")."""
    gap = piece["bbox"][0] - line["bbox"][2]
    if margin is not None:
        margin *= _size(piece)
    else:
        margin = math.inf if NUMBER_CELL.match(_line_text(piece).strip()) else PIECE_MARGIN * _size(piece)
    return _same_row(line, piece) and -_size(piece) <= gap <= margin


@dataclass
class _Printed:
    """A printed row of a text block: where its ink starts and ends (spaces set aside), its font size, text."""
    x0: float
    x1: float
    y0: float
    y1: float
    size: float
    text: str
    table_row: bool     # a gap of ``TAB_GAP`` or three spaces inside it: a row of a table drawn without rules


def _lines_joined(blocks: list[dict], width: float = 0.0) -> list[dict]:
    """``blocks`` with each text block that goes on the paragraph of the text block before it (drawings
    may lie between them) joined to it, its lines after that block's lines (``_paragraph`` sets a newline
    between them, as between the rows of one block).

    MuPDF starts a new block where lines stand further apart than it expects of one paragraph: 한글
    exports at 160-175 % line spacing come out a block per printed line, so a sentence wrapped over lines
    was cut mid-word between paragraphs ("…수온을 높" then "여 바다생물을 감소시키는 등…") and could never
    be quoted whole. ``_runs_on`` tells a wrapped line from the start of the next item. ``width``: the
    page's, where known (a page of few lines may show no column edge but its right margin)."""
    texts = [(i, _printed_rows(block)) for i, block in enumerate(blocks) if block.get("type") == 0]
    column = sorted((row for _, rows in texts for row in rows), key=lambda row: row.x0)
    starts = [row.x0 for row in column]
    margin = width - starts[0] if width and starts else None   # as far from the right as the text from the left
    rows_of = dict(texts)
    out: list[dict] = []
    text_at, rows = None, []    # where in ``out`` the paragraph being built is, and its rows
    for i, block in enumerate(blocks):
        kind = block.get("type")
        if kind == 0:
            more = rows_of[i]
            if text_at is not None and more and rows and _runs_on(rows, more[0], column, starts, margin):
                last = out[text_at]
                last["lines"] = last["lines"] + list(block.get("lines") or [])
                last["bbox"] = [min(last["bbox"][0], block["bbox"][0]), min(last["bbox"][1], block["bbox"][1]),
                                max(last["bbox"][2], block["bbox"][2]), max(last["bbox"][3], block["bbox"][3])]
                rows = rows + more
                continue
            block = {**block, "lines": list(block.get("lines") or [])}
            text_at, rows = len(out), more
        elif kind != 3:
            text_at, rows = None, []
        out.append(block)
    return out


def _runs_on(rows: list[_Printed], row: _Printed, column: list[_Printed], starts: list[float],
             margin: Optional[float] = None) -> bool:
    """Whether ``row`` (the first of a block) is the next printed line of the paragraph whose rows are
    ``rows``: one font size, just below its last line (as far below as the lines before were), starting at
    its left edge (or, after the first line, left of an indented first line or right of an item's mark:
    a hanging indent), the last line reaching the right edge of its column (``_full``) without ending a
    sentence or in a check box, and ``row`` not opening an item or a heading (□ ○ - ㅇ 1. 가. …; a number after
    a paragraph that opened with one), nor either of them a contents line or a table's row."""
    last, size = rows[-1], rows[-1].size
    if size <= 0 or abs(row.size - size) > SIZE_SLACK * size or last.table_row or row.table_row:
        return False
    pitch = row.y1 - last.y1
    if row.y0 < last.y1 - 0.3 * size or pitch > LINE_PITCH * size:
        return False
    if len(rows) > 1 and abs(pitch - (last.y1 - rows[-2].y1)) > PITCH_SLACK * size:
        return False
    if ENDS_SENTENCE.search(last.text) or CHECK_BOX.search(last.text) or LEADER.search(last.text):
        return False
    if ITEM_OPENING.match(row.text) or (NUMBERED.match(row.text) and NUMBERED.match(rows[0].text)):
        return False
    shift = row.x0 - last.x0
    if abs(shift) > LEFT_SLACK * size and not (
            len(rows) == 1 and (-INDENT * size <= shift < 0 or 0 < shift <= INDENT * size
                                and ITEM_OPENING.match(last.text))):
        return False
    return _full(last, row, column, starts, margin)


def _full(last: _Printed, row: _Printed, column: list[_Printed], starts: list[float],
          margin: Optional[float] = None) -> bool:
    """Whether ``last`` reaches the right edge of its column: within ``EDGE_SLACK`` font sizes of it, or
    of the first word of ``row`` (which did not fit on it). The column is the rows starting within
    ``INDENT`` font sizes of ``last``; its edge is the furthest end two of them reach, else the page's
    right ``margin`` (where the page's text is as far from the right as from the left)."""
    size = last.size
    lo = bisect.bisect_left(starts, last.x0 - INDENT * size)
    hi = bisect.bisect_right(starts, last.x0 + INDENT * size)
    ends = sorted((other.x1 for other in column[lo:hi] if other.x1 > last.x0), reverse=True)
    # the furthest end another row reaches too: a lone wider line (a note under a table) is no edge
    edge = next((end for end, other in zip(ends, ends[1:]) if other >= end - EDGE_SLACK * size), margin)
    if edge is None:
        return False
    word = row.text.split()[0] if row.text.split() else ""
    slack = max(EDGE_SLACK, min(WORD_SLACK, _ems(" " + word))) * size
    return last.x1 >= edge - slack


def _printed_rows(block: dict) -> list[_Printed]:
    """The rows of a text block as ``_runs_on`` weighs them."""
    out = []
    for row in _rows(block.get("lines") or []):
        inks = [ink for line in row for span in line["spans"] for ink in [_ink(span)] if ink]
        if not inks:
            continue
        pieces = sorted(row, key=lambda line: line["bbox"][0])
        size = max(_size(line) for line in row)
        gaps = any(b["bbox"][0] - a["bbox"][2] > TAB_GAP * size for a, b in zip(pieces, pieces[1:]))
        text = _row_text(row).strip()
        out.append(_Printed(min(x0 for x0, _ in inks), max(x1 for _, x1 in inks),
                            min(line["bbox"][1] for line in row), max(line["bbox"][3] for line in row),
                            size, text, gaps or "   " in text))
    return out


def _ink(span: dict) -> Optional[tuple[float, float]]:
    """Where a span's characters other than spaces start and end: its box less its leading and trailing
    spaces, their width guessed from the characters' widths (a Hangul syllable a full em, a space a third)."""
    text = _clean(span["text"])
    core = text.strip()
    if not core:
        return None
    x0, x1 = span["bbox"][0], span["bbox"][2]
    total = _ems(text)
    if total <= 0 or core == text:
        return x0, x1
    lead = _ems(text[:len(text) - len(text.lstrip())])
    trail = _ems(text[len(text.rstrip()):])
    return x0 + (x1 - x0) * lead / total, x1 - (x1 - x0) * trail / total


def _ems(text: str) -> float:
    """Roughly how wide ``text`` is, in font sizes."""
    return sum(0.3 if ch.isspace() else 1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.55 for ch in text)


def _paragraph(block: dict) -> Optional[Paragraph]:
    """A text block as one paragraph: the lines of one row left to right, rows joined by a newline.

    Some writers draw a row's Hangul first and its Latin letters and digits after it ("소켓 구입 개 원"
    then "DMD (00 ×0000 )"), each piece a line of its own: a row's pieces are put in order by where they
    stand, with a space only where a gap shows one. A line ending in a hyphen runs on into the next
    without the hyphen, unless the hyphen joins two capitalised parts of a name ("Science-" "Metrix").
    """
    text = ""
    size, most = 0.0, 0
    for row in _rows(block["lines"]):
        for line in row:
            for span in line["spans"]:
                if len(span["text"]) > most:
                    size, most = span["size"], len(span["text"])
        row_text = _row_text(row)
        if text and text[-1] in HYPHENS and row_text[0].isalpha() and not (
                text[-1] == "-" and text[-2:-1].isalpha() and row_text[0].isupper()):
            text = text[:-1] + row_text  # a word broken over two lines, as pdftotext joins it ("Nether-" "lands")
        else:
            text += ("\n" if text else "") + row_text
    if not text:
        return None
    return Paragraph(text, list(block["bbox"]), round(size * 2) / 2)


def _rows(lines: list[dict]) -> list[list[dict]]:
    """The lines with text grouped into rows, in the order the rows come: a line whose middle lies
    within the height of the line before it is on its row; a glyph may be on the row before that one
    (two rows placed glyph by glyph in turn: ``_goes_on``)."""
    rows: list[list[dict]] = []
    for line in lines:
        if not _line_text(line).strip():
            continue
        if rows and _same_row(rows[-1][-1], line):
            rows[-1].append(line)
        elif len(rows) > 1 and _glyph(line) and _glyph(rows[-1][-1]) and _same_row(rows[-2][-1], line):
            rows[-2].append(line)     # glyphs of two rows in turn (``_goes_on``)
        else:
            rows.append([line])
    return rows


def _row_text(row: list[dict]) -> str:
    """A row's lines left to right; a space between two where the gap is wider than ``WORD_GAP`` of the
    font size, none where they touch. A piece drawn again over itself (a shadow or a bold effect:
    "언어자원" twice, a point apart) is read once."""
    text, right, last = "", None, None
    for line in sorted(row, key=lambda line: line["bbox"][0]):
        piece = _line_text(line)
        x0, x1 = line["bbox"][0], line["bbox"][2]
        if last is not None and piece.strip() == last.strip() and right - x0 > (x1 - x0) / 2:
            continue
        if right is not None and x0 - right > WORD_GAP * _size(line):
            text = text.rstrip() + " " + piece.lstrip()
        else:
            text += piece
        right, last = x1, piece
    return text.strip()


def _line_text(line: dict) -> str:
    return _clean("".join(span["text"] for span in line["spans"]))


def _size(line: dict) -> float:
    """The largest font size of a line's spans."""
    return max((span["size"] for span in line["spans"]), default=0.0)


def _split_into_glyphs(grid: Grid) -> bool:
    """Whether MuPDF's table hunt cut a table between its characters (a cell per glyph of "(△19.5)"):
    many columns, nearly every filled cell one character (a month's day columns "1" … "31" are not)."""
    filled = [c for c in grid.cells if c.text.strip()]
    glyphs = sum(1 for c in filled if len(c.text.strip()) == 1)
    return grid.cols >= GLYPH_COLUMNS and glyphs > GLYPH_SHARE * len(filled)


def _text_blocks(block: dict) -> list[dict]:
    """The text blocks under a structure block, in order."""
    out = []
    for child in block.get("blocks", []):
        if child.get("type") == 0:
            out.append(child)
        elif child.get("type") == 2:
            out += _text_blocks(child)
    return out


def _grid(block: dict, rules: list) -> Optional[Grid]:
    """A hunted table: cells placed on the table's column and row lines, spans from their extent.

    MuPDF gives a merged cell only the extent of its text; where no ruled line
    separates it from an empty neighbour, the cell is widened over it (``_merge``).
    """
    children = block.get("blocks", [])
    lines = next((b for b in children if b.get("type") == 4), None)
    if lines is None or len(lines["xpos"]) < 2 or len(lines["ypos"]) < 2:
        return None
    xs = [x for x, _ in lines["xpos"]]
    ys = [y for y, _ in lines["ypos"]]
    grid = Grid(rows=len(ys) - 1, cols=len(xs) - 1, bbox=list(block["bbox"]))
    for row in children:
        if row.get("type") != 2:
            continue
        for cell in row.get("blocks", []):
            if cell.get("type") != 2:
                continue
            x0, y0, x1, y1 = cell["bbox"]
            r, c = _nearest(ys, y0), _nearest(xs, x0)
            grid.cells.append(Cell(row=r, col=c, text=_text_of(cell.get("blocks", [])),
                                   row_span=max(1, _nearest(ys, y1) - r),
                                   col_span=max(1, _nearest(xs, x1) - c), bbox=[x0, y0, x1, y1]))
    if not any(c.text for c in grid.cells):
        return None
    _merge(grid, xs, ys, rules)
    return grid


def _merge(grid: Grid, xs: list[float], ys: list[float], rules: list) -> None:
    """Widen cells over empty neighbour slots that no rule separates them from (merged cells)."""
    taken = {(r, c) for cell in grid.cells for r in range(cell.row, cell.row + cell.row_span)
             for c in range(cell.col, cell.col + cell.col_span)}
    if len(taken) == grid.rows * grid.cols:
        return
    rules = [r for r in rules if _inside(r, grid.bbox)]
    vertical = [r for r in rules if r[3] - r[1] > r[2] - r[0]]
    horizontal = [r for r in rules if r[3] - r[1] <= r[2] - r[0]]
    if not vertical or not horizontal:  # an unruled table: no way to tell a merge from a gap
        return

    def free(rows, cols) -> bool:
        return not any((r, c) in taken for r in rows for c in cols)

    for cell in grid.cells:
        rows = range(cell.row, cell.row + cell.row_span)
        middle = (ys[rows.start] + ys[rows.stop]) / 2
        while cell.col > 0 and free(rows, [cell.col - 1]) and not _ruled(vertical, xs[cell.col], middle):
            cell.col, cell.col_span = cell.col - 1, cell.col_span + 1
        while (cell.col + cell.col_span < grid.cols and free(rows, [cell.col + cell.col_span])
               and not _ruled(vertical, xs[cell.col + cell.col_span], middle)):
            cell.col_span += 1
        cols = range(cell.col, cell.col + cell.col_span)
        middle = (xs[cols.start] + xs[cols.stop]) / 2
        while cell.row > 0 and free([cell.row - 1], cols) and not _ruled(horizontal, ys[cell.row], middle):
            cell.row, cell.row_span = cell.row - 1, cell.row_span + 1
        while (cell.row + cell.row_span < grid.rows and free([cell.row + cell.row_span], cols)
               and not _ruled(horizontal, ys[cell.row + cell.row_span], middle)):
            cell.row_span += 1
        taken.update((r, c) for r in range(cell.row, cell.row + cell.row_span) for c in cols)
        cell.bbox = [xs[cell.col], ys[cell.row], xs[cell.col + cell.col_span], ys[cell.row + cell.row_span]]


def _ruled(rules: list, at: float, middle: float) -> bool:
    """Whether one of ``rules`` (all vertical or all horizontal) lies on the line ``at`` across ``middle``."""
    for x0, y0, x1, y1 in rules:
        if y1 - y0 > x1 - x0:  # vertical: at is an x, middle a y
            if x0 - SNAP <= at <= x1 + SNAP and y0 <= middle <= y1:
                return True
        elif y0 - SNAP <= at <= y1 + SNAP and x0 <= middle <= x1:
            return True
    return False


def _inside(rect, box) -> bool:
    return (box[0] - SNAP <= rect[0] and rect[2] <= box[2] + SNAP
            and box[1] - SNAP <= rect[1] and rect[3] <= box[3] + SNAP)


def _text_of(blocks: list[dict]) -> str:
    """All text under a structure block (a cell, a nested table), one paragraph per line."""
    parts = []
    for block in _pieces_joined(blocks):
        if block.get("type") == 0:
            para = _paragraph(block)
            if para:
                parts.append(para.text)
        elif block.get("type") == 2:
            inner = _text_of(block.get("blocks", []))
            if inner:
                parts.append(inner)
    return "\n".join(parts)


def _nearest(positions: list[float], value: float) -> int:
    i = bisect.bisect_left(positions, value)
    if i > 0 and (i == len(positions) or value - positions[i - 1] <= positions[i] - value):
        return i - 1
    return i


def _clean(text: str) -> str:
    return text.replace("\xa0", " ").replace("\ufffd", "")


# ---- ruled tables the hunt missed ------------------------------------------

def _missed_grid(items: list, rules: list) -> bool:
    """Whether a page looks like a form whose ruled table MuPDF's hunt did not find: at least
    ``MISSED_CELLS`` short paragraphs stand among rules, both ways, that lie outside every table found."""
    grids = [item.bbox for item in items if isinstance(item, Grid)]
    free = [r for r in rules if not any(_inside(r, box) for box in grids)]
    vertical = [r for r in free if r[3] - r[1] > r[2] - r[0]]
    if len(vertical) < MISSED_RULES or len(free) - len(vertical) < MISSED_RULES:
        return False
    x0, y0 = min(r[0] for r in free), min(r[1] for r in free)
    x1, y1 = max(r[2] for r in free), max(r[3] for r in free)
    cells = [item for item in items if isinstance(item, Paragraph) and len(item.text) <= CELL_CHARS
             and _inside(item.bbox, [x0, y0, x1, y1])]
    return len(cells) >= MISSED_CELLS


def _ruled_tables(page: pymupdf.Page, items: list) -> list[Grid]:
    """The tables ``page.find_tables`` sees in the page's rules, each cell with the text it puts in it
    (it places every character; MuPDF's paragraphs may run across cells). Tables of one row or one
    column (a framed heading), tables overlapping one the hunt found, and frames around whole passages
    (a cell of more than ``CELL_LINES`` lines: an exam's two columns) are left out."""
    grids = [item.bbox for item in items if isinstance(item, Grid)]
    out = []
    # pieces shorter than find_tables' shortest edge (the dots of a dotted rule: thousands on a form page)
    # only slow its grouping of the page's drawings, quadratic in their number
    paths = [p for p in page.get_drawings() if max(p["rect"].width, p["rect"].height) >= EDGE_MIN]
    for table in page.find_tables(strategy="lines", paths=paths).tables:
        box = list(table.bbox)
        if table.row_count < 2 or table.col_count < 2 or any(_overlap(box, other) for other in grids):
            continue
        slots = [(cell, text) for row, texts in zip(table.rows, table.extract())
                 for cell, text in zip(row.cells, texts) if cell is not None]
        xs = sorted({round(v, 1) for cell, _ in slots for v in (cell[0], cell[2])})
        ys = sorted({round(v, 1) for cell, _ in slots for v in (cell[1], cell[3])})
        grid, seen = Grid(rows=len(ys) - 1, cols=len(xs) - 1, bbox=box), set()
        for (x0, y0, x1, y1), text in slots:
            r, c = _nearest(ys, y0), _nearest(xs, x0)
            if (r, c) not in seen:
                seen.add((r, c))
                grid.cells.append(Cell(row=r, col=c, text=_clean(text or "").strip(),
                                       row_span=max(1, _nearest(ys, y1) - r),
                                       col_span=max(1, _nearest(xs, x1) - c), bbox=[x0, y0, x1, y1]))
        if sum(1 for cell in grid.cells if cell.text) >= 2 and all(
                cell.text.count("\n") < CELL_LINES for cell in grid.cells):
            out.append(grid)
    return out


def _with_tables(items: list, grids: list[Grid]) -> list:
    """``items`` with each of ``grids`` standing where the first paragraph it holds stood, and the
    paragraphs it holds left out; a grid missing any character of those paragraphs is not used (the
    paragraphs stay: text is never lost to a table)."""
    held = {id(grid): [item for item in items if isinstance(item, Paragraph) and _centred_in(item.bbox, grid.bbox)]
            for grid in grids}
    whole = [grid for grid in grids if not _letters("".join(p.text for p in held[id(grid)]))
             - _letters("".join(cell.text for cell in grid.cells))]
    owner = {}      # a paragraph's grid: the first whole grid holding it
    for grid in whole:
        for paragraph in held[id(grid)]:
            owner.setdefault(id(paragraph), grid)
    out, placed = [], set()
    for item in items:
        grid = owner.get(id(item))
        if grid is None:
            out.append(item)
        elif id(grid) not in placed:
            placed.add(id(grid))
            out.append(grid)
    return out


def _letters(text: str) -> Counter:
    return Counter(ch for ch in text if not ch.isspace())


def _centred_in(rect, box) -> bool:
    x, y = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _chars(items: list) -> int:
    """Visible characters on a page."""
    total = 0
    for item in items:
        texts = [item.text] if isinstance(item, Paragraph) else [c.text for c in item.cells]
        total += sum(len("".join(t.split())) for t in texts)
    return total


# ---- OCR ------------------------------------------------------------------

def _ocr_pictures(pdf: pymupdf.Document, pages: list[list], doc: DocumentBuilder) -> None:
    """Replace the content of scanned pages with OCR text (all pages when the PDF has no text),
    up to ``max_ocr_pages`` pages and ``max_ocr_seconds`` per document; the pages left out are
    named in an OCR_PAGES_SKIPPED warning."""
    no_text = not any(pages)
    wanted = [n for n, items in enumerate(pages)
              if no_text or (_chars(items) < ALMOST_NO_TEXT and _picture_share(pdf[n]) >= LARGE_PICTURE)]
    if not wanted:
        return
    if not ocr.ocr_available():
        if not no_text:  # the caller reports NO_TEXT for a PDF with no text at all
            doc.warn("NO_OCR")
        return
    if ocr.defer():
        return
    session = ocr.OcrSession()
    started = time.monotonic()
    skipped = wanted[doc.limits.max_ocr_pages:]
    for i, n in enumerate(wanted[:doc.limits.max_ocr_pages]):
        if time.monotonic() - started > doc.limits.max_ocr_seconds:
            skipped = wanted[i:]
            break
        found = [Paragraph(t.text, t.bbox, extractor="ocr") for t in session.read_page(pdf[n])]
        if found or no_text:
            pages[n] = found
        if found:
            doc.warn("OCR_TEXT")
    if skipped:
        doc.warn("OCR_PAGES_SKIPPED", pages=page_ranges([n + 1 for n in skipped]))


def _has_marks(page: pymupdf.Page) -> bool:
    """Whether a page shows anything at all: pictures or drawings (a blank page does not)."""
    return bool(page.get_image_info() or page.get_cdrawings())


def _picture_share(page: pymupdf.Page) -> float:
    """How much of the page its pictures cover (0…1, overlaps counted twice)."""
    area = abs(page.rect)
    if not area:
        return 0.0
    covered = sum(abs(pymupdf.Rect(info["bbox"]) & page.rect) for info in page.get_image_info())
    return min(1.0, covered / area)


# ---- page furniture -------------------------------------------------------

def _page_furniture(pages: list[list], heights: list[float]) -> dict[int, str]:
    """Running heads and page numbers: ``id`` of a Paragraph -> "header" or "footer".

    A PDF keeps no trace of what was a header or footer in the writer, so the running head
    ("해양수산 수소경제 기술 활성화 방안 연구") and the page number ("- 7 -", "- iii -") of every page
    came out as body paragraphs, between the sentences of every page, in search chunks and answers.
    A line of at most ``FURNITURE_CHARS`` characters in the top or bottom ``FURNITURE_BAND`` of its page
    is furniture when the same line (a number at either end set aside: "326  한국문헌정보학회지 …",
    "… 현황  327") stands on that side at one height on at least ``FURNITURE_PAGES`` pages and
    ``FURNITURE_SHARE`` of the pages with text (a head on every other page counts); a lone page number
    ("7", "- iii -", "7 / 35") is furniture wherever it is its page's outermost line within
    ``NUMBER_BAND`` of the top or bottom. A body line that merely sits near the margin of one page stays.
    """
    found: dict[int, str] = {}
    places: dict[tuple[str, str], list[tuple[float, int, Paragraph]]] = defaultdict(list)
    for n, items in enumerate(pages):
        for item in items:
            if not isinstance(item, Paragraph) or "\n" in item.text or len(item.text) > FURNITURE_CHARS:
                continue
            side = _band(item.bbox, heights[n], FURNITURE_BAND)
            if side is None:
                continue
            text = " ".join(item.text.split())
            lone = PAGE_NUMBER.fullmatch(text) is not None
            if lone and _band(item.bbox, heights[n], NUMBER_BAND) == side and _outermost(item, items, side):
                found[id(item)] = side
            places[side, "#" if lone else END_NUMBER.sub("#", text)].append((item.bbox[1], n, item))
    wanted = max(FURNITURE_PAGES, FURNITURE_SHARE * sum(1 for items in pages if items))
    for (side, _), found_at in places.items():
        found_at.sort(key=lambda place: place[0])
        tops = [top for top, _, _ in found_at]
        best = max((found_at[i:bisect.bisect_right(tops, top + FURNITURE_SLACK)] for i, top in enumerate(tops)),
                   key=lambda run: len({n for _, n, _ in run}))
        if len({n for _, n, _ in best}) >= wanted:
            found.update((id(item), side) for _, _, item in best)
    return found


def _band(bbox: list[float], height: float, share: float) -> Optional[str]:
    """Which band a box stands in: "header" within ``share`` of the page's height from its top, "footer" from its
    bottom, else None."""
    if bbox[3] <= share * height:
        return "header"
    if bbox[1] >= (1 - share) * height:
        return "footer"
    return None


def _outermost(item: Paragraph, items: list, side: str) -> bool:
    """Whether nothing else on the page stands above (header) or below (footer) ``item``'s row."""
    if side == "header":
        return all(other.bbox[1] >= item.bbox[1] - SNAP for other in items if other is not item)
    return all(other.bbox[3] <= item.bbox[3] + SNAP for other in items if other is not item)


# ---- output ---------------------------------------------------------------

def _heading_levels(pages: list[list]) -> dict[float, int]:
    """Font size -> heading level for sizes clearly above the body size (the most used one)."""
    sizes: Counter = Counter()
    for items in pages:
        for item in items:
            if isinstance(item, Paragraph) and item.size:
                sizes[item.size] += len(item.text)
    if not sizes:
        return {}
    body = sizes.most_common(1)[0][0]
    larger = sorted((s for s in sizes if s >= body * HEADING_RATIO), reverse=True)
    return {size: min(level, 6) for level, size in enumerate(larger, start=1)}


def _emit(doc: DocumentBuilder, item, page: int, levels: dict[float, int], furniture: Optional[str] = None) -> None:
    """Add ``item`` as a table, or a block of type ``furniture`` ("header"/"footer"), heading or paragraph."""
    if isinstance(item, Grid):
        for cell in item.cells:
            cell.page = page
        doc.add_table(item.rows, item.cols, item.cells, page=page, bbox=item.bbox)
        return
    level = levels.get(item.size) if len(item.text) <= HEADING_MAX_CHARS else None
    if item.extractor == "ocr":
        doc.add_block(furniture or "paragraph", item.text, page=page, bbox=item.bbox,
                      extractor="ocr", confidence=ocr.CONFIDENCE)
    elif furniture:
        doc.add_block(furniture, item.text, page=page, bbox=item.bbox)
    elif level:
        doc.add_block("heading", item.text, page=page, bbox=item.bbox, level=level)
    else:
        doc.add_block("paragraph", item.text, page=page, bbox=item.bbox)
