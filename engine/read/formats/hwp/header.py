"""The 256-byte FileHeader: signature, version and property bits [spec 3.2.1, table 3]."""
from __future__ import annotations

import struct
from dataclasses import dataclass

from engine.read.failures import ReadFailure
SIGNATURE = b"HWP Document File"

COMPRESSED = 1 << 0
PASSWORD = 1 << 1
DISTRIBUTION = 1 << 2
DRM = 1 << 4
CERT_ENCRYPTED = 1 << 8
CERT_DRM = 1 << 10


@dataclass(frozen=True)
class FileHeader:
    version: tuple[int, int, int, int]   # MM.nn.PP.rr
    flags: int

    @property
    def compressed(self) -> bool:
        return bool(self.flags & COMPRESSED)

    @property
    def distribution(self) -> bool:
        return bool(self.flags & DISTRIBUTION)


def parse_header(data: bytes) -> FileHeader:
    """Read the FileHeader stream; raise ReadFailure for files we must not or cannot open."""
    if len(data) < 40 or not data.startswith(SIGNATURE):
        raise ReadFailure("CORRUPT", "FileHeader signature")
    raw_version, flags = struct.unpack_from("<II", data, 32)
    version = (raw_version >> 24, (raw_version >> 16) & 0xFF, (raw_version >> 8) & 0xFF, raw_version & 0xFF)
    if version[0] < 5:
        raise ReadFailure("UNSUPPORTED_VERSION", f"version {version}")
    if flags & PASSWORD:
        raise ReadFailure("PASSWORD_PROTECTED")
    if flags & (DRM | CERT_DRM | CERT_ENCRYPTED):
        raise ReadFailure("DRM_ENCRYPTED", drm_vendor="hwp")
    return FileHeader(version, flags)
