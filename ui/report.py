"""An answer as rich text: shown in the answer panel and printed.

The answer dict has the engine's /answer shape (question, answered, reason,
skipped, made_by, text, lines, citations).
"""
from __future__ import annotations

import html
import re
from typing import Optional

from engine import wording
from ui import texts

CITE_SCHEME = "cite"
_REF = re.compile(r"\[(\d+)\]")
_t = wording.evidence_text


def is_machine_read(citation: dict) -> bool:
    """True when OCR produced (part of) the cited text."""
    return any("ocr" in (e or "").lower() for e in citation.get("extractors", []))


def location(citation: dict) -> str:
    """'3쪽 · 5쪽', '칸 시트!A1:C4' … from the citation's anchors ('' when unknown)."""
    parts: list[str] = []
    for anchor in citation.get("anchors", []):
        if anchor.get("page"):
            part = _t("page", page=anchor["page"])
        elif anchor.get("cell_range"):
            part = _t("cell", cell=anchor["cell_range"])
        else:
            continue
        if part not in parts:
            parts.append(part)
    return " · ".join(parts)


def revision_tags(citation: dict) -> str:
    """'[삭제 13.]' style tags for the citation's revisions."""
    tags = []
    for rev in citation.get("revisions") or []:
        kind = rev.get("kind") or ""
        tags.append(_t("revision", kind=wording.EVIDENCE_TEXTS.get(kind, kind),
                       label=rev.get("label") or "").replace(" ]", "]"))
    return " ".join(tags)


def citation_head(citation: dict) -> str:
    """'[1] 파일 · 3쪽' — which file and where (and whether OCR read it)."""
    head = f"[{citation.get('n')}] {citation.get('filename', '')}"
    where = location(citation)
    if where:
        head += f" · {where}"
    if is_machine_read(citation):
        head += f" ({texts.MACHINE_READ})"
    return head


def citation_title(citation: dict) -> str:
    """One line naming a citation: '[1] 파일 · 3쪽 — 제목 > 절'."""
    head = citation_head(citation)
    trail = " > ".join([*citation.get("path", [])[:1], *citation.get("outline", [])])
    return f"{head} — {trail}" if trail else head


def skipped_lines(answer: dict, short: bool = False) -> list[str]:
    """'파일 — 까닭 — 할 일' for every unreadable document the answer could not use.

    ``short`` keeps only what happened (the next step stays in the documents list).
    """
    out = []
    for item in answer.get("skipped") or []:
        code = item.get("reason")
        if short and code in wording.REASONS:
            text = wording.REASONS[code][0]
        else:
            text = item.get("reason_text") or wording.reason_text(code) or ""
        out.append(f"{item.get('filename', '')} — {text}")
    return out


def no_answer_text(answer: dict) -> Optional[str]:
    """Why there is no answer (None when there is one)."""
    if answer.get("answered"):
        return None
    code = answer.get("reason") or ""
    if code in ("NO_MATCH", "NO_EVIDENCE"):
        return _t(code)
    return answer.get("reason_text") or _t("no_answer_other", reason=code)


def line_refs(line: dict) -> list[int]:
    """The citation numbers of one answer line ('citations' list or a single 'citation')."""
    refs = line.get("citations") or ([line["citation"]] if line.get("citation") is not None else [])
    return [int(n) for n in refs]


def skipped_head(answer: dict) -> str:
    return _t("skipped_head", count=len(answer.get("skipped") or []))


def answer_html(answer: dict, *, for_print: bool = False, images: list[tuple[str, str, int]] = (),
                image_width: int = 480) -> str:
    """The answer with numbered citations as HTML (Qt rich text).

    On screen the [n] marks are links (cite:n); in print the full evidence
    list, the unreadable documents and ``images`` — (url, "[n] 파일", page)
    pictures of cited pages, ``image_width`` wide — follow.
    """
    e = html.escape
    parts = []
    if for_print:
        parts.append(f"<h2>{e(_t('heading'))}</h2>")
        parts.append(f"<p><b>{e(_t('question'))}:</b> {e(answer.get('question', ''))}</p>")
        skipped = skipped_lines(answer)
        if skipped:
            parts.append(f"<p style='color:#b3261e'><b>{e(skipped_head(answer))}</b><br>"
                         + "<br>".join(e(s) for s in skipped) + "</p>")
        parts.append(f"<h3>{e(_t('answer'))}</h3>")
    missing = no_answer_text(answer)
    if missing:
        parts.append(f"<p><b>{e(missing)}</b></p>")
    lines = answer.get("lines") or []
    if lines:
        for line in lines:
            marks = "".join(f" [{n}]" if for_print else f" <a href='{CITE_SCHEME}:{n}'>[{n}]</a>"
                            for n in line_refs(line))
            parts.append(f"<p>{e(line.get('text', ''))}{marks}</p>")
    elif answer.get("answered") and answer.get("text"):
        text = e(answer["text"]).replace("\n", "<br>")
        if not for_print:
            known = {c.get("n") for c in answer.get("citations") or []}
            text = _REF.sub(lambda m: f"<a href='{CITE_SCHEME}:{m[1]}'>[{m[1]}]</a>" if int(m[1]) in known
                            else m[0], text)
        parts.append(f"<p>{text}</p>")
    flags = answer.get("flags") or []
    if flags:
        parts.append(f"<p style='color:#b3261e'><b>{e(_t('flags_head'))}</b><br>"
                     + "<br>".join(e(f.get("text", "")) for f in flags) + "</p>")
    if answer.get("made_by"):
        parts.append(f"<p style='color:#666'><small>{e(wording.made_by_text(answer))}"
                     "</small></p>")
    if for_print:
        citations = answer.get("citations") or []
        if citations:
            parts.append(f"<h3>{e(_t('evidence'))}</h3>")
        for c in citations:
            tags = revision_tags(c)
            parts.append(f"<p><b>{e(citation_title(c))}</b><br>“{e(c.get('quote', ''))}”"
                         + (f" {e(tags)}" if tags else "") + "</p>")
            if is_machine_read(c):
                parts.append(f"<p style='color:#a15c00'><small>{e(_t('ocr'))}</small></p>")
        for url, source, page in images:
            caption = f"{source} · {_t('page_picture', page=page)}"
            parts.append(f"<p style='page-break-before: always'><b>{e(caption)}</b></p>"
                         f"<p><img src='{url}' width='{image_width}'></p>")
    return "\n".join(parts)
