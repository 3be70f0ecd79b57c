"""The Whoosh chunk index: replace/remove by key, hits with citations, odd queries, reopening."""
from __future__ import annotations

import json

import pytest

from engine.search import query, rerank, segments
from engine.search.analyzer import korean_terms
from engine.search.chunking import chunk_document
from engine.search.index import ChunkIndex
from engine.search.query import BM25_B, BM25_K1, query_terms, union
from engine.search.rerank import passage_score
from engine.search.schema import INDEX_NAME, index_rows
from engine.model import Cell, Document, Source
from engine.read.formats.base import DocumentBuilder
from engine.read.parse import parse_path
from tests.corpus import CORPUS, requires_corpus, squash

HIT_KEYS = {"score", "found_by", "chunk_id", "doc_id", "filename", "kind", "text", "path", "outline",
            "anchors", "extractors"}


def make_doc(name: str, paragraphs: list[str], *, title: str | None = None, page: int = 1,
             table: list[list[str]] | None = None) -> Document:
    doc = Document(doc_id=f"sha256:{name}", source=Source(name, "hwpx", 100))
    b = DocumentBuilder(doc, "hwpx-native")
    if title:
        b.set_title(title)
    for text in paragraphs:
        b.add_block("paragraph", text, page=page, bbox=[10.0, 20.0, 30.0, 40.0])
    if table:
        cells = [Cell(r, c, text, page=page) for r, row in enumerate(table) for c, text in enumerate(row)]
        b.add_table(len(table), len(table[0]), cells, page=page)
    return doc


def item(name: str, paragraphs: list[str], **kw):
    doc = make_doc(name, paragraphs, **kw)
    return name, doc, chunk_document(doc)


@pytest.fixture
def ix(tmp_path):
    index = ChunkIndex(tmp_path / "index")
    yield index
    index.close()


def test_hits_carry_the_citation_in_engine_order(ix):
    ix.replace_documents([
        item("공고.hwpx", ["신청기간은 8월 28일까지입니다.", "지원 대상은 중소기업입니다."], title="2026년 지원사업 공고"),
        item("붙임/계획.hwpx", ["예산은 1,000억 원이며 신청은 온라인으로 받습니다."]),
    ])
    hits = ix.search("신청 기간은 언제까지인가요?")
    assert hits and set(hits[0]) == HIT_KEYS
    top = hits[0]
    assert top["filename"] == "공고.hwpx" and top["found_by"] == "lexical"
    assert top["doc_id"] == "sha256:공고.hwpx" and top["chunk_id"] == "c0001"
    assert "8월 28일" in top["text"] and top["kind"] == "paragraph"
    assert top["path"] == ["2026년 지원사업 공고"]
    assert top["anchors"][0] == {"page": 1, "bbox": [10.0, 20.0, 30.0, 40.0], "cell_range": None}
    assert top["extractors"] == ["hwpx-native"]
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True)
    json.dumps(hits, ensure_ascii=False)                     # plain JSON values only


def test_a_word_finds_its_inflected_forms(ix):
    ix.replace_documents([item("a.hwpx", ["우리는 어제 학교에 갔다."]),
                          item("b.hwpx", ["오늘은 도서관에서 책을 읽었다."])])
    assert [h["filename"] for h in ix.search("학교")] == ["a.hwpx"]
    assert [h["filename"] for h in ix.search("도서관")] == ["b.hwpx"]


def test_ocr_text_without_spaces_is_found_by_a_spaced_question(ix):
    ix.replace_documents([
        item("스캔.pdf", ["신청기간은8월28일까지이며지원대상은관내중소기업이다"]),
        item("다른.hwpx", ["행사 기간에는 주차 지원이 없습니다."]),
        item("또다른.hwpx", ["대상 시설은 관내 체육관 세 곳입니다."]),
    ])
    hits = ix.search("지원 대상은 누구인가요")
    assert hits[0]["filename"] == "스캔.pdf"
    assert ix.search("중소 기업")[0]["filename"] == "스캔.pdf"


