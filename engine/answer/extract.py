"""Extractive answers: one or two lines quoted from the tenant's documents, each with its citation (seed /answer).

The candidates are the top ``SEARCH_HITS`` search hits (the engine often ranks
the right chunk below the first five) and the other chunks of the first
documents they come from, cut into lines (sentences, list items, table rows).
Each line is scored by how much of the question's weighted terms it holds,
there and around it (scoring; the question's terms and the kinds of answer it
asks for: question_cues). When the refusal is not confident enough of the best
line (refusal: its score and how far the learned order puts it ahead) the answer
is refused (``NO_EVIDENCE``); with no hits at all it is ``NO_MATCH`` — never an
empty or invented answer. Citations quote the line exactly as the chunk has it
and narrow the anchors to the blocks or table cells the quote comes from
(citations); the documents looked in are ``documents``; the answering phrase inside it is ``span``. bench/answers.py
measures all of this on the shared corpus.
"""
from __future__ import annotations

import re
from typing import Optional

from engine import wording
from engine.answer.choice import choose_lines
from engine.answer.citations import citation
from engine.answer.documents import Documents
from engine.answer.lines import Line, table_row
from engine.answer.question_cues import Question, analyze
from engine.answer.scoring import rank_lines
from engine.answer.span import answer_span

SEARCH_HITS = 20            # hits looked at; only the first ``limit`` of them earn the rank bonus
OPENING_CHUNKS = 3          # a one-document question with none of its words: these first chunks are looked at
# A question about "this" document ("이 보도자료의 담당자는?"): the answer says which one it is.
THIS_DOCUMENT = re.compile(r"(?:^|\s)(?:이|본|해당)\s*(?:문서|보도자료|보도참고자료|공고문?|공문|자료|서식|보고서|조례안?"
                           r"|제안요청서|과업지시서|계획서?|안내문|파일|회신|질의회신|통계표?)")


def answer(tenant, question: str, limit: int = 5, principal: Optional[str] = None,
           document: Optional[str] = None) -> dict:
    """Answer ``question`` from ``tenant``'s documents with quoted, cited lines (see module doc); only
    from ``document`` when it is given (a file name as the document list shows it, or one that names
    only it: ``Tenant.named``).

    ``SEARCH_HITS`` hits (at least ``limit``) are looked at; the first ``limit`` earn the rank bonus.
    The lines of one answer come from one document; a question about "이 문서" (이 보도자료, 이 공고 …)
    asked of the whole folder names the document it was answered from."""
    if document is not None:   # as the document list shows it, however the asker wrote it
        document = tenant.named(document, principal) or document
    within = [document] if document is not None else None
    found = tenant.search(question, limit=max(limit, SEARCH_HITS), principal=principal, within=within)
    documents = Documents(tenant, principal)
    result = {"tenant": found["tenant"], "question": question, "answered": False, "reason": None,
              "reason_text": None, "document": document,
              # one document asked: the folder's unreadable others were never going to be looked in
              "skipped": found["skipped"] if document is None else [],
              "made_by": wording.answer_text("made_by"), "text": "", "lines": [], "citations": []}
    hits = found["hits"]
    if document is not None and not hits:
        # none of the question's words there (or no such document): its opening is where its form is
        hits = tenant.document_hits(document, principal)[:OPENING_CHUNKS]
        if not hits:
            return _refused(result, "NO_DOCUMENT")
    if not hits:
        return _refused(result, "NO_MATCH")
    q = analyze(question)
    hits, heads = documents.expanded(hits, q)
    chosen = choose_lines(q, hits, ranked=min(limit, len(found["hits"])), heads=heads)
    if not chosen:
        return _refused(result, "NO_EVIDENCE")
    for n, line in enumerate(chosen, 1):
        result["citations"].append(citation(documents, n, line))
        table = table_row(line)
        result["lines"].append({"text": line.text, "citations": [n], "answer_span": answer_span(q, line.text, table),
                                "table": table})
    result["answered"] = True
    result["text"] = "\n".join(line.text for line in chosen)
    if document is None and THIS_DOCUMENT.search(question):
        result["document"] = chosen[0].hit["filename"]
    return result


def scored_lines(tenant, question: str, limit: int = 5, principal: Optional[str] = None,
                 document: Optional[str] = None) -> list[Line]:
    """Every candidate line for ``question`` from the whole folder (or ``document``), scored, best first, no
    line refused: what the refusal is fitted over (bench/fit_threshold.py)."""
    q = analyze(question)
    hits, heads, ranked = looked_at(tenant, q, limit, principal, document)
    return rank_lines(q, hits, ranked, heads)


def looked_at(tenant, question: Question, limit: int = 5, principal: Optional[str] = None,
              document: Optional[str] = None) -> tuple[list[dict], dict, int]:
    """What an answer to ``question`` (``analyze``d) from the whole folder (or ``document``) looks at: the
    search hits and their documents' other chunks, how those documents name themselves, and how many of
    the hits are ranked search results."""
    within = [document] if document is not None else None
    found = tenant.search(question.text, limit=max(limit, SEARCH_HITS), principal=principal, within=within)
    hits, heads = Documents(tenant, principal).expanded(found["hits"], question)
    return hits, heads, min(limit, len(found["hits"]))


def _refused(result: dict, code: str) -> dict:
    result.update(reason=code, reason_text=wording.evidence_text(code))
    return result
