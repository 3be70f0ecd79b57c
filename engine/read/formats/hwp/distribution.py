"""배포용 (distribution) documents: the published ViewText decryption scheme.

Each ViewText section starts with one plain DISTRIBUTE_DOC_DATA record of 256
bytes. Its first 4 bytes seed MS Visual C's ``rand()``; the numbers fill a
256-byte pad that is XORed over the record; the 16 bytes at offset
4 + (seed & 0xF) are the AES-128 key; the rest of the stream is AES-128-ECB
[Hancom, 배포용 문서 revision 1.2, §2].
"""
from __future__ import annotations

import struct

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from engine.read.failures import ReadFailure
from engine.read.formats.hwp.records import DISTRIBUTE_DOC_DATA

HEAD_SIZE = 4 + 256


def msvc_rand(seed: int):
    """MS Visual C ``srand(seed)`` then ``rand()`` forever."""
    state = seed & 0xFFFFFFFF
    while True:
        state = (state * 214013 + 2531011) & 0xFFFFFFFF
        yield (state >> 16) & 0x7FFF


def key_from_doc_data(doc_data: bytes) -> bytes:
    """The AES-128 key hidden in a 256-byte DISTRIBUTE_DOC_DATA payload."""
    seed = struct.unpack_from("<I", doc_data, 0)[0]
    rand = msvc_rand(seed)
    pad = bytearray()
    while len(pad) < 256:
        value = next(rand) & 0xFF
        count = (next(rand) & 0x0F) + 1
        pad += bytes([value]) * count
    merged = bytes(a ^ b for a, b in zip(doc_data, pad))
    offset = 4 + (seed & 0x0F)
    return merged[offset:offset + 16]


def decrypt_section(stream: bytes) -> bytes:
    """The plain (still maybe compressed) record bytes of one ViewText section."""
    if len(stream) < HEAD_SIZE:
        raise ReadFailure("CORRUPT", "distribution header cut")
    head = struct.unpack_from("<I", stream, 0)[0]
    if head & 0x3FF != DISTRIBUTE_DOC_DATA or head >> 20 != 256:
        raise ReadFailure("CORRUPT", "distribution header")
    key = key_from_doc_data(stream[4:HEAD_SIZE])
    body = stream[HEAD_SIZE:]
    body = body[:len(body) - len(body) % 16]
    decryptor = Cipher(algorithms.AES(key), modes.ECB()).decryptor()
    return decryptor.update(body) + decryptor.finalize()
