"""DOCX reader (python-docx): paragraphs and tables in the order they appear.

Blocks come as headers, body, footnotes, endnotes, footers. DOCX has no fixed
pages, so every page and bbox stays null. Tables in headers, footers, notes and
text boxes are page furniture (letterheads, boxed notes), so they become lines
of that block type, not Tables (python-docx, which made the corpus truth, does
not count them as tables either).
"""
from __future__ import annotations

import io
import re
from typing import Iterator, Optional

import docx
from docx.enum.style import WD_STYLE_TYPE
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.part import XmlPart
from docx.oxml import parse_xml
from docx.oxml.ns import qn

from engine.korean import one_line
from engine.model import Cell, Table
from engine.read.formats.base import DocumentBuilder
from engine.read.formats.zipsafe import slim_package

_P, _R, _TBL, _TR, _TC = qn("w:p"), qn("w:r"), qn("w:tbl"), qn("w:tr"), qn("w:tc")
_TEXT_BOX = qn("w:txbxContent")
_SDT, _SDT_CONTENT, _CUSTOM_XML = qn("w:sdt"), qn("w:sdtContent"), qn("w:customXml")
_REMOVED = {qn("w:del"), qn("w:moveFrom")}  # tracked deletions: not in the text a reader sees
_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_NOTE_REFS = (qn("w:footnoteReference"), qn("w:endnoteReference"))

# "Heading 1", Korean Word's "제목 1", Hancom's outline styles "개요 1"
_HEADING_NAME = re.compile(r"(?:heading|제목|개요)\s*([1-9])", re.IGNORECASE)
_TITLE_NAME = re.compile(r"title|제목", re.IGNORECASE)
_PLACEHOLDER_TITLE = re.compile(
    r"제목\s*없음|untitled|title|제목|(?:word\s*)?document\s*\d*|(?:통합\s*)?문서\s*\d*"
    r"|(?:work)?book\s*\d*|microsoft (?:word|excel)\s*-.*", re.IGNORECASE)


def read(data: bytes, doc: DocumentBuilder) -> None:
    """Add the DOCX in ``data`` to ``doc``; a broken package raises (CORRUPT).

    python-docx holds every part of a package in memory, so it gets the package
    without its pictures and other binary parts (zipsafe.slim_package), which are
    never inflated; their relationships stay, so "only pictures" is still told.
    """
    _Reader(docx.Document(io.BytesIO(slim_package(data, doc.budget))), doc).read()


def meaningful_title(title: Optional[str]) -> Optional[str]:
    """A document-properties title, or None when it is empty or a template placeholder."""
    text = one_line(title)
    if len(text) < 2 or _PLACEHOLDER_TITLE.fullmatch(text):
        return None
    return text


