"""The whole shared corpus against its ground truth: readable/reason and snippets (issue 2 / issue 3 'done when')."""
from __future__ import annotations

import pytest

from engine.read.parse import parse_path
from tests.corpus import REASON_MATCH, corpus_params, requires_corpus, squash

pytestmark = requires_corpus

ALL_FORMATS = {"pdf", "docx", "xlsx", "hwpx", "hwp", "image"}


def _haystacks(doc):
    spaced = squash(doc.all_text())
    return spaced, "".join(spaced.split())


@pytest.mark.parametrize("path,truth", corpus_params(ALL_FORMATS))
def test_readable_and_reason_agree_with_truth(path, truth):
    doc = parse_path(str(path))[0]
    assert doc.access.readable == truth["readable"], (doc.access.reason, doc.warnings)
    assert doc.access.reason in REASON_MATCH[truth["reason"]]
    if not doc.access.readable:
        assert doc.access.reason_text and any("가" <= ch <= "힣" for ch in doc.access.reason_text)


@pytest.mark.parametrize("path,truth", corpus_params(ALL_FORMATS))
def test_snippets_found(path, truth):
    snippets = truth.get("snippets") or []
    if not truth["readable"] or not snippets:
        pytest.skip("no snippets to look for")
    doc = parse_path(str(path))[0]
    spaced, bare = _haystacks(doc)
    ocr = any(b.extractor == "ocr" for b in doc.blocks)
    missing = [s for s in snippets
               if squash(s) not in spaced and not (ocr and "".join(s.split()) in bare)]
    found = 1 - len(missing) / len(snippets)
    assert found >= 0.95, f"missing: {missing}"
