"""A damaged index or parse cache heals itself (issue 14, case 4): rebuilt from the parse cache, re-read from the source."""
from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from engine import wording
from engine.search.index import ChunkIndex
from engine.library.cache import ParseCache
from engine.library.tenant import Tenant
from noda_desktop.cli import main
from tests.documents import docx_bytes


@pytest.fixture
def read_folder(tmp_path) -> tuple[Path, Path]:
    """A folder of three documents, read once; (folder, cache root)."""
    folder = tmp_path / "예산"
    folder.mkdir()
    for n in range(3):
        (folder / f"{n}.docx").write_bytes(docx_bytes(f"{n}번 사업의 예산은 {n + 1}억 원입니다."))
    cache = tmp_path / "cache"
    tenant = Tenant(folder, cache_root=cache)
    tenant.refresh()
    tenant.close()
    return folder, cache


def _segments(cache: Path) -> list[Path]:
    found = sorted((cache / "tenants").rglob("*.seg"))
    assert found
    return found


def _entries(tenant: Tenant) -> list[Path]:
    return sorted(tenant.cache.dir.rglob("*.json.gz"))


def _found(tenant: Tenant) -> list[str]:
    return sorted(h["filename"] for h in tenant.search("예산", limit=10)["hits"])


def test_a_truncated_index_segment_is_rebuilt_from_the_parse_cache_and_said_once(read_folder):
    folder, cache = read_folder
    for segment in _segments(cache):
        segment.write_bytes(segment.read_bytes()[:100])
    tenant = Tenant(folder, cache_root=cache)
    report = tenant.refresh()
    assert report["parsed"] == 0                     # nothing read again: the parse cache had it all
    assert [n["code"] for n in report["notices"]] == ["INDEX_REBUILT"]
    result = tenant.search("예산", limit=10)
    assert sorted(h["filename"] for h in result["hits"]) == ["0.docx", "1.docx", "2.docx"]
    assert [w["code"] for w in result["warnings"]] == ["INDEX_REBUILT"]
    assert tenant.search("예산")["warnings"] == [] and tenant.documents()["warnings"] == []
    tenant.close()


def test_garbage_inside_an_index_segment_is_rebuilt_too(read_folder):
    folder, cache = read_folder
    noise = random.Random(3)
    for segment in _segments(cache):
        data = bytearray(segment.read_bytes())
        for i in range(len(data) // 3, 2 * len(data) // 3):
            data[i] = noise.randrange(256)
        segment.write_bytes(bytes(data))
    tenant = Tenant(folder, cache_root=cache)
    tenant.refresh()
    assert _found(tenant) == ["0.docx", "1.docx", "2.docx"]
    tenant.close()


def test_cli_commands_keep_working_on_a_damaged_index_and_say_so_once(read_folder, monkeypatch, capsys):
    folder, cache = read_folder
    monkeypatch.setenv("NODA_CACHE_DIR", str(cache))
    for segment in _segments(cache):
        segment.write_bytes(b"")
    assert main(["search", str(folder), "예산"]) == 0
    out, err = capsys.readouterr()
    notice = wording.tenant_text("INDEX_REBUILT")
    assert (out + err).count(notice) == 1 and "0.docx" in out
    assert main(["documents", str(folder)]) == 0
    out, err = capsys.readouterr()
    assert notice not in out + err


def test_a_truncated_parse_cache_entry_is_read_again_from_its_source(read_folder):
    folder, cache = read_folder
    tenant = Tenant(folder, cache_root=cache)
    entry = _entries(tenant)[0]
    entry.write_bytes(entry.read_bytes()[:40])
    for segment in _segments(cache):      # the index must be refilled, so the entry is needed
        segment.write_bytes(b"")
    report = tenant.refresh()
    assert report["parsed"] == 1
    assert {n["code"] for n in report["notices"]} == {"INDEX_REBUILT", "CACHE_REREAD"}
    assert _found(tenant) == ["0.docx", "1.docx", "2.docx"]
    assert all(d["readable"] for d in tenant.documents()["documents"])
    assert len(_entries(tenant)) == 3
    tenant.close()


def test_a_cache_entry_whose_checksum_does_not_match_is_a_miss_and_goes(tmp_path):
    cache = ParseCache(tmp_path, "g1")
    from engine.read.parse import parse_bytes
    docs = parse_bytes(docx_bytes("검사합이 맞아야 합니다"), "a.docx")
    cache.put("ab" * 32, "a.docx", docs)
    (path,) = tmp_path.rglob("*.json.gz")
    assert cache.get("ab" * 32, "a.docx")[0].all_text() == "검사합이 맞아야 합니다"
    raw = gzip.decompress(path.read_bytes())
    path.write_bytes(gzip.compress(raw.replace("맞아야".encode(), "틀려도".encode())))   # gzip's own CRC is fine
    assert cache.get("ab" * 32, "a.docx") is None
    assert not path.exists()


def test_a_cache_entry_written_before_checksums_still_reads(tmp_path):
    import json
    from engine.read.parse import parse_bytes

    cache = ParseCache(tmp_path, "g1")
    docs = parse_bytes(docx_bytes("예전 형식의 캐시"), "a.docx")
    path = cache._path("cd" * 32, "a.docx")
    path.parent.mkdir(parents=True)
    path.write_bytes(gzip.compress(json.dumps({"filename": "a.docx", "documents": [d.to_dict() for d in docs]},
                                              ensure_ascii=False).encode()))
    assert cache.get("cd" * 32, "a.docx")[0].all_text() == "예전 형식의 캐시"


def test_an_index_that_cannot_be_opened_starts_empty_and_says_it_was_rebuilt(tmp_path):
    ChunkIndex(tmp_path).close()
    for toc in tmp_path.glob("*.toc"):
        toc.write_bytes(b"\0" * 10)
    index = ChunkIndex(tmp_path)
    assert index.rebuilt and index.chunk_count() == 0
    index.close()
    assert not ChunkIndex(tmp_path).rebuilt
