"""The evidence page (engine/answer/evidence.py) over a real Tenant: page pictures, marked passages, unreadable list."""
from __future__ import annotations

import re
import shutil

import pymupdf
import pytest

from engine import wording
from engine.answer.extract import answer
from engine.answer.evidence import evidence_html, mark_quote
from engine.library.tenant import Tenant
from tests.corpus import CORPUS, requires_corpus
from tests.documents import docx_bytes as _docx_bytes

PRESS = "moef_2025년2분기_해외직접투자_보도자료(최종).hwpx"
NOT_INSIDE = "답과 근거에는 그 문서가 들어 있지 않습니다"


def _pdf_bytes() -> bytes:
    """Two A4 pages of Korean text (PyMuPDF's built-in Korean font)."""
    pdf = pymupdf.open()
    page = pdf.new_page(width=595, height=842)
    page.insert_text((72, 100), "2026년 청년창업 지원사업 공고", fontname="korea", fontsize=16)
    page.insert_text((72, 160), "신청기간은 8월 28일까지입니다.", fontname="korea", fontsize=11)
    page = pdf.new_page(width=595, height=842)
    page.insert_text((72, 400), "지원 한도는 1인당 5천만 원이며 신청기간 안에 내야 합니다.", fontname="korea",
                     fontsize=11)
    return pdf.tobytes()




