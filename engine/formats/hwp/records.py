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


class Record:
    """One record: its tag, level, payload and the records nested under it."""

    __slots__ = ("tag", "level", "data", "children")

    def __init__(self, tag: int, level: int, data: bytes):
        self.tag = tag
        self.level = level
        self.data = data
        self.children: list[Record] = []


class RecordStream:
    """The record tree of one stream, keeping only the tags asked for.

    ``roots`` are the top-level records; ``truncated`` is set when the
    stream ends inside a record (what came before is kept).
    """

    def __init__(self, data: bytes, keep: frozenset[int] = BODY_TAGS):
        self.roots: list[Record] = []
        self.truncated = False
        self._read(data, keep)

    def _read(self, data: bytes, keep: frozenset[int]) -> None:
        unpack = _DWORD.unpack_from
        end = len(data)
        pos = count = 0
        stack: list[Record] = []
        roots = self.roots
        try:
            while pos < end and count < MAX_RECORDS:
                head = unpack(data, pos)[0]
                pos += 4
                size = head >> 20
                if size == 0xFFF:
                    size = unpack(data, pos)[0]
                    pos += 4
                count += 1
                tag = head & 0x3FF
                if tag in keep:
                    level = (head >> 10) & 0x3FF
                    if pos + size > end:
                        break
                    while stack and stack[-1].level >= level:
                        stack.pop()
                    if tag != PARA_LINE_SEG or level == 1:
                        rec = Record(tag, level, data[pos:pos + size])
                        (stack[-1].children if stack else roots).append(rec)
                        stack.append(rec)
                pos += size
        except struct.error:   # a header cut by the end of the stream
            pass
        self.truncated = pos != end

    def records(self) -> list[Record]:
        """Every kept record in stream order (depth first)."""
        out: list[Record] = []
        pending = list(reversed(self.roots))
        while pending:
            rec = pending.pop()
            out.append(rec)
            pending.extend(reversed(rec.children))
        return out