def test_numbers_are_found_whole_and_without_commas(ix):
    ix.replace_documents([item("예산.hwpx", ["총사업비 1,000,000원, 증가율 150.9%"]),
                          item("다른.hwpx", ["총사업비는 아직 정하지 않았다."])])
    assert ix.search("1000000")[0]["filename"] == "예산.hwpx"
    assert ix.search("150.9")[0]["filename"] == "예산.hwpx"


def test_table_hits_keep_kind_and_header(ix):
    table = [["이름", "국어", "수학"], ["개똥이", "89", "78"], ["칠득이", "77", "77"]]
    ix.replace_documents([item("성적.hwpx", ["C반 기말고사"], table=table)])
    hit = ix.search("개똥이 수학 점수")[0]
    assert hit["kind"] == "table"
    assert hit["text"].startswith("이름 | 국어 | 수학") and "개똥이 | 89 | 78" in hit["text"]


def test_replace_and_remove_by_key(ix):
    ix.replace_documents([item("a.hwpx", ["사과 농사 지원"]), item("b.hwpx", ["배 농사 지원"])])
    assert ix.keys() == {"a.hwpx": "sha256:a.hwpx", "b.hwpx": "sha256:b.hwpx"}
    assert ix.chunk_count() == 2
    name, doc, chunks = item("a.hwpx", ["포도 농사 지원", "두 번째 문단"])
    doc.doc_id = "sha256:new"
    for c in chunks:
        c.doc_id = doc.doc_id
    ix.replace_documents([(name, doc, chunks)])
    assert ix.keys()["a.hwpx"] == "sha256:new"
    assert ix.search("사과") == []
    assert ix.search("포도")[0]["doc_id"] == "sha256:new"
    ix.remove_documents(["a.hwpx", "없는.hwpx"])
    assert ix.keys() == {"b.hwpx": "sha256:b.hwpx"}
    assert ix.search("포도") == []
    ix.replace_documents([("b.hwpx", doc, [])])               # a document without chunks leaves
    assert ix.keys() == {} and ix.chunk_count() == 0


def test_the_opening_of_a_document_is_its_first_chunks_after_it_was_replaced(ix):
    long = ["첫째 문단 " + "가" * 900, "둘째 문단 " + "나" * 900, "셋째 문단 " + "다" * 900]
    ix.replace_documents([item("a.hwpx", ["예전 문단 " + "라" * 900] * 3), item("b.hwpx", ["배 농사 지원"])])
    name, doc, chunks = item("a.hwpx", long)
    ix.replace_documents([(name, doc, chunks)])                   # the old chunks are deleted, the new ones later
    ix.replace_documents([item("c.hwpx", ["감 농사 지원"])])
    assert len(chunks) >= 2
    whole = "\n".join(c.text for c in chunks)
    assert ix.opening("a.hwpx", 1000) == whole[:1000] and "예전" not in whole
    assert ix.opening("a.hwpx", 10 ** 6) == whole
    assert ix.opening("b.hwpx", 1000) == "배 농사 지원"
    ix.remove_documents(["b.hwpx"])
    assert ix.opening("b.hwpx", 1000) == "" and ix.opening("없는.hwpx", 1000) == ""


ODD_QUERIES = ["", "   ", "\"", "'", ":", "*", "title:사과", "사과 AND OR NOT", "(((", "\x00", "?", "😀",
               "사과" * 3000]


@pytest.mark.parametrize("query", ODD_QUERIES, ids=[f"odd{i}" for i in range(len(ODD_QUERIES))])
def test_odd_queries_never_raise(ix, query):
    ix.replace_documents([item("a.hwpx", ["사과 농사 지원"])])
    hits = ix.search(query)
    assert isinstance(hits, list)


