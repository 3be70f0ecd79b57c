"""The `noda` command line: the same engine calls the window makes, printed as Korean text or JSON."""
from __future__ import annotations

import argparse
import multiprocessing
import json
import os
import sys
from typing import Optional

from engine import jsonout, wording
from engine.chunking import DEFAULT_BUDGET
from engine.names import shown_name
from engine.read.parse import iter_files


def _print_json(value, indent=None) -> None:
    """JSON on stdout that every JSON and line reader takes (engine/jsonout.py), written as it is made."""
    jsonout.write(value, sys.stdout, indent=indent)


def _print_document_summary(doc, out) -> None:
    print(wording.summary_line(doc.source.filename, doc.access.readable, doc.source.format,
                               len(doc.blocks), len(doc.tables), doc.source.pages,
                               doc.access.reason), file=out)
    for w in doc.warnings:
        print(f"    참고: {w.text}", file=out)


def cmd_parse(args) -> int:
    """noda parse FILE|DIR [--json]"""
    target = args.path
    if os.path.isdir(target):
        paths = list(iter_files(target))
        names = {p: os.path.relpath(p, target).replace(os.sep, "/") for p in paths}
    elif os.path.exists(target):
        paths, names = [target], {target: os.path.basename(target)}
    else:
        print(f"찾을 수 없습니다: {target}", file=sys.stderr)
        return 2
    readable = unreadable = 0
    docs_total = 0
    for docs in _parse_each(paths, names, folder=target if os.path.isdir(target) else None):
        for doc in docs:
            docs_total += 1
            if doc.access.readable:
                readable += 1
            else:
                unreadable += 1
            if args.json:
                single = not os.path.isdir(target) and len(docs) == 1
                _print_json(doc.to_dict(), indent=1 if single else None)
            else:
                _print_document_summary(doc, sys.stdout)
        sys.stdout.flush()
    if os.path.isdir(target) or not args.json:
        if not args.json:
            print(file=sys.stderr)  # a blank line between the documents and the total
        print(wording.folder_summary(docs_total, readable, unreadable), file=sys.stderr)
    return 0


def _parse_each(paths: list[str], names: dict[str, str], timeout_s: float | None = None,
                folder: Optional[str] = None):
    """Each file's Documents, in order, read in worker processes under the same time and memory
    limits as a folder refresh (engine/library/workers.py): a file that hangs or blows up costs only itself."""
    from collections import deque

    from engine.library.workers import FILE_TIMEOUT_S, WorkerPool, failed_document, read_job
    from engine.limits import DEFAULT_LIMITS

    from engine.read.failures import unreadable

    from engine.read.parse import leaves_folder

    pool = WorkerPool(workers=min(2, max(1, len(paths))), timeout_s=timeout_s or FILE_TIMEOUT_S, job=read_job)
    todo = deque(enumerate(paths))
    done: dict[int, list] = {}
    for i, path in enumerate(paths):   # links out of the folder are listed, never followed
        if folder and leaves_folder(path, folder):
            done[i] = [unreadable(names[path], "unknown", "LINK_OUTSIDE")]
    todo = deque((i, path) for i, path in todo if i not in done)
    shown = 0
    try:
        while shown < len(paths):
            while todo and pool.pending() < 2 * pool.workers:
                i, path = todo.popleft()
                pool.submit(str(i), path, names[path], DEFAULT_LIMITS)
            for outcome in pool.collect(0.2):
                i = int(outcome.key)
                path = paths[i]
                done[i] = outcome.value if outcome.failure is None else [
                    failed_document(outcome, names[path], _file_size(path), None)]
            while shown in done:
                yield done.pop(shown)
                shown += 1
    finally:
        pool.close(cancel=shown < len(paths))


def _file_size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def cmd_chunk(args) -> int:
    """noda chunk FILE [--budget N] [--json]: a file's Documents and the chunks the index stores."""
    from engine.chunking import chunk_document

    if not os.path.isfile(args.path):
        print(f"찾을 수 없습니다: {args.path}", file=sys.stderr)
        return 2
    (docs,) = _parse_each([args.path], {args.path: os.path.basename(args.path)})   # a worker, as parse
    for doc in docs:
        chunks = chunk_document(doc, budget=args.budget)
        if args.json:
            out = {"document": doc.to_dict(), "chunks": [c.to_dict() for c in chunks]}
            _print_json(out, indent=1 if len(docs) == 1 else None)
            continue
        _print_document_summary(doc, sys.stdout)
        for c in chunks:
            pages = sorted({a["page"] for a in c.anchors if a.get("page")})
            where = wording.tenant_text("hit_page", page=pages[0]) if pages else ""
            place = " > ".join(c.outline)
            print(f"  {c.id} {c.kind} {where} {place}".rstrip())
            print(f"      {' '.join(c.text.split())[:100]}")
    return 0


