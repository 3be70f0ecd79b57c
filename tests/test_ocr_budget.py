"""OCR within a budget: scanned pages past the cap are named in a warning, and a refresh reads
the documents that need OCR after all the others, so text search is ready first."""
from __future__ import annotations

from dataclasses import replace

import pymupdf
import pytest

from engine.library.tenant import Tenant
from engine.limits import DEFAULT_LIMITS
from engine.read import ocr
from engine.read.parse import parse_bytes
from tests.test_image_ocr import picture
from tests.test_tenant import docx_bytes

needs_ocr = pytest.mark.skipif(not ocr.ocr_available(),
                               reason="OCR unavailable: no Tesseract kor.traineddata found (or NODA_OCR=0)")


def scanned_pdf(lines: list[str]) -> bytes:
    """A PDF whose pages are pictures of ``lines`` (one line a page), no text layer."""
    pdf = pymupdf.open()
    for line in lines:
        page = pdf.new_page(width=600, height=300)
        page.insert_image(page.rect, stream=picture(line))
    return pdf.tobytes()


@needs_ocr
def test_pages_past_the_cap_are_not_read_and_the_warning_names_them():
    data = scanned_pdf(["첫째 쪽 예산 심의", "둘째 쪽 사업 계획", "셋째 쪽 결과 보고"])
    [doc] = parse_bytes(data, "스캔.pdf", limits=replace(DEFAULT_LIMITS, max_ocr_pages=1))
    assert doc.access.readable
    assert {b.page for b in doc.blocks} == {1}
    [skipped] = [w for w in doc.warnings if w.code == "OCR_PAGES_SKIPPED"]
    assert "2-3" in skipped.text


@needs_ocr
def test_within_the_cap_every_page_is_read_without_a_warning():
    [doc] = parse_bytes(scanned_pdf(["첫째 쪽 예산 심의", "둘째 쪽 사업 계획"]), "스캔.pdf")
    assert {b.page for b in doc.blocks} == {1, 2}
    assert "OCR_PAGES_SKIPPED" not in doc.warning_codes()


def test_a_text_pass_reads_no_picture_and_says_ocr_was_needed():
    with ocr.text_pass() as text_only:
        [doc] = parse_bytes(picture("그림 속 글자"), "그림.png")
    assert text_only.needed and not doc.blocks
    with ocr.text_pass() as text_only:
        parse_bytes(docx_bytes("글자만 있는 문서"), "문서.docx")
    assert not text_only.needed


@needs_ocr
def test_a_refresh_reads_pictures_after_every_text_document(tmp_path):
    folder = tmp_path / "폴더"
    folder.mkdir()
    (folder / "가_그림.png").write_bytes(picture("현수막 설치 안내"))
    for i in range(6):
        (folder / f"나_문서{i}.docx").write_bytes(docx_bytes(f"{i}번 문서의 본문 두루미 {i}."))
    order = []
    tenant = Tenant(folder, cache_root=tmp_path / "cache", workers=2)
    try:
        report = tenant.refresh(lambda p: order.append(p.current) if p.phase == "parse" else None)
        assert order[-1] == "가_그림.png" and len(order) == 7
        assert report["parsed"] == 7
        assert tenant.search("현수막")["hits"][0]["filename"] == "가_그림.png"
    finally:
        tenant.close()
