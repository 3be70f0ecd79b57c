"""Tenant indexing speed on a folder of 1,000+ documents.

    .venv/bin/python bench/index_speed.py [--docs 1000] [--workers 2] [--queries 100]

The folder is made in a temp dir: distinct generated DOCX/XLSX/PDF files (every
file has its own bytes, so nothing hits the parse cache by accident) plus one
copy of each document of the shared corpus. Measured:

- cold: a first refresh with an empty cache (parse in workers + chunk + index);
- from cache: the same folder indexed again with only the parse cache kept;
- add one: one new document, refresh (target: at most 1/50 of cold);
- warm reopen: a new process opens the tenant, refreshes (nothing changed) and
  runs a first query (target: at most 5% of cold), with and without imports;
- search p50/p95 through Tenant.search next to a bare Whoosh query on the
  same index directory (target: at most 1.5x);
- peak RSS of this process and of the largest child (a worker or the warm-reopen process).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("NODA_SHARED") or ROOT.parent / "shared") / "corpus"
# A private copy of engine/: others may edit the tree while this runs, and any edit
# to the reading code starts a new parse-cache generation (engine/library/cache.py).
CODE = Path(tempfile.mkdtemp(prefix="noda-bench-code-"))
shutil.copytree(ROOT / "engine", CODE / "engine", ignore=shutil.ignore_patterns("__pycache__"))
sys.path.insert(0, str(CODE))

import pymupdf  # noqa: E402
from docx import Document as Docx  # noqa: E402
from openpyxl import Workbook  # noqa: E402

from engine.library.tenant import Tenant  # noqa: E402

WORDS = ("지원 사업 신청 기간 대상 예산 집행 계획 공고 결과 보고 위원회 심의 의결 조례 규칙 시행 "
         "부서 담당 협조 요청 회신 검토 승인 결재 문서 번호 수신 발신 참조 붙임 목록 기준 금액 "
         "합계 산출 근거 인건비 여비 업무추진비 용역 계약 입찰 낙찰 공사 준공 검사 감사 지적 조치 "
         "개선 교육 훈련 연수 복무 휴가 출장 인사 발령 승진 평가 성과 급여 수당 복지 민원 처리 "
         "접수 통보 고시 공시 통계 조사 분석 현황 실적 목표 추진 일정 완료 변경 취소 연장 협약 "
         "체결 보조금 정산 반납 지방 중앙 행정 재정 세입 세출 결산 추경 본예산 농업 어업 산림 "
         "환경 안전 재난 복구 주민 청년 노인 아동 장애인 주택 교통 도로 상수도 하수도 문화 관광 "
         "축제 체육 도서관 보건소 의료 방역 일자리 창업 기업 수출 투자 유치 홍보 보도 자료").split()
SURNAMES = "김이박최정강조윤장임한오서신권황안송류홍"


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)) + f" {rng.randint(1, 99999)}번."


def make_docx(path: Path, rng: random.Random, i: int) -> None:
    doc = Docx()
    doc.add_heading(f"{i}호 {sentence(rng, 4)}", level=1)
    for _ in range(rng.randint(6, 18)):
        doc.add_paragraph(sentence(rng, rng.randint(15, 60)))
    table = doc.add_table(rows=4, cols=3)
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            cell.text = sentence(rng, 2) if r else f"항목{c}"
    doc.save(path)


def make_xlsx(path: Path, rng: random.Random, i: int) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = f"현황{i}"
    ws.append(["번호", "성명", "부서", "내용", "금액"])
    for n in range(rng.randint(10, 40)):
        ws.append([n + 1, rng.choice(SURNAMES) + rng.choice(SURNAMES), rng.choice(WORDS),
                   sentence(rng, 6), rng.randint(1000, 9_999_999)])
    wb.save(path)


def make_pdf(path: Path, rng: random.Random, i: int) -> None:
    pdf = pymupdf.open()
    for _ in range(rng.randint(1, 3)):
        page = pdf.new_page()
        y = 72
        for _ in range(20):
            page.insert_text((72, y), sentence(rng, 8), fontname="korea", fontsize=10)
            y += 18
    pdf.save(path)
    pdf.close()


MAKERS = [(".docx", make_docx), (".docx", make_docx), (".xlsx", make_xlsx), (".pdf", make_pdf)]


def build_folder(folder: Path, docs: int, seed: int = 7) -> int:
    """Generated documents plus one copy of each corpus document; returns the file count."""
    rng = random.Random(seed)
    corpus = [t.with_name(t.name[: -len(".truth.json")]) for t in sorted(CORPUS.glob("*.truth.json"))]
    for path in corpus:
        shutil.copy(path, folder / f"corpus_{path.name}")
    for i in range(max(0, docs - len(corpus))):
        ext, make = MAKERS[i % len(MAKERS)]
        sub = folder / f"{2020 + i % 6}년" / rng.choice(["총무과", "기획예산과", "민원과", "인사과"])
        sub.mkdir(parents=True, exist_ok=True)
        make(sub / f"문서{i:05d}{ext}", rng, i)
    return sum(1 for p in folder.rglob("*") if p.is_file())


WARM_SCRIPT = """
import json, sys, time
started = time.perf_counter()
from engine.library.tenant import Tenant
imported = time.perf_counter()
tenant = Tenant(sys.argv[1], cache_root=sys.argv[2])
report = tenant.refresh()
hits = tenant.search(sys.argv[3])["hits"]
done = time.perf_counter()
print(json.dumps({"with_imports": done - started, "without_imports": done - imported,
                  "parsed": report["parsed"], "hits": len(hits)}))