def test_search_on_an_empty_index_and_zero_limit(ix):
    assert ix.search("사과") == []
    ix.replace_documents([item("a.hwpx", ["사과"])])
    assert ix.search("사과", limit=0) == []
    assert len(ix.search("사과", limit=1)) == 1


def test_title_words_do_not_let_the_cover_page_win(ix):
    cover = "2026년 가을 음악축제 행사대행 용역 제안요청서"
    ix.replace_documents([item("축제.hwpx", [cover, "행사 개요와 배경 설명", "제출기한: 2026. 7. 25.까지 제안서를 낸다"],
                               title=cover)])
    assert "제출기한" in ix.search("가을 음악축제 제안서는 언제까지 내나요?")[0]["text"]


FILLER = "그해 가을에는 비가 많이 내려 강물이 불어났고 마을 사람들은 둑을 쌓느라 바빴다. "


def test_the_passage_holding_the_question_words_together_comes_first(ix, monkeypatch):
    ix.replace_documents([
        item("가문.hwpx", [FILLER * 10 + "파비오의 형 마리오는 키아라의 딸 베아트리체와 결혼하여 네 자녀를 "
                          "두었다. " + FILLER * 10]),
        item("연대기.hwpx", ["마리오는 마리오와 마리오의 아들과 다스렸다. " + FILLER * 2
                           + "이 지방의 결혼 풍습과 결혼하여 하는 결혼 잔치는 유명하다."]),
    ])
    question = "마리오는 누구와 결혼했나?"
    monkeypatch.setattr(rerank, "PASSAGE_WEIGHT", 0.0)
    assert ix.search(question)[0]["filename"] == "연대기.hwpx"     # BM25F alone: the words, scattered
    monkeypatch.undo()
    hits = ix.search(question)
    assert [h["filename"] for h in hits] == ["가문.hwpx", "연대기.hwpx"]
    assert hits[0]["score"] > hits[1]["score"]
    assert ix.search(question, limit=1)[0]["filename"] == "가문.hwpx"  # re-ranked below the limit


def test_passage_score_counts_words_close_together():
    weights = {"마리오": 2.0, "결혼": 1.0}
    assert passage_score("형 마리오는 베아트리체와 결혼하였다", weights) == pytest.approx(1.0)
    apart = "마리오는 형이다. " + "가" * 100 + " 결혼은 나중이다."
    assert passage_score(apart, weights) == pytest.approx(2 / 3)
    assert passage_score(apart, weights, span=200) == pytest.approx(1.0)
    assert passage_score("아무 관계 없는 글", weights) == 0.0
    assert passage_score("무엇이든", {}) == 0.0


def test_passage_score_gives_part_credit_to_long_words():
    weights = {"스카이라인의": 1.0}
    assert passage_score("시티즈 스카이라인은 게임이다", weights) == pytest.approx(0.8)  # 4 of 5 bigrams
    assert passage_score("스카 이라 인의", weights) == pytest.approx(1.0)  # spaced apart (OCR): whole


def test_reopening_is_fast_and_does_not_reanalyse(tmp_path):
    first = ChunkIndex(tmp_path / "ix")
    first.replace_documents([item(f"{i}.hwpx", [f"문서 {i}번의 고유한 내용 낱말{i}"]) for i in range(30)])
    first.close()
    before = korean_terms.cache_info()
    again = ChunkIndex(tmp_path / "ix")
    assert korean_terms.cache_info().misses == before.misses      # nothing analysed on open
    assert again.chunk_count() == 30 and len(again.keys()) == 30
    assert again.search("낱말7")[0]["filename"] == "7.hwpx"
    again.close()


def test_a_broken_index_is_rebuilt_empty(tmp_path):
    folder = tmp_path / "ix"
    folder.mkdir()
    (folder / f"_{INDEX_NAME}_1.toc").write_bytes(b"not an index")
    ix = ChunkIndex(folder)
    assert ix.keys() == {} and ix.chunk_count() == 0
    ix.replace_documents([item("a.hwpx", ["사과"])])
    assert ix.search("사과")
    ix.close()


