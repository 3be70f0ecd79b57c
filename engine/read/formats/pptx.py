"""PPTX reader (python-pptx): each slide is a page; its title, text boxes, tables and notes are blocks.

Shapes are read top to bottom, then left to right (a slide's shape list is
in drawing order, which is not the order people read), groups shape by shape.
A slide's title becomes a level-1 heading; each paragraph of a text frame a
paragraph block; a table one Table with its merged cells; the speaker notes
a ``memo`` block on the slide's page. Boxes are in points from the slide's
top-left corner, as PDF boxes are.
"""
from __future__ import annotations

import io
from typing import Optional

from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE, PP_PLACEHOLDER

from engine.korean import one_line
from engine.model import Cell
from engine.read.formats.base import DocumentBuilder
from engine.read.formats.docx import meaningful_title
from engine.read.formats.zipsafe import slim_package

EMU_PER_POINT = 12700
_TITLES = (PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE, PP_PLACEHOLDER.VERTICAL_TITLE)


def read(data: bytes, doc: DocumentBuilder) -> None:
    """Add every slide of the presentation in ``data`` to ``doc``."""
    # python-pptx holds every part in memory: it gets the package without pictures and media (zipsafe)
    presentation = Presentation(io.BytesIO(slim_package(data, doc.budget)))
    slides = list(presentation.slides)
    for number, slide in enumerate(slides, start=1):
        for shape in reading_order(slide.shapes):
            _shape(doc, shape, number)
        if slide.has_notes_slide:
            notes = slide.notes_slide.notes_text_frame
            text = notes.text.strip() if notes is not None else ""
            if text:
                doc.add_block("memo", text, page=number)
    doc.set_pages(len(slides))
    doc.set_title(meaningful_title(presentation.core_properties.title))


def reading_order(shapes) -> list:
    """Titles first, then shapes by their top edge, then their left edge."""
    def key(shape):
        return (not _is_title(shape), shape.top or 0, shape.left or 0)
    return sorted(shapes, key=key)


def _shape(doc: DocumentBuilder, shape, page: int) -> None:
    if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
        for member in reading_order(shape.shapes):
            _shape(doc, member, page)
        return
    box = _bbox(shape)
    if getattr(shape, "has_table", False) and shape.has_table:
        _table(doc, shape.table, page, box)
        return
    if not getattr(shape, "has_text_frame", False) or not shape.has_text_frame:
        return
    if _is_title(shape):
        title = one_line(shape.text_frame.text)
        if title:
            doc.add_block("heading", title, page=page, bbox=box, level=1)
        return
    for paragraph in shape.text_frame.paragraphs:
        text = "".join(run.text for run in paragraph.runs) or paragraph.text
        if text.strip():
            doc.add_block("paragraph", text.strip(), page=page, bbox=box)


def _table(doc: DocumentBuilder, table, page: int, box: Optional[list[float]]) -> None:
    """One Table; a merged range keeps its text at its top-left cell, with its span."""
    cells = []
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            if cell.is_spanned:
                continue
            text = "\n".join(p.text for p in cell.text_frame.paragraphs).strip()
            if text:
                cells.append(Cell(row=r, col=c, text=text, row_span=cell.span_height if cell.is_merge_origin else 1,
                                  col_span=cell.span_width if cell.is_merge_origin else 1, page=page))
    if cells:
        doc.add_table(len(table.rows), len(table.columns), cells, page=page, bbox=box)


def _is_title(shape) -> bool:
    return bool(shape.is_placeholder and shape.placeholder_format.type in _TITLES)


def _bbox(shape) -> Optional[list[float]]:
    if None in (shape.left, shape.top, shape.width, shape.height):
        return None
    left, top = shape.left / EMU_PER_POINT, shape.top / EMU_PER_POINT
    return [left, top, left + shape.width / EMU_PER_POINT, top + shape.height / EMU_PER_POINT]
