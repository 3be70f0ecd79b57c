"""noda documents and noda search, and what every folder command shares: the folder opened as a Tenant,
read up to date (progress on a terminal), and asked through the same API calls other programs make."""
from __future__ import annotations

import os
import sys
from typing import Optional

from engine import wording
from engine.korean import one_line
from engine.names import shown_name
from noda_desktop.cli.output import print_json, print_skipped

say = wording.cli


def _open_tenant(folder):
    """The folder as a refreshed Tenant, with progress on a terminal's stderr."""
    from engine.library.tenant import Tenant
    from noda_desktop.paths import cache_dir

    tenant = Tenant(folder, cache_root=cache_dir())

    def progress(p) -> None:
        if p.phase == "parse" and sys.stderr.isatty():
            line = say.progress(done=p.done, total=p.total, current=p.current)
            print(f"\r{line[:100]:<100}", end="", file=sys.stderr, flush=True)

    report = tenant.refresh(progress=progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(say.refreshed(parsed=report["parsed"], from_cache=report["from_cache"], unchanged=report["unchanged"],
                        removed=len(report["removed"])),
          file=sys.stderr)
    for notice in tenant.take_notices():   # said here once, not again in the command's warnings
        print(notice["text"], file=sys.stderr)
    return tenant


def folder_result(args, action: str, body: dict) -> Optional[dict]:
    """One API call (engine/api) over the command's folder, read up to date first: its result, or None when
    there is no folder or the call was refused (said on stderr)."""
    answers = folder_calls(args, action, [body])
    if answers is None:
        return None
    try:
        status, payload = next(answers)
    finally:
        answers.close()
    if status >= 400 and "error" in payload:
        print(payload["error_text"], file=sys.stderr)
        return None
    return payload


def folder_calls(args, action: str, bodies: list[dict]):
    """The answers to several API calls over the command's folder, opened once and read up to date first
    (an iterator: close it to close the folder); None when there is no folder."""
    from engine.api import Registry, handle
    from noda_desktop.paths import config_dir

    if not os.path.isdir(args.folder):
        print(wording.tenant_text("not_folder", folder=args.folder), file=sys.stderr)
        return None

    def run():
        registry = Registry([args.folder], open_tenant=_open_tenant, config_dir=config_dir())
        try:
            for body in bodies:
                yield handle(registry, action, {"tenant": registry.names()[0], "principal": args.principal, **body})
        finally:
            registry.close()
    return run()


def cmd_documents(args) -> int:
    """noda documents DIR [--json] [--principal P]"""
    listing = folder_result(args, "documents", {})
    if listing is None:
        return 2
    if args.json:
        print_json(listing, indent=1)
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
    print(say.documents(total=total, readable=listing["readable"], unreadable=listing["unreadable"],
                        needs_review=listing["needs_review"], chunks=listing["chunks"]))
    return 0


def cmd_search(args) -> int:
    """noda search DIR QUERY [--limit N] [--json] [--principal P]"""
    result = folder_result(args, "search", {"query": args.query, "limit": args.limit})
    if result is None:
        return 2
    if args.json:
        print_json(result, indent=1)
        return 0
    for w in result["warnings"]:
        print(w["text"])
    print(say.searched(chunks=result["chunks_searched"], hits=len(result["hits"])))
    for n, hit in enumerate(result["hits"], 1):
        pages = sorted({a["page"] for a in hit["anchors"] if a.get("page")})
        where = f" · {wording.tenant_text('hit_page', page=pages[0])}" if pages else ""
        print(f"{n}. {shown_name(hit['filename'])}{where}")
        print(f"    {one_line(hit['text'])[:120]}")
    print_skipped(result["skipped"])
    return 0
