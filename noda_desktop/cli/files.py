"""noda parse and noda chunk: one file or a folder read as the window reads it, without the cache."""
from __future__ import annotations

import os
import sys
from typing import Optional

from engine import wording
from engine.korean import one_line
from engine.read.parse import iter_files
from noda_desktop.cli.output import print_json

say = wording.cli


def print_document_summary(doc, out) -> None:
    print(say.summary_line(doc.source.filename, doc.access.readable, doc.source.format,
                           len(doc.blocks), len(doc.tables), doc.source.pages,
                           doc.access.reason), file=out)
    for w in doc.warnings:
        print("    " + say.note(text=w.text), file=out)


def cmd_parse(args) -> int:
    """noda parse FILE|DIR [--json]"""
    target = args.path
    if os.path.isdir(target):
        paths = list(iter_files(target))
        names = {p: os.path.relpath(p, target).replace(os.sep, "/") for p in paths}
    elif os.path.exists(target):
        paths, names = [target], {target: os.path.basename(target)}
    else:
        print(say.not_found(path=target), file=sys.stderr)
        return 2
    readable = unreadable = 0
    docs_total = 0
    for docs in parse_each(paths, names, folder=target if os.path.isdir(target) else None):
        for doc in docs:
            docs_total += 1
            if doc.access.readable:
                readable += 1
            else:
                unreadable += 1
            if args.json:
                single = not os.path.isdir(target) and len(docs) == 1
                print_json(doc.to_dict(), indent=1 if single else None)
            else:
                print_document_summary(doc, sys.stdout)
        sys.stdout.flush()
    if os.path.isdir(target) or not args.json:
        if not args.json:
            print(file=sys.stderr)  # a blank line between the documents and the total
        print(say.folder_summary(docs_total, readable, unreadable), file=sys.stderr)
    return 0


def parse_each(paths: list[str], names: dict[str, str], timeout_s: float | None = None,
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
    from engine.search.chunking import chunk_document

    if not os.path.isfile(args.path):
        print(say.not_found(path=args.path), file=sys.stderr)
        return 2
    (docs,) = parse_each([args.path], {args.path: os.path.basename(args.path)})   # a worker, as parse
    for doc in docs:
        chunks = chunk_document(doc, budget=args.budget)
        if args.json:
            out = {"document": doc.to_dict(), "chunks": [c.to_dict() for c in chunks]}
            print_json(out, indent=1 if len(docs) == 1 else None)
            continue
        print_document_summary(doc, sys.stdout)
        for c in chunks:
            pages = sorted({a["page"] for a in c.anchors if a.get("page")})
            where = wording.tenant_text("hit_page", page=pages[0]) if pages else ""
            place = " > ".join(c.outline)
            print(f"  {c.id} {c.kind} {where} {place}".rstrip())
            print(f"      {one_line(c.text)[:100]}")
    return 0
