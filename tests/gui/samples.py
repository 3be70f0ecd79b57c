"""Small Korean documents made on the fly for the window tests (no corpus files copied)."""
from __future__ import annotations


import pymupdf
from tests.documents import docx_bytes  # noqa: F401  (GUI tests import it from here)

NOTICE_HTML = """<h2>2026년 청년 창업 지원사업 공고</h2>
<p>노다시는 청년 창업 기업을 다음과 같이 모집합니다.</p>
<p>신청 기간은 2026년 3월 2일부터 3월 27일까지입니다.</p>
<table>
<tr><td>구분</td><td>지원 금액</td></tr>
<tr><td>초기 창업</td><td>최대 3천만 원</td></tr>
<tr><td>성장 단계</td><td>최대 5천만 원</td></tr>
</table>
<p>문의처는 노다시 일자리경제과입니다.</p>"""
CSS = ("* {font-family: kr; font-size: 11pt} @font-face {font-family: kr; src: url(kr.ttf);}"
       " table {border-collapse: collapse} td {border: 1px solid black; padding: 3pt}")


def pdf_bytes(html: str = NOTICE_HTML, pages: int = 1, password: str | None = None) -> bytes:
    """A Korean PDF (PyMuPDF's built-in Korean font, subset) with the given HTML on each page."""
    archive = pymupdf.Archive()
    archive.add((pymupdf.Font("korea").buffer, "kr.ttf"))
    doc = pymupdf.open()
    for _ in range(pages):
        page = doc.new_page()
        page.insert_htmlbox(page.rect + (60, 60, -60, -60), html, css=CSS, archive=archive)
    doc.subset_fonts()
    options = {"garbage": 3, "deflate": True}
    if password:
        options.update(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=password, owner_pw=password + "!")
    data = doc.tobytes(**options)
    doc.close()
    return data


