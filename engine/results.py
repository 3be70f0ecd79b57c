"""The shapes of what the engine answers: listing rows, search hits, answers and their citations (seed 004).

They are ``TypedDict``s, so a result stays the plain dict it always was (the same JSON, the same pickles
between the window and its engine process) while a reader and a type checker see its fields by name.
``tests/test_results.py`` checks real answers against them key by key.
"""
# No `from __future__ import annotations` here: TypedDict reads NotRequired from real annotations.
from typing import NotRequired, Optional, TypedDict


class Anchor(TypedDict):
    """Where a piece of text sits: its page and box (points), or its cell range in a sheet."""
    page: Optional[int]
    bbox: Optional[list[float]]
    cell_range: Optional[str]


class Notice(TypedDict):
    """A warning with its Korean text: ``{code, text}``."""
    code: str
    text: str


class Skipped(TypedDict):
    """A document that could not be searched, and why."""
    filename: str
    readable: bool
    reason: Optional[str]
    reason_text: Optional[str]
    drm_vendor: NotRequired[str]


class ListingEntry(TypedDict):
    """One row of ``Tenant.documents()``."""
    doc_id: Optional[str]
    filename: str
    format: str
    readable: bool
    chunks: int
    reason: Optional[str]
    reason_text: Optional[str]
    drm_vendor: NotRequired[str]
    structure: dict
    review: bool
    review_reasons: list[Notice]
    warnings: list[Notice]


class Listing(TypedDict):
    """``Tenant.documents()``: one page of rows with the totals of all of them."""
    tenant: str
    readable: int
    unreadable: int
    needs_review: int
    document_ready_rate: Optional[float]
    chunks: int
    warnings: list[Notice]
    total: int
    documents: list[ListingEntry]


class Hit(TypedDict):
    """One search hit: a chunk with its score and where it came from."""
    score: float
    found_by: str
    chunk_id: str
    doc_id: str
    filename: str
    kind: str
    text: str
    path: list[str]
    outline: list[str]
    anchors: list[Anchor]
    extractors: list[str]


class Search(TypedDict):
    """``Tenant.search()``."""
    tenant: str
    query: str
    chunks_searched: int
    skipped: list[Skipped]
    warnings: list[Notice]
    hits: list[Hit]


class Revision(TypedDict):
    """A row of a 신·구조문대비표 a quote sits in: ``{kind, label, current, revised}``."""
    kind: str
    label: Optional[str]
    current: str
    revised: str


class Citation(TypedDict):
    """Where an answer line comes from: the quoted text, its chunk, and the anchors it was narrowed to."""
    n: int
    chunk_id: str
    doc_id: str
    filename: str
    quote: str
    path: list[str]
    outline: list[str]
    anchors: list[Anchor]
    extractors: list[str]
    revisions: list[Revision]


class AnswerLine(TypedDict):
    """One line of an answer: its text, the citations it rests on, the phrase that answers, a table row's cells."""
    text: str
    citations: list[int]
    answer_span: Optional[list[int]]
    table: NotRequired[Optional[dict]]


class Answer(TypedDict):
    """``engine.answer.extract.answer()``: quoted, cited lines, or the reason there are none."""
    tenant: str
    question: str
    answered: bool
    reason: Optional[str]
    reason_text: Optional[str]
    made_by: str
    skipped: list[Skipped]
    text: str
    lines: list[AnswerLine]
    citations: list[Citation]
    document: Optional[str]
    chunks_searched: NotRequired[int]