def _open_tenant(folder):
    """The folder as a refreshed Tenant, with progress on a terminal's stderr."""
    from engine.library.tenant import Tenant
    from noda_desktop.paths import cache_dir

    tenant = Tenant(folder, cache_root=cache_dir())

    def progress(p) -> None:
        if p.phase == "parse" and sys.stderr.isatty():
            line = wording.tenant_text("progress", done=p.done, total=p.total, current=p.current)
            print(f"\r{line[:100]:<100}", end="", file=sys.stderr, flush=True)

    report = tenant.refresh(progress=progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(wording.tenant_text("refreshed", parsed=report["parsed"], from_cache=report["from_cache"],
                              unchanged=report["unchanged"], removed=len(report["removed"])),
          file=sys.stderr)
    for notice in tenant.take_notices():   # said here once, not again in the command's warnings
        print(notice["text"], file=sys.stderr)
    return tenant


def _folder_call(args, action: str, body: dict) -> Optional[tuple[int, dict]]:
    """One API call (engine/api) over the command's folder, read up to date first; None when there is no folder."""
    answers = _folder_calls(args, action, [body])
    if answers is None:
        return None
    try:
        return next(answers)
    finally:
        answers.close()


def _folder_calls(args, action: str, bodies: list[dict]):
    """The answers to several API calls over the command's folder, opened once and read up to date first
    (an iterator: close it to close the folder); None when there is no folder."""
    from engine.api import Registry, handle
    from noda_desktop.paths import config_dir

    if not os.path.isdir(args.folder):
        print(wording.tenant_text("not_folder", path=args.folder), file=sys.stderr)
        return None

    def run():
        registry = Registry([args.folder], open_tenant=_open_tenant, config_dir=config_dir())
        try:
            for body in bodies:
                yield handle(registry, action, {"tenant": registry.names()[0], "principal": args.principal, **body})
        finally:
            registry.close()
    return run()


def _refused(answer) -> bool:
    """Print why an API call was refused (stderr); True when it was."""
    status, payload = answer
    if status >= 400 and "error" in payload:
        print(payload["error_text"], file=sys.stderr)
        return True
    return False


def cmd_documents(args) -> int:
    """noda documents DIR [--json] [--principal P]"""
    answer = _folder_call(args, "documents", {})
    if answer is None or _refused(answer):
        return 2
    listing = answer[1]
    if args.json:
        _print_json(listing, indent=1)
        return 0
    for w in listing["warnings"]:
        print(w["text"])
    for d in listing["documents"]:
        if not d["readable"]:
            print(f"  {shown_name(d['filename'])}: {d['reason_text']}")
        else:
            review = f"  ({wording.tenant_text('review')})" if d["review"] else ""
            print(f"  {shown_name(d['filename'])}{review}")
    total = listing["readable"] + listing["unreadable"]
    print(wording.tenant_text("documents", total=total, readable=listing["readable"],
                              unreadable=listing["unreadable"],
                              needs_review=listing["needs_review"], chunks=listing["chunks"]))
    return 0


def cmd_search(args) -> int:
    """noda search DIR QUERY [--limit N] [--json] [--principal P]"""
    answer = _folder_call(args, "search", {"query": args.query, "limit": args.limit})
    if answer is None or _refused(answer):
        return 2
    result = answer[1]
    if args.json:
        _print_json(result, indent=1)
        return 0
    for w in result["warnings"]:
        print(w["text"])
    print(wording.tenant_text("searched", chunks=result["chunks_searched"], hits=len(result["hits"])))
    for n, hit in enumerate(result["hits"], 1):
        pages = sorted({a["page"] for a in hit["anchors"] if a.get("page")})
        where = f" · {wording.tenant_text('hit_page', page=pages[0])}" if pages else ""
        print(f"{n}. {shown_name(hit['filename'])}{where}")
        print(f"    {' '.join(hit['text'].split())[:120]}")
    if result["skipped"]:
        print(wording.tenant_text("skipped", count=len(result["skipped"])))
        for s in result["skipped"]:
            print(f"  {shown_name(s['filename'])}: {s['reason_text']}")
    return 0


def cmd_view(args) -> int:
    """noda view DIR QUESTION [-o FILE] [--limit N] [--principal P]: the evidence page as one HTML file."""
    answer = _folder_call(args, "view", {"question": args.question, "limit": args.limit})
    if answer is None or _refused(answer):
        return 2
    with open(args.output, "w", encoding="utf-8") as fh:
        fh.write(answer[1]["html"])
    print(wording.evidence_text("saved", path=os.path.abspath(args.output)))
    return 0


def cmd_answer(args) -> int:
    """noda answer DIR (QUESTION | --questions FILE.jsonl) [--document NAME] [--limit N] [--principal P] [--llm]
    [--json]: quoted lines with citations.

    ``--document`` answers from that one document (its name as the document list shows it).
    ``--questions`` answers a JSON-lines file of ``{"question": …}`` (a line may name its own
    ``"document"``) in one process, one answer per line (one JSON line each with ``--json``).
    ``--llm`` answers through the LLM gateway the administrator configured
    (engine.gateway.grounded); when it is off or fails, the answer says so
    and the exit status is 1 — there is no fallback to extraction.
    """
    if args.questions is None and args.question is None:
        print(wording.answer_text("no_question"), file=sys.stderr)
        return 2
    if args.questions is not None:
        try:
            with open(args.questions, encoding="utf-8-sig") as fh:
                rows = [line for line in fh.read().splitlines() if line.strip()]
        except OSError as exc:
            print(wording.answer_text("bad_json", path=getattr(exc, "filename", None) or args.questions),
                  file=sys.stderr)
            return 2
    else:
        rows = None
    bodies = [_question_body(args, line, n) for n, line in enumerate(rows, 1)] if rows is not None \
        else [{"question": args.question, "document": args.document}]
    answers = _folder_calls(args, "answer", [{**b, "limit": args.limit, "llm": args.llm}
                                             for b in bodies if "error" not in b])
    if answers is None:
        return 2
    worst = 0
    for body in bodies:
        if "error" in body:
            _print_json(body) if args.json else print(body["reason_text"])
            worst = max(worst, 1)
            continue
        worst = max(worst, _print_answer(args, next(answers), batch=rows is not None))
    answers.close()     # closes the folder
    return worst


def _question_body(args, line: str, n: int) -> dict:
    """The answer request of one line of a --questions file, or an error line saying why it is not one."""
    try:
        row = json.loads(line)
    except ValueError:
        row = None
    question = row.get("question") if isinstance(row, dict) else None
    if not isinstance(question, str) or not question.strip():
        return {"error": "BAD_QUESTION", "line": n, "question": None, "answered": False, "reason": "BAD_QUESTION",
                "reason_text": wording.answer_text("bad_question", line=n)}
    document = row.get("document", args.document)
    return {"question": question, "document": document if isinstance(document, str) else args.document}


def _print_answer(args, answer: tuple[int, dict], batch: bool) -> int:
    """Print one answer (JSON or Korean text); its exit status."""
    from engine.context import source_header

    status, result = answer
    if status == 400 and result.get("error") == "LLM_OFF":
        _print_json(result) if args.json and batch else print(
            wording.answer_text("not_answered", why=result["error_text"]))
        return 1
    if status >= 400 and "error" in result:
        _print_json(result) if args.json and batch else print(result["error_text"], file=sys.stderr)
        return 2
    failed = 1 if status == 502 else 0
    if args.json:
        _print_json(result, indent=None if batch else 1)
        return failed
    if batch:
        print(wording.answer_text("question_head", question=result["question"]))
    if result.get("document") and result["answered"]:
        print(wording.answer_text("from_document", document=result["document"]))
    if not result["answered"]:
        print(wording.answer_text("not_answered", why=result["reason_text"]))
    for line in result.get("lines") or []:
        print(line["text"] + "".join(f" [{n}]" for n in line["citations"]))
    if args.llm and result["answered"]:
        print(result["text"])
        for flag in result["flags"]:
            print("  ! " + flag["text"])
    for citation in result["citations"]:
        print("  " + source_header(citation["n"], citation))
    if result["made_by"]:
        print(wording.evidence_text("made_by", made_by=result["made_by"]))
    _print_skipped(result["skipped"])
    if batch:
        print()
    return failed


def cmd_context(args) -> int:
    """noda context DIR QUERY [--budget N] [--limit N] [--principal P] [--json]: evidence for an LLM."""
    answer = _folder_call(args, "context", {"query": args.query, "budget": args.budget, "limit": args.limit})
    if answer is None or _refused(answer):
        return 2
    result = answer[1]
    if args.json:
        _print_json(result, indent=1)
        return 0
    if result["context"]:
        print(result["context"])
        print()
    print(wording.answer_text("context_summary", sources=len(result["sources"]), used=result["used"],
                              budget=result["budget"]))
    if result["truncated"]:
        print(wording.answer_text("context_truncated"))
    _print_skipped(result["skipped"])
    return 0


def cmd_verify(args) -> int:
    """noda verify DIR --answer-file F --sources-file S [--citations-file C] [--json]: the answer against its sources."""
    try:
        with open(args.answer_file, encoding="utf-8") as fh:
            answer_text = fh.read()
        sources = _json_list(args.sources_file, "sources")
        citations = _json_list(args.citations_file, "citations") if args.citations_file else None
    except (OSError, ValueError) as exc:
        print(wording.answer_text("bad_json", path=getattr(exc, "filename", None) or exc), file=sys.stderr)
        return 2
    answer = _folder_call(args, "verify", {"answer": answer_text, "sources": sources, "citations": citations})
    if answer is None or _refused(answer):
        return 2
    result = answer[1]
    if args.json:
        _print_json(result, indent=1)
        return 0 if result["grounded"] else 1
    if result["grounded"]:
        print(wording.answer_text("verify_ok"))
        return 0
    print(wording.answer_text("verify_bad"))
    for sentence in result["sentences"]:
        if sentence["unsupported"]:
            print("  " + wording.gateway_text("UNSUPPORTED_NUMBERS", numbers=", ".join(sentence["unsupported"]))
                  + f" — {sentence['text']}")
    if result["unknown_refs"]:
        print("  " + wording.gateway_text("UNKNOWN_REFS", refs=", ".join(f"[{n}]" for n in result["unknown_refs"])))
    if result["unknown_sources"]:
        keys = ", ".join(f"{s['doc_id']} {s['chunk_id']}" for s in result["unknown_sources"])
        print("  " + wording.answer_text("unknown_sources", sources=keys))
    missing = [c["quote"] for c in result["citations"] if not c["found"]]
    if missing:
        print("  " + wording.gateway_text("UNFOUND_QUOTES", quotes=", ".join(f"「{q}」" for q in missing)))
    return 1


def _json_list(path: str, key: str) -> list:
    """A JSON list from a file: the list itself, or the ``key`` list of an object (e.g. /context's sources)."""
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    if isinstance(data, dict):
        data = data.get(key)
    if not isinstance(data, list):
        raise ValueError(path)
    return data


def _print_skipped(skipped: list[dict]) -> None:
    if skipped:
        print(wording.tenant_text("skipped", count=len(skipped)))
        for s in skipped:
            print(f"  {shown_name(s['filename'])}: {s['reason_text']}")


def cmd_cache(args) -> int:
    """noda cache purge [--folder F] [--file NAME]: delete what the cache holds (all of it, one folder's,
    or one file's), following no link out of the cache, and say exactly what was deleted."""
    from engine.library.tenant import Tenant, known_folders, purge
    from noda_desktop.paths import cache_dir

    root = cache_dir()
    if not args.folder and not args.file:
        _say_removed(wording.tenant_text("purged", path=root), purge(root))
        return 0
    folders = [args.folder] if args.folder else known_folders(root)
    found = False
    for folder in folders:
        tenant = Tenant(folder, cache_root=root)
        try:
            if args.file:
                keys, removed = tenant.forget(args.file)
                for key in keys:
                    print(wording.tenant_text("purged_file", folder=shown_name(str(tenant.folder)), file=shown_name(key)))
            else:
                keys, removed = [tenant.folder], tenant.purge()
                print(wording.tenant_text("purged_folder", folder=shown_name(str(tenant.folder))))
        finally:
            tenant.close()
        if keys:
            found = True
            _say_removed("", removed)
    if not found:
        print(wording.tenant_text("purge_nothing", what=shown_name(args.file or args.folder)), file=sys.stderr)
        return 1
    return 0


def _say_removed(head: str, removed) -> None:
    """What a purge deleted: files and bytes, and links removed without following them."""
    size = f"{removed.bytes / 1e6:.1f} MB" if removed.bytes >= 1e6 else f"{removed.bytes / 1e3:.0f} KB"
    line = wording.tenant_text("purged_count", files=removed.files, size=size)
    print(f"{head} {line}".strip())
    if removed.links:
        print("  " + wording.tenant_text("purged_links", links=removed.links))


def cmd_serve(args) -> int:
    """noda serve [FOLDER…] [--port N] [--host H --key K] [--print-token]: the local HTTP API (noda_desktop/serve.py)."""
    from noda_desktop.serve import cmd_serve as serve
    return serve(args)


def cmd_mcp(args) -> int:
    """noda mcp [FOLDER…]: the MCP server over stdio (noda_desktop/mcp_server.py)."""
    from noda_desktop.mcp_server import cmd_mcp as serve
    return serve(args)


def cmd_gateway(args) -> int:
    """noda gateway status [--json]: where question text would go, if anywhere (never the key)."""
    from engine.gateway import Gateway
    from noda_desktop.paths import config_dir

    info = Gateway.load(config_dir()).describe()
    if args.json:
        _print_json(info, indent=1)
    elif info["enabled"]:
        key = wording.gateway_text("key_present" if info["key"] else "key_absent")
        print(wording.gateway_text("status_on", endpoint=info["endpoint"], model=info["model"], key=key))
        if info["proxy"]:
            print(wording.gateway_text("status_proxy", proxy=info["proxy"]))
    else:
        print(wording.gateway_text("status_off", why=info["reason_text"]))
    return 0


def _prepare_output(json_mode: bool) -> None:
    """JSON goes out as UTF-8; text never crashes on a console that lacks a character (cp949)."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            if json_mode and stream is sys.stdout:
                stream.reconfigure(encoding="utf-8")
            else:
                stream.reconfigure(errors="replace")


def _folder_command(sub, name: str, help_text: str, func, *, json_output: bool = True):
    """A subcommand over a document folder: FOLDER, --principal and (usually) --json."""
    p = sub.add_parser(name, help=help_text)
    p.add_argument("folder", help="문서 폴더")
    p.add_argument("--principal", help="이 사람이 볼 수 있는 문서에서만 (ACL.json)")
    if json_output:
        p.add_argument("--json", action="store_true", help="JSON으로 출력")
    p.set_defaults(func=func)
    return p


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="noda", description="노다: 한국어 업무 문서를 읽고 근거를 찾습니다 (오프라인).")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("parse", help="파일이나 폴더를 읽어 문서 내용을 보여 줍니다")
    p.add_argument("path", help="파일 또는 폴더")
    p.add_argument("--json", action="store_true", help="계약의 JSON으로 출력 (폴더는 한 줄에 문서 하나)")
    p.set_defaults(func=cmd_parse)

    p = sub.add_parser("chunk", help="파일 하나를 읽어 검색 색인에 들어갈 조각을 보여 줍니다")
    p.add_argument("path", help="파일")
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                   help=f"조각 하나의 글자 수 (기본 {DEFAULT_BUDGET}, 찾아보기 목록과 같은 값)")
    p.add_argument("--json", action="store_true", help="{document, chunks} JSON으로 출력 (zip은 한 줄에 문서 하나)")
    p.set_defaults(func=cmd_chunk)

    p = _folder_command(sub, "documents", "폴더를 읽어 두고 무엇을 읽었고 무엇을 못 읽었는지 보여 줍니다", cmd_documents)

    p = _folder_command(sub, "search", "폴더의 문서에서 찾고 근거(파일·쪽·좌표)를 보여 줍니다", cmd_search)
    p.add_argument("query", help="찾을 말 (따옴표로 묶은 구절은 그 차례 그대로 찾습니다: '\"해외직접투자 동향\"')")
    p.add_argument("--limit", type=int, default=10, help="결과 수 (최대 20)")

    p = _folder_command(sub, "view", "묻고, 답과 근거(원문 쪽 위에 칠한 자리)를 HTML 파일 하나로 저장합니다", cmd_view,
                        json_output=False)
    p.add_argument("question", help="질문")
    p.add_argument("-o", "--output", default="evidence.html", help="저장할 HTML 파일 (기본 evidence.html)")
    p.add_argument("--limit", type=int, default=5, help="근거로 볼 조각 수 (최대 20)")

    p = _folder_command(sub, "answer", "묻고, 문서에서 발췌한 답 한두 줄과 근거(파일·쪽·경로)를 보여 줍니다", cmd_answer)
    p.add_argument("question", nargs="?", help="질문 (--questions를 주면 생략)")
    p.add_argument("--document", help="이 문서에서만 답합니다 (문서 목록에 보이는 파일 이름)")
    p.add_argument("--questions", metavar="FILE.jsonl",
                   help='한 줄에 {"question": …} 하나씩 적은 파일의 질문에 차례로 답합니다 (--json이면 한 줄에 답 하나)')
    p.add_argument("--limit", type=int, help="답을 고를 조각 수 (발췌 5, LLM 10, 최대 20)")
    p.add_argument("--llm", action="store_true",
                   help="관리자가 설정한 사내 LLM 게이트웨이로 답합니다 (꺼져 있으면 그렇다고 알리고 1로 끝납니다)")

    p = _folder_command(sub, "context", "LLM에게 넘길 근거 묶음을 글자 예산 안에서 만듭니다 ([n] 파일 · 쪽 · 경로)",
                        cmd_context)
    p.add_argument("query", help="질의")
    p.add_argument("--budget", type=int, default=4000, help="글자 예산 (기본 4000, 최대 40000)")
    p.add_argument("--limit", type=int, default=10, help="찾을 조각 수 (최대 20)")

    p = _folder_command(sub, "verify", "답을 근거에 대어 봅니다: 근거에 없는 숫자·인용·번호 "
                        "(근거와 맞으면 종료 코드 0, 아니면 1)", cmd_verify)
    p.add_argument("--answer-file", required=True, help="답 글 파일 (UTF-8)")
    p.add_argument("--sources-file", required=True, help="근거 목록 JSON (context의 sources 또는 그 출력 전체)")
    p.add_argument("--citations-file", help="인용 목록 JSON ([{n 또는 doc_id+chunk_id, quote}])")

    p = sub.add_parser("cache", help="캐시를 다룹니다 (purge: 읽어 둔 문서 글과 색인을 지웁니다 — 모두, 폴더 하나, 파일 하나)")
    p.add_argument("action", choices=["purge"])
    p.add_argument("--folder", help="이 폴더에서 읽어 둔 것만 지웁니다")
    p.add_argument("--file", help="이 파일(폴더 안의 경로나 이름)에서 읽어 둔 것만 지웁니다 (다음에 다시 읽습니다)")
    p.set_defaults(func=cmd_cache)

    p = sub.add_parser("serve", help="다른 프로그램이 노다를 쓰도록 로컬 API(HTTP)를 띄웁니다 (127.0.0.1, 토큰 필요)")
    p.add_argument("folders", nargs="*", help="문서 폴더 (없으면 노다 창에 넣어 둔 폴더)")
    p.add_argument("--port", type=int, default=8756, help="포트 (기본 8756)")
    p.add_argument("--host", help="127.0.0.1 밖의 주소에 띄울 때만 (--key가 함께 있어야 합니다)")
    p.add_argument("--key", help="관리자가 정한 키 (16자 이상, 환경 변수 NODA_API_KEY로도 줍니다)")
    p.add_argument("--print-token", action="store_true", help="이 사용자의 API 토큰을 보여 주고 끝냅니다")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("mcp", help="에이전트(MCP 클라이언트)가 노다를 도구로 쓰도록 stdio MCP 서버로 돕니다")
    p.add_argument("folders", nargs="*", help="문서 폴더 (없으면 노다 창에 넣어 둔 폴더)")
    p.set_defaults(func=cmd_mcp)

    p = sub.add_parser("gateway", help="LLM 게이트웨이: 질문과 근거 글이 어디로 가는지 보여 줍니다 (status)")
    p.add_argument("action", choices=["status"])
    p.add_argument("--json", action="store_true", help="JSON으로 출력")
    p.set_defaults(func=cmd_gateway)
    return parser


def main(argv=None) -> int:
    multiprocessing.freeze_support()  # parse workers of a frozen (PyInstaller) build re-enter here
    args = build_parser().parse_args(argv)
    _prepare_output(json_mode=getattr(args, "json", False))
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
