"""An answer as Qt rich text, the way it reads on screen and on paper.

Each answer line says what answers in bold (``answer_span``: character
offsets into the line's text), a table row comes as a small table under its
header (``table``: header and cells), and the line ends with its [n] marks
and the file and page it was taken from. Both fields may be missing or null
(an answer made before the picker gave them, an LLM's answer): the line is
then shown plain. A question nothing answers says "찾지 못했습니다", where it
looked (the document it was scoped to, or how many documents and passages)
and which documents it could not look in.

The answer dict has the engine's /answer shape (question, answered, reason,
skipped, made_by, text, lines, citations; optionally document and
chunks_searched).
"""
from __future__ import annotations

import html
import re
from typing import Optional

from engine import wording
from engine.answer.evidence import bold_span, span_of
from ui import report, texts

_e = html.escape
_t = wording.evidence_text
_REF = re.compile(r"\[(\d+)\]")
NOT_FOUND_CODES = ("NO_MATCH", "NO_EVIDENCE")
MAX_NAMES = 6              # unreadable documents named in a "not found" answer
WHERE_STYLE = "color:#555"
HEADER_BG = "#eef2f7"


def table_of(line: dict) -> Optional[tuple[list[str], list[str]]]:
    """(header, cells) of a table-row line, when both are given."""
    table = line.get("table")
    if not isinstance(table, dict):
        return None
    header, cells = table.get("header"), table.get("cells")
    if not (isinstance(header, list) and isinstance(cells, list) and cells):
        return None
    return [str(h) for h in header], [str(c) for c in cells]


def table_html(header: list[str], cells: list[str], text: str, span: Optional[tuple[int, int]]) -> str:
    """A two-row table: the header, then the row with its answering cells' part in bold."""
    width = max(len(header), len(cells))
    header = header + [""] * (width - len(header))
    cells = cells + [""] * (width - len(cells))
    shown, at = [], 0
    for cell in cells:
        found = text.find(cell, at) if cell else -1
        if found >= 0:
            shown.append(bold_span(cell, span, found))
            at = found + len(cell)
        else:
            shown.append(_e(cell))
    head = "".join(f"<th bgcolor='{HEADER_BG}' align='left'>{_e(h)}</th>" for h in header)
    row = "".join(f"<td>{c}</td>" for c in shown)
    return (f"<table border='1' cellspacing='0' cellpadding='4' style='border-collapse:collapse'>"
            f"<tr>{head}</tr><tr>{row}</tr></table>")


def source_label(citation: dict) -> str:
    """'공고.pdf · 3쪽' — the file and the place a line was taken from."""
    where = report.location(citation)
    name = citation.get("filename", "")
    label = f"{name} · {where}" if where else name
    if report.is_machine_read(citation):
        label += f" ({texts.MACHINE_READ})"
    return label


def line_html(line: dict, citations: dict[int, dict], for_print: bool) -> str:
    """One answer line: its text (or table row) with the answer in bold, its [n] marks, its file and page."""
    refs = report.line_refs(line)
    marks = "".join(f" [{n}]" if for_print else f" <a href='{report.CITE_SCHEME}:{n}'>[{n}]</a>" for n in refs)
    sources = " · ".join(dict.fromkeys(source_label(citations[n]) for n in refs if n in citations))
    where = f"<span style='{WHERE_STYLE}'>— {_e(sources)}</span>" if sources else ""
    text, span = line.get("text") or "", span_of(line)
    table = table_of(line)
    if table is not None:
        return f"{table_html(*table, text, span)}<p style='margin-top:2px'>{marks.strip()} {where}</p>"
    return f"<p>{bold_span(text, span)}{marks} {where}</p>"


def searched_text(answer: dict, documents_read: Optional[int]) -> str:
    """Where a question was looked for: one document, or how many documents and passages."""
    if answer.get("document"):
        what = [texts.SEARCHED_ONE.format(document=answer["document"])]
    else:
        what = [texts.SEARCHED_DOCS.format(n=documents_read)] if documents_read is not None else []
    if isinstance(answer.get("chunks_searched"), int):
        what.append(texts.SEARCHED_CHUNKS.format(n=answer["chunks_searched"]))
    return texts.SEARCHED.format(what=" · ".join(what)) if what else ""


def skipped_names(answer: dict) -> str:
    names = [s.get("filename", "") for s in answer.get("skipped") or []]
    shown = ", ".join(names[:MAX_NAMES])
    return shown + (texts.MORE.format(n=len(names) - MAX_NAMES) if len(names) > MAX_NAMES else "")


