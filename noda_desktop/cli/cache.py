"""noda cache purge: delete what the cache holds (all of it, one folder's, one file's) and say what went."""
from __future__ import annotations

import sys

from engine import wording
from engine.names import shown_name

say = wording.cli


def cmd_cache(args) -> int:
    """noda cache purge [--folder F] [--file NAME]: delete what the cache holds (all of it, one folder's,
    or one file's), following no link out of the cache, and say exactly what was deleted."""
    from engine.library.tenant import Tenant, known_folders, purge
    from noda_desktop.paths import cache_dir

    root = cache_dir()
    if not args.folder and not args.file:
        _say_removed(say.purged(path=root), purge(root))
        return 0
    folders = [args.folder] if args.folder else known_folders(root)
    found = False
    for folder in folders:
        tenant = Tenant(folder, cache_root=root)
        try:
            if args.file:
                keys, removed = tenant.forget(args.file)
                for key in keys:
                    print(say.purged_file(folder=shown_name(str(tenant.folder)), file=shown_name(key)))
            else:
                keys, removed = [tenant.folder], tenant.purge()
                print(say.purged_folder(folder=shown_name(str(tenant.folder))))
        finally:
            tenant.close()
        if keys:
            found = True
            _say_removed("", removed)
    if not found:
        print(say.purge_nothing(what=shown_name(args.file or args.folder)), file=sys.stderr)
        return 1
    return 0


def _say_removed(head: str, removed) -> None:
    """What a purge deleted: files and bytes, and links removed without following them."""
    size = f"{removed.bytes / 1e6:.1f} MB" if removed.bytes >= 1e6 else f"{removed.bytes / 1e3:.0f} KB"
    line = say.purged_count(files=removed.files, size=size)
    print(f"{head} {line}".strip())
    if removed.links:
        print("  " + say.purged_links(links=removed.links))