@pytest.fixture(scope="module")
def tenant(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tenant")
    (folder / "공고.pdf").write_bytes(_pdf_bytes())
    (folder / "회의결과.docx").write_bytes(_docx_bytes(
        "업무조정회의 결과를 알려 드립니다.",
        "돌고래 보호 예산은 <30억 원> & 그대로 둔다.",
        "다음 회의는 9월 3일에 연다."))
    (folder / "빈파일.hwpx").write_bytes(b"")
    (folder / "잠긴문서.hwp").write_bytes(b"<MARKANY_DOCUMENTSAFER>" + b"\x00" * 200)
    t = Tenant(folder, cache_root=tmp_path_factory.mktemp("cache"), workers=1)
    t.refresh()
    yield t
    t.close()


def _answer(tenant: Tenant, query: str, *, pick=None) -> dict:
    """An /answer-shaped dict built from real search hits (one line and one citation per hit)."""
    found = tenant.search(query, limit=5)
    hits = [h for h in found["hits"] if pick is None or pick(h)]
    assert hits, f"no hit for {query}"
    citations, lines = [], []
    for n, hit in enumerate(hits, 1):
        quote = next(line for line in hit["text"].split("\n") if any(w in line for w in query.split()))
        citations.append({"n": n, "chunk_id": hit["chunk_id"], "doc_id": hit["doc_id"],
                          "filename": hit["filename"], "quote": quote, "path": hit["path"],
                          "outline": hit["outline"], "anchors": hit["anchors"],
                          "extractors": hit["extractors"], "revisions": []})
        lines.append({"text": quote, "citations": [n]})
    return {"question": f"{query}은(는)?", "answered": True, "reason": None, "skipped": found["skipped"],
            "made_by": "발췌 (LLM 없음)", "text": "\n".join(l["text"] for l in lines),
            "citations": citations, "lines": lines}


def _external_references(page: str) -> list[str]:
    """Every src/href/url() target that is not inside the page (data: URI or #anchor)."""
    targets = re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)""", page)
    targets += re.findall(r"url\(\s*['\"]?([^)'\"]*)", page)
    targets += re.findall(r"@import", page)
    return [t for t in targets if not t.startswith(("data:", "#"))]


def test_pdf_citation_has_page_picture_with_boxes(tenant):
    answer = _answer(tenant, "신청기간", pick=lambda h: h["filename"] == "공고.pdf")
    page = evidence_html(tenant, answer)
    assert answer["lines"][0]["text"] in page
    assert "발췌 (LLM 없음)" in page
    assert page.count("data:image/jpeg;base64,") >= 1
    # the cited block's box, placed in percent of the A4 page from the anchor's bbox
    anchor = next(a for a in answer["citations"][0]["anchors"] if a["bbox"])
    x0, y0 = anchor["bbox"][:2]
    assert f"left:{x0 / 595 * 100:.2f}%;top:{y0 / 842 * 100:.2f}%" in page
    assert _external_references(page) == []
    assert "http://" not in page and "https://" not in page
    assert wording.evidence_text("page_picture", page=anchor["page"]) in page


def test_citation_over_two_pages_draws_both(tenant):
    """A citation whose anchors span pages (as a table's cells can) gets every page and every box."""
    answer = _answer(tenant, "신청기간", pick=lambda h: h["filename"] == "공고.pdf")
    anchors = [a for c in answer["citations"] for a in c["anchors"]]
    answer["citations"] = [{**answer["citations"][0], "anchors": anchors}]
    assert sorted({a["page"] for a in anchors}) == [1, 2]
    page = evidence_html(tenant, answer)
    assert page.count("<figure>") == 2
    assert page.count("class='box'") == sum(1 for a in anchors if a["bbox"]) >= 2


def test_docx_citation_marks_quote_in_surrounding_text(tenant):
    answer = _answer(tenant, "돌고래")
    page = evidence_html(tenant, answer)
    assert "<mark>돌고래 보호 예산은 &lt;30억 원&gt; &amp; 그대로 둔다.</mark>" in page
    assert "다음 회의는 9월 3일에 연다." in page          # the passage's neighbour
    assert "업무조정회의 결과를 알려 드립니다." in page
    assert wording.evidence_text("no_picture", format=wording.format_name("docx")) in page
    assert "data:image/" not in page


def test_unreadable_documents_listed_at_the_top(tenant):
    answer = _answer(tenant, "돌고래")
    page = evidence_html(tenant, answer)
    top = page[:page.index("class='question'")]
    assert NOT_INSIDE in top
    for name, code in (("빈파일.hwpx", "EMPTY"), ("잠긴문서.hwp", "DRM_ENCRYPTED")):
        assert name in top
        assert wording.REASONS[code][0] in top
        assert wording.next_step(code) in top
    assert wording.DRM_VENDORS["markany"] in top


def test_not_answered_says_why(tenant):
    answer = {"question": "우주선 발사일은?", "answered": False, "reason": "NO_MATCH", "skipped": [],
              "made_by": "발췌 (LLM 없음)", "text": "", "citations": [], "lines": []}
    page = evidence_html(tenant, answer)
    assert wording.evidence_text("not_answered") in page
    assert wording.evidence_text("NO_MATCH") in page
    assert wording.evidence_text("no_evidence") in page
    assert "우주선 발사일은?" in page
    assert NOT_INSIDE not in page


def test_ocr_and_revision_notes(tenant):
    answer = _answer(tenant, "돌고래")
    answer["citations"][0]["extractors"] = ["ocr"]
    answer["citations"][0]["revisions"] = [{"kind": "deleted", "label": "13.",
                                            "current": "13. 돌고래 보호", "revised": "<삭 제>"}]
    page = evidence_html(tenant, answer)
    assert "기계가 그림에서 읽은 글자" in page
    assert "[삭제 13.]" in page


def test_the_answering_phrase_is_bold_in_the_answer_and_the_quote_stays_verbatim(tenant):
    result = answer(tenant, "돌고래 보호 예산은 얼마인가요?")
    line = result["lines"][0]
    start, end = line["answer_span"]
    assert "30억 원" in line["text"][start:end]
    page = evidence_html(tenant, result)
    assert "<b class='answering'>30억 원</b>" in page
    assert "<mark>돌고래 보호 예산은 &lt;30억 원&gt; &amp; 그대로 둔다.</mark>" in page      # the quote as written
    unfit = {**result, "lines": [{**line, "answer_span": [5, 999]}]}      # a span that does not fit: plain text
    assert "class='answering'" not in evidence_html(tenant, unfit)


def test_mark_quote_tolerates_spacing_and_escapes():
    assert mark_quote("가 <b>  나\n다 라", "<b> 나 다") == "가 <mark>&lt;b&gt;  나\n다</mark> 라"
    assert mark_quote("전혀 다른 글", "없는 인용") == "전혀 다른 글"


@requires_corpus
def test_hwpx_citation_from_corpus(tmp_path):
    folder = tmp_path / "보도"
    folder.mkdir()
    shutil.copy(CORPUS / PRESS, folder / PRESS)
    with_tenant = Tenant(folder, cache_root=tmp_path / "cache", workers=1)
    try:
        with_tenant.refresh()
        answer = _answer(with_tenant, "금융보험업", pick=lambda h: h["kind"] == "paragraph")
        page = evidence_html(with_tenant, answer)
    finally:
        with_tenant.close()
    assert "<mark>" in page and "금융보험업" in page[page.index("<mark>"):page.index("</mark>")]
    assert wording.evidence_text("no_picture", format=wording.format_name("hwpx")) in page
    assert "data:image/" not in page
    assert "‘25년 2분기 해외직접투자는 141.5억 달러로 전년동기비 13.4% 감소" in page   # the title path


def test_cli_view_writes_one_file(tenant, tmp_path, monkeypatch):
    from noda_desktop.cli import main

    monkeypatch.setenv("NODA_CACHE_DIR", str(tmp_path / "cli-cache"))
    out = tmp_path / "근거.html"
    assert main(["view", str(tenant.folder), "신청기간은 언제까지인가?", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "신청기간은 언제까지인가?" in page
    assert NOT_INSIDE in page
    assert _external_references(page) == []
