"""DOC reader (Word 97-2003 binary, MS-DOC): text through the piece table, simple tables from paragraph marks.

The ``WordDocument`` stream starts with the FIB, which names the table
stream (``0Table``/``1Table``), how long each story is (main text,
footnotes, headers, comments, endnotes, text boxes) and where the piece
table (``Clx``) is. Each piece is a run of characters stored either as
UTF-16 or as one byte each ("compressed", Windows-1252). Paragraph
properties (the PAPX pages the ``PlcBtePapx`` points to) say which
paragraphs are in a table, which mark ends a row, how deep a table is
nested and which built-in heading style a paragraph has. Field codes
(between 0x13 and 0x14) are not text; their results are. A nested table's
text stays inside its outer cell. Word 6/95 files (an older FIB) are
UNSUPPORTED_VERSION; an encrypted or obfuscated file is PASSWORD_PROTECTED.

Written here because no maintained Python library reads .doc text with its
tables (antiword and LibreOffice are programs, not libraries we may ship).
"""
from __future__ import annotations

import bisect
import io
import struct
from dataclasses import dataclass
from typing import Optional

import olefile

from engine.model import Cell
from engine.read.failures import ReadFailure
from engine.read.formats.base import DocumentBuilder
from engine.read.formats.docx import meaningful_title
from engine.read.formats.ole import ole_title

WORD97_NFIB = 0xC1             # Word 97 and later
WORD6_NFIBS = range(101, 106)  # Word 6.0 / 95
F_ENCRYPTED, F_WHICH_TABLE, F_OBFUSCATED = 0x0100, 0x0200, 0x8000
CLX_PAIR, BTE_PAPX_PAIR = 33, 13   # indexes of (fc, lcb) pairs in FibRgFcLcb97
FKP_PAGE = 512
# The stories after the main text, in the order they follow it, and the block type they become.
STORIES = (("footnote", 4), ("header", 5), ("macro", 6), ("comment", 7), ("endnote", 8),
           ("textbox", 9), ("textbox", 10))
SPRM_IN_TABLE, SPRM_TTP, SPRM_ITAP, SPRM_INNER_TTP = 0x2416, 0x2417, 0x6649, 0x244C
HEADING_STYLES = range(1, 10)  # fixed style indexes of the built-in 제목/Heading 1-9
FIELD_BEGIN, FIELD_SEPARATOR, FIELD_END = "\x13", "\x14", "\x15"
CELL_MARK, PARAGRAPH_MARKS = "\x07", "\r\x07\x0c\x0e"
_DROPPED = dict.fromkeys(map(ord, "\x01\x02\x03\x04\x05\x06\x08\x1f"), None)
_REPLACED = {ord("\x0b"): "\n", ord("\x1e"): "-", ord("\xa0"): " ", ord("\t"): " "}


@dataclass
class _Para:
    text: str
    end: str              # the mark that ends it: "\r", CELL_MARK, page/column break
    in_table: bool = False
    row_end: bool = False
    depth: int = 0        # table nesting (1 = a cell of an outer table)
    style: int = 0


def read(data: bytes, doc: DocumentBuilder) -> None:
    """Add the text, tables and notes of the Word 97-2003 document in ``data`` to ``doc``."""
    with olefile.OleFileIO(io.BytesIO(data)) as ole:
        word = ole.openstream("WordDocument").read()
        fib = _Fib(word)
        table_name = "1Table" if fib.flags & F_WHICH_TABLE else "0Table"
        if not ole.exists(table_name):
            raise ReadFailure("CORRUPT", "no table stream")
        table = ole.openstream(table_name).read()
    pieces = _pieces(_slice(table, *fib.pair(CLX_PAIR)))
    styles = _paragraph_properties(word, table, fib)
    text = _Text(word, pieces, styles)
    _emit(doc, text.paragraphs(0, fib.ccp(3)))
    start = fib.ccp(3)
    for kind, index in STORIES:
        length = fib.ccp(index)
        if kind != "macro":
            for para in text.paragraphs(start, start + length):
                if para.text.strip():
                    doc.add_block(kind, para.text.strip())
        start += length
    doc.set_title(meaningful_title(ole_title(data)))