@requires_corpus
def test_real_documents_answer_their_questions(tmp_path):
    """Questions asked about real corpus files find the chunk holding the answer."""
    wanted = {"nts_국제조세제도과-393.hwp", "hwpxlib_Table.hwpx", "과업지시서_070.hwpx",
              "moef_2024년1분기_해외직접투자_보도자료.hwpx", "kosis_population_raw_data.xlsx"}
    questions = [q for q in map(json.loads, (CORPUS / "questions.jsonl").read_text().splitlines())
                 if q.get("file") in wanted]
    ix = ChunkIndex(tmp_path / "ix")
    ix.replace_documents([(name, doc, chunk_document(doc))
                          for name in sorted(wanted) for doc in parse_path(str(CORPUS / name))])
    found = 0
    for q in questions:
        hits = ix.search(q["question"], limit=5)
        assert hits and hits[0]["filename"] in wanted
        found += any(h["filename"] == q["file"] and squash(q["answer_snippet"]) in squash(h["text"])
                     for h in hits)
    ix.close()
    assert len(questions) >= 8
    assert found / len(questions) >= 0.6, (found, len(questions))


def test_numpy_scoring_ranks_as_whoosh_does_over_segments_and_deletions(tmp_path):
    from engine.search import bm25

    index = ChunkIndex(tmp_path / "ix")
    words = "예산 집행 계획 공고 결과 보고 위원회 심의 조례 규칙 시행 부서 협조 요청 회신 검토".split()
    for batch in range(3):     # three segments, not merged
        for n in range(12):
            key = f"문서{batch}_{n}.hwpx"
            text = " ".join(words[(batch * 5 + n + k * 3) % len(words)] for k in range(4 + n % 5))
            for _key, rows in index_rows([item(key, [text, f"{text} 사본 {n}"])]):
                index.put(key, rows)
        index.commit(merge=False)
    index.drop("문서1_3.hwpx")           # a deleted document inside a segment
    index.commit(merge=False)
    searcher = index._searcher
    assert len(searcher.reader().leaf_readers()) >= 3 and searcher.reader().has_deletions()
    for question in ("예산 집행 계획은 누가 심의하나요?", "조례 규칙", "회신 검토 요청 사본"):
        terms = query_terms(searcher, question)
        whoosh = [(r.docnum, r.score) for r in searcher.search(union(terms), limit=200)]
        ours = bm25.top(searcher, terms, 200, BM25_B, BM25_K1, {})
        assert len(ours) == len(whoosh) > 10
        assert [round(s, 9) for _n, s in ours] == [round(s, 9) for _n, s in whoosh]
        assert {n for n, _s in ours} == {n for n, _s in whoosh}
    index.close()


def test_a_large_segment_loses_a_removed_documents_text_right_after_the_commit(tmp_path, monkeypatch):
    monkeypatch.setattr(segments, "FOLD_UNDER", 0)   # every segment counts as too large to wait for
    index = ChunkIndex(tmp_path / "ix")
    index.replace_documents([item("남길.hwpx", ["예산 집행 계획 보고"]), item("지울.hwpx", ["얼룩말뿔 사육 예산"])])
    index.remove_documents(["지울.hwpx"])
    assert index.search("얼룩말뿔") == []        # not searchable from the commit on
    index.settle()
    on_disk = b"".join(p.read_bytes() for p in (tmp_path / "ix").iterdir() if p.is_file())
    assert "얼룩말뿔".encode() not in on_disk and "집행".encode() in on_disk
    assert [h["filename"] for h in index.search("예산")] == ["남길.hwpx"]
    index.close()


def _segment_sizes(index) -> dict[str, int]:
    return {s.segment_id(): s.doc_count_all() for s in index._ix._segments()}


