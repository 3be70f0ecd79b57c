"""The `noda` command line: the same engine calls the window makes, printed as Korean text or JSON."""
from __future__ import annotations

import argparse
import json
import os
import sys

from engine import wording
from engine.parse import iter_files, parse_path


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
    for path in paths:
        docs = parse_path(path, display_name=names[path])
        for doc in docs:
            docs_total += 1
            if doc.access.readable:
                readable += 1
            else:
                unreadable += 1
            if args.json:
                single = not os.path.isdir(target) and len(docs) == 1
                print(doc.to_json(indent=1 if single else None))
            else:
                _print_document_summary(doc, sys.stdout)
        sys.stdout.flush()
    if os.path.isdir(target) or not args.json:
        if not args.json:
            print(file=sys.stderr)  # a blank line between the documents and the total
        print(wording.folder_summary(docs_total, readable, unreadable), file=sys.stderr)
    return 0


def _prepare_output(json_mode: bool) -> None:
    """JSON goes out as UTF-8; text never crashes on a console that lacks a character (cp949)."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            if json_mode and stream is sys.stdout:
                stream.reconfigure(encoding="utf-8")
            else:
                stream.reconfigure(errors="replace")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="noda", description="노다: 한국어 업무 문서를 읽고 근거를 찾습니다 (오프라인).")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("parse", help="파일이나 폴더를 읽어 문서 내용을 보여 줍니다")
    p.add_argument("path", help="파일 또는 폴더")
    p.add_argument("--json", action="store_true", help="계약의 JSON으로 출력 (폴더는 한 줄에 문서 하나)")
    p.set_defaults(func=cmd_parse)
    return parser


def main(argv=None) -> int:
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
