"""The typed results (engine/results.py) are the shapes the engine really answers with, key by key."""
from __future__ import annotations

import typing
from typing import Optional, get_args, get_origin, get_type_hints

import pytest

from engine import results
from engine.answer.extract import answer
from engine.library.tenant import Tenant
from tests.test_tenant import make_folder


def _typed_dict(annotation) -> Optional[type]:
    return annotation if typing.is_typeddict(annotation) else None


def mismatches(value, shape, where: str = "") -> list[str]:
    """Where ``value`` differs from the TypedDict ``shape``: missing or unknown keys, nested rows too."""
    if not isinstance(value, dict):
        return [f"{where or 'value'} is {type(value).__name__}, not a dict"]
    keys = set(value)
    out = [f"{where}: missing {k}" for k in sorted(shape.__required_keys__ - keys)]
    out += [f"{where}: unknown {k}" for k in sorted(keys - shape.__required_keys__ - shape.__optional_keys__)]
    for key, annotation in get_type_hints(shape).items():
        if key not in value or value[key] is None:
            continue
        inner = _typed_dict(annotation)
        if inner:
            out += mismatches(value[key], inner, f"{where}.{key}")
        elif get_origin(annotation) is list and _typed_dict(get_args(annotation)[0]):
            for n, item in enumerate(value[key]):
                out += mismatches(item, get_args(annotation)[0], f"{where}.{key}[{n}]")
    return out


def test_mismatches_finds_a_missing_an_unknown_and_a_nested_key():
    hit = {"score": 1.0, "found_by": "lexical", "chunk_id": "c", "doc_id": "d", "filename": "f", "kind": "body",
           "text": "t", "path": [], "outline": [], "anchors": [{"page": 1, "bbox": None}], "extractors": []}
    assert mismatches(hit, results.Hit) == [".anchors[0]: missing cell_range"]
    assert mismatches({**hit, "extra": 1, "anchors": []}, results.Hit) == [": unknown extra"]
    del hit["score"]
    assert ": missing score" in mismatches(hit, results.Hit)


@pytest.fixture(scope="module")
def tenant(tmp_path_factory):
    base = tmp_path_factory.mktemp("typed")
    tenant = Tenant(make_folder(base / "갑"), cache_root=base / "cache")
    tenant.refresh()
    yield tenant
    tenant.close()


def test_the_listing_is_a_listing_of_entries(tenant):
    listing = tenant.documents()
    assert len(listing["documents"]) == 7
    assert mismatches(listing, results.Listing) == []


def test_search_answers_with_hits_and_skipped_documents(tenant):
    found = tenant.search("신청기간")
    assert found["hits"] and found["skipped"]
    assert mismatches(found, results.Search) == []


def test_an_answer_is_an_answer_with_lines_and_citations(tenant):
    found = answer(tenant, "신청기간은 언제까지인가요?")
    assert found["answered"] and found["citations"]
    assert mismatches(found, results.Answer) == []


def test_a_refused_answer_keeps_the_same_shape(tenant):
    found = answer(tenant, "화성 탐사선의 발사 일정은?")
    assert not found["answered"]
    assert mismatches(found, results.Answer) == []