def _commit_batches(index, sizes, start=0) -> int:
    n = start
    for size in sizes:
        for _ in range(size):
            n += 1
            key = f"문서{n}.hwpx"
            for _key, rows in index_rows([item(key, [f"예산 집행 계획 {n}번"])]):
                index.put(key, rows)
        index.commit(merge=False)
    return n


def test_the_end_of_a_refresh_merges_its_small_batches_and_keeps_its_largest(tmp_path):
    index = ChunkIndex(tmp_path / "ix")
    n = _commit_batches(index, [1, 2, 4, 16])    # batches of growing size, as a refresh commits them
    assert len(index._ix._segments()) == 4
    largest = max(index._ix._segments(), key=lambda s: s.doc_count_all()).segment_id()
    index.commit(merge=True)
    merged = index._ix._segments()
    assert len(merged) == 2 and largest in {s.segment_id() for s in merged}
    assert index.chunk_count() == n
    index.close()


def test_a_refresh_of_one_file_never_rewrites_the_large_segments_of_a_big_folder(tmp_path, monkeypatch):
    # regression: Whoosh's MERGE_SMALL merged every segment of a 10,000-file index in one small refresh
    monkeypatch.setattr(segments, "FOLD_UNDER", 2)    # segments of 3 chunks count as large here
    index = ChunkIndex(tmp_path / "ix")
    n = _commit_batches(index, [3] * 30)
    large = _segment_sizes(index)
    _commit_batches(index, [1], n)
    index.commit(merge=True)
    assert large.items() <= _segment_sizes(index).items()
    assert index.chunk_count() == n + 1
    index.close()


def test_the_small_batches_of_many_edits_fold_into_one_segment(tmp_path):
    index = ChunkIndex(tmp_path / "ix")
    n = _commit_batches(index, [200])
    big = set(_segment_sizes(index))
    for _ in range(6):                    # six refreshes of one changed file each
        n = _commit_batches(index, [1], n)
        index.commit(merge=True)
    sizes = _segment_sizes(index)
    assert big <= set(sizes) and len(sizes) <= 4
    assert index.chunk_count() == n
    index.close()


def test_put_replaces_what_a_key_held_and_adds_a_new_key_without_looking(tmp_path):
    index = ChunkIndex(tmp_path / "ix")
    index.replace_documents([item("공고.hwpx", ["예산 집행 계획 첫판"])])
    for key, rows in index_rows([item("공고.hwpx", ["예산 집행 계획 고친판"])]):
        index.put(key, rows)                    # replace (the default): the first version goes
    for key, rows in index_rows([item("새문서.hwpx", ["예산 심의 결과"])]):
        index.put(key, rows, replace=False)
    index.commit()
    assert sorted(h["text"] for h in index.search("예산")) == ["예산 심의 결과", "예산 집행 계획 고친판"]
    index.close()


def test_a_word_in_most_chunks_is_not_searched_for_unless_nothing_else_is(tmp_path, monkeypatch):
    monkeypatch.setattr(query, "COMMON_CHUNKS", 10)    # a large folder, in small
    index = ChunkIndex(tmp_path / "ix")
    index.replace_documents([item(f"공문{n}.hwpx", [f"협조 요청 공문 {n}호"]) for n in range(12)]
                            + [item("예산.hwpx", ["협조 요청 예산 집행 계획"])])
    searcher = index._searcher
    asked = {(field, term) for field, term, _boost in query_terms(searcher, "예산 협조")}
    assert ("text", "예산") in asked and ("text", "협조") not in asked      # 협조 is in every chunk
    common = {(field, term) for field, term, _boost in query_terms(searcher, "협조 요청")}
    assert {("text", "협조"), ("text", "요청")} <= common                  # nothing else asked: kept
    assert [h["filename"] for h in index.search("예산 협조")][:1] == ["예산.hwpx"]
    index.close()
