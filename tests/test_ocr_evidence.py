"""A question answered from a scanned picture: the citation points at boxes on the picture, and the evidence page
draws them and says the text was read by machine (issue 8)."""
from __future__ import annotations

import shutil

import pytest

from engine.answer.extract import answer
from engine.answer.evidence import evidence_html
from engine.library.tenant import Tenant
from engine.read import ocr
from tests.corpus import CORPUS, requires_corpus

PICTURE = "img_moef_2025년2분기_보도자료_p1.png"

pytestmark = [requires_corpus,
              pytest.mark.skipif(not ocr.ocr_available(), reason="no Korean OCR language data on this machine")]


@pytest.fixture(scope="module")
def scanned_tenant(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scans")
    shutil.copy(CORPUS / PICTURE, folder / "보도자료_스캔.png")
    tenant = Tenant(folder, cache_root=tmp_path_factory.mktemp("cache"), workers=1)
    tenant.refresh()
    yield tenant
    tenant.close()


def test_spaced_query_finds_ocr_text_and_points_at_the_picture(scanned_tenant):
    hits = scanned_tenant.search("해외 직접 투자 141.5억 달러", limit=3)["hits"]
    assert hits and hits[0]["filename"] == "보도자료_스캔.png"
    assert "ocr" in hits[0]["extractors"]
    boxes = [a for a in hits[0]["anchors"] if a["bbox"]]
    assert boxes and all(a["page"] == 1 for a in boxes)


def test_evidence_page_draws_boxes_on_the_picture_and_marks_machine_reading(scanned_tenant):
    result = answer(scanned_tenant, "2분기 해외직접투자는 얼마인가요?")
    assert result["answered"], result
    citation = result["citations"][0]
    assert citation["filename"] == "보도자료_스캔.png" and "ocr" in citation["extractors"]
    assert any(a["bbox"] for a in citation["anchors"])
    page = evidence_html(scanned_tenant, result)
    assert "data:image/" in page
    assert "class='box'" in page
    assert "기계가" in page  # the reader is told the text was read from a picture by machine
