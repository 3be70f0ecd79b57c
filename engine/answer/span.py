"""The answering phrase of a quoted line: where, inside the verbatim quote, the answer itself stands.

The window and the evidence page show it in bold (``answer_span``: [start, end] in the line's text,
or None). A table row's answer is the cell under the column the question names ("개똥이의 수학 점수는?"
→ the cell under 수학); a form field's answer is its value ("제출장소: 강북구청 문화관광체육과" → the part
after the colon); otherwise it is the first phrase of the kind the question asks for — a full date, an amount
with its unit, a name, a place, a law article — that is not the question's own words. The quote
itself is never changed; a line with no such phrase has no span.
"""
from __future__ import annotations

import re
from typing import Optional

from engine.answer.question_cues import CUES, Question, field_parts
from engine.korean import flat

# The kinds whose phrase is a span of its own (a definition or a yes/no ruling is the whole line).
SPAN_KINDS = ("when", "amount", "who", "where", "law")
_CUE = {cue.name: cue for cue in CUES}
_EDGES = " \t,.;:·|()[]{}<>\"'“”‘’「」『』"
# A date that opens a period runs on to its end: "3월 2일(월)부터 3월 27일(금) 18시까지".
_RUNS_ON = re.compile(r"\s*(?:\([^)]{1,3}\))?\s*(?:부터|~|∼|～|-)[^.。\n]{0,40}?까지")


def answer_span(question: Question, text: str, table: Optional[dict] = None) -> Optional[list[int]]:
    """[start, end] of the phrase of ``text`` that answers ``question``, or None; ``table`` is the line's
    header and cells when it is a table row (lines.table_row)."""
    cell = _addressed_cell(question, text, table) if table else None
    if cell is not None:
        return cell
    label, value = field_parts(text)
    if label and value.strip():
        at = text.rfind(value)
        if at >= 0:
            return _trimmed(text, at, at + len(value))
    words = [w for t in question.terms for w in (t.text, *t.parts) if w]
    for name in question.cues:
        if name not in SPAN_KINDS:
            continue
        for found in _CUE[name].strong.finditer(text):
            phrase = found.group(0).lower().replace(" ", "")
            if phrase and not any(phrase in w.lower() or w.lower() in phrase for w in words):
                end = found.end()
                if name == "when":
                    more = _RUNS_ON.match(text, end)
                    end = more.end() if more else end
                span = _trimmed(text, found.start(), end)
                if span is not None:
                    return span
    return None


def _addressed_cell(question: Question, text: str, table: dict) -> Optional[list[int]]:
    """Where in ``text`` the one cell stands whose column header (not the first, the rows' labels) holds
    more of the question's words that the row itself does not than any other header ("2024년 3분기" for
    "2024년 3분기 미국 투자는", over "2024년 1분기" and "2023년 3분기"); None when no header or several
    hold the most."""
    words = [w for w in (flat(t.text) for t in question.terms if not t.verb) if w and w not in flat(text)]
    held = {j: sum(1 for w in words if w in flat(head)) for j, head in enumerate(table["header"]) if j}
    most = max(held.values(), default=0)
    columns = [j for j, n in held.items() if n == most]
    if not most or len(columns) != 1 or not table["cells"][columns[0]].strip():
        return None
    at = 0
    for j, cell in enumerate(table["cells"]):
        found = text.find(cell, at)
        if found < 0:
            return None
        if j == columns[0]:
            return _trimmed(text, found, found + len(cell))
        at = found + len(cell)
    return None


def _trimmed(text: str, start: int, end: int) -> Optional[list[int]]:
    while start < end and text[start] in _EDGES:
        start += 1
    while end > start and text[end - 1] in _EDGES:
        end -= 1
    return [start, end] if end > start else None
