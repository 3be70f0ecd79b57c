"""What a document states about itself on its form: title, 문서번호, 시행일, 발신, 수신, 담당, 보도 시점.

An official letter (공문) carries labelled fields — 「수신」, 「(경유)」, 「제목」,
「수신자」, 「시행 국제협력총괄과-174 (2023. 1. 10.)」 — the agency's name above
「수신」 and the sender's signature (「…장관」, 「…장」) at the end; 질의회신 forms
carry 「[ 문서번호 ]」 and 「[ 제 목 ]」 cells. A 「수신자」 list may wrap over
several lines; 「붙임  1. 시행공고문 1부.  2. … 끝.」 (or 「첨부」) lists the
attachments, one item a line or several on one. Values are read only from those
labels and that layout, as written: a document without them (a press release,
a 공고) keeps null and [] — nothing is guessed. The title also comes from the
document's face: the 「제목」 field, a press release's headline under
「보도자료」, or a cover line ending in what the document is (「…공고」,
「…제안요청서」). Who to ask and when it may be published come from the same kind
of labelled cells, wherever they sit: 「담당 부서 | 대외경제국」, 「담당자 | 사무관 |
홍길동 | (044-…)」, 「연락처」/「전화」, 「보도시점 | 2025. 9. 19.(금) 11:00」 — a
value runs over the cells after its label up to the next label, as written.
Comparison tables (신·구조문대비표) fill ``revisions``.
"""
from __future__ import annotations

import datetime
import itertools
import re
from typing import Optional

from engine.korean import LETTER, LISTED_LINE, closed_up, one_line
from engine.model import Document
from engine.read.revisions import document_revisions

# label (spaces removed) -> the field it gives; None: a label whose value is not kept
LABELS: dict[str, Optional[str]] = {
    "문서번호": "number", "시행": "number", "시행일": "date", "시행일자": "date",
    "제목": "title", "수신": "recipient", "수신자": "recipients", "수신처": "recipients",
    "발신": "issuer", "발신명의": "issuer", "경유": None,
}
# label (spaces removed) -> contact field; a field's labels in the order one is preferred to another
CONTACT_LABELS: dict[str, tuple[str, ...]] = {
    "department": ("담당부서", "담당과", "소관부서", "주관부서", "부서명", "부서"),
    "contact": ("담당자", "실무자", "책임자", "작성자", "문의처", "문의"),
    "phone": ("전화번호", "전화", "연락처", "문의전화", "tel"),
    "release": ("보도시점", "보도일시", "보도일자", "엠바고", "보도"),
}
# labels that end a value running over the cells after another label
STOP_LABELS = ("배포", "배포일시", "이메일", "e-mail", "팩스", "fax", "전송", "홈페이지", "주소", "수신", "발신", "제목")
CONTACT_MAX = 80   # characters of a contact value
HEADER_CELLS = 4   # a table row of at least this many cells over a row of values as long heads columns
TITLE_MAX = 200
ADDRESS_ROWS = 15  # a letter's 「수신」 and 「제목」 lines sit within its first rows
PRESS_MARKS = ("보도자료", "보도참고자료", "보도해명자료", "보도설명자료", "설명자료")
RELEASE_LABELS = ("보도일시", "보도시점", "보도일자")   # a press release may open with its release table instead
PRESS_LABELS = ("보도", "배포", "엠바고", "담당", "작성")  # 보도시점 · 보도일시 · 배포 … rows
LOOK_AHEAD = 4     # blocks after 「보도자료」 searched for the headline
COVER_BLOCKS = 12  # first blocks searched for a cover headline
COVER_MAX = 120    # characters

_LABEL_RES = [(re.compile(r"^[\[【<(]?\s*" + r"\s*".join(label) + r"\s*[\]】>)]?\s*[:：]?(?:\s+(?P<rest>.*))?$"),
               label) for label in sorted(LABELS, key=len, reverse=True)]
_PHONE = re.compile(r"(?:\(0\d{1,2}\)|0\d{1,2})\s*[-.]?\s*\d{3,4}\s*[-.]\s*\d{4}")
_DOC_NUMBER = re.compile(r"[가-힣A-Za-z0-9·ㆍ]*[가-힣A-Za-z][가-힣A-Za-z0-9·ㆍ]*-\d+")
_DATE = re.compile(r"(\d{4})\s*[.\-/년]\s*(\d{1,2})\s*[.\-/월]\s*(\d{1,2})(?!\d)")
_ORG = re.compile(r"[가-힣()·ㆍ ]{1,30}(부|처|청|원|위원회|시|도|군|구|공사|공단|재단|센터|본부|협회|학교"
                  r"|소방서|세무서|경찰서|우체국|사무소|지사|지청|출장소)")
