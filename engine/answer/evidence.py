"""The evidence page: one self-contained HTML file showing an answer and where it came from.

The page travels alone (mail, 결재, archive), so it carries everything: the
question, what made the answer, each line with its citation numbers, the
unreadable documents the answer could not use, and for every citation the
file, page and heading path. PDF and image sources get the cited page drawn
(PyMuPDF, embedded as a data: URI) with the cited boxes painted over it —
boxes come only from the citation's anchors, never made up. HWP, HWPX, DOCX
and XLSX have no fixed pages, so their cited passage is shown in its
surrounding text with the quote marked, and the page says why there is no
picture. No external reference of any kind (fonts, CSS, scripts, images).
"""
from __future__ import annotations

import base64
import datetime
import html
import os
import re
import threading
from pathlib import Path
from string import Template
from typing import Optional

from engine import wording
from engine.korean import one_line
from engine.model import Document
from engine.read.detect import EXTENSION_FORMATS
from engine.read.mupdf import pymupdf  # MuPDF's messages kept off stdout

TEMPLATE = Path(__file__).resolve().parents[2] / "resources" / "templates" / "evidence.html"   # beside engine/
PAGE_FORMATS = {"pdf", "png", "jpeg", "tiff", "bmp", "gif"}
DPI = 110
JPEG_QUALITY = 72
MAX_PAGES_PER_CITATION = 4
MAX_PAGES = 16              # rendered pages in one evidence page, to keep the file a sane size
AROUND = 2                  # neighbouring blocks shown before and after a cited passage
AROUND_CHARS = 300

_RENDER_LOCK = threading.Lock()  # MuPDF is not thread-safe
_e = html.escape
_t = wording.evidence_text


def evidence_html(tenant, answer: dict) -> str:
    """The whole evidence page for ``answer`` (the /answer shape) over ``tenant``'s documents."""
    question = answer.get("question") or ""
    pages_left = [MAX_PAGES]  # shared by the citations
    parts = [
        f"<h1>{_e(_t('heading'))}</h1>",
        f"<p class='made-at'>{_e(_t('made_at', when=_now(), folder=Path(tenant.folder).name))}</p>",
        _skipped(answer.get("skipped") or []),
        f"<section class='question'><h2>{_e(_t('question'))}</h2><p>{_e(question)}</p>",
    ]
    if answer.get("made_by"):
        parts.append(f"<p class='made-by'>{_e(wording.made_by_text(answer))}</p>")
    parts.append("</section>")
    parts.append(_answer(answer))
    citations = answer.get("citations") or []
    parts.append(f"<section class='citations'><h2>{_e(_t('evidence'))}</h2>")
    if not citations:
        parts.append(f"<p>{_e(_t('no_evidence'))}</p>")
    for citation in citations:
        parts.append(_citation(tenant, citation, pages_left))
    parts.append("</section>")
    template = Template(TEMPLATE.read_text(encoding="utf-8"))
    return template.substitute(title=_e(_t("title", question=question)),
                               body="\n".join(p for p in parts if p))


# ---- top of the page ---------------------------------------------------------------
def _skipped(skipped: list[dict]) -> str:
    """The unreadable documents, each with what happened and what to do."""
    if not skipped:
        return ""
    items = []
    for item in skipped:
        code = item.get("reason")
        what = wording.REASONS.get(code, (item.get("reason_text") or "", ""))[0]
        vendor = f" ({item['drm_vendor']})" if item.get("drm_vendor") else ""
        step = wording.next_step(code) if code in wording.REASONS else ""
        items.append(f"<li><b>{_e(item.get('filename', ''))}</b> — {_e(what + vendor)}"
                     + (f"<span class='step'>{_e(_t('next_step', step=step))}</span>" if step else "")
                     + "</li>")
    return (f"<section class='skipped'><h2>{_e(_t('skipped_head', count=len(skipped)))}</h2>"
            f"<ul>{''.join(items)}</ul></section>")


