"""Naming an answer's parts for people: where a citation is, its revision tags, the unreadable documents.

Shared by the answer panel, the evidence view, printing and ui.answer_render.
The answer dict has the engine's /answer shape (question, answered, reason,
skipped, made_by, text, lines, citations).
"""
from __future__ import annotations

from typing import Optional

from engine import wording
from ui import texts

CITE_SCHEME = "cite"
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
