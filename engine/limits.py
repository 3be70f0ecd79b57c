"""Limits that protect the app from hostile or absurd files (user-adjustable)."""
from __future__ import annotations

from dataclasses import dataclass

MB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 300 * MB                # larger files get TOO_LARGE
    max_archive_members: int = 5000               # ZIP members and office-file parts, all nesting levels together
    max_archive_total_bytes: int = 1024 * MB      # bytes inflated out of one file, all nesting levels together
    max_archive_ratio: float = 200.0              # uncompressed / compressed per member or part
    max_archive_depth: int = 3                    # zip inside zip inside zip
    max_pdf_pages: int = 5000
    max_xlsx_cells: int = 200_000                 # a cell costs ~2.4 KB while read (2M cells: 4.9 GB)
    max_rss_bytes: int = 500 * MB                 # peak memory of the process reading one file
    max_ocr_pages: int = 50                       # scanned pages read by OCR per document …
    max_ocr_seconds: float = 240.0                # … and OCR time per document; the rest is named in a warning

    @property
    def xml_tree_bytes(self) -> int:
        """XML one document may parse into trees (HWPX sections, DOCX parts, XLSX styles …).

        A tree and what a reader makes of it take ~15 times the XML's bytes in real
        documents (a 1.3 MB HWPX section: a 19 MB tree) and up to ~45 times for
        millions of tiny paragraphs (bench/hostile_rss.py), so a twentieth of the
        memory limit: real documents that large still read, and the memory guard
        (engine/read/memguard.py) stops the rest.
        """
        return self.max_rss_bytes // 20

    @property
    def content_items(self) -> int:
        """Blocks and table cells one Document may hold: each costs ~2.5 KB until it is
        written out (the Document, its JSON, its chunks)."""
        return self.max_rss_bytes // 2500

    @property
    def content_chars(self) -> int:
        """Characters one Document may hold (each is kept several times: text, JSON, chunks)."""
        return self.max_rss_bytes // 16

    @property
    def held_bytes(self) -> int:
        """Bytes a file and the archive members around it may hold in memory at once."""
        return self.max_rss_bytes * 3 // 5


DEFAULT_LIMITS = Limits()
