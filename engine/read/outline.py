"""The heading outline of a Document: which blocks are headings, and at which level.

A block a reader marked as a title (level 0) or heading (its level, else 1)
is one. In a document without any heading style (HWP, PDF, text …), a short
one-line paragraph that starts like a numbered heading is one — 「제1장」,
「Ⅱ.」, 「3. 신청 방법」, 「가. 대상」 — unless it reads as a sentence or a labelled
item. The chunker puts each chunk under this outline and
``structure.sections`` lists it.
"""
from __future__ import annotations

import re
from typing import Optional

from engine.korean import ITEM_ENDINGS, clean_text, one_line
from engine.model import Block, Document, Table

# Short numbered lines of formats without heading styles: pattern -> level.
_NUMBERED_HEADINGS = [
    (re.compile(r"^제\s*\d+\s*(장|편)\s*\S"), 1),
    (re.compile(r"^제\s*\d+\s*절\s*\S"), 2),
    (re.compile(r"^[ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩ]{1,4}\s*[.)]?\s*\S"), 1),
    (re.compile(r"^[IVX]{1,4}\s*[.)]\s*\S"), 1),
    (re.compile(r"^\d{1,2}\.\s*[^\d\s]"), 2),
    (re.compile(r"^[가나다라마바사아자차카타파하]\.\s*\S"), 3),
]  # "1)", "가)", "(1)" are mostly list items in Korean documents: not headings
_HEADING_MAX_CHARS = 40
_LABELLED = re.compile(r"[:：]\s*\S")  # "가. 소요예산: 2억 원" is an item, not a heading
# The mark of a heading box's first cell (spaces removed) -> level: "Ⅱ", "3", "가", "참고 1", "붙 임", "(별 첨 1)".
_BOX_MARKS = [
    (re.compile(r"[ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩ]{1,4}|[IVX]{1,4}|[(\[]?(붙임|별첨|첨부|참고|부록)[0-9]{0,2}[)\]]?"), 1),
    (re.compile(r"[0-9]{1,2}|[가-힣]{1,3}[0-9]{1,2}"), 2),
    (re.compile(r"[가나다라마바사아자차카타파하]"), 3),
]
_BOX_TITLE_MAX_CHARS = 100


def heading_level(block: Block, text: str, *, styled: bool) -> Optional[int]:
    """The outline level of ``block`` (whose cleaned text is ``text``), or None for body text.
    ``styled``: the document marks headings itself, so numbered lines are not guessed."""
    if block.type == "title":
        return 0
    if block.type == "heading":
        return block.level if block.level is not None else 1
    if styled or block.type != "paragraph" or "\n" in text:
        return None
    if len(text) > _HEADING_MAX_CHARS or text.endswith(ITEM_ENDINGS) or _LABELLED.search(text):
        return None
    for pattern, level in _NUMBERED_HEADINGS:
        if pattern.match(text):
            return level
    return None


def heading_box(table: Table) -> Optional[tuple[int, str]]:
    """(level, text) of a heading drawn as a table of one row — a mark cell and a title cell, as 한글
    templates set out their sections ("Ⅱ | | 추진 일정", "13 | | 사업설명회 개최 안내", "참고 1 | | 세부 통계") —
    else None. Its text is the mark and the title with a space between."""
    if table.rows != 1 or table.parent is not None:
        return None
    texts = [one_line(clean_text(c.text)) for c in sorted(table.cells, key=lambda c: c.col)]
    filled = [t for t in texts if t]
    if len(filled) != 2 or len(filled[1]) > _BOX_TITLE_MAX_CHARS or not re.search(r"[가-힣A-Za-z]", filled[1]):
        return None
    mark = re.sub(r"\s+", "", filled[0])
    for pattern, level in _BOX_MARKS:
        if pattern.fullmatch(mark):
            return level, f"{filled[0]} {filled[1]}"
    return None


def sections(doc: Document) -> list[dict]:
    """The outline: one {level, title, block, page} per heading of the body, in reading order."""
    styled = any(b.type == "heading" for b in doc.blocks)
    tables = {t.block: t for t in doc.tables}
    out = []
    for block in doc.blocks:
        if block.parent is not None:
            continue          # headings inside cells and notes are not the document's outline
        if block.id in tables:
            level, text = heading_box(tables[block.id]) or (None, "")
        else:
            text = block.text.strip()
            level = heading_level(block, text, styled=styled) if text else None
        if level is not None:
            out.append({"level": level, "title": one_line(text)[:200], "block": block.id,
                        "page": block.page})
    return out
