"""Cut a Document into chunks: the pieces the index stores and search returns.

Paragraphs (and headings, list items …) are packed in reading order up to a
character budget; a longer block is split at sentence ends. Page headers,
footers and notes are packed apart, by kind (a header or footer once, none that is only a page
number). A table becomes table chunks of
whole rows, each starting with the table's first (header) row so a row can
be understood alone; table text comes from the cells, never from the table
block. ``outline`` is the heading path a chunk sits under (and, for a note that
explains a starred word of the block before it — "마이데이터*" then "* 정보주체인 이용자
중심의 …" —, the line holding that word, when the note starts a chunk of its own) and every chunk
keeps one anchor (page, bbox, cell_range) per source block or cell; bboxes
are copied from the Document, never made up.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Optional

from openpyxl.utils.cell import get_column_letter, range_boundaries

from engine.korean import (CHUNK_BREAK, ENDS_SENTENCE, NOTE, PAGE_NUMBER, SENTENCE_END, STARRED, broken_word,
                           clean_text, opens_item)
from engine.model import PAGE_WRAPPED_EXTRACTORS, Block, Cell, Document, Table
from engine.read.outline import heading_box, heading_level
from engine.search.table_header import band_cells, column_names, header_band

# KorQuAD (questions outside the dev sample, with the index's re-ranking): 600 → R@1 0.942,
# R@5 0.984; 1000 → 0.957, 0.987. A chunk then holds a Wikipedia paragraph or two.
DEFAULT_BUDGET = 1000
# Block types packed apart from the main text, one chunk kind each.
SIDE_KINDS = ("header", "footer", "footnote", "endnote", "comment", "memo")
# Repeated on every page: indexed once.
REPEATED_KINDS = ("header", "footer")
# A first row longer than this share of the budget is not repeated as a header.
HEADER_SHARE = 3
# A page-wrapped paragraph that opens by finishing the sentence the chunk broke off ("…오픈액세스 논" on one
# page, "문도 눈에 띄게 증가하고 있다. …" on the next) gives that sentence's end to the chunk, up to this
# share of the budget, when its first sentence ends within it; a printed line this short is no cut sentence.
CARRY_SHARE = 4
CUT_LINE = 20




@dataclass
class Chunk:
    """One searchable piece of a document, with where it came from."""

    id: str
    doc_id: str
    kind: str
    text: str
    path: list[str] = field(default_factory=list)
    outline: list[str] = field(default_factory=list)
    anchors: list[dict] = field(default_factory=list)
    extractors: list[str] = field(default_factory=list)
    blocks: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Chunk":
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


def cut_within(text: str, limit: int) -> list[str]:
    """Pieces of at most ``limit`` characters, cut after sentence ends (else at spaces)."""
    if len(text) <= limit:
        return [text]
    pieces: list[str] = []
    current = ""
    for sentence in CHUNK_BREAK.split(text):
        for part in _hard_split(sentence.strip(), limit):
            if current and len(current) + 1 + len(part) > limit:
                pieces.append(current)
                current = part
            else:
                current = f"{current} {part}" if current else part
    if current:
        pieces.append(current)
    return pieces


def _hard_split(text: str, limit: int) -> list[str]:
    """A sentence longer than ``limit`` cut at the last space before it (or mid-word)."""
    out = []
    while len(text) > limit:
        cut = text.rfind(" ", 0, limit + 1)
        cut = cut if cut > limit // 2 else limit
        out.append(text[:cut].strip())
        text = text[cut:].strip()
    if text:
        out.append(text)
    return out


def chunk_document(doc: Document, budget: int = DEFAULT_BUDGET) -> list[Chunk]:
    """The chunks of a readable Document, ids c0001… in the order they are made."""
    if not doc.access.readable:
        return []
    return _Chunker(doc, max(budget, 50)).run()


@dataclass
class _Pack:
    """A chunk being filled."""

    kind: str
    outline: list[str]
    parts: list[str] = field(default_factory=list)
    anchors: list[dict] = field(default_factory=list)
    blocks: list[str] = field(default_factory=list)
    extractors: list[str] = field(default_factory=list)
    size: int = 0
    body: bool = False  # holds more than headings

    def fits(self, text: str, budget: int) -> bool:
        return not self.parts or self.size + 1 + len(text) <= budget

    def add(self, text: str, anchors: list[dict], block_id: str, extractor: str) -> None:
        self.parts.append(text)
        self.size += len(text) + (1 if self.size else 0)
        for a in anchors:
            if a not in self.anchors:
                self.anchors.append(a)
        if block_id not in self.blocks:
            self.blocks.append(block_id)
        if extractor and extractor not in self.extractors:
            self.extractors.append(extractor)


class _Chunker:
    def __init__(self, doc: Document, budget: int):
        self.doc = doc
        self.budget = budget
        self.path = [doc.structure.title or doc.source.filename]
        self.tables = {t.block: t for t in doc.tables}
        self.styled = any(b.type == "heading" for b in doc.blocks)
        self.outline: list[tuple[int, str]] = []
        self.chunks: list[Chunk] = []
        self.flow: Optional[_Pack] = None
        self.sides: dict[str, _Pack] = {}
        self.seen_repeated: set[tuple[str, str]] = set()
        self.starred = ""     # the last line that marked a word for a note

    def run(self) -> list[Chunk]:
        for block in self.doc.blocks:
            table = self.tables.get(block.id)
            box = heading_box(table) if table is not None else None
            if box is not None:         # a heading drawn as a one-row table: the section it opens
                self._text_block(block, box)
            elif table is not None:
                self._flush_flow()
                self._table(block, table)
            else:
                self._text_block(block)
        self._flush_flow()
        for pack in self.sides.values():
            self._emit(pack)
        return self.chunks

    # ---- paragraphs, headings, notes -------------------------------------
    def _text_block(self, block: Block, heading: Optional[tuple[int, str]] = None) -> None:
        """A paragraph, heading or note; ``heading``: (level, text) of a heading box standing for it."""
        text = heading[1] if heading else clean_text(block.text)
        if not text:
            return
        kind = block.type if block.type in SIDE_KINDS else "paragraph"
        if kind in REPEATED_KINDS:
            if (kind, text) in self.seen_repeated or PAGE_NUMBER.fullmatch(text):
                return      # said once; a page number alone answers nothing
            self.seen_repeated.add((kind, text))
        level = heading[0] if heading else (
            heading_level(block, text, styled=self.styled) if kind == "paragraph" else None)
        if level is not None:
            if self.flow is not None and self.flow.body:
                self._flush_flow()
            self._enter_heading(level, text)
            if self.flow is not None:  # headings only so far: the chunk sits under the newest
                self.flow.outline = self._outline()
        anchor = [{"page": block.page, "bbox": block.bbox, "cell_range": None}]
        note = kind == "paragraph" and NOTE.match(text) is not None
        if kind == "paragraph" and level is None and not note:
            text = self._finish_cut_sentence(block, text, anchor)
        for piece in cut_within(text, self.budget) if text else []:
            pack = self._pack_for(kind, piece)
            if note and self.starred and not pack.parts and pack.outline[-1:] != [self.starred]:
                pack.outline = [*pack.outline, self.starred]     # the note opens a chunk: what it explains
            pack.add(piece, anchor, block.id, block.extractor)
            pack.body = pack.body or level is None
        if not note:
            self._remember_starred(text)

    def _finish_cut_sentence(self, block: Block, text: str, anchor: list[dict]) -> str:
        """Add to the open chunk the head of ``text`` that ends the sentence its last line broke off at a page
        or column end, when ``text`` would not fit there whole (a chunk of headings only broke none); return
        the rest."""
        pack = self.flow
        if (pack is None or not pack.body or block.extractor not in PAGE_WRAPPED_EXTRACTORS
                or pack.fits(text, self.budget) or opens_item(text, pack.parts)):
            return text
        last = pack.parts[-1].rsplit("\n", 1)[-1].rstrip()
        if len(last) < CUT_LINE or not broken_word(last, text) or ENDS_SENTENCE.search(last):
            return text
        end = SENTENCE_END.search(text, 1)
        if end is None or end.start() > self.budget // CARRY_SHARE:
            return text
        pack.add(text[:end.start()], anchor, block.id, block.extractor)
        return text[end.end():]

    def _remember_starred(self, text: str) -> None:
        """Keep the last line of ``text`` that marks a word for a note (none: nothing to explain)."""
        self.starred = next((line.strip() for line in reversed(text.split("\n")) if STARRED.search(line)), "")

    def _pack_for(self, kind: str, text: str) -> _Pack:
        current = self.flow if kind == "paragraph" else self.sides.get(kind)
        if current is not None and current.fits(text, self.budget):
            return current
        if current is not None:
            self._emit(current)
        pack = _Pack(kind, self._outline())
        if kind == "paragraph":
            self.flow = pack
        else:
            self.sides[kind] = pack
        return pack

    def _flush_flow(self) -> None:
        if self.flow is not None:
            self._emit(self.flow)
            self.flow = None

    def _enter_heading(self, level: int, text: str) -> None:
        while self.outline and self.outline[-1][0] >= level:
            self.outline.pop()
        if not (level == 0 and text == self.path[0]):
            self.outline.append((level, text))

    def _outline(self) -> list[str]:
        return [text for _, text in self.outline]

    # ---- tables ----------------------------------------------------------
    def _table(self, block: Block, table: Table) -> None:
        """Whole rows packed into chunks that each start with the header row."""
        rows = table_rows(table)
        if not rows:
            return
        header = rows[0] if len(rows) > 1 and rows[0][0] == 0 \
            and len(rows[0][1]) <= self.budget // HEADER_SHARE else None
        pack: Optional[_Pack] = None
        held: list[int] = []  # the table rows the open pack holds
        for r, text, cells in rows:
            repeat = header is not None and r != header[0]
            room = self.budget - (len(header[1]) + 1 if repeat else 0)
            units = [(text, cells)] if len(text) <= room else [  # an overlong row: cell by cell
                (piece, [c]) for c in cells for piece in cut_within(clean_text(c.text), room)]
            for unit_text, unit_cells in units:
                if pack is None or not pack.fits(unit_text, self.budget):
                    if pack is not None:
                        self._emit(pack, self._table_anchors(table, held, pack))
                    pack, held = _Pack("table", self._outline()), []
                    if repeat:
                        pack.add(header[1], [], block.id, block.extractor)
                pack.add(unit_text, [_cell_anchor(c, table) for c in unit_cells], block.id,
                         block.extractor)
                if r not in held:
                    held.append(r)
        self._emit(pack, self._table_anchors(table, held, pack))
        self._remember_starred("\n".join(text for _r, text, _c in rows))

    def _table_anchors(self, table: Table, held: list[int], pack: _Pack) -> list[dict]:
        """The cells' anchors; a sheet's narrowed range; the table's box when cells have none."""
        if table.cell_range:  # a spreadsheet: one range narrowed to the rows held
            narrowed = _narrow_range(table, held)
            return [{"page": table.page, "bbox": None, "cell_range": narrowed or table.cell_range}]
        if pack.anchors and not any(a["bbox"] for a in pack.anchors) and table.bbox:
            pages = sorted({a["page"] for a in pack.anchors}, key=lambda p: (p is None, p))
            return [{"page": p, "bbox": table.bbox if p == table.page else None, "cell_range": None}
                    for p in pages]
        return pack.anchors

    # ---- output ----------------------------------------------------------
    def _emit(self, pack: _Pack, anchors: Optional[list[dict]] = None) -> None:
        if not pack.parts:
            return
        self.chunks.append(Chunk(
            id=chunk_id(len(self.chunks) + 1), doc_id=self.doc.doc_id or "", kind=pack.kind,
            text="\n".join(pack.parts), path=list(self.path), outline=list(pack.outline),
            anchors=anchors if anchors is not None else pack.anchors,
            extractors=pack.extractors, blocks=pack.blocks))


