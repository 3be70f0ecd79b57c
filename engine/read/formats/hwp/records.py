"""HWP 5.0 record streams: a flat run of tagged records that nest by level.

Each record starts with a little-endian DWORD: tag (bits 0–9), level
(bits 10–19) and size (bits 20–31); size 0xFFF means the real size follows
as another DWORD [spec 4.1]. A record's children are the records right
after it with a higher level.
"""
from __future__ import annotations

import struct

# Tags [spec tables 13, 57]; HWPTAG_BEGIN is 0x10.
PARA_SHAPE = 0x10 + 9
DISTRIBUTE_DOC_DATA = 0x10 + 12
PARA_HEADER = 0x10 + 50
PARA_TEXT = 0x10 + 51
PARA_LINE_SEG = 0x10 + 53
CTRL_HEADER = 0x10 + 55
LIST_HEADER = 0x10 + 56
PAGE_DEF = 0x10 + 57
SHAPE_COMPONENT = 0x10 + 60
TABLE = 0x10 + 61

# What the body reader looks at; other records (character shapes, drawing details …) are skipped unread.
BODY_TAGS = frozenset({PARA_HEADER, PARA_TEXT, PARA_LINE_SEG, CTRL_HEADER, LIST_HEADER,
                       PAGE_DEF, SHAPE_COMPONENT, TABLE})
MAX_RECORDS = 2_000_000   # per stream; a real section has far fewer

_DWORD = struct.Struct("<I")


class RecordStream:
    """The records of one stream that have a kept tag, flat in stream order.

    Record ``i`` has ``tags[i]``, its payload at ``data[starts[i]:stops[i]]``
    and ``after[i]``, the index just past its subtree: its children are
    ``i + 1``, then ``after[i + 1]`` … while below ``after[i]``. Lists of ints
    instead of an object (and a child list) per record: the read makes far
    fewer objects. ``truncated`` is set when the stream ends inside a record
    (what came before is kept). PARA_LINE_SEG is kept at level 1 only (the
    top-level paragraphs' lines); one at another level still ends the
    subtrees at its level.
    """

    def __init__(self, data: bytes, keep: frozenset[int] = BODY_TAGS):
        self.data = data
        self.tags: list[int] = []
        self.starts: list[int] = []
        self.stops: list[int] = []
        self.after: list[int] = []
        self.truncated = False
        self._read(keep)

    def _read(self, keep: frozenset[int]) -> None:
        data = self.data
        unpack = _DWORD.unpack_from
        tags, starts, stops, after = self.tags, self.starts, self.stops, self.after
        levels: list[int] = []
        open_: list[int] = []   # the records whose subtree is still open, outermost first
        top = -1                # the innermost open record's level (-1: none)
        end = len(data)
        pos = 0
        try:
            for _ in range(MAX_RECORDS):
                if pos >= end:
                    break
                head = unpack(data, pos)[0]
                pos += 4
                size = head >> 20
                if size == 0xFFF:
                    size = unpack(data, pos)[0]
                    pos += 4
                tag = head & 0x3FF
                if tag in keep:
                    level = (head >> 10) & 0x3FF
                    if pos + size > end:
                        break
                    here = len(tags)
                    while top >= level:   # this record ends the subtrees at its level or deeper
                        after[open_.pop()] = here
                        top = levels[open_[-1]] if open_ else -1
                    if tag != PARA_LINE_SEG or level == 1:
                        open_.append(here)
                        top = level
                        tags.append(tag)
                        levels.append(level)
                        starts.append(pos)
                        stops.append(pos + size)
                        after.append(0)
                pos += size
        except struct.error:   # a header cut by the end of the stream
            pass
        for index in open_:
            after[index] = len(tags)
        self.truncated = pos != end

    def payload(self, i: int) -> bytes:
        """The payload bytes of record ``i``."""
        return self.data[self.starts[i]:self.stops[i]]

    def children(self, i: int) -> list[int]:
        """The records nested right under record ``i``."""
        out = []
        after = self.after
        child, end = i + 1, after[i]
        while child < end:
            out.append(child)
            child = after[child]
        return out

    def roots(self) -> list[int]:
        """The top-level records."""
        out = []
        after = self.after
        child = 0
        while child < len(after):
            out.append(child)
            child = after[child]
        return out
