"""A refresh commits in batches to a journal; the listing can be fetched in pages."""
from __future__ import annotations

import json

from engine.library import refresh as refresh_module
from engine.library.tenant import Tenant
from tests.test_tenant import docx_bytes


def folder_of(tmp_path, n: int):
    folder = tmp_path / "폴더"
    folder.mkdir()
    for i in range(n):
        (folder / f"문서{i:02d}.docx").write_bytes(docx_bytes(f"{i}번 문서 고유 낱말 황새{i}."))
    return folder


def test_batches_go_to_the_journal_and_the_end_of_the_refresh_folds_it(tmp_path, monkeypatch):
    monkeypatch.setattr(refresh_module, "FIRST_BATCH_S", 0.0)      # a batch after every file
    folder = folder_of(tmp_path, 5)
    tenant = Tenant(folder, cache_root=tmp_path / "cache", workers=1)
    seen = []

    def progress(p):
        if p.phase == "parse" and p.done == 4:
            seen.append(((tenant.home / "state.journal").is_file(), (tenant.home / "state.json").is_file()))

    try:
        tenant.refresh(progress)
        assert seen == [(True, False)]           # committed batches, not yet a whole state
        assert not (tenant.home / "state.journal").exists()
        state = json.loads((tenant.home / "state.json").read_text(encoding="utf-8"))
        assert len(state["files"]) == 5
    finally:
        tenant.close()


def test_a_journal_is_replayed_on_open_and_a_torn_last_line_ignored(tmp_path):
    folder = folder_of(tmp_path, 3)
    first = Tenant(folder, cache_root=tmp_path / "cache", workers=1)
    first.refresh()
    home = first.home
    first.close()
    state = json.loads((home / "state.json").read_text(encoding="utf-8"))
    entry = state["files"].pop("문서02.docx")
    (home / "state.json").write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")
    line = json.dumps({"files": {"문서02.docx": entry}, "removed": ["문서00.docx"]}, ensure_ascii=False)
    (home / "state.journal").write_text(line + "\n" + line[:40], encoding="utf-8")
    names = [d["filename"] for d in Tenant(folder, cache_root=tmp_path / "cache").documents()["documents"]]
    assert names == ["문서01.docx", "문서02.docx"]


def test_the_listing_comes_in_pages_with_the_totals_of_all(tmp_path):
    folder = folder_of(tmp_path, 5)
    tenant = Tenant(folder, cache_root=tmp_path / "cache", workers=1)
    try:
        whole = tenant.documents()
        pages = [tenant.documents(start=s, count=2) for s in range(0, 6, 2)]
        assert [d for p in pages for d in p["documents"]] == whole["documents"]
        assert [len(p["documents"]) for p in pages] == [2, 2, 1]
        assert all(p["total"] == 5 and p["readable"] == whole["readable"] for p in pages)
    finally:
        tenant.close()
