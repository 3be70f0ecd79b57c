"""One HWPX section (``Contents/section<N>.xml``) as paragraphs, tables and notes.

Elements are matched by local name, so the 2011 and 2016 OWPML namespaces
read alike. A paragraph (``p``) holds runs; a run holds text (``t``) and
objects: tables (``tbl``), controls (``ctrl``: header, footer, footNote,
endNote, fields …) and drawing objects whose ``drawText`` is a text box.
Text of notes, text boxes, captions and cells is kept apart from the text of
the paragraph that anchors them. Field instructions (``fieldBegin``), hidden
comments and section properties are not text and are skipped.

Pages are estimated from the line segments (``lineseg``) Hangul stores with
each body paragraph: their ``vertpos`` restarts near zero on a new page (or a
new column), a paragraph may force a page break, every section starts a page,
and a table taller than the rest of the page pushes the next paragraph on.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from lxml import etree

from engine.read.formats.hancom_chars import readable
from engine.read.formats.hwpx.package import local, parse_xml

# Inline children of <t> that stand for a character.
_INLINE_CHARS = {"tab": "\t", "lineBreak": "\n", "columnBreak": "\n", "nbSpace": " ",
                 "fwSpace": " ", "hyphen": "-"}
_NOTE_KINDS = {"header": "header", "footer": "footer", "footNote": "footnote",
               "endNote": "endnote", "drawText": "textbox", "caption": "caption"}
# Elements whose content is never document text.
_SKIP = {"fieldBegin", "hiddenComment", "secPr", "shapeComment", "parameters", "linesegarray"}
_BLANK_LINES = re.compile(r"\n\s*\n+")
# Drawing objects: pictures, shapes, OLE objects, charts (a section of only these has no text but is no empty file).
_DRAWN = tuple(f"{{*}}{name}" for name in ("pic", "ole", "chart", "video", "rect", "ellipse", "arc", "polygon",
                                           "curve", "line", "connectLine", "container"))


class SectionError(Exception):
    """The section part is not well-formed XML."""


@dataclass
class Note:
    """Text outside the body flow: header, footer, footnote, endnote, textbox or caption."""
    kind: str
    paras: list["Para"]

    @property
    def text(self) -> str:
        return _join(p.text for p in self.paras)


@dataclass
class Para:
    """A paragraph as pieces in document order: text (str), Table and Note objects."""
    pieces: list = field(default_factory=list)
    page: Optional[int] = None       # page the paragraph starts on
    end_page: Optional[int] = None   # page its last line is on

    @property
    def text(self) -> str:
        return "".join(p for p in self.pieces if isinstance(p, str)).strip()

    @property
    def items(self) -> list:
        return [p for p in self.pieces if not isinstance(p, str)]


@dataclass
class CellNode:
    row: int
    col: int
    row_span: int
    col_span: int
    paras: list[Para]

    @property
    def text(self) -> str:
        return _join(p.text for p in self.paras)


@dataclass
class Table:
    rows: int
    cols: int
    cells: list[CellNode]
    caption: Optional[Note] = None


class Pager:
    """Estimates the 1-based page of each body paragraph across all sections."""

    def __init__(self):
        self.pages = 0
        self.has_lines = False      # the file stores line positions at all
        self.most_columns = 1       # the most columns a column definition asked for
        self.drawn = False          # some section holds a drawing object (picture, shape …)
        self._last: Optional[int] = None
        self._columns = 1
        self._column = 0
        self._body_height = 0
        self._spill = 0

    def start_section(self) -> None:
        self.pages += 1
        self._last, self._column, self._spill = None, 0, 0

    def place(self, p) -> tuple[int, int]:
        """The pages ``p`` starts and ends on; also advances past pages its tables fill."""
        self._read_layout(p)
        positions = [_int(seg.get("vertpos")) for seg in _lines(p)]
        self.has_lines = self.has_lines or bool(positions)
        if self._last is not None:
            if p.get("pageBreak") == "1" or self._spill:
                self.pages += max(self._spill, 1)
                self._column = 0
            elif positions and positions[0] < self._last:
                self._next_column()
        page = self.pages
        for before, after in zip(positions, positions[1:]):
            if after < before:
                self._next_column()
        if positions:
            self._last = positions[-1]
        self._spill = self._table_spill(p, positions[0] if positions else 0)
        return page, self.pages

    def _next_column(self) -> None:
        self._column += 1
        if self._column >= self._columns:
            self._column = 0
            self.pages += 1

    def _read_layout(self, p) -> None:
        """Column count and printable height from the controls at the top of a section."""
        for obj in _run_objects(p):
            name = local(obj)
            if name == "ctrl":
                for ctrl in obj:
                    if local(ctrl) == "colPr":
                        self._columns = max(1, _int(ctrl.get("colCount"), 1))
                        self.most_columns = max(self.most_columns, self._columns)
            elif name == "secPr":
                for prop in obj:
                    if local(prop) == "pagePr":
                        self._body_height = _body_height(prop)

    def _table_spill(self, p, top: int) -> int:
        """How many page ends the tables flowing in ``p``'s text run across.

        Tables placed against the paper or page are left out: they do not flow on.
        """
        if self._body_height <= 0:
            return 0
        spill = 0
        for obj in _run_objects(p):
            if local(obj) != "tbl":
                continue
            pos = next((c for c in obj if local(c) == "pos"), None)
            if pos is not None and pos.get("treatAsChar") != "1" and pos.get("vertRelTo") != "PARA":
                continue
            height = next((_int(c.get("height")) for c in obj if local(c) == "sz"), 0)
            spill = max(spill, (top + height) // self._body_height)
        return spill


def read_section(data: bytes, pager: Pager) -> list[Para]:
    """Body paragraphs of one section, each with its page estimate."""
    try:
        root = parse_xml(data)
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise SectionError(str(exc)) from exc
    pager.start_section()
    pager.drawn = pager.drawn or next(root.iter(*_DRAWN), None) is not None
    body = []
    for p in _children(root):
        if local(p) == "p":
            para = paragraph(p)
            para.page, para.end_page = pager.place(p)
            body.append(para)
    return body


def paragraph(p) -> Para:
    """The text of a paragraph and the objects anchored in it."""
    pieces: list = []
    for run in _children(p):
        name = local(run)
        if name == "run":
            for child in _children(run):
                pieces += _pieces(child)
        elif name not in _SKIP:
            pieces += _pieces(run)
    return Para(pieces=pieces)


def _pieces(element) -> list:
    """One run child as text and/or the tables and notes it holds."""
    name = local(element)
    if name == "t":
        return [_t_text(element)]
    if name == "dutmal":      # 덧말: the main text is body text, the small gloss is not
        return [c.text or "" for c in element if local(c) == "mainText"]
    if name == "compose":     # 글자 겹침: characters drawn on top of each other
        return [element.get("composeText") or ""]
    return _objects(element)


def _objects(element) -> list:
    """Tables and notes inside a run child (a control, a shape, a group of shapes …)."""
    name = local(element)
    if name == "tbl":
        return [_table(element)]
    if name in _NOTE_KINDS:
        return [Note(_NOTE_KINDS[name], _sub_paragraphs(element))]
    if name == "textart":
        return [Note("textbox", [Para(pieces=[element.get("text") or ""])])]
    if name in _SKIP or name in ("t", "p", "subList"):
        return []
    found = []
    for child in _children(element):
        found += _objects(child)
    return found


def _table(tbl) -> Table:
    """A grid placed by each cell's own address and span, not by element order."""
    cells: list[CellNode] = []
    caption = None
    taken: set[tuple[int, int]] = set()
    row_no = 0
    for child in _children(tbl):
        name = local(child)
        if name == "caption":
            caption = Note("caption", _sub_paragraphs(child))
        elif name == "tr":
            for tc in _children(child):
                if local(tc) == "tc":
                    cell = _cell(tc, row_no, taken)
                    cells.append(cell)
                    taken.update((cell.row + r, cell.col + c)
                                 for r in range(cell.row_span) for c in range(cell.col_span))
            row_no += 1
    rows = max([_int(tbl.get("rowCnt"))] + [c.row + c.row_span for c in cells])
    cols = max([_int(tbl.get("colCnt"))] + [c.col + c.col_span for c in cells])
    return Table(rows=rows, cols=cols, cells=cells, caption=caption)


