"""The local API against the CLI: a warm /search beside `noda search`, throughput, the server's memory.

    .venv/bin/python bench/api.py [--folder resources/sample] [--requests 200] [--clients 8]

Starts `noda serve FOLDER` on a free port of 127.0.0.1 (a scratch cache and config folder), waits until
it has read the folder, then measures:

- warm /search p50/p95 over ``--requests`` sequential requests (each a different query), next to the wall time of
  `noda search FOLDER QUERY --json` (3 runs, the same cache, so only the per-call start-up differs);
- requests per second with ``--clients`` threads searching at once (each its own connection per request);
- the server's resident memory (VmRSS, with its child processes) after the run.

Nothing connects anywhere but 127.0.0.1.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.api_client import NodaClient  # noqa: E402

# Words of the sample folder's documents; each request asks a different pair, so no query is served from a cache.
WORDS = ("청년 창업 지원 대상 해외직접투자 동향 접대비 손금 사업비 집행 현황 회의 결과 조치 신청 기간 기안문 "
         "서식 결재 보도자료 문의처 분기 투자 금액 국세청 예산 공고 심사 선정 제출 서류 업무 조정").split()
QUERIES = [f"{a} {b}" for i, a in enumerate(WORDS) for b in WORDS[i + 1:]]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid: int) -> float:
    """VmRSS of ``pid`` and its children, in MiB (Linux /proc)."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--folder", default=str(ROOT / "resources" / "sample"))
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="noda-bench-api-"))
    env = {**os.environ, "NODA_CACHE_DIR": str(scratch / "cache"), "NODA_CONFIG_DIR": str(scratch / "config"),
           "NODA_USAGE_LOG": str(scratch / "usage.jsonl")}
    port = free_port()
    started = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "noda_desktop.cli", "serve", args.folder, "--port", str(port)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        NodaClient(f"http://127.0.0.1:{port}", timeout=5).wait_ready(600, alive=lambda: server.poll() is None)
        ready_s = time.perf_counter() - started
        token = (scratch / "config" / "api-token").read_text().strip()
        client = NodaClient(f"http://127.0.0.1:{port}", token)
        client.call("/search", {"query": "준비"})

        times = []
        for i in range(args.requests):
            t0 = time.perf_counter()
            status, _ = client.call("/search", {"query": QUERIES[(7 * i) % len(QUERIES)], "limit": 10})
            times.append(time.perf_counter() - t0)
            assert status == 200

        cli = []
        for i in range(3):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "noda_desktop.cli", "search", args.folder, QUERIES[i], "--json"],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            cli.append(time.perf_counter() - t0)

        done, lock = [0], threading.Lock()
        per_client = max(1, args.requests // args.clients)

        def worker(k: int) -> None:
            mine = NodaClient(f"http://127.0.0.1:{port}", token)
            for i in range(per_client):
                status, _ = mine.call("/search", {"query": QUERIES[(7 * (args.requests + k * per_client + i) + 3)
                                                                   % len(QUERIES)]})
                assert status == 200
                with lock:
                    done[0] += 1

        threads = [threading.Thread(target=worker, args=(k,)) for k in range(args.clients)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        concurrent_s = time.perf_counter() - t0
        memory = rss_mib(server.pid)
    finally:
        server.terminate()
        server.wait(30)

    p50, p95 = percentile(times, 0.5), percentile(times, 0.95)
    cli_s = statistics.median(cli)
    report = {
        "folder": args.folder,
        "server_ready_s": round(ready_s, 2),
        "search_warm_p50_s": round(p50, 4), "search_warm_p95_s": round(p95, 4),
        "cli_search_median_s": round(cli_s, 2), "cli_over_api_p50": round(cli_s / p50, 1),
        "concurrent_clients": args.clients, "concurrent_requests": done[0],
        "requests_per_s": round(done[0] / concurrent_s, 1),
        "server_rss_mib": round(memory, 1),
    }
    print(json.dumps(report, ensure_ascii=False, indent=1))
    print(f"warm /search p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms  vs  noda search {cli_s:.2f} s "
          f"({cli_s / p50:.0f}x); {args.clients} clients: {done[0] / concurrent_s:.1f} req/s; "
          f"server RSS {memory:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