def _answer(answer: dict) -> str:
    out = [f"<section class='answer'><h2>{_e(_t('answer'))}</h2>"]
    if not answer.get("answered"):
        code = answer.get("reason") or ""
        why = answer.get("reason_text") or (
            _t(code) if code in ("NO_MATCH", "NO_EVIDENCE") else _t("no_answer_other", reason=code))
        out.append(f"<p class='no-answer'><b>{_e(_t('not_answered'))}</b> — {_e(why)}</p>")
    elif answer.get("lines"):
        out.append("<ol class='lines'>")
        for line in answer["lines"]:
            refs = line.get("citations") or ([line["citation"]] if line.get("citation") else [])
            marks = "".join(f"<a class='ref' href='#c{int(n)}'>[{int(n)}]</a>" for n in refs)
            out.append(f"<li>{bold_span(line.get('text', ''), span_of(line))}{marks}</li>")
        out.append("</ol>")
    elif answer.get("text"):
        out.append("<p>" + _e(answer["text"]).replace("\n", "<br>") + "</p>")
    flags = answer.get("flags") or []
    if flags:
        out.append(f"<div class='note flags'><b>{_e(_t('flags_head'))}</b><ul>"
                   + "".join(f"<li>{_e(f.get('text', ''))}</li>" for f in flags) + "</ul></div>")
    out.append("</section>")
    return "".join(out)


# ---- one citation --------------------------------------------------------------------
def _citation(tenant, citation: dict, pages_left: list[int]) -> str:
    filename = citation.get("filename") or ""
    doc = tenant.document(filename)
    fmt = doc.source.format if doc is not None else _format_of(filename)
    n = int(citation.get("n") or 0)
    out = [f"<article class='citation' id='c{n}'>", f"<h3>{_e(_heading(citation))}</h3>"]
    quote = citation.get("quote") or ""
    revisions = "".join(f"<span class='revision'>{_e(_revision(r))}</span>"
                        for r in citation.get("revisions") or [])
    out.append(f"<p class='quote'>“{_e(quote)}”{revisions}</p>")
    fields = _form_fields(doc)
    if fields:
        out.append(f"<p class='meta'>{_e(fields)}</p>")
    extractors = wording.extractors_text(citation.get("extractors"))
    if extractors:
        out.append(f"<p class='meta'>{_e(_t('read_by', extractors=extractors))}</p>")
    if any("ocr" in (x or "").lower() for x in citation.get("extractors") or []):
        out.append(f"<p class='note ocr'>{_e(_t('ocr'))}</p>")
    if doc is not None and (doc.access.distribution or "DISTRIBUTION_DOCUMENT" in doc.warning_codes()):
        out.append(f"<p class='note distribution'>{_e(_t('distribution'))}</p>")
    if doc is not None and "PAGE_APPROXIMATE" in doc.warning_codes() and _pages(citation):
        out.append(f"<p class='note'>{_e(wording.warning_text('PAGE_APPROXIMATE'))}</p>")
    if fmt in PAGE_FORMATS:
        out.append(_page_pictures(tenant, citation, fmt, doc, pages_left))
    else:
        out.append(f"<p class='note'>{_e(_t('no_picture', format=wording.format_name(fmt)))}</p>")
        out.append(_passage(tenant, citation, doc))
    out.append("</article>")
    return "".join(out)


def _heading(citation: dict) -> str:
    """'[1] 파일 · 3쪽 · 제목 > 절' — which file, where, under which heading."""
    where = [_t("page", page=p) for p in _pages(citation)]
    where += sorted({_t("cell", cell=a["cell_range"]) for a in citation.get("anchors") or []
                     if a.get("cell_range")})
    title = (citation.get("path") or [])[:1]
    trail = " > ".join([*title, *(h for h in citation.get("outline") or [] if h not in title)])
    return " · ".join(x for x in [f"[{citation.get('n')}] {citation.get('filename', '')}",
                                  *where, trail] if x)


