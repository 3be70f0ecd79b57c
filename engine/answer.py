"""Extractive answers: one or two lines quoted from the tenant's documents, each with its citation (seed /answer).

The candidates are the top ``SEARCH_HITS`` search hits (the engine often ranks
the right chunk below the first five) and the other chunks of the first
documents they come from, cut into lines (sentences, list items, table rows).
Each line is scored by how much of the question's weighted terms it holds:
the line itself counts fully; its file name, title, heading path, table
caption and header, the lines just before it, the rest of its chunk and the
way its document names itself (file name, title, opening lines) count in
part. A term's weight is higher the fewer candidate lines hold it; words for
the document itself ("파일", "본문") weigh little, and a question word that
names the kind of answer ("원인", "날짜") counts as found when the line holds
that kind. The line earns a bonus when it holds the kind of answer the
question asks for (engine.question_cues: a date for 언제, an amount for 얼마 …),
more as a form field whose label names it ("제출장소: 강북구청 …"), and loses
for missing a number the question names, for only echoing the question (a
heading, an empty form field) and for length. When no line scores
``THRESHOLD`` the answer is refused (``NO_EVIDENCE``); with no hits at all it
is ``NO_MATCH`` — never an empty or invented answer. Citations quote the line
exactly as the chunk has it and narrow the anchors to the blocks or table
cells the quote comes from. bench/answers.py measures all of this on the
shared corpus.
"""
from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from openpyxl.utils.cell import get_column_letter, range_boundaries

from engine import wording
from engine.korean import clean_text
from engine.model import Document, Table
from engine.answer_span import answer_span
from engine.question_cues import Question, Term, analyze, cue_weight, field_weight, full_cues, line_cues
from engine.read.revisions import revisions_for_text

MAX_LINES = 2
SEARCH_HITS = 20            # hits looked at; only the first ``limit`` of them earn the rank bonus
# Besides the hits, every chunk of the first documents they come from is a candidate: the
# search finds the right document far more often than the right chunk.
EXPAND_DOCUMENTS = 2
OPENING_CHUNKS = 3          # a one-document question with none of its words: these first chunks are looked at
# A question about "this" document ("이 보도자료의 담당자는?"): the answer says which one it is.
THIS_DOCUMENT = re.compile(r"(?:^|\s)(?:이|본|해당)\s*(?:문서|보도자료|보도참고자료|공고문?|공문|자료|서식|보고서|조례안?"
                           r"|제안요청서|과업지시서|계획서?|안내문|파일|회신|질의회신|통계표?)")
# Credit for a term found outside the line: in its file name, title, headings, table caption or header …
CONTEXT_CREDIT = 0.7
# … in the lines just before it (a heading, a lead-in) …
NEAR_CREDIT = 0.6
NEAR_LINES = 2
# … and elsewhere in the same chunk; a compound term of which only some morphemes are found
# earns this share of the credit.
CHUNK_CREDIT = 0.35
PART_CREDIT = 0.6
# … and in how its document names itself: file name, title, opening lines (a question names
# the document it asks about: "C반 기말고사 성적표에서 …").
DOC_CREDIT = 0.5
HEAD_CHARS = 300
CAPTION_CHARS = 80          # a table's caption: the line before it, when it is this short
GENERIC_WEIGHT = 0.3        # a word for the document itself ("파일", "본문") counts this much
ABSENT_WEIGHT = 0.6         # a question word no candidate holds anywhere (a paraphrase) counts this much
ECHO_PENALTY = 0.2          # a line that only repeats the question's words (a heading) or is a blank
ECHO_CHARS = 4              # form field has fewer letters than this besides them and its labels
OCR_PENALTY = 0.03          # machine-read text loses a tie with the same words read from the file
NUMBER_PENALTY = 0.2        # per number of the question ("12월", "2020년") missing around the line
RANK_BONUS = 0.05           # the first search hit's lines get this much more than the last's
LONG_LINE = 250             # lines longer than this lose a little …
LONG_PENALTY = 0.1          # … up to this much at twice that length
# The best line must score this much to be an answer: midway between the best line of a
# question the corpus does not answer (0.56) and the worst right answer (0.62) in the bench.
# bench/fit_threshold.py puts the level for 95% of answered tuning questions answerable at 0.67,
# which refused 14.3% of the KorQuAD dev sample (against 8.3%) and 4 more of the 62 reported and
# reworded corpus questions, refusing 2 more that have no answer: the score does not separate them better.
THRESHOLD = 0.59
SECOND_GAP = 0.04           # a second line must score within this of the first
WRAPPED_EXTRACTORS = ("pymupdf", "ocr")   # their text breaks lines where the page did …
WRAP_SHARE = 0.7            # … and a line this long against the chunk's longest was wrapped

