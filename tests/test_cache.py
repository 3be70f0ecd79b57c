"""The parse cache: content-keyed entries, renaming on copies, two generations kept, purge."""
from __future__ import annotations

import gzip
import os
from pathlib import Path

from engine.library.cache import ParseCache, parser_generation
from engine.limits import Limits
from engine.model import Block, Document, Source
from engine.read.failures import unreadable
SHA = "ab" * 32


def _doc(filename: str, text: str, container_path=()) -> Document:
    return Document(doc_id=f"sha256:{'cd' * 32}",
                    source=Source(filename=filename, format="hwpx", bytes=10, sha256="cd" * 32,
                                  container_path=list(container_path)),
                    blocks=[Block(id="b00001", type="paragraph", text=text, page=1,
                                  bbox=[1.0, 2.0, 3.0, 4.0], extractor="hwpx-native")])


def test_round_trip_gives_equal_documents(tmp_path):
    cache = ParseCache(tmp_path, "g1")
    docs = [_doc("붙임/공고.hwpx", "신청기간은 8월 28일까지다."), unreadable("붙임/공고.hwpx", "hwp", "EMPTY")]
    assert cache.get(SHA, "붙임/공고.hwpx") is None
    cache.put(SHA, "붙임/공고.hwpx", docs)
    assert cache.has(SHA, "붙임/공고.hwpx")
    assert cache.get(SHA, "붙임/공고.hwpx") == docs
    # stored compressed, under the generation folder, never as plain JSON
    entry = tmp_path / "g1" / SHA[:2] / f"{SHA}.hwpx.json.gz"
    assert "신청기간" in gzip.decompress(entry.read_bytes()).decode("utf-8")


def test_copy_under_another_name_is_a_hit_renamed(tmp_path):
    cache = ParseCache(tmp_path, "g1")
    cache.put(SHA, "자료.zip", [_doc("자료.zip/붙임/a.hwpx", "가", ["자료.zip"]),
                               _doc("자료.zip/b.zip/c.hwpx", "나", ["자료.zip", "자료.zip/b.zip"])])
    docs = cache.get(SHA, "사본/자료 (2).zip")
    assert [d.source.filename for d in docs] == ["사본/자료 (2).zip/붙임/a.hwpx",
                                                 "사본/자료 (2).zip/b.zip/c.hwpx"]
    assert docs[1].source.container_path == ["사본/자료 (2).zip", "사본/자료 (2).zip/b.zip"]
    # another extension is another entry: the name can change how a file is read
    assert cache.get(SHA, "자료.hwpx") is None


def test_broken_entry_is_a_miss(tmp_path):
    cache = ParseCache(tmp_path, "g1")
    cache.put(SHA, "a.hwpx", [_doc("a.hwpx", "가")])
    path = tmp_path / "g1" / SHA[:2] / f"{SHA}.hwpx.json.gz"
    path.write_bytes(path.read_bytes()[:20])
    assert cache.get(SHA, "a.hwpx") is None


def test_keeps_two_generations(tmp_path):
    for age, name in ((300, "g1"), (200, "g2"), (100, "g3")):
        ParseCache(tmp_path, name).put(SHA, "a.hwpx", [_doc("a.hwpx", name)])
        old = (tmp_path / name).stat().st_mtime - age
        os.utime(tmp_path / name, (old, old))
    ParseCache(tmp_path, "g4")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g3", "g4"]


def test_purge_removes_everything(tmp_path):
    cache = ParseCache(tmp_path / "parse", "g1")
    cache.put(SHA, "a.hwpx", [_doc("a.hwpx", "가" * 1000)])
    assert cache.purge() > 0
    assert not (tmp_path / "parse").exists()
    assert cache.get(SHA, "a.hwpx") is None


def test_generation_follows_code_and_limits():
    assert parser_generation() == parser_generation()
    assert parser_generation(Limits(max_file_bytes=1)) != parser_generation()


def test_generation_follows_how_documents_are_cut_and_analysed_for_the_index():
    from engine.library import cache

    here = Path(cache.__file__).resolve().parent.parent
    hashed = {p.relative_to(here).as_posix() for p in here.rglob("*.py")
              if not p.relative_to(here).as_posix().startswith(cache.NOT_READING)}
    assert {"search/chunking.py", "search/analyzer.py", "search/schema.py", "read/parse.py"} <= hashed
    assert not hashed & {"search/query.py", "answer/scoring.py", "library/tenant.py"}