def _form_fields(doc: Optional[Document]) -> str:
    """'문서번호 … · 시행일 … · 발신 …' as the document states them ('' when it states none)."""
    if doc is None:
        return ""
    s = doc.structure
    return " · ".join(_t(key, value=value) for key, value in (
        ("doc_number", s.doc_number), ("issued_date", s.issued_date), ("issuer", s.issuer)) if value)


def _revision(rev: dict) -> str:
    kind = rev.get("kind") or ""
    return _t("revision", kind=wording.EVIDENCE_TEXTS.get(kind, kind),
              label=rev.get("label") or "").replace(" ]", "]")


def _pages(citation: dict) -> list[int]:
    return sorted({a["page"] for a in citation.get("anchors") or [] if a.get("page")})


# ---- page pictures (PDF and images) ---------------------------------------------------
def _page_pictures(tenant, citation: dict, fmt: str, doc: Optional[Document],
                   pages_left: list[int]) -> str:
    source = tenant.source_path(citation.get("filename") or "")
    if source is None or not Path(source).is_file():
        return f"<p class='note'>{_e(_t('no_source'))}</p>" + _passage(tenant, citation, doc)
    anchors = citation.get("anchors") or []
    pages = _pages(citation) or ([1] if fmt != "pdf" else [])
    if not pages:
        return f"<p class='note'>{_e(_t('no_page'))}</p>" + _passage(tenant, citation, doc)
    shown = pages[:max(0, min(MAX_PAGES_PER_CITATION, pages_left[0]))]
    if not shown:
        return f"<p class='note'>{_e(_t('too_many_pages'))}</p>" + _passage(tenant, citation, doc)
    pages_left[0] -= len(shown)
    out = []
    if not any(a.get("bbox") for a in anchors):
        out.append(f"<p class='note'>{_e(_t('no_boxes'))}</p>")
    if len(shown) < len(pages):
        out.append(f"<p class='note'>{_e(_t('pages_cut', shown=len(shown), total=len(pages)))}</p>")
    try:
        for number, picture in render_pages(Path(source), shown, anchors):
            out.append(f"<figure><figcaption>{_e(_t('page_picture', page=number))}</figcaption>"
                       f"{picture}</figure>")
    except Exception as exc:  # a file that changed or broke since it was read
        out.append(f"<p class='note'>{_e(_t('render_failed', error=type(exc).__name__))}</p>")
        out.append(_passage(tenant, citation, doc))
    return "".join(out)


def render_pages(path: Path, numbers: list[int], anchors: list[dict]) -> list[tuple[int, str]]:
    """(page number, HTML of the page picture with its boxes) for each existing 1-based page."""
    out = []
    with _RENDER_LOCK, pymupdf.open(path) as pdf:
        for number in numbers:
            if not 1 <= number <= pdf.page_count:
                continue
            page = pdf[number - 1]
            pix = page.get_pixmap(matrix=pymupdf.Matrix(DPI / 72, DPI / 72), alpha=False)
            data = base64.b64encode(pix.tobytes("jpeg", jpg_quality=JPEG_QUALITY)).decode("ascii")
            boxes = "".join(_box(page, a["bbox"]) for a in anchors
                            if a.get("bbox") and (a.get("page") or 1) == number)
            out.append((number, f"<div class='page' style='width:{pix.width}px'>"
                                f"<img alt='' src='data:image/jpeg;base64,{data}'>{boxes}</div>"))
    return out


def _box(page, bbox: list[float]) -> str:
    """A box over the page picture, placed in percent of the page so it scales with it."""
    rect = pymupdf.Rect(bbox) * page.rotation_matrix
    size = page.rect
    left = (rect.x0 - size.x0) / size.width * 100
    top = (rect.y0 - size.y0) / size.height * 100
    width = rect.width / size.width * 100
    height = rect.height / size.height * 100
    return (f"<div class='box' style='left:{left:.2f}%;top:{top:.2f}%;"
            f"width:{width:.2f}%;height:{height:.2f}%'></div>")