"""


def bare_whoosh(index_dir: Path, queries: list[str], limit: int) -> list[float]:
    """Per-query seconds of the same OR query straight on Whoosh (BM25F, stored fields read)."""
    from whoosh import index as whoosh_index
    from whoosh import scoring
    from whoosh.query import Or, Term

    from engine.search.query import BM25_B, BM25_K1, QUERY_FIELDS
    from engine.search.schema import INDEX_NAME

    ix = whoosh_index.open_dir(str(index_dir), indexname=INDEX_NAME)
    times = []
    with ix.searcher(weighting=scoring.BM25F(B=BM25_B, K1=BM25_K1)) as searcher:
        for q in queries:
            t = time.perf_counter()
            terms = [Term(name, term) for name in QUERY_FIELDS
                     for term in dict.fromkeys(ix.schema[name].process_text(q, mode="query"))]
            results = searcher.search(Or(terms), limit=limit)
            [dict(hit) for hit in results]
            times.append(time.perf_counter() - t)
    ix.close()
    return times


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--keep", action="store_true", help="keep the temp folder")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="noda-bench-"))
    folder, cache = work / "테넌트", work / "cache"
    folder.mkdir()
    out: dict = {}
    try:
        t = time.perf_counter()
        out["files"] = build_folder(folder, args.docs)
        out["generate_s"] = round(time.perf_counter() - t, 1)

        tenant = Tenant(folder, cache_root=cache, workers=args.workers)
        t = time.perf_counter()
        report = tenant.refresh()
        cold = time.perf_counter() - t
        listing = tenant.documents()
        out.update(cold_s=round(cold, 2), parsed=report["parsed"],
                   documents=len(listing["documents"]), readable=listing["readable"],
                   chunks=listing["chunks"], docs_per_s=round(len(listing["documents"]) / cold, 1))

        new = folder / "새로온_문서.docx"
        make_docx(new, random.Random(99), 99999)
        t = time.perf_counter()
        added = tenant.refresh()
        add_one = time.perf_counter() - t
        assert added["parsed"] == 1, added
        out.update(add_one_s=round(add_one, 3), add_one_ratio=f"1/{cold / add_one:.0f}")

        rng = random.Random(3)
        queries = [" ".join(rng.sample(WORDS, rng.randint(1, 3))) for _ in range(args.queries)]
        tenant.search(queries[0])                     # analyzer loaded before timing
        ours = []
        for q in queries:
            t = time.perf_counter()
            tenant.search(q, limit=10)
            ours.append(time.perf_counter() - t)
        index_dir = next((tenant.home / "index").iterdir())
        tenant.close()
        bare = bare_whoosh(index_dir, queries, 10)
        out.update(search_p50_ms=round(pct(ours, .5) * 1000, 2), search_p95_ms=round(pct(ours, .95) * 1000, 2),
                   bare_p50_ms=round(pct(bare, .5) * 1000, 2), bare_p95_ms=round(pct(bare, .95) * 1000, 2))
        out["search_ratio_p50"] = round(pct(ours, .5) / pct(bare, .5), 2)
        out["search_ratio_p95"] = round(pct(ours, .95) / pct(bare, .95), 2)

        warm = json.loads(subprocess.run(
            [sys.executable, "-c", WARM_SCRIPT, str(folder), str(cache), queries[1]],
            cwd=CODE, capture_output=True, text=True, check=True).stdout)
        assert warm["parsed"] == 0, warm
        out.update(warm_reopen_s=round(warm["without_imports"], 2),
                   warm_reopen_with_imports_s=round(warm["with_imports"], 2),
                   warm_ratio=f"{warm['without_imports'] / cold:.1%}",
                   warm_ratio_with_imports=f"{warm['with_imports'] / cold:.1%}")

        shutil.rmtree(cache / "tenants")              # keep only the parse cache
        t = time.perf_counter()
        again = Tenant(folder, cache_root=cache, workers=args.workers).refresh()
        out.update(from_cache_s=round(time.perf_counter() - t, 2), from_cache_files=again["from_cache"])

        usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        out.update(peak_rss_mb=round(usage / 1024), peak_child_rss_mb=round(children / 1024))
    finally:
        if args.keep:
            print(f"kept: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(CODE, ignore_errors=True)
    for key, value in out.items():
        print(f"{key:28} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