_BULLETS = "○●◦•▪■□◆◇◎※➀➁➂➃➄➅➆➇➈➉①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮·"
# Cut after a sentence end (not after a digit: "2024. 6. 21." stays whole) and before a list bullet.
_LINE_BREAK = re.compile(rf"(?<=[^0-9\s][.!?。])\s+|\s+(?=[{_BULLETS}])|\s+(?=ㅇ\s)")
# A line starting a list item or a numbered heading; a line ending a sentence.
_MARKER = re.compile(rf"\s*([{_BULLETS}□■▣\-*]|ㅇ\s|\(?[0-9]{{1,2}}[.)]\s|[가-하][.)]\s|제\s*[0-9]+\s*[조장절])")
_SENTENCE_END = re.compile(r"[.!?。:;]\s*$")
_DIGIT_COMMA = re.compile(r"(?<=[0-9]),(?=[0-9])")
_SPACE = re.compile(r"\s+")
_LETTERS = re.compile(r"[^\W_]")
_LABEL = re.compile(r"[^\s|:]+\s*:(?=\s*(\||$))")   # a field label with nothing after it


@dataclass
class Line:
    """A candidate answer line: its text exactly as in the chunk (``quote``), and where it sits."""

    quote: str
    hit: dict
    rank: int
    flat: str           # the normalised text (see _flat)
    context: str        # normalised file name, title, headings and table header
    shared: str         # the part of it every line of the document or table shares: file name, title, header
    header: str         # the first row of its table (table chunks only)
    near: str           # the normalised lines just before it in the chunk
    chunk: str          # the normalised text of the whole chunk
    score: float = 0.0

    @property
    def text(self) -> str:
        """The quote on one line (whitespace runs as single spaces)."""
        return _squash(self.quote)


def answer(tenant, question: str, limit: int = 5, principal: Optional[str] = None,
           document: Optional[str] = None) -> dict:
    """Answer ``question`` from ``tenant``'s documents with quoted, cited lines (see module doc); only
    from ``document`` (a file name as the document list shows it) when it is given.

    ``SEARCH_HITS`` hits (at least ``limit``) are looked at; the first ``limit`` earn the rank bonus.
    The lines of one answer come from one document; a question about "이 문서" (이 보도자료, 이 공고 …)
    asked of the whole folder names the document it was answered from."""
    within = [document] if document is not None else None
    found = tenant.search(question, limit=max(limit, SEARCH_HITS), principal=principal, within=within)
    documents = _Documents(tenant)
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
    hits, heads = documents.expanded(hits)
    chosen = choose_lines(q, hits, ranked=min(limit, len(found["hits"])), heads=heads)
    if not chosen:
        return _refused(result, "NO_EVIDENCE")
    for n, line in enumerate(chosen, 1):
        result["citations"].append(_citation(documents, n, line))
        result["lines"].append({"text": line.text, "citations": [n], "answer_span": answer_span(q, line.text)})
    result["answered"] = True
    result["text"] = "\n".join(line.text for line in chosen)
    if document is None and THIS_DOCUMENT.search(question):
        result["document"] = chosen[0].hit["filename"]
    return result


def scored_lines(tenant, question: str, limit: int = 5, principal: Optional[str] = None) -> list[Line]:
    """Every candidate line for ``question`` from the whole folder, scored, best first, no line refused:
    what ``THRESHOLD`` is chosen over (bench/fit_threshold.py)."""
    found = tenant.search(question, limit=max(limit, SEARCH_HITS), principal=principal)
    hits, heads = _Documents(tenant).expanded(found["hits"])
    return rank_lines(analyze(question), hits, min(limit, len(found["hits"])), heads)


def rank_lines(question: Question, hits: list[dict], ranked: Optional[int] = None,
               heads: Optional[dict[str, str]] = None) -> list[Line]:
    """The lines of ``hits`` scored for ``question``, best first.

    The first ``ranked`` hits (all by default) are search results in engine order; the rest are
    further hits and other chunks of their documents, which get no rank bonus. ``heads`` maps a
    file name to how its document names itself (``_Documents.head``); a term found there earns
    ``DOC_CREDIT`` for every line of that document.
    """
    ranked = len(hits) if ranked is None else ranked
    lines = [line for rank, hit in enumerate(hits) for line in _lines(hit, min(rank, ranked), ranked)]
    if not lines:
        return []
    weights = _weights(question.terms, lines)
    in_head = {(name, term.text): DOC_CREDIT * _credit(term, _flat(text))
               for name, text in (heads or {}).items() for term in question.terms}
    for line in lines:
        line.score = _score(question, weights, line, ranked, in_head)
    return sorted(lines, key=lambda l: -l.score)


