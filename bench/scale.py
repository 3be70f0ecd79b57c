"""The engine at ten thousand documents: a folder built from the shared corpus, measured end to end.

    .venv/bin/python bench/scale.py [--docs 10000] [--workdir DIR] [--minutes 120]
                                    [--code DIR|COMMIT] [--label NAME] [--skip cold,warm,edit,soak,kill]
                                    [--compare BEFORE.json] [--keep] [--reuse-cache DIR]

The folder (``<workdir>/folder-<docs>``, built once and reused; never inside the
repo) holds ``--docs`` files made from the corpus documents in turn, so formats
come in corpus proportions: each copy is made distinct so it is parsed and
indexed on its own — a generated paragraph put into the first text run of a
DOCX/HWPX/XLSX or on the first page of a PDF, a changed reserved byte in an HWP
FileHeader, a comment chunk in a picture, trailing bytes in the unreadable
ones — and one slot in 50 is a ZIP of three such copies.

The engine runs in child processes (as the window's engine process does), each
sampled from /proc for the RSS of it and of its parse workers:

- cold: a first refresh with an empty cache (docs/s, when the last file without
  pictures was read, peak RSS of the engine (also split into its own memory and the
  mapped files of its index), of the largest worker and of all of
  them together, index and cache size);
- warm: a new process opens the tenant and lists it (restart to listing), then
  refreshes (only stats), then search and answer p50/p95 over 50 (``--questions``)
  questions of the corpus's questions.jsonl;
- edit: add one file, refresh; change one file, refresh (with Kiwi loaded in the engine, as the
  window keeps it once quiet);
- soak: ``--minutes`` of random add/change/delete plus queries in one engine
  process: RSS growth per hour over the whole soak and over its second half, and every error;
- kill: a second cold refresh on a fresh cache, killed with SIGKILL (engine and
  workers) at half its files, then resumed: how many parse-cache entries the
  resume wrote again (must be 0) and whether the listing and index are whole.

``--code DIR|COMMIT`` measures another checkout's engine, or a commit's (e.g. the
baseline), on the same folder — a private copy of its engine/ and nothing else
(the editable install's hook, which would fill in modules it lacks, is removed); ``--compare`` prints this run beside a
saved JSON with ratios. Results go to ``<workdir>/scale-<label>-<docs>.json``
(or ``--json``) and as text.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("NODA_SHARED") or "/work/shared") / "corpus"
QUESTIONS = 50
ZIP_EVERY = 50            # one slot in this many is a ZIP of ZIP_MEMBERS copies
ZIP_MEMBERS = 3
TIMELINE_EVERY = 500     # files: the cold refresh's seconds at each multiple
PICTURES = (".png", ".jpg", ".jpeg")   # the folder's files that need OCR
SOAK_FILES = 40           # the soak keeps at most this many files of its own
WORDS = ("지원 사업 신청 기간 대상 예산 집행 계획 공고 결과 보고 위원회 심의 의결 조례 규칙 시행 부서 "
         "담당 협조 요청 회신 검토 승인 결재 문서 번호 수신 발신 참조 붙임 목록 기준 금액 합계 산출 "
         "근거 용역 계약 입찰 낙찰 공사 준공 검사 감사 지적 조치 개선 교육 훈련 연수 출장 인사 발령 "
         "평가 성과 민원 처리 접수 통보 고시 통계 조사 분석 현황 실적 목표 추진 일정 변경 협약 체결 "
         "보조금 정산 세입 세출 결산 농업 산림 환경 안전 재난 주민 청년 노인 주택 교통 문화 관광").split()
DEPARTMENTS = ("총무과", "기획예산과", "민원과", "인사과", "재무과", "안전총괄과")


# ---- the folder ---------------------------------------------------------------
def corpus_documents() -> list[tuple[Path, str]]:
    """(path, detected format) of every corpus document, from MANIFEST.tsv."""
    rows = (CORPUS / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()
    head = rows[0].split("\t")
    out = []
    for row in rows[1:]:
        cells = dict(zip(head, row.split("\t")))
        if cells.get("rel_path") and (CORPUS / cells["rel_path"]).is_file():
            out.append((CORPUS / cells["rel_path"], cells["detected_format"]))
    return sorted(out)


def paragraph(rng: random.Random, n: int) -> str:
    return f"사본 {n}번 참고: " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20))) + "."


# the first text run of each ZIP-based format, where a generated paragraph goes
_TEXT_RUN = {"docx": ("word/document.xml", re.compile(rb"<w:t(?: [^>]*)?>")),
             "hwpx": ("Contents/section0.xml", re.compile(rb"<hp:t>")),
             "xlsx": ("xl/sharedStrings.xml", re.compile(rb"<t(?: [^>]*)?>"))}


def variant(data: bytes, fmt: str, n: int, rng: random.Random) -> bytes:
    """Bytes of copy ``n`` of a corpus document: same reading, distinct content hash."""
    text = paragraph(rng, n)
    if fmt in _TEXT_RUN:
        return _zip_variant(data, fmt, text, n)
    if fmt == "pdf":
        import pymupdf
        pdf = pymupdf.open(stream=data, filetype="pdf")
        pdf[0].insert_text((24, 20), text, fontname="korea", fontsize=5)
        out = pdf.tobytes()
        pdf.close()
        return out
    if fmt == "png":     # a tEXt chunk before IEND
        import zlib
        body = b"tEXt" + b"Comment\0" + f"copy {n}".encode()
        chunk = struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body))
        end = data.rindex(b"IEND") - 4
        return data[:end] + chunk + data[end:]
    if fmt == "jpeg":    # a COM segment after SOI
        note = f"copy {n}".encode()
        return data[:2] + b"\xff\xfe" + struct.pack(">H", len(note) + 2) + note + data[2:]
    if fmt == "hwp5":    # reserved bytes 52..59 of the FileHeader stream
        at = data.find(b"HWP Document File")
        if at >= 0:
            return data[:at + 52] + struct.pack("<Q", n + 1) + data[at + 60:]
    return data + f"\n{n}".encode()


def _zip_variant(data: bytes, fmt: str, text: str, n: int) -> bytes:
    member, pattern = _TEXT_RUN[fmt]
    out = io.BytesIO()
    changed = False
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            body = zin.read(info)
            if info.filename == member and not changed:
                match = pattern.search(body)
                if match:
                    body = body[:match.end()] + escape(text + " ").encode() + body[match.end():]
                    changed = True
            zout.writestr(info, body)
        if not changed:   # an encrypted package: a ZIP comment still makes it distinct
            zout.comment = f"copy {n}".encode()
    return out.getvalue()


def slot_path(folder: Path, i: int, source: Path, suffix: str = "") -> Path:
    stem = source.stem[:40]
    return folder / f"{2019 + i % 7}년" / DEPARTMENTS[i % len(DEPARTMENTS)] / f"{stem}_{i:05d}{suffix or source.suffix}"


def build_folder(folder: Path, files: int, seed: int = 17) -> dict:
    """``files`` distinct files made from the corpus in turn (see module doc); what it holds."""
    docs = corpus_documents()
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    for i in range(files):
        source, fmt = docs[i % len(docs)]
        if i % ZIP_EVERY == ZIP_EVERY - 1:
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
                for k in range(ZIP_MEMBERS):
                    src, f = docs[(i + k * 7) % len(docs)]
                    zf.writestr(f"붙임{k + 1}_{src.name}", variant(src.read_bytes(), f, i * 10 + k, rng))
            target, data, fmt = slot_path(folder, i, source, ".zip"), buffer.getvalue(), "zip"
        else:
            target, data = slot_path(folder, i, source), variant(source.read_bytes(), fmt, i, rng)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        counts[fmt] = counts.get(fmt, 0) + 1
    return counts


def ensure_folder(workdir: Path, files: int) -> tuple[Path, dict]:
    folder = workdir / f"folder-{files}"
    done = workdir / f"folder-{files}.json"
    if done.is_file() and folder.is_dir():
        return folder, json.loads(done.read_text())
    shutil.rmtree(folder, ignore_errors=True)
    started = time.perf_counter()
    counts = build_folder(folder, files)
    info = {"formats": counts, "bytes": sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()),
            "build_s": round(time.perf_counter() - started, 1)}
    done.write_text(json.dumps(info))
    return folder, info


# ---- watching processes ---------------------------------------------------------
def _proc_kb(pid: int, field: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith(field):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cpu_s(pid: int) -> float:
    """User plus system CPU seconds of a process so far (its threads included)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            kids.setdefault(ppid, []).append(int(name))
    return kids


