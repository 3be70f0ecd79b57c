"""HWP 3.0 reader (한글 3.0 – 97, files starting "HWP Document File V3.00"), from Hancom's published format.

The file is read in one pass (한글 문서 파일 구조 3.0 §3): 30 bytes of
signature, 128 bytes of document information (password and compression
flags, the length of the information block), 1008 bytes of summary (title
…), the information block, then — raw-deflated when the compression flag is
set — font names, styles and the body's paragraph list. A password-protected
file is PASSWORD_PROTECTED. When the paragraph stream breaks off, what was
read before is kept with a TRUNCATED warning; nothing read at all is CORRUPT.

Written from the specification because no maintained Python library reads
HWP 3.0; the reading model and its output are those of the HWPX reader.
"""
from __future__ import annotations

import struct
import zlib

from engine.read.failures import ReadFailure
from engine.read.formats.base import DocumentBuilder
from engine.read.formats.hwp3.hchar import hchar_string
from engine.read.formats.hwp3.paragraphs import Reader, StreamError
from engine.read.formats.hwpx.emit import emit_body

SIGNATURE, DOC_INFO, SUMMARY = 30, 128, 1008
PASSWORD_AT, COMPRESSED_AT, INFO_BLOCK_AT = 96, 124, 126     # offsets inside the document information
INFLATE_CHUNK = 1 << 20


def read(data: bytes, doc: DocumentBuilder) -> None:
    """Add the body of the HWP 3.0 file in ``data`` to ``doc``."""
    head = SIGNATURE + DOC_INFO + SUMMARY
    if len(data) < head:
        raise ReadFailure("CORRUPT", "shorter than its header")
    info = data[SIGNATURE:SIGNATURE + DOC_INFO]
    if struct.unpack_from("<H", info, PASSWORD_AT)[0]:
        raise ReadFailure("PASSWORD_PROTECTED")
    info_block, = struct.unpack_from("<H", info, INFO_BLOCK_AT)
    body = data[head + info_block:]
    if info[COMPRESSED_AT]:
        body = _inflate(body, doc.limits.max_file_bytes)
    reader = Reader(body)
    paras = []
    try:
        reader.skip_fonts_and_styles()
        paras = reader.paragraphs(body=True)
    except StreamError:
        paras = reader.partial
        if not paras:
            raise ReadFailure("CORRUPT", "paragraph stream") from None
        doc.warn("TRUNCATED")
    layout = reader.layout
    emit_body(doc, paras, layout.page if layout.has_pages else None, layout.columns)
    doc.set_title(hchar_string(data[SIGNATURE + DOC_INFO:SIGNATURE + DOC_INFO + 112]))


def _inflate(data: bytes, cap: int) -> bytes:
    """Raw deflate (no zlib header), at most ``cap`` bytes out; a cut stream gives what it had."""
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    out = bytearray()
    try:
        for start in range(0, len(data), INFLATE_CHUNK):
            out += inflater.decompress(data[start:start + INFLATE_CHUNK], cap + 1 - len(out))
            if len(out) > cap:
                raise ReadFailure("TOO_LARGE")
            if inflater.eof:
                break
    except zlib.error:
        if not out:
            raise ReadFailure("CORRUPT", "deflate") from None
    return bytes(out)
