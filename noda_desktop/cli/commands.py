"""The `noda` command table: each command, its arguments and help, and the function that runs it."""
from __future__ import annotations

import argparse
import multiprocessing

from engine import wording
from engine.search.chunking import DEFAULT_BUDGET
from noda_desktop.cli.answers import cmd_answer, cmd_context, cmd_verify, cmd_view
from noda_desktop.cli.cache import cmd_cache
from noda_desktop.cli.files import cmd_chunk, cmd_parse
from noda_desktop.cli.folder import cmd_documents, cmd_search
from noda_desktop.cli.output import prepare_output
from noda_desktop.cli.servers import cmd_gateway, cmd_mcp, cmd_serve

say = wording.cli


def _folder_command(sub, name: str, help_text: str, func, *, json_output: bool = True):
    """A subcommand over a document folder: FOLDER, --principal and (usually) --json."""
    p = sub.add_parser(name, help=help_text)
    p.add_argument("folder", help=say.FOLDER)
    p.add_argument("--principal", help=say.PRINCIPAL)
    if json_output:
        p.add_argument("--json", action="store_true", help=say.JSON)
    p.set_defaults(func=func)
    return p


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="noda", description=say.DESCRIPTION)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("parse", help=say.PARSE)
    p.add_argument("path", help=say.PARSE_PATH)
    p.add_argument("--json", action="store_true", help=say.PARSE_JSON)
    p.set_defaults(func=cmd_parse)

    p = sub.add_parser("chunk", help=say.CHUNK)
    p.add_argument("path", help=say.CHUNK_PATH)
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help=say.chunk_budget(budget=DEFAULT_BUDGET))
    p.add_argument("--json", action="store_true", help=say.CHUNK_JSON)
    p.set_defaults(func=cmd_chunk)

    p = _folder_command(sub, "documents", say.DOCUMENTS, cmd_documents)

    p = _folder_command(sub, "search", say.SEARCH, cmd_search)
    p.add_argument("query", help=say.SEARCH_QUERY)
    p.add_argument("--limit", type=int, default=10, help=say.SEARCH_LIMIT)

    p = _folder_command(sub, "view", say.VIEW, cmd_view, json_output=False)
    p.add_argument("question", help=say.QUESTION)
    p.add_argument("-o", "--output", default="evidence.html", help=say.VIEW_OUTPUT)
    p.add_argument("--limit", type=int, default=5, help=say.VIEW_LIMIT)

    p = _folder_command(sub, "answer", say.ANSWER, cmd_answer)
    p.add_argument("question", nargs="?", help=say.ANSWER_QUESTION)
    p.add_argument("--document", help=say.ANSWER_DOCUMENT)
    p.add_argument("--questions", metavar="FILE.jsonl", help=say.ANSWER_QUESTIONS)
    p.add_argument("--limit", type=int, help=say.ANSWER_LIMIT)
    p.add_argument("--llm", action="store_true", help=say.ANSWER_LLM)

    p = _folder_command(sub, "context", say.CONTEXT, cmd_context)
    p.add_argument("query", help=say.CONTEXT_QUERY)
    p.add_argument("--budget", type=int, default=4000, help=say.CONTEXT_BUDGET)
    p.add_argument("--limit", type=int, default=10, help=say.CONTEXT_LIMIT)

    p = _folder_command(sub, "verify", say.VERIFY, cmd_verify)
    p.add_argument("--answer-file", required=True, help=say.VERIFY_ANSWER)
    p.add_argument("--sources-file", required=True, help=say.VERIFY_SOURCES)
    p.add_argument("--citations-file", help=say.VERIFY_CITATIONS)

    p = sub.add_parser("cache", help=say.CACHE)
    p.add_argument("action", choices=["purge"])
    p.add_argument("--folder", help=say.CACHE_FOLDER)
    p.add_argument("--file", help=say.CACHE_FILE)
    p.set_defaults(func=cmd_cache)

    p = sub.add_parser("serve", help=say.SERVE)
    p.add_argument("folders", nargs="*", help=say.SERVED_FOLDERS)
    p.add_argument("--port", type=int, default=8756, help=say.SERVE_PORT)
    p.add_argument("--host", help=say.SERVE_HOST)
    p.add_argument("--key", help=say.SERVE_KEY)
    p.add_argument("--print-token", action="store_true", help=say.SERVE_PRINT_TOKEN)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("mcp", help=say.MCP)
    p.add_argument("folders", nargs="*", help=say.SERVED_FOLDERS)
    p.set_defaults(func=cmd_mcp)

    p = sub.add_parser("gateway", help=say.GATEWAY)
    p.add_argument("action", choices=["status"])
    p.add_argument("--json", action="store_true", help=say.JSON)
    p.set_defaults(func=cmd_gateway)
    return parser


def main(argv=None) -> int:
    multiprocessing.freeze_support()  # parse workers of a frozen (PyInstaller) build re-enter here
    args = build_parser().parse_args(argv)
    prepare_output(json_mode=getattr(args, "json", False))
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