_NOTICE_NUMBER = re.compile(r"(?:^|\s)(?P<number>(?:공고|고시|훈령|예규)\s*제\s*\d{2,4}\s*-\s*\d+\s*호)\s*$")
_DATE_LINE = re.compile(r"\s*\d{4}\s*[.년]\s*\d{1,2}\s*[.월]\s*\d{1,2}\s*[.일]?\s*")
_SIGNATURE = re.compile(r"(?P<name>[가-힣()·ㆍ ]{2,40}(장|장관|지사|군수|교육감))"
                        r"\s*([(（]\s*(직인|관인|서명)?\s*생략\s*[)）]|[(（]\s*(인|직인|관인)\s*[)）])?")
DOCUMENT_KINDS = ("공고문", "공고", "제안요청서", "과업지시서", "과업내용서", "계획서", "계획", "지침", "안내문",
                  "안내", "알림", "보고서", "결과보고", "요령", "설명서", "공모", "모집")
_COVER = re.compile(r"^(?P<title>.{2,100}(" + "|".join(r"\s?".join(k) for k in DOCUMENT_KINDS)
                    + r")(\s*\(안\))?)(?P<rest>\s+.*)?$")
_YEAR_FIRST = re.compile(r"^\d{4}\s*[.년]")
# 「붙임」 / 「첨부1 :」 and what follows; items are numbered 「1.」, each may end with its copies 「1부.」
_ATTACH = re.compile(r"^(붙\s*임|첨\s*부)(?P<n>\d*)\s*(?P<colon>[:：])?\s*(?P<rest>.*)$")
_ITEM = re.compile(r"(?:^|\s)\d{1,2}\s*[.)]\s+")
_COPIES = re.compile(r"\d+\s*(부|매|권|장)\b")
_END = re.compile(r"\s*끝\s*\.?\s*$")
_SEPARATOR = re.compile(r"[,，、]\s*$")
LIST_PIECE = 40    # characters: a piece of a wrapped 「수신자」 line longer than this is prose


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
            org = one_line(value[:number.start()])
            issuer_in_number = org if _ORG.fullmatch(org) else None
            break
    s.issued_date = s.issued_date or next(
        (d for d in map(normalise_date, values.get("date", [])) if d), None)
    s.recipient = next(iter(values.get("recipient", [])), None)
    # 「수신자 참조」 at the top names the addressees at the foot: 「수신자 | 재난관리과장, 현장대응단장, …」
    for value in values.get("recipients", []):
        if value.replace(" ", "") == "참조":
            s.recipient = s.recipient or "수신자 참조"
            continue
        s.recipients = _split_names(value)
        break
    s.issuer = (next(iter(values.get("issuer", [])), None) or _letter_issuer(rows, fields)
                or issuer_in_number)
    number, date, signer = _notice(rows)
    s.doc_number = s.doc_number or number
    s.issued_date = s.issued_date or date
    s.issuer = s.issuer or signer
    s.attachments = _attachments(rows)
    s.revisions = document_revisions(doc)
    for name, value in _contacts(rows).items():
        setattr(s, name, value)


def days_written(text: str) -> set[str]:
    """The days (YYYY-MM-DD) of the dates written in ``text`` ("2023년 3월 24일" → 2023-03-24)."""
    return {day for found in _DATE.finditer(text or "") for day in [normalise_date(found.group(0))] if day}


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
                row = [one_line(c) for c in cells if one_line(c)]
                if row:
                    rows.append(row)
        elif block.parent not in tables:   # text inside a table is read from its cells
            rows.extend([one_line(line)] for line in block.text.split("\n") if one_line(line))
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
            last = i       # the row the value ends on
            if not rest and j + 1 < len(row) and _label(row[j + 1]) is None:
                rest = row[j + 1]
                if LABELS[label] == "number":   # "시행 | 총무과-12 | ( | 2024. 1. 2. | )": the date in cells after it
                    rest = " ".join([rest, *itertools.takewhile(lambda c: not LETTER.search(c), row[j + 2:])])
            elif not rest and len(row) == 1 and i + 1 < len(rows) and _label(rows[i + 1][0]) is None:
                rest, last = rows[i + 1][0], i + 1
            if LABELS[label] in ("recipient", "title") and i >= ADDRESS_ROWS:
                continue   # 「수신」, 「제목」 deep in the text are not the letter's own
            if LABELS[label] == "recipients" and rest and len(rows[last]) == 1:
                rest = _wrapped_list(rows[last + 1:], rest)
            if LABELS[label]:
                out.append((LABELS[label], rest, i))
    return out


