"""HWPML reader (.hml, Hangul's XML format; 국가법령정보센터 also serves laws in it under .hwp).

Per Hancom's 한글 문서 파일 구조 3.0/HWPML (part II): ``HWPML`` → ``HEAD``
(``DOCSUMMARY/TITLE``) and ``BODY`` → ``SECTION`` → ``P`` → ``TEXT`` →
``CHAR`` (text with ``TAB``, ``LINEBREAK``, ``NBSPACE``, ``FWSPACE``,
``HYPEN`` inside) and objects: ``TABLE`` → ``ROW`` → ``CELL`` (``ColAddr``,
``RowAddr``, ``ColSpan``, ``RowSpan``) → ``PARALIST`` → ``P``; ``HEADER``,
``FOOTER``, ``FOOTNOTE``, ``ENDNOTE``, a shape's ``DRAWTEXT`` and ``CAPTION``
hold a ``PARALIST`` too. Hidden comments, field instructions and images are
not text. The result is the HWPX reading model, emitted the same way; HWPML
stores no line positions, so there are no pages. A ``COLDEF`` with more than
one column is remembered for the layout warning.
"""
from __future__ import annotations

from lxml import etree

from engine.korean import one_line
from engine.read.failures import ReadFailure
from engine.read.formats.base import DocumentBuilder
from engine.read.formats.hwpx.emit import emit_paragraph
from engine.read.formats.hwpx.section import CellNode, Note, Para, Table

# Internal entities only (HWPML files declare &nbsp; in their DOCTYPE); nothing is fetched.
PARSER = etree.XMLParser(resolve_entities="internal", no_network=True, load_dtd=False,
                         remove_comments=True, remove_pis=True, huge_tree=False)
_INLINE = {"TAB": "\t", "LINEBREAK": "\n", "NBSPACE": " ", "FWSPACE": " ", "HYPEN": "-"}
_NOTES = {"HEADER": "header", "FOOTER": "footer", "FOOTNOTE": "footnote", "ENDNOTE": "endnote",
          "DRAWTEXT": "textbox", "CAPTION": "caption"}
_SKIP = {"HIDDENCOMMENT", "FIELDBEGIN", "FIELDEND", "SHAPECOMMENT", "PARAMETERSET", "SECDEF"}


def read(data: bytes, doc: DocumentBuilder) -> None:
    """Add the body of the HWPML document in ``data`` to ``doc``."""
    try:
        root = etree.fromstring(data, PARSER)
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise ReadFailure("CORRUPT", str(exc)) from None
    if root.tag != "HWPML":
        raise ReadFailure("CORRUPT", "not HWPML")
    columns = 1
    for coldef in root.iter("COLDEF"):
        columns = max(columns, _int(coldef.get("Count"), 1))
    for section in root.iterfind("BODY/SECTION"):
        for p in section.iterfind("P"):
            emit_paragraph(doc, paragraph(p))
    if columns > 1:
        doc.warn("LAYOUT_SIDE_BY_SIDE")
    title = root.findtext("HEAD/DOCSUMMARY/TITLE")
    doc.set_title(one_line(title) or None)


def paragraph(p) -> Para:
    """A ``P``: its characters as text pieces, its objects as tables and notes, in order."""
    pieces: list = []
    for text in p.iterfind("TEXT"):
        for child in text:
            if child.tag == "CHAR":
                pieces.append(_char_text(child))
            elif child.tag not in _SKIP:
                pieces += _objects(child)
    return Para(pieces=pieces)


def _char_text(char) -> str:
    parts = [char.text or ""]
    for child in char:
        parts.append(_INLINE.get(child.tag, ""))
        parts.append(child.tail or "")
    return "".join(parts)


def _objects(element) -> list:
    """Tables and notes inside an object element (a table, a shape, a note …)."""
    if element.tag == "TABLE":
        return [_table(element)]
    if element.tag in _NOTES:
        return [Note(_NOTES[element.tag], _paralist(element))]
    if element.tag in _SKIP or not isinstance(element.tag, str):
        return []
    found = []
    for child in element:
        found += _objects(child)
    return found


def _table(table) -> Table:
    cells = []
    caption = None
    for child in table:
        if child.tag == "SHAPEOBJECT":
            for note in child.iterfind("CAPTION"):
                caption = Note("caption", _paralist(note))
        elif child.tag == "ROW":
            for r_index, cell in enumerate(child.iterfind("CELL")):
                cells.append(CellNode(row=_int(cell.get("RowAddr")), col=_int(cell.get("ColAddr"), r_index),
                                      row_span=max(1, _int(cell.get("RowSpan"), 1)),
                                      col_span=max(1, _int(cell.get("ColSpan"), 1)), paras=_paralist(cell)))
    rows = max([_int(table.get("RowCount"))] + [c.row + c.row_span for c in cells])
    cols = max([_int(table.get("ColCount"))] + [c.col + c.col_span for c in cells])
    return Table(rows=rows, cols=cols, cells=cells, caption=caption)


def _paralist(element) -> list[Para]:
    return [paragraph(p) for paralist in element.iterfind("PARALIST") for p in paralist.iterfind("P")]


def _int(value, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
