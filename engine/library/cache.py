"""The parse cache: Documents already read, keyed by file content and parser generation.

A cache entry is the gzip'd JSON of every Document one file gave (a ZIP gives
several), stored under ``<root>/<generation>/<sha[:2]>/<sha256><ext>.json.gz``:
a header line (the file name and the SHA-256 of the rest) and the Documents.
An entry that does not decompress (gzip's CRC, a truncated file) or whose
checksum does not match is damaged: ``get`` deletes it and answers a miss, so
the file is read again from its source.

The *parser generation* is a hash of the engine code that reading and indexing depend on
(every module under ``engine/`` except those in ``NOT_READING``, which only use
finished Documents and their index), the schema version, the limits and whether OCR is
available: any change to them starts a new generation, so stale results are
never served (an app update re-reads the folders once). In a frozen build
without sources it falls back to ``engine.__version__``. Only the two newest
generations are kept.

The cached text is document text: it lives only in the user's cache folder
(directories 0700, files 0600: engine/private.py), never beside the originals;
``purge()`` removes it, and the tenant removes the entry of a source file that
is gone or changed.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import tempfile
import zlib
from pathlib import Path
from typing import Optional

import engine
from engine.limits import DEFAULT_LIMITS, Limits
from engine.model import SCHEMA_VERSION, Document
from engine.private import Removed, private_dir, remove

KEEP_GENERATIONS = 2
# Engine modules that only use finished Documents and their index: editing them needs no re-read. How
# a Document is cut into chunks and analysed for the index (search/chunking.py, analyzer.py, schema.py)
# is not among them: a change there must reach the indexes, which are rebuilt from what is read.
NOT_READING = ("library/", "answer/", "gateway/", "jsonout.py", "names.py", "private.py",
               "read/memguard.py", "results.py",
               *(f"search/{name}.py" for name in ("__init__", "bm25", "index", "phrases", "query", "rerank",
                                                   "segments")))
_EXT = re.compile(r"\.[a-z0-9]{1,8}$")


def parser_generation(limits: Limits = DEFAULT_LIMITS) -> str:
    """A short hash naming the current engine code, schema, limits and OCR availability."""
    from engine.read.ocr import ocr_available

    here = Path(engine.__file__).resolve().parent
    digest = hashlib.sha256(f"{SCHEMA_VERSION}|{limits!r}|ocr={ocr_available()}".encode())
    sources = [p for p in sorted(here.rglob("*.py"))
               if not p.relative_to(here).as_posix().startswith(NOT_READING)]
    for path in sources:
        digest.update(path.relative_to(here).as_posix().encode() + b"\0" + path.read_bytes())
    if not sources:
        digest.update(engine.__version__.encode())
    return digest.hexdigest()[:16]


class ParseCache:
    """Documents by (content sha256, file extension) for one parser generation.

    The extension is part of the key because a file's name can change how it
    is read (extension-mismatch warnings); a copy under another name with the
    same extension is a hit, renamed on the way out.
    """

    def __init__(self, root: str | Path, generation: Optional[str] = None, *, prune: bool = True):
        self.root = Path(root)
        self.generation = generation or parser_generation()
        self.dir = self.root / self.generation
        if prune:
            self._prune()

    def get(self, sha256: str, filename: str) -> Optional[list[Document]]:
        """The Documents cached for this content, renamed to ``filename``; None on a miss
        (a damaged entry is deleted and is a miss)."""
        path = self._path(sha256, filename)
        try:
            raw = gzip.decompress(path.read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, EOFError, zlib.error):
            return self._damaged(path)
        try:
            head, _newline, body = raw.partition(b"\n")
            entry = json.loads(head)
            if "documents" not in entry:   # header and body: the body must match its checksum
                if hashlib.sha256(body).hexdigest() != entry["sha256"]:
                    return self._damaged(path)
                entry["documents"] = json.loads(body)
            return [Document.from_dict(_renamed(d, entry["filename"], filename))
                    for d in entry["documents"]]
        except (ValueError, KeyError, TypeError, AttributeError):
            return self._damaged(path)

    def has(self, sha256: str, filename: str) -> bool:
        return self._path(sha256, filename).is_file()

    def put(self, sha256: str, filename: str, docs: list[Document]) -> None:
        """Store the Documents one file gave (atomically: a reader never sees half an entry)."""
        path = self._path(sha256, filename)
        private_dir(path.parent)
        body = json.dumps([d.to_dict() for d in docs], ensure_ascii=False).encode("utf-8")
        head = json.dumps({"filename": filename, "sha256": hashlib.sha256(body).hexdigest()},
                          ensure_ascii=False).encode("utf-8")
        payload = head + b"\n" + body
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(gzip.compress(payload, compresslevel=5))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @staticmethod
    def _damaged(path: Path) -> None:
        """Delete a damaged entry (the next refresh reads its file again); a miss."""
        path.unlink(missing_ok=True)
        return None

    def purge(self) -> int:
        """Delete every cached Document of every generation (following no link); returns the bytes freed."""
        return remove(self.root).bytes

    def remove(self, sha256: str, filename: str) -> Removed:
        """Delete the entry of this content (a source file that is gone, or was read again)."""
        return remove(self._path(sha256, filename))

    @staticmethod
    def key(sha256: str, filename: str) -> str:
        """The entry's name: the content hash plus the file's extension ("<sha256>.hwpx")."""
        match = _EXT.search(filename.rsplit("/", 1)[-1].lower())
        return sha256 + (match.group(0) if match else "")

    def _path(self, sha256: str, filename: str) -> Path:
        return self.dir / sha256[:2] / f"{self.key(sha256, filename)}.json.gz"

    def _prune(self) -> None:
        """Mark this generation as the newest and delete all but the newest KEEP_GENERATIONS."""
        private_dir(self.dir)
        os.utime(self.dir)
        others = [p for p in self.root.iterdir() if p.is_dir() and p != self.dir]
        others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for old in others[KEEP_GENERATIONS - 1:]:
            remove(old)


def _renamed(d: dict, old: str, new: str) -> dict:
    """A Document dict cached under file name ``old``, renamed for file name ``new``."""
    if old == new:
        return d

    def swap(name: str) -> str:
        if name == old:
            return new
        return new + name[len(old):] if name.startswith(old + "/") else name

    source = dict(d["source"])
    source["filename"] = swap(source["filename"])
    source["container_path"] = [swap(c) for c in source.get("container_path", [])]
    return {**d, "source": source}