# ---- passages in their text (HWP, HWPX, DOCX, XLSX) ----------------------------------
def _passage(tenant, citation: dict, doc: Optional[Document]) -> str:
    """The cited chunk between its neighbouring blocks, the quote marked."""
    quote = citation.get("quote") or ""
    chunk = tenant.chunk(citation.get("filename") or "", citation.get("chunk_id"))
    text = chunk.text if chunk is not None else quote
    before, after = _neighbours(doc, chunk.blocks if chunk is not None else [])
    out = ["<div class='context'>"]
    out += [f"<p class='around'>{_e(_clip(b, from_end=True))}</p>" for b in before]
    out.append(f"<p class='cited'>{mark_quote(text, quote)}</p>")
    out += [f"<p class='around'>{_e(_clip(b))}</p>" for b in after]
    out.append("</div>")
    return "".join(out)


def _neighbours(doc: Optional[Document], block_ids: list[str]) -> tuple[list[str], list[str]]:
    """Texts of up to AROUND blocks before and after the cited blocks (outside them)."""
    if doc is None or not block_ids:
        return [], []
    inside = set(block_ids) | {b.id for b in doc.blocks if b.parent in block_ids}
    order = [b for b in doc.blocks if b.text.strip()]
    positions = [i for i, b in enumerate(order) if b.id in inside]
    if not positions:
        return [], []
    first, last = positions[0], positions[-1]
    before = [b.text for b in order[:first] if b.id not in inside][-AROUND:]
    after = [b.text for b in order[last + 1:] if b.id not in inside][:AROUND]
    return before, after


def span_of(line: dict) -> Optional[tuple[int, int]]:
    """An answer line's answering phrase as (start, end), when it is given and fits the line's text."""
    span, text = line.get("answer_span"), line.get("text") or ""
    if not isinstance(span, (list, tuple)) or len(span) != 2:
        return None
    start, end = span
    if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text)):
        return None
    return start, end


def bold_span(text: str, span: Optional[tuple[int, int]], offset: int = 0) -> str:
    """``text`` escaped for HTML with the part inside ``span`` (offsets into a longer text at ``offset``)
    in bold."""
    if span is None:
        return _e(text)
    start, end = max(span[0] - offset, 0), min(span[1] - offset, len(text))
    if start >= end:
        return _e(text)
    return f"{_e(text[:start])}<b class='answering'>{_e(text[start:end])}</b>{_e(text[end:])}"


def mark_quote(text: str, quote: str) -> str:
    """``text`` escaped for HTML with ``quote`` wrapped in <mark> (spacing may differ)."""
    words = quote.strip(" …\n\t").split()
    if not words:
        return _e(text)
    found = re.search(r"\s*".join(re.escape(w) for w in words), text)
    if found is None:
        # the quote's longest line, when the quote joined lines the text keeps apart
        line = max(quote.split("\n"), key=len).strip(" …")
        found = re.search(r"\s*".join(re.escape(w) for w in line.split()), text) if line else None
    if found is None:
        return _e(text)
    return (_e(text[:found.start()]) + "<mark>" + _e(found.group(0)) + "</mark>"
            + _e(text[found.end():]))


def _clip(text: str, from_end: bool = False) -> str:
    """A neighbour's text (lines kept, spaces squashed) cut to AROUND_CHARS from the cited side."""
    text = "\n".join(one_line(line) for line in text.split("\n") if line.strip())
    if len(text) <= AROUND_CHARS:
        return text
    return "… " + text[-AROUND_CHARS:] if from_end else text[:AROUND_CHARS] + " …"


def _format_of(filename: str) -> str:
    formats = EXTENSION_FORMATS.get(os.path.splitext(filename)[1].lower(), {"unknown"})
    return sorted(formats)[0]


def _now() -> str:
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