class _Fib:
    """The parts of the File Information Block this reader needs."""

    def __init__(self, word: bytes):
        if len(word) < 0x1A6 + 4 or struct.unpack_from("<H", word, 0)[0] != 0xA5EC:
            raise ReadFailure("CORRUPT", "no FIB")
        self.word = word
        self.nfib, = struct.unpack_from("<H", word, 2)
        self.flags, = struct.unpack_from("<H", word, 0x0A)
        if self.flags & (F_ENCRYPTED | F_OBFUSCATED):
            raise ReadFailure("PASSWORD_PROTECTED")
        if self.nfib < WORD97_NFIB:
            raise ReadFailure("UNSUPPORTED_VERSION" if self.nfib in WORD6_NFIBS else "CORRUPT")
        csw, = struct.unpack_from("<H", word, 32)
        self.rglw = 32 + 2 + 2 * csw + 2
        cslw, = struct.unpack_from("<H", word, self.rglw - 2)
        self.rgfclcb = self.rglw + 4 * cslw + 2

    def ccp(self, index: int) -> int:
        """The index-th DWORD of FibRgLw97 (3: main text length, 4: footnotes, …)."""
        return struct.unpack_from("<i", self.word, self.rglw + 4 * index)[0]

    def pair(self, index: int) -> tuple[int, int]:
        return struct.unpack_from("<II", self.word, self.rgfclcb + 8 * index)


@dataclass
class _Piece:
    cp: int            # first character position
    end: int           # one past the last
    fc: int            # byte offset of the first character in WordDocument
    compressed: bool   # one byte per character


