"""noda answer, view, context and verify: questions to a folder, their evidence, and an answer checked against it."""
from __future__ import annotations

import json
import os
import sys

from engine import wording
from noda_desktop.cli.folder import folder_calls, folder_result
from noda_desktop.cli.output import print_json, print_skipped

say = wording.cli


def cmd_view(args) -> int:
    """noda view DIR QUESTION [-o FILE] [--limit N] [--principal P]: the evidence page as one HTML file."""
    view = folder_result(args, "view", {"question": args.question, "limit": args.limit})
    if view is None:
        return 2
    with open(args.output, "w", encoding="utf-8") as fh:
        fh.write(view["html"])
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
        print(say.NO_QUESTION, file=sys.stderr)
        return 2
    if args.questions is not None:
        try:
            with open(args.questions, encoding="utf-8-sig") as fh:
                rows = [line for line in fh.read().splitlines() if line.strip()]
        except OSError as exc:
            print(say.bad_json(path=getattr(exc, "filename", None) or args.questions), file=sys.stderr)
            return 2
    else:
        rows = None
    bodies = [_question_body(args, line, n) for n, line in enumerate(rows, 1)] if rows is not None \
        else [{"question": args.question, "document": args.document}]
    answers = folder_calls(args, "answer", [{**b, "limit": args.limit, "llm": args.llm}
                                             for b in bodies if "error" not in b])
    if answers is None:
        return 2
    worst = 0
    for body in bodies:
        if "error" in body:
            print_json(body) if args.json else print(body["reason_text"])
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
                "reason_text": say.bad_question(line=n)}
    document = row.get("document", args.document)
    return {"question": question, "document": document if isinstance(document, str) else args.document}


def _print_answer(args, answer: tuple[int, dict], batch: bool) -> int:
    """Print one answer (JSON or Korean text); its exit status."""
    from engine.answer.llm_context import source_header

    status, result = answer
    if status == 400 and result.get("error") == "LLM_OFF":
        print_json(result) if args.json and batch else print(
            say.not_answered(why=result["error_text"]))
        return 1
    if status >= 400 and "error" in result:
        print_json(result) if args.json and batch else print(result["error_text"], file=sys.stderr)
        return 2
    failed = 1 if status == 502 else 0
    if args.json:
        print_json(result, indent=None if batch else 1)
        return failed
    if batch:
        print(say.question_head(question=result["question"]))
    if result.get("document") and result["answered"]:
        print(say.from_document(document=result["document"]))
    if not result["answered"]:
        print(say.not_answered(why=result["reason_text"]))
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
    print_skipped(result["skipped"])
    if batch:
        print()
    return failed


def cmd_context(args) -> int:
    """noda context DIR QUERY [--budget N] [--limit N] [--principal P] [--json]: evidence for an LLM."""
    result = folder_result(args, "context", {"query": args.query, "budget": args.budget, "limit": args.limit})
    if result is None:
        return 2
    if args.json:
        print_json(result, indent=1)
        return 0
    if result["context"]:
        print(result["context"])
        print()
    print(say.context_summary(sources=len(result["sources"]), used=result["used"], budget=result["budget"]))
    if result["truncated"]:
        print(say.CONTEXT_TRUNCATED)
    print_skipped(result["skipped"])
    return 0


def cmd_verify(args) -> int:
    """noda verify DIR --answer-file F --sources-file S [--citations-file C] [--json]: the answer against its sources."""
    try:
        with open(args.answer_file, encoding="utf-8") as fh:
            answer_text = fh.read()
        sources = _json_list(args.sources_file, "sources")
        citations = _json_list(args.citations_file, "citations") if args.citations_file else None
    except (OSError, ValueError) as exc:
        print(say.bad_json(path=getattr(exc, "filename", None) or exc), file=sys.stderr)
        return 2
    result = folder_result(args, "verify", {"answer": answer_text, "sources": sources, "citations": citations})
    if result is None:
        return 2
    if args.json:
        print_json(result, indent=1)
        return 0 if result["grounded"] else 1
    if result["grounded"]:
        print(say.VERIFY_OK)
        return 0
    print(say.VERIFY_BAD)
    for sentence in result["sentences"]:
        if sentence["unsupported"]:
            print("  " + wording.gateway_text("UNSUPPORTED_NUMBERS", numbers=", ".join(sentence["unsupported"]))
                  + f" — {sentence['text']}")
    if result["unknown_refs"]:
        print("  " + wording.gateway_text("UNKNOWN_REFS", refs=", ".join(f"[{n}]" for n in result["unknown_refs"])))
    if result["unknown_sources"]:
        keys = ", ".join(f"{s['doc_id']} {s['chunk_id']}" for s in result["unknown_sources"])
        print("  " + say.unknown_sources(sources=keys))
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