class Watch(threading.Thread):
    """Samples a process and its descendants: peak RSS of each role and of the whole tree."""

    def __init__(self, pid: int, every_s: float = 0.25):
        super().__init__(daemon=True)
        self.pid, self.every_s = pid, every_s
        self.engine_mb = self.worker_mb = self.total_mb = 0.0
        self.engine_anon_mb = self.engine_file_mb = 0.0   # the engine's own memory and its mapped files (index)
        self.workers_seen: set[int] = set()
        self.cpu: dict[int, float] = {}      # pid -> CPU seconds at its last sample
        self.stop = threading.Event()
        self.started = time.time()

    def run(self) -> None:
        while not self.stop.is_set():
            kids, tree, todo = _children(), [], [self.pid]
            while todo:
                pid = todo.pop()
                tree.append(pid)
                todo += kids.get(pid, [])
            total = 0
            for pid in tree:
                rss, peak = _proc_kb(pid, "VmRSS:"), _proc_kb(pid, "VmHWM:")
                self.cpu[pid] = max(self.cpu.get(pid, 0.0), _cpu_s(pid))
                total += rss
                if pid == self.pid:
                    self.engine_mb = max(self.engine_mb, peak / 1024)
                    self.engine_anon_mb = max(self.engine_anon_mb, _proc_kb(pid, "RssAnon:") / 1024)
                    self.engine_file_mb = max(self.engine_file_mb, _proc_kb(pid, "RssFile:") / 1024)
                elif rss:
                    self.workers_seen.add(pid)
                    self.worker_mb = max(self.worker_mb, peak / 1024)
            self.total_mb = max(self.total_mb, total / 1024)
            self.stop.wait(self.every_s)

    def figures(self, prefix: str) -> dict:
        return {f"{prefix}_engine_peak_mb": round(self.engine_mb),
                f"{prefix}_engine_anon_peak_mb": round(self.engine_anon_mb),
                f"{prefix}_engine_file_peak_mb": round(self.engine_file_mb),
                f"{prefix}_worker_peak_mb": round(self.worker_mb),
                f"{prefix}_all_peak_mb": round(self.total_mb), f"{prefix}_processes": 1 + len(self.workers_seen),
                f"{prefix}_engine_cpu_s": round(self.cpu.get(self.pid, 0.0), 1),
                f"{prefix}_worker_cpu_s": round(sum(v for k, v in self.cpu.items() if k != self.pid), 1)}