def _pieces(clx: bytes) -> list[_Piece]:
    """The piece table (PlcPcd) inside the Clx: a Pcdt after any number of Prc."""
    pos = 0
    while pos < len(clx):
        if clx[pos] == 1:      # Prc: property modifiers, skipped
            pos += 3 + struct.unpack_from("<h", clx, pos + 1)[0]
        elif clx[pos] == 2:
            size, = struct.unpack_from("<I", clx, pos + 1)
            plc = clx[pos + 5:pos + 5 + size]
            count = (len(plc) - 4) // 12
            cps = struct.unpack_from(f"<{count + 1}I", plc, 0)
            out = []
            for i in range(count):
                fc, = struct.unpack_from("<I", plc, 4 * (count + 1) + 8 * i + 2)
                compressed = bool(fc & 0x40000000)
                fc &= 0x3FFFFFFF
                out.append(_Piece(cps[i], cps[i + 1], fc // 2 if compressed else fc, compressed))
            return out
        else:
            break
    raise ReadFailure("CORRUPT", "no piece table")


def _paragraph_properties(word: bytes, table: bytes, fib: _Fib) -> list[tuple[int, int, dict]]:
    """(first byte, end byte, properties) of every paragraph run the PAPX pages describe."""
    plc = _slice(table, *fib.pair(BTE_PAPX_PAIR))
    count = (len(plc) - 4) // 8
    if count <= 0:
        return []
    runs = []
    for pn in struct.unpack_from(f"<{count}I", plc, 4 * (count + 1)):
        page = word[(pn & 0x3FFFFF) * FKP_PAGE:][:FKP_PAGE]
        if len(page) < FKP_PAGE:
            continue
        crun = page[-1]
        fcs = struct.unpack_from(f"<{crun + 1}I", page, 0)
        for i in range(crun):
            offset = page[4 * (crun + 1) + 13 * i] * 2
            runs.append((fcs[i], fcs[i + 1], _papx(page, offset) if offset else {}))
    return sorted(runs, key=lambda run: run[0])


def _papx(page: bytes, offset: int) -> dict:
    """Style and table properties of one PapxInFkp."""
    size = page[offset]
    if size == 0:
        size, start = 2 * page[offset + 1], offset + 2
    else:
        size, start = 2 * size - 1, offset + 1
    grpprl = page[start:start + size]
    props = {"style": struct.unpack_from("<H", grpprl, 0)[0] if len(grpprl) >= 2 else 0}
    for sprm, operand in _sprms(grpprl[2:]):
        if sprm == SPRM_IN_TABLE:
            props["in_table"] = bool(operand[:1] and operand[0])
        elif sprm == SPRM_TTP:
            props["row_end"] = bool(operand[:1] and operand[0])
        elif sprm == SPRM_INNER_TTP:
            props["inner_row_end"] = bool(operand[:1] and operand[0])
        elif sprm == SPRM_ITAP and len(operand) >= 4:
            props["depth"] = struct.unpack_from("<i", operand, 0)[0]
    return props


def _sprms(grpprl: bytes):
    """(sprm, operand bytes) pairs; the operand size comes from the sprm's spra bits."""
    pos = 0
    while pos + 2 <= len(grpprl):
        sprm, = struct.unpack_from("<H", grpprl, pos)
        pos += 2
        spra = sprm >> 13
        if spra == 6:    # variable: a size byte first (sprmTDefTable: a size word)
            if sprm == 0xD608 and pos + 2 <= len(grpprl):
                size = struct.unpack_from("<H", grpprl, pos)[0] + 1
            else:
                size = (grpprl[pos] if pos < len(grpprl) else 0) + 1
        else:
            size = {0: 1, 1: 1, 2: 2, 3: 4, 4: 2, 5: 2, 7: 3}[spra]
        yield sprm, grpprl[pos:pos + size]
        pos += size


class _Text:
    """Characters of the document by character position, with the paragraph properties of each mark."""

    def __init__(self, word: bytes, pieces: list[_Piece], runs: list[tuple[int, int, dict]]):
        self.word = word
        self.pieces = pieces
        self.runs = runs
        self._starts = [run[0] for run in runs]

    def paragraphs(self, start: int, end: int) -> list[_Para]:
        """The paragraphs between character positions ``start`` and ``end``, field codes removed."""
        out: list[_Para] = []
        current: list[str] = []
        fields: list[bool] = []     # per open field: still in its code part
        for cp, ch, fc in self._chars(start, end):
            if ch == FIELD_BEGIN:
                fields.append(True)
            elif ch == FIELD_SEPARATOR and fields:
                fields[-1] = False
            elif ch == FIELD_END and fields:
                fields.pop()
            elif ch in PARAGRAPH_MARKS:
                out.append(self._para("".join(current), ch, fc))
                current = []
            elif not any(fields):
                current.append(ch)
        if "".join(current).strip():
            out.append(_Para(_clean("".join(current)), "\r"))
        return out

    def _chars(self, start: int, end: int):
        for piece in self.pieces:
            lo, hi = max(start, piece.cp), min(end, piece.end)
            if lo >= hi:
                continue
            width = 1 if piece.compressed else 2
            first = piece.fc + (lo - piece.cp) * width
            raw = self.word[first:first + (hi - lo) * width]
            text = raw.decode("cp1252", errors="replace") if piece.compressed \
                else raw.decode("utf-16-le", errors="replace")
            for i, ch in enumerate(text):
                yield lo + i, ch, first + i * width

    def _para(self, text: str, mark: str, fc: int) -> _Para:
        props = self._props(fc)
        depth = props.get("depth", 1 if props.get("in_table") else 0)
        row_end = props.get("row_end", False) if depth <= 1 else props.get("inner_row_end", False)
        return _Para(_clean(text), mark, in_table=bool(props.get("in_table") or depth),
                     row_end=row_end, depth=depth, style=props.get("style", 0))

    def _props(self, fc: int) -> dict:
        """Properties of the paragraph whose mark is at byte ``fc``."""
        i = bisect.bisect_right(self._starts, fc) - 1
        if i >= 0 and self.runs[i][0] <= fc < self.runs[i][1]:
            return self.runs[i][2]
        return {}


def _emit(doc: DocumentBuilder, paras: list[_Para]) -> None:
    """Body paragraphs and headings; runs of table paragraphs become Tables."""
    rows: list[list[str]] = []
    row: list[str] = []
    cell: list[str] = []
    for para in paras:
        if not para.in_table:
            _flush_table(doc, rows, row, cell)
            rows, row, cell = [], [], []
            if para.text.strip():
                if para.style in HEADING_STYLES:
                    doc.add_block("heading", para.text.strip(), level=para.style)
                else:
                    doc.add_block("paragraph", para.text.strip())
            continue
        if para.depth > 1:        # a nested table: its text stays in the outer cell
            if para.text.strip():
                cell.append(para.text.strip())
            continue
        if para.row_end:
            if row or cell:
                rows.append(row + (["\n".join(cell)] if cell else []))
            row, cell = [], []
        elif para.end == CELL_MARK:
            cell.append(para.text.strip())
            row.append("\n".join(t for t in cell if t))
            cell = []
        elif para.text.strip():
            cell.append(para.text.strip())
    _flush_table(doc, rows, row, cell)


def _flush_table(doc: DocumentBuilder, rows: list[list[str]], row: list[str], cell: list[str]) -> None:
    if row or cell:
        rows = rows + [row + (["\n".join(cell)] if cell else [])]
    cells = [Cell(row=r, col=c, text=text) for r, cells in enumerate(rows)
             for c, text in enumerate(cells) if text.strip()]
    if cells:
        doc.add_table(len(rows), max(len(r) for r in rows), cells)


def _slice(stream: bytes, fc: int, lcb: int) -> bytes:
    if lcb == 0 or fc + lcb > len(stream):
        return b""
    return stream[fc:fc + lcb]


def _clean(text: str) -> str:
    return text.translate(_DROPPED).translate(_REPLACED)
