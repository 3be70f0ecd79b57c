"""What a document states about itself on its form: title, 문서번호, 시행일, 발신, 수신.

An official letter (공문) carries labelled fields — 「수신」, 「(경유)」, 「제목」,
「수신자」, 「시행 국제협력총괄과-174 (2023. 1. 10.)」 — the agency's name above
「수신」 and the sender's signature (「…장관」, 「…장」) at the end; 질의회신 forms
carry 「[ 문서번호 ]」 and 「[ 제 목 ]」 cells. Values are read only from those
labels and that layout, as written: a document without them (a press release,
a 공고) keeps null and [] — nothing is guessed. The title also comes from the
document's face: the 「제목」 field, a press release's headline under
「보도자료」, or a cover line ending in what the document is (「…공고」,
「…제안요청서」). Comparison tables (신·구조문대비표) fill ``revisions``.
"""
from __future__ import annotations

import datetime
import re
from typing import Optional

from engine.model import Document
from engine.revisions import document_revisions

# label (spaces removed) -> the field it gives; None: a label whose value is not kept
LABELS: dict[str, Optional[str]] = {
    "문서번호": "number", "시행": "number", "시행일": "date", "시행일자": "date",
    "제목": "title", "수신": "recipient", "수신자": "recipients", "수신처": "recipients",
    "발신": "issuer", "발신명의": "issuer", "경유": None,
}
TITLE_MAX = 200
ADDRESS_ROWS = 15  # a letter's 「수신」 and 「제목」 lines sit within its first rows
PRESS_MARKS = ("보도자료", "보도참고자료", "보도해명자료", "설명자료")
PRESS_LABELS = ("보도", "배포", "엠바고", "담당", "작성")  # 보도시점 · 보도일시 · 배포 … rows
LOOK_AHEAD = 4     # blocks after 「보도자료」 searched for the headline
COVER_BLOCKS = 12  # first blocks searched for a cover headline
COVER_MAX = 120    # characters

_LABEL_RES = [(re.compile(r"^[\[【<(]?\s*" + r"\s*".join(label) + r"\s*[\]】>)]?\s*[:：]?(?:\s+(?P<rest>.*))?$"),
               label) for label in sorted(LABELS, key=len, reverse=True)]
_DOC_NUMBER = re.compile(r"[가-힣A-Za-z0-9·ㆍ]*[가-힣A-Za-z][가-힣A-Za-z0-9·ㆍ]*-\d+")
_DATE = re.compile(r"(\d{4})\s*[.\-/년]\s*(\d{1,2})\s*[.\-/월]\s*(\d{1,2})(?!\d)")
_ORG = re.compile(r"[가-힣()·ㆍ ]{1,30}(부|처|청|원|위원회|시|도|군|구|공사|공단|재단|센터|본부|협회|학교)")
_SIGNATURE = re.compile(r"(?P<name>[가-힣()·ㆍ ]{2,40}(장|지사|군수|교육감))"
                        r"\s*([(（]\s*(직인|관인|서명)?\s*생략\s*[)）]|[(（]\s*(인|직인|관인)\s*[)）])?")
_NUMBERED = re.compile(r"^([\dⅠ-Ⅹ]+\s*[.)]|[가-하]\s*[.)]|[□■○●◦ㅇ※*·•]|\(\d+\))")
DOCUMENT_KINDS = ("공고문", "공고", "제안요청서", "과업지시서", "과업내용서", "계획서", "계획", "지침", "안내문",
                  "안내", "알림", "보고서", "결과보고", "요령", "설명서", "공모", "모집")
_COVER = re.compile(r"^(?P<title>.{2,100}(" + "|".join(r"\s?".join(k) for k in DOCUMENT_KINDS)
                    + r")(\s*\(안\))?)(?P<rest>\s+.*)?$")
_YEAR_FIRST = re.compile(r"^\d{4}\s*[.년]")


def extract_structure(doc: Document) -> None:
    """Fill ``doc.structure`` from the document's own fields; unknown fields stay null/[]."""
    if not doc.access.readable:
        return
    rows = _rows(doc)
    fields = _fields(rows)
    s = doc.structure
    values: dict[str, list[str]] = {}
    for kind, value, _row in fields:
        if value:
            values.setdefault(kind, []).append(value)
    # the face of the document beats its file properties, which often keep a template's title
    title = (next(iter(values.get("title", [])), None) or _press_headline(doc)
             or _cover_headline(doc))
    if title:
        s.title = title[:TITLE_MAX]
    issuer_in_number = None
    for value in values.get("number", []):
        number = _DOC_NUMBER.search(value)
        if number:
            s.doc_number = number.group(0)
            s.issued_date = normalise_date(value[number.end():])
            org = _squash(value[:number.start()])
            issuer_in_number = org if _ORG.fullmatch(org) else None
            break
    s.issued_date = s.issued_date or next(
        (d for d in map(normalise_date, values.get("date", [])) if d), None)
    s.recipient = next(iter(values.get("recipient", [])), None)
    for value in values.get("recipients", [])[:1]:
        if value.replace(" ", "") == "참조":
            s.recipient = s.recipient or "수신자 참조"
        else:
            s.recipients = _split_names(value)
    s.issuer = (next(iter(values.get("issuer", [])), None) or _letter_issuer(rows, fields)
                or issuer_in_number)
    s.revisions = document_revisions(doc)