class _Reader:
    """Walks one python-docx Document into a DocumentBuilder."""

    def __init__(self, document, builder: DocumentBuilder):
        self.document = document
        self.builder = builder
        self.style_kinds = _style_kinds(document)
        self.note_parents: dict[tuple[str, str], str] = {}  # (reference tag, note id) -> citing block

    def read(self) -> None:
        self.builder.set_title(meaningful_title(self.document.core_properties.title))
        for part in self._parts(RT.HEADER):
            self._content(part, "header")
        self._content(self.document.element.body)
        for reltype, kind in ((RT.FOOTNOTES, "footnote"), (RT.ENDNOTES, "endnote")):
            for part in self._parts(reltype):
                for note in part.iterchildren(qn(f"w:{kind}")):
                    parent = self.note_parents.get((qn(f"w:{kind}Reference"), note.get(qn("w:id"))))
                    self._content(note, kind, parent)
        for part in self._parts(RT.FOOTER):
            self._content(part, "footer")
        self.builder.drawn = any(r.reltype == RT.IMAGE for r in self.document.part.rels.values())

    def _parts(self, reltype: str) -> Iterator:
        """Root elements of the parts the main document relates to by ``reltype``."""
        for rel in self.document.part.rels.values():
            if rel.reltype == reltype and not rel.is_external:
                part = rel.target_part
                # python-docx has no class for footnote parts: parse their bytes
                yield part.element if isinstance(part, XmlPart) else parse_xml(part.blob)

    # content -------------------------------------------------------------
    def _content(self, container, kind: Optional[str] = None, parent: Optional[str] = None) -> None:
        """Paragraphs and tables of a body, header, note or text box; ``kind`` forces the block type."""
        for element in _unwrap(container):
            if element.tag == _P:
                self._paragraph(element, kind, parent)
            elif element.tag == _TBL and kind is None:
                self._table(element)
            elif element.tag == _TBL:
                for line in _table_lines(element):
                    self.builder.add_block(kind, line, parent=parent)

    def _paragraph(self, p, kind: Optional[str], parent: Optional[str]) -> None:
        """A paragraph block, then the text boxes anchored in it (type "textbox" in the body)."""
        text = _paragraph_text(p).strip()
        block_id = None
        if text:
            block_type, level = (kind, None) if kind else self._kind(p)
            block_id = self.builder.add_block(block_type, text, level=level, parent=parent)
            self._cite_notes(p, block_id)
        for box in p.iter(_TEXT_BOX):
            if _owner(box) is p and not any(a.tag == _FALLBACK for a in box.iterancestors()):
                self._content(box, kind or "textbox", block_id or parent)

    def _kind(self, p) -> tuple[str, Optional[int]]:
        """Block type and level from the paragraph's style, outline level and numbering."""
        ppr = p.pPr
        kind, level = self.style_kinds.get(ppr.style if ppr is not None else None, ("paragraph", None))
        if ppr is None:
            return kind, level
        if ppr.outlineLvl is not None and ppr.outlineLvl.val < 9:
            return "heading", ppr.outlineLvl.val + 1
        num = ppr.numPr
        if num is None or kind not in ("paragraph", "list_item"):
            return kind, level
        if num.numId is not None and num.numId.val == 0:  # numbering switched off here
            return "paragraph", None
        if num.numId is None and kind == "paragraph":  # a list level without a list
            return kind, level
        return "list_item", num.ilvl.val + 1 if num.ilvl is not None else (level or 1)

    # tables --------------------------------------------------------------
    def _table(self, tbl, parent: Optional[tuple[Table, list[int]]] = None) -> None:
        """Add ``tbl`` (a merged region is one Cell at its top-left), then the tables nested in it."""
        rows = [tr for tr in _unwrap(tbl) if tr.tag == _TR]
        if not rows:
            return
        cells: list[Cell] = []
        nested = []
        covering: dict[int, Cell] = {}  # grid column -> latest cell over it
        width = 0
        for r, tr in enumerate(rows):
            col = tr.grid_before
            for tc in (e for e in _unwrap(tr) if e.tag == _TC):
                span = tc.grid_span
                above = covering.get(col)
                if (tc.vMerge == "continue" and above is not None and above.col == col
                        and above.col_span == span and above.row + above.row_span == r):
                    above.row_span += 1
                else:
                    content = list(_unwrap(tc))
                    text = "\n".join(t for t in (_paragraph_text(e).strip() for e in content
                                                 if e.tag == _P) if t)
                    cell = Cell(row=r, col=col, text=text, col_span=span)
                    cells.append(cell)
                    covering.update(dict.fromkeys(range(col, col + span), cell))
                    nested += [(e, [r, col]) for e in content if e.tag == _TBL]
                col += span
            width = max(width, col + tr.grid_after)
        outer, where = parent if parent else (None, None)
        table = self.builder.add_table(
            len(rows), max(width, 1), cells, parent_block=outer.block if outer else None,
            parent_table=outer.id if outer else None, parent_cell=where)
        self._cite_notes(tbl, table.block)
        for inner, where in nested:
            self._table(inner, (table, where))

    def _cite_notes(self, element, block_id: str) -> None:
        for ref in element.iter(*_NOTE_REFS):
            self.note_parents.setdefault((ref.tag, ref.get(qn("w:id"))), block_id)


def _style_kinds(document) -> dict[str, tuple[str, Optional[int]]]:
    """Paragraph style id -> (block type, level), following each style's basedOn chain."""
    kinds = {}
    for style in document.styles:
        if style.type == WD_STYLE_TYPE.PARAGRAPH:
            kinds[style.style_id] = _style_kind(style)
    return kinds


def _style_kind(style) -> tuple[str, Optional[int]]:
    seen = set()
    while style is not None and style.style_id not in seen:
        seen.add(style.style_id)
        name = (style.name or "").strip()
        heading = _HEADING_NAME.fullmatch(name)
        if heading:
            return "heading", int(heading[1])
        if _TITLE_NAME.fullmatch(name):
            return "title", None
        ppr = style.element.pPr
        if ppr is not None and ppr.outlineLvl is not None and ppr.outlineLvl.val < 9:
            return "heading", ppr.outlineLvl.val + 1
        if ppr is not None and ppr.numPr is not None and ppr.numPr.numId is not None \
                and ppr.numPr.numId.val != 0:
            ilvl = ppr.numPr.ilvl
            return "list_item", (ilvl.val if ilvl is not None else 0) + 1
        style = style.base_style
    return "paragraph", None


def _unwrap(parent) -> Iterator:
    """Children of ``parent``, looking through content controls and custom-XML wrappers."""
    for child in parent.iterchildren():
        if child.tag == _SDT:
            inner = child.find(_SDT_CONTENT)
            if inner is not None:
                yield from _unwrap(inner)
        elif child.tag == _CUSTOM_XML:
            yield from _unwrap(child)
        else:
            yield child


def _owner(element):
    """The nearest paragraph around ``element``."""
    return next(element.iterancestors(_P), None)


def _paragraph_text(p) -> str:
    """Text of the paragraph's own runs (also inside links, fields and insertions, not text boxes)."""
    return "".join(r.text for r in p.iter(_R)
                   if _owner(r) is p and r.getparent().tag not in _REMOVED)


def _table_lines(tbl) -> Iterator[str]:
    """A header/footer table as one line per row, cells joined by ' | '."""
    for tr in (e for e in _unwrap(tbl) if e.tag == _TR):
        texts = (" ".join(_paragraph_text(p).strip() for p in tc.iter(_P)).strip()
                 for tc in _unwrap(tr) if tc.tag == _TC)
        line = " | ".join(t for t in texts if t)
        if line:
            yield line
