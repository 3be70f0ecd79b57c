"""The refusal (engine/answer/refusal.py): how sure the picker is of its first line, and what it refuses."""
from __future__ import annotations

import io

import docx
import pytest

from engine.answer import refusal
from engine.answer.extract import answer, scored_lines
from engine.answer.ranker import reranked
from engine.library.tenant import Tenant


@pytest.fixture
def notice(tmp_path):
    document = docx.Document()
    document.add_heading("2026년 청년 주거 지원사업 공고", level=1)
    document.add_paragraph("신청기간: 2026. 3. 2.(월) ~ 3. 20.(금) 18:00까지")
    document.add_paragraph("지원금액: 가구당 월 20만 원, 최대 12개월")
    document.add_paragraph("문의처: 주택정책과 02-2133-7000")
    out = io.BytesIO()
    document.save(out)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "공고.docx").write_bytes(out.getvalue())
    tenant = Tenant(folder, cache_root=tmp_path / "cache")
    tenant.refresh()
    yield tenant
    tenant.close()


def test_evidence_describes_the_first_line_of_the_learned_order(notice):
    lines = scored_lines(notice, "신청기간은 언제까지인가요?")
    learned = reranked(lines)
    found = refusal.evidence(learned)
    assert set(found) == set(refusal.EVIDENCE)
    assert found["best"] == lines[0].score
    assert 0.0 < found["share"] <= 1.0


def test_more_certain_evidence_never_lowers_the_confidence():
    plain = {"best": 0.7, "share": 0.4}
    for name, more in (("best", 0.95), ("share", 0.9)):
        assert refusal.confidence({**plain, name: more}) >= refusal.confidence(plain)


def test_a_stated_field_is_answered_and_a_question_about_something_else_is_refused(notice):
    assert answer(notice, "신청기간은 언제까지인가요?")["answered"] is True
    refused = answer(notice, "선정 결과는 어디에서 발표하나요?")
    assert refused["answered"] is False and refused["reason"] in ("NO_EVIDENCE", "NO_MATCH")
