"""Exact-phrase search on the shared corpus: what quoting a query part costs and what it buys.

    .venv/bin/python bench/phrase_search.py [--limit 10]

The readable corpus documents are indexed once (a temp cache). Every truth
snippet of two or more words is asked twice through Tenant.search: as plain
words (quotes ignored: how search worked before) and quoted. Printed side by
side: query time p50/p95 and their ratio, how often the snippet's own document
is among the hits, and the share of hits whose text really holds the phrase
(spaces aside). The index is the same for both (the phrase check needs no
positions), so its size on disk is printed once.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CORPUS = Path(os.environ.get("NODA_SHARED") or ROOT.parent / "shared") / "corpus"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=10)
    args = parser.parse_args()
    from engine.library.tenant import Tenant
    from engine.search.phrases import has_phrases

    work = Path(tempfile.mkdtemp(prefix="noda-phrase-"))
    folder = work / "corpus"
    folder.mkdir()
    snippets = []
    for truth_path in sorted(CORPUS.glob("*.truth.json")):
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
        source = truth_path.with_name(truth_path.name[:-len(".truth.json")])
        if not truth.get("readable"):
            continue
        shutil.copy(source, folder / source.name)
        snippets += [(source.name, s) for s in truth.get("snippets") or [] if len(s.split()) >= 2]
    tenant = Tenant(folder, cache_root=work / "cache")
    try:
        started = time.perf_counter()
        tenant.refresh()
        index_s = time.perf_counter() - started
        tenant.search("워밍업", limit=1)
        rows = {}
        for form in ("plain", "quoted"):
            times, found, exact, hits_n = [], 0, 0, 0
            for name, snippet in snippets:
                query = snippet if form == "plain" else f'"{snippet}"'
                t0 = time.perf_counter()
                hits = tenant.search(query, limit=args.limit)["hits"]
                times.append((time.perf_counter() - t0) * 1000)
                found += any(h["filename"] == name for h in hits)
                exact += sum(has_phrases(h["text"], [snippet]) for h in hits)
                hits_n += len(hits)
            times.sort()
            rows[form] = {"p50_ms": round(statistics.median(times), 1),
                          "p95_ms": round(times[int(len(times) * 0.95) - 1], 1),
                          "source_found": round(found / len(snippets), 3),
                          "hits_holding_phrase": round(exact / hits_n, 3) if hits_n else None,
                          "hits_per_query": round(hits_n / len(snippets), 2)}
        size = sum(p.stat().st_size for p in (tenant.home / "index").rglob("*") if p.is_file())
    finally:
        tenant.close()
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps({"snippets": len(snippets), "index_bytes": size, "index_s": round(index_s, 1),
                      **rows, "p50_ratio": round(rows["quoted"]["p50_ms"] / rows["plain"]["p50_ms"], 2),
                      "p95_ratio": round(rows["quoted"]["p95_ms"] / rows["plain"]["p95_ms"], 2)},
                     ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