def _contacts(rows: list[list[str]]) -> dict[str, str]:
    """담당 부서, 담당자, 연락처 and 보도 시점 as written after their labels (the first of each, a label
    earlier in ``CONTACT_LABELS`` winning over a later one)."""
    found: dict[str, tuple[int, str]] = {}
    seen: list[str] = []
    for i, row in enumerate(rows):
        if _header_row(row, rows[i + 1] if i + 1 < len(rows) else []):
            continue
        for j, cell in enumerate(row):
            hit = _contact_label(cell)
            if hit is None:
                continue
            name, rank, rest = hit
            parts = [rest] if rest else []
            for after in row[j + 1:]:
                if _contact_label(after) is not None or _is_stop(after) or _label(after) is not None:
                    break
                parts.append(after)
            value = " ".join(parts).strip(" :：")[:CONTACT_MAX]
            if _fits(name, value):
                seen.append(value)
                if name not in found or rank < found[name][0]:
                    found[name] = (rank, value)
    out = {name: value for name, (_rank, value) in found.items()}
    if "phone" not in out:
        for value in (out.get("contact"), *seen):
            number = _PHONE.search(value or "")
            if number:
                out["phone"] = number.group(0)
                break
    return out


def _header_row(row: list[str], below: list[str]) -> bool:
    """Whether ``row`` heads the columns of a table ("연번 | 일자 | 부서 | 차량종류 | 등록번호"): the row
    below has as many cells, at least ``HEADER_CELLS``, and none is a label; a label there names a
    column, and what follows it in the row is other columns' names, not its value."""
    return (len(row) == len(below) >= HEADER_CELLS
            and not any(_contact_label(cell) or _label(cell) or _is_stop(cell) for cell in below))


def _contact_label(cell: str) -> Optional[tuple[str, int, str]]:
    """(field, preference, the rest of the cell) when ``cell`` starts with a contact label."""
    squashed = cell.replace(" ", "").lower()
    for name, labels in CONTACT_LABELS.items():
        for rank, label in enumerate(labels):
            if squashed == label or (squashed.startswith(label) and re.match(
                    r"^[\[【<(]?\s*" + r"\s*".join(label) + r"\s*[\]】>)]?\s*[:：]\s*\S", cell, re.I)):
                rest = cell.split(":", 1)[1] if ":" in cell else (cell.split("：", 1)[1] if "：" in cell else "")
                return name, rank, rest.strip()
    return None


def _is_stop(cell: str) -> bool:
    squashed = cell.replace(" ", "").lower().lstrip("/·|")   # "전화 … /전송 …"
    return any(squashed == label or squashed.startswith(label + ":") for label in STOP_LABELS)


def _fits(name: str, value: str) -> bool:
    """Whether ``value`` can be what its field says: a time for 보도 시점, a number for 연락처, letters otherwise."""
    if not value:
        return False
    if name == "release":
        return bool(re.search(r"\d", value))
    if name == "phone":
        return bool(_PHONE.search(value))
    return bool(re.search(r"[가-힣A-Za-z]", value))


def _wrapped_list(after: list[list[str]], value: str) -> str:
    """A 「수신자」 list with the lines it wraps onto (``after`` it): a line runs on while the list
    ends in a comma or an open parenthesis, or when the next line is itself a list of short names."""
    for row in after:
        line = row[0]
        if len(row) > 1 or _label(line) is not None:
            break
        open_paren = value.count("(") > value.count(")")
        if not (_SEPARATOR.search(value) or open_paren or _looks_like_list(line)):
            break
        value = f"{value}{'' if open_paren else ' '}{line}"
    return value


def _looks_like_list(line: str) -> bool:
    pieces = _split_names(line)
    return (len(pieces) > 1 and all(len(p) <= LIST_PIECE for p in pieces)
            and not re.search(r"[.다]$", line))


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