def run_child(phase: str, spec: dict, *, kill_at: float = 0.0) -> tuple[dict, Watch, bool]:
    """Run one engine phase in a child process; (its result, its RSS watch, whether it was killed)."""
    proc = subprocess.Popen([sys.executable, __file__, "--child", phase, json.dumps(spec)],
                            stdout=subprocess.PIPE, text=True, start_new_session=True,
                            cwd=spec["code"])
    watch = Watch(proc.pid)
    watch.start()
    result, killed = {}, False
    try:
        for line in proc.stdout:
            message = json.loads(line)
            if "result" in message:
                result = message["result"]
            elif "done" in message and spec.get("progress"):
                with open(spec["progress"], "a") as log:
                    log.write(json.dumps({**message, "phase": phase, "s": round(time.time() - watch.started, 1),
                                          "all_mb": round(watch.total_mb)}) + "\n")
            if kill_at and message.get("total") and message["done"] >= kill_at * message["total"]:
                os.killpg(proc.pid, signal.SIGKILL)
                killed = True
                result = {"killed_at": message["done"], "of": message["total"]}
                break
        proc.wait()
    finally:
        watch.stop.set()
        watch.join()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    if not killed and proc.returncode:
        raise RuntimeError(f"{phase} failed with exit code {proc.returncode}")
    return result, watch, killed