def choose_lines(question: Question, hits: list[dict], ranked: Optional[int] = None,
                 heads: Optional[dict[str, str]] = None) -> list[Line]:
    """The one or two best lines of ``hits`` for ``question`` (``rank_lines``); empty when none scores
    enough."""
    order = rank_lines(question, hits, ranked, heads)
    if not order or order[0].score < THRESHOLD:
        return []
    best = order[0]
    for line in order[1:]:     # the whole sentence rather than a piece of it (a PDF line)
        if line.score < best.score - SECOND_GAP:
            break
        if best.flat in line.flat and len(best.flat) < len(line.flat) <= 2 * LONG_LINE:
            best = line
    order.remove(best)
    chosen = [best]
    for line in order[:MAX_LINES + 2]:
        if len(chosen) == MAX_LINES or line.score < best.score - SECOND_GAP:
            break
        if (line.hit["filename"] == best.hit["filename"]      # one answer never mixes two documents
                and line.flat not in best.flat and best.flat not in line.flat):
            chosen.append(line)
    return chosen


def split_lines(text: str, wrapped: bool = False) -> list[str]:
    """The lines of a chunk's text, each exactly as it stands there: text lines cut into sentences
    and list items. In ``wrapped`` text (PDF, OCR) the page broke the lines: a full-width line that
    does not end a sentence runs on into the next line unless that one starts a list item."""
    rows = _unwrap(text.split("\n")) if wrapped else text.split("\n")
    out = []
    for row in rows:
        out.extend(piece.strip() for piece in _LINE_BREAK.split(row) if piece and piece.strip())
    return out


def _unwrap(rows: list[str]) -> list[str]:
    full = WRAP_SHARE * max(len(row) for row in rows)
    out = [rows[0]]
    for prev, row in zip(rows, rows[1:]):
        if (len(prev) >= full and not _SENTENCE_END.search(prev) and not _MARKER.match(row)
                and len(out[-1]) + len(row) < LONG_LINE):
            out[-1] += "\n" + row
        else:
            out.append(row)
    return out


# ---- scoring ---------------------------------------------------------------------------
def _lines(hit: dict, rank: int, total: int) -> list[Line]:
    rows = hit["text"].split("\n")
    table = hit.get("kind") == "table" and len(rows) > 1
    header = " ".join([hit.get("caption") or "", rows[0]]).strip() if table else ""
    shared = _flat(" ".join([hit.get("filename") or "", *(hit.get("path") or []), header]))
    context = shared + _flat(" ".join(hit.get("outline") or []))
    chunk = _flat(hit["text"])
    wrapped = any(x in WRAPPED_EXTRACTORS for x in hit.get("extractors") or [])
    texts = split_lines(hit["text"], wrapped)
    flats = [_flat(text) for text in texts]
    return [Line(text, hit, rank, flat, context, shared, header, "".join(flats[max(0, i - NEAR_LINES):i]), chunk)
            for i, (text, flat) in enumerate(zip(texts, flats))]


def _flat(text: str) -> str:
    """Lower case, NFKC, no spaces, no thousands commas: how terms are looked for."""
    text = unicodedata.normalize("NFKC", text).lower()
    return _SPACE.sub("", _DIGIT_COMMA.sub("", text))


@lru_cache(maxsize=4096)
def _pattern(text: str) -> re.Pattern:
    """A term as a pattern over flat text; a number never matches inside a longer number."""
    flat = re.escape(_flat(text))
    if text[:1].isdigit():
        flat = r"(?<![0-9])" + flat
    if text[-1:].isdigit():
        flat += r"(?![0-9])"
    return re.compile(flat)


def _credit(term: Term, text: str) -> float:
    """1 when ``text`` holds the term (or a word documents use for it), else a share for its parts."""
    if any(_pattern(word).search(text) for word in (term.text, *term.alternatives)):
        return 1.0
    if not term.parts:
        return 0.0
    found = sum(1 for part in term.parts if _pattern(part).search(text))
    return PART_CREDIT * found / len(term.parts)


def _weights(terms: list[Term], lines: list[Line]) -> dict[str, float]:
    """Inverse line frequency of each term among the candidate lines."""
    n = len(lines)
    out = {}
    for term in terms:
        df = sum(1 for line in lines if _credit(term, line.flat) == 1.0)
        out[term.text] = math.log(1 + n / (1 + df))
        if df == 0 and not any(_credit(term, line.chunk + line.context) for line in lines):
            out[term.text] *= ABSENT_WEIGHT
        if term.generic:
            out[term.text] *= GENERIC_WEIGHT
    return out


