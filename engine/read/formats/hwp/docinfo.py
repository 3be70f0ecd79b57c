"""DocInfo: the paragraph shapes that mark outline (개요) headings.

PARA_SHAPE starts with a UINT32 whose bits 23–24 give the paragraph head
kind (1 = outline) and bits 25–27 its level, 0 = top [spec tables 43, 44].
Paragraph shapes are numbered by their order in DocInfo.
"""
from __future__ import annotations

import struct

from engine.read.formats.hwp.records import PARA_SHAPE, RecordStream

OUTLINE = 1


def outline_levels(docinfo: bytes) -> dict[int, int]:
    """Paragraph-shape id -> heading level (1 = top) for outline shapes, from DocInfo's records."""
    levels: dict[int, int] = {}
    stream = RecordStream(docinfo, keep=frozenset({PARA_SHAPE}))
    for shape_id, (start, stop) in enumerate(zip(stream.starts, stream.stops)):
        if stop - start >= 4:
            attr = struct.unpack_from("<I", docinfo, start)[0]
            if (attr >> 23) & 0x3 == OUTLINE:
                levels[shape_id] = ((attr >> 25) & 0x7) + 1
    return levels
