"""The answering phrase of a quoted line: where, inside the verbatim quote, the answer itself stands.

The window and the evidence page show it in bold (``answer_span``: [start, end] in the line's text,
or None). A form field's answer is its value ("제출장소: 강북구청 문화관광체육과" → the part after the
colon); otherwise it is the first phrase of the kind the question asks for — a full date, an amount
with its unit, a name, a place, a law article — that is not the question's own words. The quote
itself is never changed; a line with no such phrase has no span.
"""
from __future__ import annotations

import re
from typing import Optional

from engine.answer.question_cues import CUES, Question, field_parts

# The kinds whose phrase is a span of its own (a definition or a yes/no ruling is the whole line).
SPAN_KINDS = ("when", "amount", "who", "where", "law")
_CUE = {cue.name: cue for cue in CUES}
_EDGES = " \t,.;:·|()[]{}<>\"'“”‘’「」『』"
# A date that opens a period runs on to its end: "3월 2일(월)부터 3월 27일(금) 18시까지".
_RUNS_ON = re.compile(r"\s*(?:\([^)]{1,3}\))?\s*(?:부터|~|∼|～|-)[^.。\n]{0,40}?까지")


def answer_span(question: Question, text: str) -> Optional[list[int]]:
    """[start, end] of the phrase of ``text`` that answers ``question``, or None."""
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


def _trimmed(text: str, start: int, end: int) -> Optional[list[int]]:
    while start < end and text[start] in _EDGES:
        start += 1
    while end > start and text[end - 1] in _EDGES:
        end -= 1
    return [start, end] if end > start else None
