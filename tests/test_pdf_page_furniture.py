"""PDF reader: a running head and page numbers are page furniture (header/footer blocks), not body text
(bench/office/E/README.md, problem 6); a body line that sits near the margin of one page stays body text."""
from __future__ import annotations

import pymupdf

from engine.read.parse import parse_bytes

HEAD = "해양 에너지 기술 활성화 방안 연구"
NEAR_MARGIN = "다만 이 문장은 셋째 쪽의 아래 여백 가까이에 놓인 본문이다."


def _report(pages: int = 5) -> bytes:
    """An A4 report: the running head on top and "- N -" at the foot of every page, body lines between,
    and on page 3 one body line low on the page, in the band page numbers stand in."""
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page()
        page.insert_text((72, 50), HEAD, fontname="korea", fontsize=9)
        for i in range(3):
            page.insert_text((72, 150 + 60 * i), f"{n}쪽 본문 {i + 1}번째 문단은 연구의 내용을 설명한다.",
                             fontname="korea", fontsize=11)
        if n == 3:
            page.insert_text((72, 770), NEAR_MARGIN, fontname="korea", fontsize=11)
        page.insert_text((285, 815), f"- {n} -", fontname="korea", fontsize=10)
    return doc.tobytes()


def test_running_head_and_page_numbers_leave_the_body():
    doc = parse_bytes(_report(), "보고서.pdf")[0]
    body = [b for b in doc.blocks if b.type not in ("header", "footer")]
    assert not any(HEAD in b.text for b in body)
    assert not any(b.text.strip().startswith("- ") and b.text.strip().endswith(" -") for b in body)
    assert [(b.page, b.text) for b in doc.blocks if b.type == "header"] == [(n, HEAD) for n in range(1, 6)]
    assert [(b.page, b.text) for b in doc.blocks if b.type == "footer"] == [(n, f"- {n} -") for n in range(1, 6)]
    assert [(b.type, b.page) for b in doc.blocks if b.text == NEAR_MARGIN] == [("paragraph", 3)]
    assert sum(1 for b in body if "본문" in b.text) == 5 * 3 + 1