def folder_mb(path: Path) -> float:
    total = 0
    for root, _dirs, names in os.walk(path):
        for name in names:
            try:
                total += os.path.getsize(os.path.join(root, name))
            except OSError:
                pass
    return round(total / 2**20, 1)


def cache_entries(cache: Path) -> dict[str, int]:
    return {str(p): p.stat().st_mtime_ns for p in (cache / "parse").rglob("*.json.gz")}


# ---- the engine side (child processes) ----------------------------------------------
def _say(**message) -> None:
    print(json.dumps(message, ensure_ascii=False), flush=True)


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))] if ordered else 0.0


def _questions(count: int = QUESTIONS) -> list[str]:
    rows = [json.loads(line) for line in (CORPUS / "questions.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return [r["question"] for r in random.Random(50).sample(rows, min(count, len(rows)))]


def only_code(code: str) -> None:
    """Let ``code`` alone supply ``engine``: the editable install's import hook maps ``engine`` to the
    checkout this venv was installed from and would fill in any module ``code`` lacks (an old layout
    run with new modules mixed in), so it goes, with the repository itself from the path."""
    sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("__editable__")]
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
    sys.path.insert(0, code)


def mixed_modules(code: str) -> list[str]:
    """Engine modules loaded from anywhere but ``code`` (must be none)."""
    return sorted(name for name, module in list(sys.modules.items())
                  if (name == "engine" or name.startswith("engine.")) and getattr(module, "__file__", None)
                  and not Path(module.__file__).resolve().is_relative_to(Path(code).resolve()))


# Where each layout of the engine keeps what the phases call: the first module that has it.
ENGINE_PARTS = {"Tenant": ("engine.library.tenant", "engine.tenant"),
                "answer": ("engine.answer.extract", "engine.answer"),
                "korean_terms": ("engine.search.analyzer", "engine.analyzer")}


def engine_part(name: str):
    """``name`` from the measured checkout, whichever layout it has (its modules only: ``only_code``)."""
    import importlib

    for module in ENGINE_PARTS[name]:
        try:
            found = getattr(importlib.import_module(module), name, None)
        except ModuleNotFoundError as missing:
            if not module.startswith(missing.name or "\0"):
                raise
            continue
        if found is not None:
            return found
    raise ImportError(f"{name} in none of {ENGINE_PARTS[name]}")


def child(phase: str, spec: dict) -> None:
    started = time.perf_counter()
    only_code(spec["code"])
    Tenant = engine_part("Tenant")

    imported = time.perf_counter()
    folder, cache = Path(spec["folder"]), Path(spec["cache"])
    tenant = Tenant(folder, cache_root=cache, workers=spec["workers"])
    opened = time.perf_counter()
    out: dict = {"import_s": round(imported - started, 3), "open_s": round(opened - imported, 3)}
    if phase == "refresh":
        if spec.get("engine_kiwi"):   # Kiwi in the engine while it reads (the window loads it once quiet)
            engine_part("korean_terms")("준비")
        last, text_done, timeline = [0.0], [0.0], {}
        t = time.perf_counter()

        def progress(p) -> None:
            if p.phase == "parse" and p.current and not p.current.lower().endswith(PICTURES):
                text_done[0] = time.perf_counter() - t
            if p.phase == "parse" and p.done % TIMELINE_EVERY == 0:
                timeline[p.done] = round(time.perf_counter() - t)
            if p.phase == "parse" and (time.monotonic() - last[0] > 0.5 or p.done == p.total):
                last[0] = time.monotonic()
                _say(done=p.done, total=p.total)

        report = tenant.refresh(progress)
        out["refresh_s"] = round(time.perf_counter() - t, 2)
        out["text_done_s"] = round(text_done[0], 2)
        out["timeline"] = timeline
        listing = tenant.documents()
        out.update(parsed=report["parsed"], from_cache=report["from_cache"], unchanged=report["unchanged"],
                   documents=len(listing["documents"]), readable=listing["readable"],
                   chunks=listing["chunks"], indexed_chunks=tenant.search("")["chunks_searched"])
    elif phase == "warm":
        t = time.perf_counter()
        listing = tenant.documents()
        out["list_s"] = round(time.perf_counter() - t, 3)
        out["restart_to_listing_s"] = round(time.perf_counter() - started, 3)
        out["listing_json_mb"] = round(len(json.dumps(listing, ensure_ascii=False).encode()) / 2**20, 1)
        t = time.perf_counter()
        report = tenant.refresh()
        out.update(refresh_s=round(time.perf_counter() - t, 2), refresh_parsed=report["parsed"])
        answer = engine_part("answer")
        questions = _questions(spec["questions"])
        t = time.perf_counter()
        tenant.search(questions[0])
        out["first_search_s"] = round(time.perf_counter() - t, 3)
        searches, answers = [], []
        for q in questions:
            t = time.perf_counter()
            tenant.search(q, limit=10)
            searches.append(time.perf_counter() - t)
            t = time.perf_counter()
            answer(tenant, q)
            answers.append(time.perf_counter() - t)
        out.update(search_p50_ms=round(_pct(searches, .5) * 1000, 1), search_p95_ms=round(_pct(searches, .95) * 1000, 1),
                   answer_p50_ms=round(_pct(answers, .5) * 1000, 1), answer_p95_ms=round(_pct(answers, .95) * 1000, 1))
    elif phase == "edit":
        tenant.refresh()
        engine_part("korean_terms")("준비")   # the window's engine loads Kiwi once quiet (ui/engine_host.py): an edit finds it
        new, changed = Path(spec["add"]), Path(spec["change"])
        source, fmt = corpus_documents()[0]
        for s, f in corpus_documents():
            if f == "docx":
                source, fmt = s, f
        rng = random.Random(1)
        new.write_bytes(variant(source.read_bytes(), fmt, 900001, rng))
        t = time.perf_counter()
        report = tenant.refresh()
        out.update(add_one_s=round(time.perf_counter() - t, 3), add_one_parsed=report["parsed"])
        changed.write_bytes(variant(source.read_bytes(), fmt, 900002, rng))
        t = time.perf_counter()
        report = tenant.refresh()
        out.update(change_one_s=round(time.perf_counter() - t, 3), change_one_parsed=report["parsed"])
    elif phase == "soak":
        out.update(soak(tenant, folder / "소크", spec["minutes"]))
    tenant.close()
    mixed = mixed_modules(spec["code"])
    if mixed:
        raise RuntimeError(f"engine modules from outside {spec['code']}: {mixed}")
    _say(result=out)


def _rss_mb() -> float:
    return _proc_kb(os.getpid(), "VmRSS:") / 1024


def soak(tenant, place: Path, minutes: float) -> dict:
    """Random add/change/delete plus queries for ``minutes``; RSS after every round past warm-up."""
    answer = engine_part("answer")
    rng, docs, questions = random.Random(23), corpus_documents(), _questions()
    readable = [(s, f) for s, f in docs if f in ("docx", "hwpx", "pdf", "xlsx", "hwp5")]
    place.mkdir(exist_ok=True)
    errors, rounds, refresh_times, serial = [], 0, [], 0
    ends = time.monotonic() + minutes * 60
    start_rss = None
    samples: list[tuple[float, float]] = []   # (time, RSS) after each round past warm-up
    while time.monotonic() < ends:
        mine = sorted(place.iterdir())
        op = rng.choice(["add", "add", "change", "delete"] if mine else ["add"])
        if op == "add" and len(mine) >= SOAK_FILES:
            op = "delete"
        try:
            source, fmt = rng.choice(readable)
            serial += 1
            if op == "add":
                (place / f"소크_{serial:06d}{source.suffix}").write_bytes(
                    variant(source.read_bytes(), fmt, 800000 + serial, rng))
            elif op == "change":
                target = rng.choice(mine)
                for s, f in readable:
                    if s.suffix == target.suffix:
                        target.write_bytes(variant(s.read_bytes(), f, 800000 + serial, rng))
                        break
            else:
                rng.choice(mine).unlink()
            t = time.perf_counter()
            tenant.refresh()
            refresh_times.append(time.perf_counter() - t)
            for q in rng.sample(questions, 3):
                tenant.search(q)
                answer(tenant, q)
            tenant.documents()
        except Exception as exc:   # counted and shown, never fatal to the soak
            errors.append(f"{op}: {type(exc).__name__}: {exc}"[:300])
        rounds += 1
        if start_rss is None and rounds == 5:   # after warm-up (Kiwi, searcher, caches)
            start_rss = _rss_mb()
        if start_rss is not None:
            samples.append((time.monotonic(), _rss_mb()))
    end_rss = _rss_mb()
    shutil.rmtree(place, ignore_errors=True)
    tenant.refresh()
    first, last = (samples[0], samples[-1]) if samples else (None, None)
    half = next((x for x in samples if x[0] >= (first[0] + last[0]) / 2), None) if samples else None
    return {"soak_minutes": minutes, "soak_rounds": rounds, "soak_errors": len(errors),
            "soak_error_samples": errors[:5], "soak_rss_start_mb": round(start_rss or 0),
            "soak_rss_half_mb": round(half[1]) if half else 0, "soak_rss_end_mb": round(end_rss),
            "soak_rss_growth_per_h": _growth_per_h(first, last),
            "soak_rss_growth_per_h_second_half": _growth_per_h(half, last),
            "soak_refresh_p50_s": round(_pct(refresh_times, .5), 3)}


def _growth_per_h(first: tuple[float, float] | None, last: tuple[float, float] | None) -> float | None:
    """RSS growth between two (time, RSS) samples as a fraction of the first per hour. The soak reports it over
    its whole length and over its second half, which shows whether the climb flattens: in 5-7 minute soaks part
    of it is pools filling once (Python's arenas went 65 -> 88 MiB, then stayed), so a short soak's whole-length
    figure overstates an hour."""
    if first is None or last is None or last[0] <= first[0] or first[1] <= 0:
        return None
    return round((last[1] - first[1]) / first[1] / ((last[0] - first[0]) / 3600), 3)


# ---- the run ------------------------------------------------------------------
def private_code(code: str, workdir: Path, label: str) -> Path:
    """A copy of the engine/ of checkout ``code`` (a folder) or of commit ``code`` of this repository:
    edits to the tree while this runs change nothing, and only it is imported (``only_code``)."""
    target = workdir / f"code-{label}"
    shutil.rmtree(target, ignore_errors=True)
    if Path(code).is_dir():
        shutil.copytree(Path(code) / "engine", target / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    else:
        target.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", code, "engine"], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def measure(args, target: Path) -> dict:
    """Every phase in turn; the figures so far are saved to ``target`` after each, and a phase
    that fails is recorded (``<phase>_failed``) without stopping the others."""
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    folder, info = ensure_folder(workdir, args.docs)
    code = private_code(args.code, workdir, args.label)
    out: dict = {"label": args.label, "files": args.docs, "folder_mb": round(info["bytes"] / 2**20, 1),
                 "formats": info["formats"], "load_before": round(os.getloadavg()[0], 2)}
    skip = set(filter(None, args.skip.split(",")))
    cache = workdir / f"cache-{args.label}"
    shutil.rmtree(cache, ignore_errors=True)
    if args.reuse_cache:   # a cache a cold phase filled before (--keep): copied, the cold phase skipped
        shutil.copytree(args.reuse_cache, cache, symlinks=True)
    base = {"code": str(code), "folder": str(folder), "cache": str(cache), "workers": args.workers,
            "questions": args.questions, "engine_kiwi": args.engine_kiwi, "progress": args.progress}
    phases = [("cold", cold_phase)] if not args.reuse_cache else []
    phases += [("warm", warm_phase), ("edit", edit_phase)]
    if args.minutes > 0:
        phases.append(("soak", soak_phase))
    phases.append(("kill", kill_phase))
    for name, phase in [(name, phase) for name, phase in phases if name not in skip]:
        try:
            phase(args, base, out)
        except Exception as exc:
            out[f"{name}_failed"] = f"{type(exc).__name__}: {exc}"
        target.write_text(json.dumps(out, ensure_ascii=False, indent=1))
    if not args.keep:
        shutil.rmtree(cache, ignore_errors=True)
    shutil.rmtree(code, ignore_errors=True)
    out["load_after"] = round(os.getloadavg()[0], 2)
    return out


def cold_phase(args, base: dict, out: dict) -> None:
    cache = Path(base["cache"])
    t = time.perf_counter()
    cold, watch, _ = run_child("refresh", base)
    cold_s = time.perf_counter() - t
    out.update(cold_s=round(cold_s, 1), cold_refresh_s=cold["refresh_s"], text_done_s=cold["text_done_s"],
               cold_seconds_at_files=cold["timeline"],
               documents=cold["documents"],
               readable=cold["readable"], chunks=cold["chunks"], indexed_chunks=cold["indexed_chunks"],
               docs_per_s=round(cold["documents"] / cold["refresh_s"], 2),
               files_per_s=round(args.docs / cold["refresh_s"], 2), **watch.figures("cold"))
    out.update(index_mb=folder_mb(cache / "tenants"), parse_cache_mb=folder_mb(cache / "parse"),
               load_after_cold=round(os.getloadavg()[0], 2))


def warm_phase(args, base: dict, out: dict) -> None:
    warm, watch, _ = run_child("warm", base)
    out.update(warm_process_to_listing_s=round(warm["restart_to_listing_s"], 3), warm_list_s=warm["list_s"],
               warm_open_s=warm["open_s"], warm_import_s=warm["import_s"],
               listing_json_mb=warm["listing_json_mb"], warm_refresh_s=warm["refresh_s"],
               warm_refresh_parsed=warm["refresh_parsed"], first_search_s=warm["first_search_s"],
               search_p50_ms=warm["search_p50_ms"], search_p95_ms=warm["search_p95_ms"],
               answer_p50_ms=warm["answer_p50_ms"], answer_p95_ms=warm["answer_p95_ms"],
               **watch.figures("warm"))


def edit_phase(args, base: dict, out: dict) -> None:
    folder = Path(base["folder"])
    changed = next(p for p in sorted(folder.rglob("*.docx")))
    original = changed.read_bytes()
    added = folder / "새로 온 문서.docx"
    try:
        edit, _w, _ = run_child("edit", {**base, "add": str(added), "change": str(changed)})
        out.update({k: edit[k] for k in ("add_one_s", "add_one_parsed", "change_one_s", "change_one_parsed")})
    finally:
        added.unlink(missing_ok=True)
        changed.write_bytes(original)


def soak_phase(args, base: dict, out: dict) -> None:
    result, watch, _ = run_child("soak", {**base, "minutes": args.minutes})
    out.update({k: v for k, v in result.items() if k not in ("import_s", "open_s")})
    out.update(watch.figures("soak"))


def kill_phase(args, base: dict, out: dict) -> None:
    cache = Path(base["cache"])
    shutil.rmtree(cache, ignore_errors=True)
    killed, _w, was_killed = run_child("refresh", base, kill_at=0.5)
    before = cache_entries(cache)
    t = time.perf_counter()
    resumed, _w, _ = run_child("refresh", base)
    after = cache_entries(cache)
    rewritten = sum(1 for path, mtime in before.items() if after.get(path) != mtime)
    out.update(kill_killed=was_killed, kill_at_files=killed.get("killed_at"),
               kill_cache_entries=len(before), resume_s=round(time.perf_counter() - t, 1),
               resume_parsed=resumed["parsed"], resume_from_cache=resumed["from_cache"],
               resume_unchanged=resumed["unchanged"], resume_reparsed_cached=rewritten,
               resume_documents=resumed["documents"], resume_chunks=resumed["chunks"],
               resume_indexed_chunks=resumed["indexed_chunks"])
    if "chunks" in out:    # the cold phase ran: the resumed folder must come out the same
        out.update(resume_chunks_match=resumed["chunks"] == out["chunks"],
                   resume_index_whole=resumed["indexed_chunks"] == out["indexed_chunks"])


def show(out: dict, before: dict | None) -> None:
    for key, value in out.items():
        if before is None or key not in before:
            print(f"{key:30} {value}")
            continue
        old = before[key]
        ratio = ""
        if isinstance(value, (int, float)) and isinstance(old, (int, float)) and not isinstance(value, bool) and value:
            ratio = f"{old / value:8.2f}x" if key.endswith(("_s", "_ms")) else f"{value / old:8.2f}x" if old else ""
        print(f"{key:30} {str(old):>14} {str(value):>14} {ratio}")


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2], json.loads(sys.argv[3]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=10000, help="files in the folder")
    ap.add_argument("--workdir", default=str(Path(tempfile.gettempdir()) / "noda-scale"))
    ap.add_argument("--minutes", type=float, default=120, help="soak length (0: no soak)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--questions", type=int, default=QUESTIONS, help="questions for search/answer timings")
    ap.add_argument("--code", default=str(ROOT),
                    help="checkout (folder) or commit of this repository whose engine/ is measured")
    ap.add_argument("--label", default="run")
    ap.add_argument("--skip", default="", help="comma list of phases left out: cold, warm, edit, soak, kill")
    ap.add_argument("--engine-kiwi", action="store_true",
                    help="load Kiwi in the engine before the cold refresh (as the window did before it waited)")
    ap.add_argument("--json", help="write the figures here (default <workdir>/scale-<label>-<docs>.json)")
    ap.add_argument("--compare", help="a saved JSON to print beside this run (before, after, speed-up)")
    ap.add_argument("--keep", action="store_true", help="keep the cache of the last run")
    ap.add_argument("--reuse-cache", help="skip the cold phase: start from a copy of this kept cache of the same folder")
    ap.add_argument("--progress", help="append each refresh's progress (files done, seconds, RSS of all) to this file")
    args = ap.parse_args()
    if Path(args.workdir).resolve().is_relative_to(ROOT):
        ap.error("--workdir must be outside the repository")
    target = Path(args.json or Path(args.workdir) / f"scale-{args.label}-{args.docs}.json")
    out = measure(args, target)
    target.write_text(json.dumps(out, ensure_ascii=False, indent=1))
    show(out, json.loads(Path(args.compare).read_text()) if args.compare else None)
    print(f"\nfigures: {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