def _number_near(term: Term, text: str) -> bool:
    """Whether flat ``text`` holds a number term: whole, or its number alone — a month or a day only
    as part of a date ("2010.11"), never a bare count like a table's "12"."""
    if _pattern(term.text).search(text):
        return True
    date_part = term.text.endswith(("월", "일"))
    for part in term.parts:
        if part[:1].isdigit():
            number = re.escape(_flat(part))
            after = r"(?=[.\-/])" if date_part else ""
            if re.search(rf"(?<![0-9]){number}(?![0-9]){after}", text) or (
                    date_part and re.search(rf"[.\-/]0?{number}(?![0-9])", text)):
                return True
    return False


def _score(question: Question, weights: dict[str, float], line: Line, hits: int,
           in_head: dict[tuple[str, str], float]) -> float:
    total = sum(weights.values())
    coverage = 0.0
    cues = line_cues(question, line.text, line.header)
    strong = full_cues(cues)
    for term in question.terms:
        in_context = CONTEXT_CREDIT * _credit(term, line.context)
        # a line repeating the document's title or its table's header (the title line, the header
        # row) gains nothing by it; one repeating its section heading does
        here = _credit(term, line.flat) if _credit(term, line.shared) < 1.0 else 0.0
        credit = max(here, NEAR_CREDIT * _credit(term, line.near), in_context,
                     CHUNK_CREDIT * _credit(term, line.chunk),
                     in_head.get((line.hit["filename"], term.text), 0.0),
                     1.0 if term.asks in strong else 0.0)   # "원인" and a line saying why
        coverage += weights[term.text] * credit
    score = coverage / total if total else 0.0
    around = line.flat + line.near + line.context
    for term in question.terms:
        if term.number and not _number_near(term, around):
            score -= NUMBER_PENALTY
    # a form field's label counts as much as the line covers the question (not for a stray "일시:")
    score += cue_weight(question, cues) + field_weight(question, line.text) * max(0.0, score)
    if "quote" not in question.cues and _echoes(question, line):
        score -= ECHO_PENALTY
    if "ocr" in (line.hit.get("extractors") or []):
        score -= OCR_PENALTY
    score += RANK_BONUS * max(0.0, 1 - line.rank / max(hits, 1))
    if len(line.text) > LONG_LINE:
        score -= LONG_PENALTY * min(1.0, (len(line.text) - LONG_LINE) / LONG_LINE)
    return score


def _echoes(question: Question, line: Line) -> bool:
    """Whether ``line`` says nothing beyond the question's words and empty field labels ("부서:")."""
    rest = _flat(_LABEL.sub("", line.quote))
    for term in question.terms:
        for word in (term.text, *term.parts):
            rest = rest.replace(word, "")
    return len(_LETTERS.findall(rest)) < ECHO_CHARS


# ---- citations -------------------------------------------------------------------------
def _refused(result: dict, code: str) -> dict:
    result.update(reason=code, reason_text=wording.evidence_text(code))
    return result


def _citation(documents: "_Documents", n: int, line: Line) -> dict:
    hit = line.hit
    doc, chunk = documents.get(hit["filename"], hit["chunk_id"])
    blocks = chunk.blocks if chunk is not None else []
    anchors = narrow_anchors(doc, blocks, line.quote) if doc is not None else []
    return {"n": n, "chunk_id": hit["chunk_id"], "doc_id": hit["doc_id"], "filename": hit["filename"],
            "quote": line.quote, "path": hit.get("path") or [], "outline": hit.get("outline") or [],
            "anchors": anchors or hit.get("anchors") or [], "extractors": hit.get("extractors") or [],
            "revisions": revisions_for_text(doc, blocks, line.quote) if doc is not None else []}