def _attachments(rows: list[list[str]]) -> list[str]:
    """What a letter's 「붙임」 (or 「첨부」) rows list, each item as written without its number and
    the closing 「끝.」: 「붙임 1. 시행공고문 1부. 2. 신청서 1부. 끝.」 → 「시행공고문 1부」, 「신청서 1부」.
    A row counts only in that layout (a colon, numbered items, copies or 「끝.」 after the label),
    so prose that starts with 「붙임 서류를 …」 does not."""
    items: list[str] = []
    i = 0
    while i < len(rows):
        found = _ATTACH.match(" ".join(rows[i]))
        rest = found["rest"].strip() if found else ""
        if not rest or not (found["colon"] or found["n"] or _ITEM.match(rest) or _COPIES.search(rest)
                            or _END.search(rest)):
            i += 1
            continue
        found_items = _items(_END.sub("", rest))
        # a numbered list goes on with the next number on the next line: 「2. 신청서 1부.」
        while (_ITEM.match(rest) and not _END.search(rows[i][-1]) and i + 1 < len(rows)
               and len(rows[i + 1]) == 1 and _ITEM.match(rows[i + 1][0])
               and int(re.match(r"\d+", rows[i + 1][0].strip()).group()) == len(found_items) + 1):
            i += 1
            found_items += _items(_END.sub("", rows[i][0]))
        items.extend(found_items)
        i += 1
    return items


def _items(text: str) -> list[str]:
    """The items of 「1. 가 1부. 2. 나 1부」 (or of an unnumbered 「가 1부」), without numbers and dots."""
    pieces = _ITEM.split(text) if _ITEM.match(text) else [text]
    return [piece.strip().rstrip(".").strip() for piece in pieces if piece.strip(" .")]


def _letter_issuer(rows: list[list[str]], fields) -> Optional[str]:
    """A letter's sender: the agency line above 「수신」 (letter-spaced or not: 「강 서 소 방 서」), else the
    signature after the addressees."""
    to_rows = [r for kind, _v, r in fields if kind in ("recipient", "recipients")]
    if not to_rows:
        return None
    for row in reversed(rows[max(0, min(to_rows) - 4):min(to_rows)]):
        line = closed_up(row[0].strip()) if len(row) == 1 else ""
        if _ORG.fullmatch(line) and not re.search(r"\d", line):
            return line
    values = {v for _k, v, _r in fields}
    for row in rows[max(to_rows) + 1:]:
        for cell in row:
            found = _SIGNATURE.fullmatch(cell)
            if (found and cell not in values and _label(cell) is None
                    and not re.search(r"귀하|참조", cell) and len(found["name"].replace(" ", "")) >= 4):
                return closed_up(found["name"].strip())
    return None


def _notice(rows: list[list[str]]) -> tuple[Optional[str], Optional[str], Optional[str]]:
    """(number, date, signer) of a public notice: 「서울특별시 강남구 공고 제2023-745호」 among its first lines,
    and a line holding only a date with the signer on the next (「2023년 3월 24일」 / 「서울특별시 강남구청장」)."""
    number = next((found["number"] for row in rows[:ADDRESS_ROWS] if len(row) == 1
                   for found in [_NOTICE_NUMBER.search(row[0])] if found), None)
    for row, after in zip(rows, rows[1:]):
        if len(row) == 1 and len(after) == 1 and _DATE_LINE.fullmatch(row[0]):
            signer = _SIGNATURE.fullmatch(closed_up(after[0].strip()))
            if signer:
                return number, normalise_date(row[0]), signer["name"]
    return number, None, None


# ---- titles ------------------------------------------------------------------------
def _press_headline(doc: Document) -> Optional[str]:
    """The headline under a 「보도자료」 mark at the top of a press release, or under the release table
    (「보도일시 | 2018. 9. 4.」) it opens with."""
    blocks = [b for b in doc.blocks if one_line(b.text)][:8]
    for i, block in enumerate(blocks):
        mark = re.sub(r"\s+", "", block.text)
        if not (mark.startswith(PRESS_MARKS) and len(mark) <= 15 or i == 0 and mark.startswith(RELEASE_LABELS)):
            continue
        for after in blocks[i + 1:i + 1 + LOOK_AHEAD]:
            line = next(one_line(x) for x in after.text.split("\n") if one_line(x))
            if line.replace(" ", "").startswith(PRESS_LABELS) or " | " in line or len(line) < 6:
                continue
            return line[:TITLE_MAX]
        return None
    return None


def _cover_headline(doc: Document) -> Optional[str]:
    """A short line near the top ending in what the document is (「…공고」, 「…과업지시서」)."""
    for block in [b for b in doc.blocks if one_line(b.text)][:COVER_BLOCKS]:
        text = one_line(block.text)
        if len(text) > COVER_MAX or " | " in block.text or LISTED_LINE.match(text):
            continue
        found = _COVER.match(text)
        if found and (not found["rest"] or _YEAR_FIRST.match(found["rest"].strip())):
            return found["title"].strip()
    return None
