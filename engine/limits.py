"""Limits that protect the app from hostile or absurd files (user-adjustable)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 300 * 1024 * 1024       # larger files get TOO_LARGE
    max_archive_members: int = 5000               # more members: ARCHIVE_UNSAFE
    max_archive_total_bytes: int = 1024 * 1024 * 1024  # sum of uncompressed sizes
    max_archive_ratio: float = 200.0              # uncompressed / compressed per member
    max_archive_depth: int = 3                    # zip inside zip inside zip
    max_pdf_pages: int = 5000
    max_xlsx_cells: int = 2_000_000


DEFAULT_LIMITS = Limits()