class _Documents:
    """The tenant's parsed documents and chunks, looked up once per answer."""

    def __init__(self, tenant):
        self.tenant = tenant
        self._chunks: dict[str, list] = {}

    def chunks(self, filename: str) -> list:
        if filename not in self._chunks:
            self._chunks[filename] = self.tenant.chunks(filename)
        return self._chunks[filename]

    def head(self, filename: str) -> str:
        """How a document names itself: its file name, title and opening text."""
        doc = self.tenant.document(filename)
        title = doc.structure.title if doc is not None else None
        opening = "\n".join(c.text for c in self.chunks(filename))[:HEAD_CHARS]
        return "\n".join([filename, title or "", opening])

    def captioned(self, hit: dict) -> dict:
        """A table hit with its caption: the short last line of the text just before the table
        ("< 국가별 동향(억 달러, %) >"), which names what its cells are."""
        if hit.get("kind") != "table":
            return hit
        chunks = self.chunks(hit["filename"])
        at = next((i for i, c in enumerate(chunks) if c.id == hit["chunk_id"]), 0)
        before = chunks[at - 1] if at > 0 and chunks[at - 1].kind != "table" else None
        last = before.text.strip().rpartition("\n")[2] if before is not None else ""
        return {**hit, "caption": last} if 0 < len(last) <= CAPTION_CHARS else hit

    def get(self, filename: str, chunk_id: str):
        """(Document or None, Chunk or None)."""
        chunk = next((c for c in self.chunks(filename) if c.id == chunk_id), None)
        return self.tenant.document(filename), chunk

    def expanded(self, hits: list[dict]) -> tuple[list[dict], dict[str, str]]:
        """The hits and the other chunks of their first documents (tables captioned), and how each
        of those documents names itself."""
        hits = [self.captioned(hit) for hit in hits + self.more_chunks(hits)]
        return hits, {hit["filename"]: self.head(hit["filename"]) for hit in hits}

    def more_chunks(self, hits: list[dict]) -> list[dict]:
        """The other chunks of the first documents the hits come from, shaped like hits."""
        names = list(dict.fromkeys(hit["filename"] for hit in hits))[:EXPAND_DOCUMENTS]
        seen = {(hit["filename"], hit["chunk_id"]) for hit in hits}
        return [{"score": None, "found_by": "document", "chunk_id": c.id, "doc_id": c.doc_id,
                 "filename": name, "kind": c.kind, "text": c.text, "path": c.path,
                 "outline": c.outline, "anchors": c.anchors, "extractors": c.extractors}
                for name in names for c in self.chunks(name) if (name, c.id) not in seen]


def narrow_anchors(doc: Document, block_ids: list[str], quote: str) -> list[dict]:
    """The anchors of the blocks or table cells of ``block_ids`` that ``quote`` comes from."""
    want = _squash(quote)
    tables = {t.block: t for t in doc.tables}
    blocks = {b.id: b for b in doc.blocks}
    for block_id in block_ids:
        if block_id in tables:
            anchors = _cell_anchors(tables[block_id], want)
            if anchors:
                return anchors
    spans, joined = [], ""
    for block_id in block_ids:
        if block_id in blocks and block_id not in tables:
            text = _squash(clean_text(blocks[block_id].text))
            start = len(joined) + (1 if joined else 0)
            joined = f"{joined} {text}" if joined else text
            spans.append((start, len(joined), blocks[block_id]))
    at = joined.find(want)
    if at < 0 or not want:
        return []
    return [{"page": b.page, "bbox": b.bbox, "cell_range": None}
            for start, end, b in spans if start < at + len(want) and at < end]


def _cell_anchors(table: Table, want: str) -> list[dict]:
    """Anchors of the cells of the row holding ``want`` (or of the one cell holding it)."""
    rows: dict[int, list] = {}
    for cell in sorted(table.cells, key=lambda c: (c.row, c.col)):
        text = _squash(clean_text(cell.text))
        if text:
            rows.setdefault(cell.row, []).append((cell, text))
    cells = []
    for row in rows.values():
        if want in " | ".join(text for _c, text in row):
            cells = [c for c, text in row if text in want or want in text]
            break
    if not cells:
        cells = [c for row in rows.values() for c, text in row if want in text][:1]
    if not cells:
        return []
    if all(c.cell_range for c in cells):
        return [{"page": table.page, "bbox": None, "cell_range": _span(cells)}]
    if not any(c.bbox for c in cells) and table.bbox:
        return [{"page": table.page, "bbox": table.bbox, "cell_range": None}]
    return [{"page": c.page if c.page is not None else table.page, "bbox": c.bbox, "cell_range": None}
            for c in cells]


def _span(cells) -> str:
    """'시트!A3:D3' spanning the cells' own ranges (all on one sheet)."""
    sheet = cells[0].cell_range.rpartition("!")[0]
    bounds = [range_boundaries(c.cell_range.rpartition("!")[2].replace("$", "")) for c in cells]
    first = f"{get_column_letter(min(b[0] for b in bounds))}{min(b[1] for b in bounds)}"
    last = f"{get_column_letter(max(b[2] for b in bounds))}{max(b[3] for b in bounds)}"
    ref = first if first == last else f"{first}:{last}"
    return f"{sheet}!{ref}" if sheet else ref


def _squash(text: str) -> str:
    return " ".join(text.split())