def not_found_html(answer: dict, documents_read: Optional[int]) -> str:
    """'찾지 못했습니다', why, where it looked and what it could not look in."""
    code = answer.get("reason")
    why = _t(code)
    if not answer.get("citations"):          # "… 아래 근거를 직접 보십시오" needs evidence below
        why = why.split(" — ")[0]
    parts = [f"<p><b style='font-size:large'>{_e(texts.NOT_FOUND)}</b></p>", f"<p>{_e(why)}. {_e(texts.TRY_AGAIN)}</p>"]
    searched = searched_text(answer, documents_read)
    if searched:
        parts.append(f"<p style='{WHERE_STYLE}'>{_e(searched)}</p>")
    if answer.get("skipped"):
        parts.append(f"<p style='{WHERE_STYLE}'>{_e(texts.NOT_SEARCHED.format(names=skipped_names(answer)))}</p>")
    return "\n".join(parts)


def answer_html(answer: dict, *, for_print: bool = False, images: list[tuple[str, str, int]] = (),
                image_width: int = 480, documents_read: Optional[int] = None) -> str:
    """The answer with numbered citations as HTML (Qt rich text).

    On screen the [n] marks are links (cite:n); in print the question, one line on the unreadable documents,
    the full evidence list and ``images`` — (url, "[n] 파일", page) pictures of cited pages, ``image_width``
    wide — come with it. ``documents_read``: how many documents the folder has read (for "찾아본 곳").
    """
    parts = []
    if for_print:
        parts.append(f"<h2>{_e(_t('heading'))}</h2>")
        parts.append(f"<p><b>{_e(_t('question'))}:</b> {_e(answer.get('question', ''))}</p>")
        if answer.get("skipped") and answer.get("answered"):
            parts.append(f"<p style='{WHERE_STYLE}'>{_e(texts.PRINT_SKIPPED.format(names=skipped_names(answer)))}</p>")
        parts.append(f"<h3>{_e(_t('answer'))}</h3>")
    citations = {int(c.get("n")): c for c in answer.get("citations") or [] if c.get("n") is not None}
    if not answer.get("answered") and answer.get("reason") in NOT_FOUND_CODES:
        parts.append(not_found_html(answer, documents_read))
    elif not answer.get("answered"):
        parts.append(f"<p><b>{_e(report.no_answer_text(answer) or '')}</b></p>")
    lines = answer.get("lines") or []
    if answer.get("answered") and lines:
        parts.extend(line_html(line, citations, for_print) for line in lines)
    elif answer.get("answered") and answer.get("text"):
        text = _e(answer["text"]).replace("\n", "<br>")
        if not for_print:
            text = _REF.sub(lambda m: f"<a href='{report.CITE_SCHEME}:{m[1]}'>[{m[1]}]</a>"
                            if int(m[1]) in citations else m[0], text)
        parts.append(f"<p>{text}</p>")
    flags = answer.get("flags") or []
    if flags:
        parts.append(f"<p style='color:#b3261e'><b>{_e(_t('flags_head'))}</b><br>"
                     + "<br>".join(_e(f.get("text", "")) for f in flags) + "</p>")
    if answer.get("made_by"):
        parts.append(f"<p style='color:#666'><small>{_e(wording.made_by_text(answer))}</small></p>")
    if for_print:
        parts.extend(_printed_evidence(answer, images, image_width))
    return "\n".join(parts)


def _printed_evidence(answer: dict, images, image_width: int) -> list[str]:
    parts = []
    citations = answer.get("citations") or []
    if citations:
        parts.append(f"<h3>{_e(_t('evidence'))}</h3>")
    for c in citations:
        tags = report.revision_tags(c)
        parts.append(f"<p><b>{_e(report.citation_title(c))}</b><br>“{_e(c.get('quote', ''))}”"
                     + (f" {_e(tags)}" if tags else "") + "</p>")
        if report.is_machine_read(c):
            parts.append(f"<p style='color:#a15c00'><small>{_e(_t('ocr'))}</small></p>")
    for url, source, page in images:
        caption = f"{source} · {_t('page_picture', page=page)}"
        parts.append(f"<p style='page-break-before: always'><b>{_e(caption)}</b></p>"
                     f"<p><img src='{url}' width='{image_width}'></p>")
    return parts