def chunk_id(n: int) -> str:
    """The id of a document's ``n``-th chunk, counted from 1 ("c0001"): ids sort in reading order."""
    return f"c{n:04d}"


def table_rows(table: Table) -> list[tuple[int, str, list[Cell]]]:
    """(row index, 'a | b | c', cells) for every row with text, top to bottom; a header of several rows
    is one row of column names ("구 분 | 2024년 1분기 | 2024년 2분기", table_header.py) and the table's
    cells spanning rows below it stand in each of them. A box's paragraphs are its rows."""
    boxed = [c for c in table.cells if clean_text(c.text)]
    if table.rows == 1 and table.cols == 1 and len(boxed) == 1:
        # a box (one cell framing a few paragraphs): each paragraph is a line, the first one its title
        return [(i, line, boxed) for i, line in enumerate(clean_text(boxed[0].text).split("\n"))]
    band = header_band(table)
    # in a plain grid (no merged cells) an empty cell keeps its place ("2023년 |  | 900"), so every row
    # has a cell under each header
    grid = all(c.row_span == 1 and c.col_span == 1 for c in table.cells)
    by_row: dict[int, list[tuple[Cell, str]]] = {}
    for c in table.cells:
        text = clean_text(c.text)
        if (text or grid) and c.row >= band:
            # under a header band a cell spanning rows (the row label "미국" over its values and their
            # growth rates) stands in each of its rows, so that each row has every column; a span a
            # broken file declares past the table's last row stops there
            for r in range(c.row, min(c.row + (c.row_span if band else 1), max(table.rows, c.row + 1))):
                by_row.setdefault(r, []).append((c, text))
    by_row = {r: row for r, row in by_row.items() if any(text for _c, text in row)}
    out = [(0, " | ".join(column_names(table, band)), band_cells(table, band))] if band else []
    for r in sorted(by_row):
        row = sorted(by_row[r], key=lambda ct: ct[0].col)
        out.append((r, " | ".join(text.replace("\n", " ") for _c, text in row), [c for c, _t in row]))
    return out


def _cell_anchor(cell: Cell, table: Table) -> dict:
    page = cell.page if cell.page is not None else table.page
    return {"page": page, "bbox": cell.bbox, "cell_range": cell.cell_range}


def _narrow_range(table: Table, held: list[int]) -> Optional[str]:
    """'시트1!A3:D20': the table's columns over the sheet rows of ``held`` table rows."""
    sheet, sep, ref = table.cell_range.rpartition("!")
    try:
        min_col, min_row, max_col, _ = range_boundaries(ref.replace("$", ""))
    except (ValueError, TypeError):
        return None
    if None in (min_col, min_row, max_col) or not held:
        return None
    first, last = min_row + min(held), min_row + max(held)
    return f"{sheet}{sep}{get_column_letter(min_col)}{first}:{get_column_letter(max_col)}{last}"