def _cell(tc, row_no: int, taken: set[tuple[int, int]]) -> CellNode:
    addr = next((c for c in tc if local(c) == "cellAddr"), None)
    span = next((c for c in tc if local(c) == "cellSpan"), None)
    if addr is not None:
        row, col = _int(addr.get("rowAddr")), _int(addr.get("colAddr"))
    else:   # no address written: the next free slot of this row
        row, col = row_no, 0
        while (row, col) in taken:
            col += 1
    row_span = max(1, _int(span.get("rowSpan"), 1)) if span is not None else 1
    col_span = max(1, _int(span.get("colSpan"), 1)) if span is not None else 1
    return CellNode(row=row, col=col, row_span=row_span, col_span=col_span,
                    paras=_sub_paragraphs(tc))


def _sub_paragraphs(element) -> list[Para]:
    """The paragraphs of an element's ``subList`` (cell, note, text box, caption)."""
    paras = []
    for child in _children(element):
        if local(child) == "subList":
            paras += [paragraph(p) for p in _children(child) if local(p) == "p"]
    return paras


def _t_text(t) -> str:
    """Text of a ``<t>``, with its inline children (tab, line break …) as characters and 한글's
    private-use characters as the text they stand for (``hancom_chars``)."""
    parts = [t.text or ""]
    for child in t:
        parts.append(_INLINE_CHARS.get(local(child), "".join(child.itertext())))
        parts.append(child.tail or "")
    return readable("".join(parts))


def _children(element):
    """Child elements, with ``switch`` resolved to its first ``case`` (else ``default``)."""
    for child in element:
        if local(child) != "switch":
            yield child
            continue
        branches = [b for b in child if local(b) in ("case", "default")]
        chosen = next((b for b in branches if local(b) == "case"), branches[0] if branches else None)
        if chosen is not None:
            yield from _children(chosen)


def _run_objects(p):
    for run in _children(p):
        if local(run) == "run":
            yield from _children(run)


def _lines(p):
    for child in p:
        if local(child) == "linesegarray":
            return [seg for seg in child if local(seg) == "lineseg"]
    return []


def _body_height(page_pr) -> int:
    """Printable height of the page (HWPUNIT): paper minus margins, header and footer."""
    height = _int(page_pr.get("height"))
    for margin in page_pr:
        if local(margin) == "margin":
            height -= sum(_int(margin.get(k)) for k in ("top", "bottom", "header", "footer"))
    return height


def _join(texts) -> str:
    return _BLANK_LINES.sub("\n", "\n".join(texts)).strip()


def _int(value, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
