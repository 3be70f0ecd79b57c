"""How the chunk index's files are kept: private to their owner, and which segments a commit rewrites.

Whoosh only marks a deleted chunk: its stored text and terms stay in its segment until the segment is
rewritten. The merge policies here rewrite the segments that hold deleted chunks (at once when they
are small, in the background when not: ``ChunkIndex._purge``) and fold a refresh's small batches
into one segment.
"""
from __future__ import annotations

import io
import math
import os

from whoosh.filedb import compound
from whoosh.filedb.filestore import FileStorage
from whoosh.filedb.structfile import BufferFile
from whoosh.reading import SegmentReader

from engine.private import private_file

FOLD_UNDER = 3000    # chunks: a segment this small may be rewritten by a commit (about 4 s at most)
TIER_SEGMENTS = 4    # small segments of one size tier that are folded into one


class PrivateStorage(FileStorage):
    """Whoosh's file storage with every file it writes readable by its owner only (engine/private.py)."""

    def create_file(self, name, *args, **kwargs):
        made = super().create_file(name, *args, **kwargs)
        private_file(self._fpath(name))
        return made

    def lock(self, name):
        """Whoosh's lock, its (empty) file made beforehand, private like the rest."""
        path = self._fpath(name)
        try:
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        except OSError:
            pass
        return super().lock(name)


class _ViewReader(io.RawIOBase):
    """A read-only file over a memoryview: a read copies the bytes it returns, nothing else."""

    def __init__(self, view: memoryview):
        super().__init__()
        self._view, self._pos = view, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), len(self._view) - self._pos)
        buffer[:n] = self._view[self._pos:self._pos + n]
        self._pos += n
        return n

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self._pos = max(0, {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: len(self._view)}[whence] + offset)
        return self._pos

    def tell(self) -> int:
        return self._pos


class _MappedFile(BufferFile):
    """Whoosh's BufferFile over a part of a memory-mapped segment, without BytesIO's copy of all of it:
    Whoosh's own copied every open segment's postings, columns and terms into process memory (at
    10,000 files 437 MB of copies beside the 440 MB mapped, engine RssAnon 935 MB warm)."""

    def __init__(self, buf, name=None, onclose=None):
        super().__init__(b"", name=name, onclose=onclose)
        self._buf = buf
        self.file = io.BufferedReader(_ViewReader(buf))


compound.BufferFile = _MappedFile   # CompoundStorage.open_file makes one per file of a segment


def without_deleted(writer, segments):
    """A Whoosh merge policy: rewrite the segments that hold deleted documents, keep the others.
    It costs about 1.3 ms per chunk of those segments (a 4,500-chunk segment: 6 s)."""
    keep = []
    for segment in segments:
        if segment.has_deletions():
            _rewrite(writer, segment)
        else:
            keep.append(segment)
    return keep


def after_refresh(writer, segments, fresh: set[str]):
    """The merge policy at the end of a refresh. Of the segments this refresh wrote (``fresh`` ids),
    those under half the largest of them go into the new segment (a cold refresh writes batches of
    doubling size: the early ones cost little to merge, and each segment costs its own copy of the
    vocabulary on disk — 1,000 files: 3 segments, 61 MB instead of 16 and 142 MB). Small segments
    (``FOLD_UNDER`` chunks at most) go in too when they hold deleted chunks, or when ``TIER_SEGMENTS``
    of them are of one size tier (sizes within a factor of four), so the small batches of many
    edits fold together and each chunk is rewritten only a few times. A larger segment is never
    rewritten here (deleted chunks in it: ``ChunkIndex._purge``, in the background): Whoosh's
    MERGE_SMALL, used before, merged every segment once a folder had 25 of them — at 10,000 files
    one refresh of one changed file rewrote all 385,000 chunks (3.6 GB of temporary files, the
    engine at 1.9 GB)."""
    largest = max((s.doc_count_all() for s in segments if s.segment_id() in fresh), default=0)
    tiers: dict[int, list] = {}
    for segment in segments:
        if segment.doc_count_all() <= FOLD_UNDER:
            tiers.setdefault(_tier(segment.doc_count_all()), []).append(segment)
    folded = {s.segment_id() for tier in tiers.values() if len(tier) >= TIER_SEGMENTS for s in tier}
    keep = []
    for segment in segments:
        size = segment.doc_count_all()
        if ((segment.segment_id() in fresh and size * 2 < largest) or segment.segment_id() in folded
                or (segment.has_deletions() and size <= FOLD_UNDER)):
            _rewrite(writer, segment)
        else:
            keep.append(segment)
    return keep


def _tier(chunks: int) -> int:
    """The size tier of a segment: 0 up to 3 chunks, then one tier per factor of four."""
    return int(math.log(max(chunks, 1), 4))


def _rewrite(writer, segment) -> None:
    """Copy ``segment``'s live chunks into the writer's new segment (deleted chunks are left out)."""
    reader = SegmentReader(writer.storage, writer.schema, segment)
    writer.add_reader(reader)
    reader.close()


def segment_ids(ix) -> set[str]:
    return {segment.segment_id() for segment in ix._segments()}