def normalise_date(text: str) -> Optional[str]:
    """The first real date in ``text`` ('2023. 1. 10.', '2023년 1월 10일' …) as YYYY-MM-DD."""
    for found in _DATE.finditer(text or ""):
        try:
            return datetime.date(*(int(g) for g in found.groups())).isoformat()
        except ValueError:
            continue
    return None


# ---- the labelled fields ---------------------------------------------------------
def _rows(doc: Document) -> list[list[str]]:
    """The document as rows of cell texts in reading order; a text line is a one-cell row."""
    tables = {t.block: t for t in doc.tables}
    rows: list[list[str]] = []
    for block in doc.blocks:
        if block.id in tables:
            for cells in tables[block.id].grid():
                row = [_squash(c) for c in cells if _squash(c)]
                if row:
                    rows.append(row)
        elif block.parent not in tables:   # text inside a table is read from its cells
            rows.extend([_squash(line)] for line in block.text.split("\n") if _squash(line))
    return rows


def _fields(rows: list[list[str]]) -> list[tuple[str, str, int]]:
    """(field, value, row number) for every labelled cell, in reading order."""
    out = []
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            found = _label(cell)
            if found is None:
                continue
            label, rest = found
            if not rest and j + 1 < len(row) and _label(row[j + 1]) is None:
                rest = row[j + 1]
            elif not rest and len(row) == 1 and i + 1 < len(rows) and _label(rows[i + 1][0]) is None:
                rest = rows[i + 1][0]
            if LABELS[label] in ("recipient", "title") and i >= ADDRESS_ROWS:
                continue   # 「수신」, 「제목」 deep in the text are not the letter's own
            if LABELS[label]:
                out.append((LABELS[label], rest, i))
    return out


def _label(cell: str) -> Optional[tuple[str, str]]:
    for pattern, label in _LABEL_RES:
        found = pattern.match(cell)
        if found:
            return label, (found.group("rest") or "").strip()
    return None


def _split_names(value: str) -> list[str]:
    """Recipients separated by commas (not those inside parentheses)."""
    names, depth, current = [], 0, ""
    for ch in value:
        if ch in "(（[":
            depth += 1
        elif ch in ")）]":
            depth -= 1
        if ch in ",，、" and depth <= 0:
            names.append(current)
            current = ""
        else:
            current += ch
    names.append(current)
    return [n.strip() for n in names if n.strip()]


def _letter_issuer(rows: list[list[str]], fields) -> Optional[str]:
    """A letter's sender: the agency line above 「수신」, else the signature after the addressees."""
    to_rows = [r for kind, _v, r in fields if kind in ("recipient", "recipients")]
    if not to_rows:
        return None
    for row in reversed(rows[max(0, min(to_rows) - 4):min(to_rows)]):
        if len(row) == 1 and _ORG.fullmatch(row[0]) and not re.search(r"\d", row[0]):
            return row[0]
    values = {v for _k, v, _r in fields}
    for row in rows[max(to_rows) + 1:]:
        for cell in row:
            found = _SIGNATURE.fullmatch(cell)
            if (found and cell not in values and _label(cell) is None
                    and not re.search(r"귀하|참조", cell) and len(found["name"].replace(" ", "")) >= 4):
                return _unspace(found["name"].strip())
    return None


def _unspace(name: str) -> str:
    """「농 림 축 산 식 품 부 장 관」 (letter-spaced) as 「농림축산식품부장관」."""
    parts = name.split()
    return "".join(parts) if len(parts) > 2 and all(len(p) == 1 for p in parts) else name


# ---- titles ------------------------------------------------------------------------
def _press_headline(doc: Document) -> Optional[str]:
    """The headline under a 「보도자료」 mark at the top of a press release."""
    blocks = [b for b in doc.blocks if _squash(b.text)][:8]
    for i, block in enumerate(blocks):
        mark = re.sub(r"\s+", "", block.text)
        if not mark.startswith(PRESS_MARKS) or len(mark) > 15:
            continue
        for after in blocks[i + 1:i + 1 + LOOK_AHEAD]:
            line = next(_squash(x) for x in after.text.split("\n") if _squash(x))
            if line.replace(" ", "").startswith(PRESS_LABELS) or " | " in line or len(line) < 6:
                continue
            return line[:TITLE_MAX]
        return None
    return None


def _cover_headline(doc: Document) -> Optional[str]:
    """A short line near the top ending in what the document is (「…공고」, 「…과업지시서」)."""
    for block in [b for b in doc.blocks if _squash(b.text)][:COVER_BLOCKS]:
        text = _squash(block.text)
        if len(text) > COVER_MAX or " | " in block.text or _NUMBERED.match(text):
            continue
        found = _COVER.match(text)
        if found and (not found["rest"] or _YEAR_FIRST.match(found["rest"].strip())):
            return found["title"].strip()
    return None


def _squash(text: str) -> str:
    return " ".join((text or "").split())
