"""Exact phrases: a quoted part of a query matches only those characters in that order (spaces aside)."""
import pytest

from engine.search.index import ChunkIndex
from engine.search.phrases import has_phrases, split_query
from tests.test_index import item

DOCS = [
    ("순서대로.hwpx", ["2024년 해외직접투자 동향은 다음과 같습니다. 투자액이 늘었습니다."]),
    ("거꾸로.hwpx", ["동향 파악을 위해 해외직접투자 통계를 모읍니다."]),
    ("붙여씀.hwpx", ["해외직접투자동향 요약은 띄어쓰기 없이 적었습니다."]),
    ("규정.hwpx", ["제12조(보고) 기관장은 결과를 보고한다."], ),
]


@pytest.fixture
def ix(tmp_path):
    index = ChunkIndex(tmp_path / "ix")
    index.replace_documents([item(name, paragraphs) for name, paragraphs in DOCS])
    yield index
    index.close()


def _names(index, query):
    return sorted(h["filename"] for h in index.search(query, limit=10))


def test_without_quotes_word_order_does_not_matter(ix):
    assert _names(ix, "해외직접투자 동향") == _names(ix, "동향 해외직접투자") == ["거꾸로.hwpx", "붙여씀.hwpx", "순서대로.hwpx"]


def test_a_quoted_phrase_keeps_its_order_and_ignores_spacing(ix):
    assert _names(ix, '"해외직접투자 동향"') == ["붙여씀.hwpx", "순서대로.hwpx"]
    assert _names(ix, '"해외직접투자동향"') == ["붙여씀.hwpx", "순서대로.hwpx"]
    assert _names(ix, '"동향 해외직접투자"') == []


def test_a_particle_after_the_phrase_and_other_words_beside_it(ix):
    assert _names(ix, '"해외직접투자 동향은"') == ["순서대로.hwpx"]
    assert _names(ix, '통계 "해외직접투자 통계"') == ["거꾸로.hwpx"]
    assert _names(ix, '“제12조(보고)” 결과') == ["규정.hwpx"]
    assert _names(ix, '"제12조(보고) 기관장"') == ["규정.hwpx"]
    assert _names(ix, '"제13조(보고)"') == []


def test_odd_quotes_never_raise(ix):
    for query in ['"', '""', '" "', '"해외', '해외"직접"', '"a" "b"', '「동향」']:
        assert isinstance(ix.search(query), list)


def test_split_query_and_has_phrases():
    assert split_query('신청 "해외직접투자 동향" 기간') == ("신청 해외직접투자 동향 기간", ["해외직접투자 동향"])
    assert split_query('「정보공개」와 “문서번호 제1호”') == ("정보공개 와 문서번호 제1호", ["정보공개", "문서번호 제1호"])
    assert split_query('"  " 빈 따옴표') == ("빈 따옴표", [])
    assert has_phrases("해외직접투자  동향은", ["해외직접투자 동향"]) and not has_phrases("동향 해외직접투자", ["해외직접투자 동향"])
    assert has_phrases("ＡＢＣ 기관", ["abc기관"])


def test_a_phrase_reaches_the_tenant_search_and_the_api(tmp_path):
    from engine.api import Registry, handle
    from engine.library.tenant import Tenant
    folder = tmp_path / "문서"
    folder.mkdir()
    (folder / "가.txt").write_text("보고\n\n해외직접투자 동향을 보고합니다.\n", encoding="utf-8")
    (folder / "나.txt").write_text("메모\n\n동향과 해외직접투자 전망입니다.\n", encoding="utf-8")
    tenant = Tenant(folder, cache_root=tmp_path / "cache")
    try:
        assert [h["filename"] for h in tenant.search('"해외직접투자 동향"')["hits"]] == ["가.txt"]
        assert len(tenant.search("해외직접투자 동향")["hits"]) == 2
    finally:
        tenant.close()
    registry = Registry([folder], open_tenant=lambda f: Tenant(f, cache_root=tmp_path / "cache"))
    try:
        status, result = handle(registry, "search", {"query": '"해외직접투자 동향"'})
    finally:
        registry.close()
    assert status == 200 and [h["filename"] for h in result["hits"]] == ["가.txt"]
