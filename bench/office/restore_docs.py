"""Put the office documents into each set's docs/ (A, B, C …) from local git copies of their repositories.

    python bench/office/restore_docs.py MIRRORS

MIRRORS holds one bare or normal git copy per repository, named ``owner+name`` (with the git
directory itself or a ``repo`` folder inside it). Each file is taken at the commit SOURCES.tsv names
and kept only if its sha256 matches.
"""
import csv
import hashlib
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def git_dir(mirrors: Path, repo: str) -> Path:
    """The git directory of `repo` (owner/name) under `mirrors`."""
    base = mirrors / repo.replace("/", "+")
    return base / "repo" if (base / "repo").exists() else base


def restore(mirrors: Path) -> int:
    """Write every listed document; return how many could not be written."""
    failed = 0
    for sources in sorted(HERE.glob("*/SOURCES.tsv")):
        docs = sources.parent / "docs"
        docs.mkdir(exist_ok=True)
        with sources.open(encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                target = docs / row["file"]
                run = subprocess.run(["git", "--git-dir", str(git_dir(mirrors, row["repo"])), "show",
                                      f'{row["commit"]}:{row["path_in_repo"]}'], capture_output=True)
                if run.returncode or hashlib.sha256(run.stdout).hexdigest() != row["sha256"]:
                    print(f"not restored: {sources.parent.name}/{row['file']}", file=sys.stderr)
                    failed += 1
                    continue
                target.write_bytes(run.stdout)
    return failed


if __name__ == "__main__":
    sys.exit(1 if restore(Path(sys.argv[1])) else 0)
