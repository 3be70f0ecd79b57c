"""HWPX (OWPML, KS X 6101) reader: a ZIP of XML parts.

``package`` opens the container (section order, encryption, title),
``section`` turns one section's XML into paragraphs, tables and notes with
an estimated page each, and this module hands them to the DocumentBuilder.
A malformed section is skipped with a SECTION_SKIPPED warning; only when no
section can be read is the file CORRUPT.
"""
from __future__ import annotations

import zipfile
import zlib

from engine.read.failures import ReadFailure
from engine.read.formats.base import DocumentBuilder, title_borne_out
from engine.read.formats.hwpx.emit import emit_body
from engine.read.formats.hwpx.package import Package
from engine.read.formats.hwpx.section import Pager, Para, SectionError, read_section


def read(data: bytes, doc: DocumentBuilder) -> None:
    """Fill ``doc`` from the bytes of an HWPX file."""
    package = Package(data, doc.budget)
    sections = package.section_names()
    if not sections:
        raise ReadFailure("CORRUPT", "no section")
    if package.encrypted(sections):
        raise ReadFailure("PASSWORD_PROTECTED")
    pager = Pager()
    body: list[Para] = []
    skipped = []
    for number, name in enumerate(sections, start=1):
        try:
            body += read_section(package.read(name), pager)
        except (SectionError, zipfile.BadZipFile, zlib.error, EOFError):
            skipped.append(number)
    if len(skipped) == len(sections):
        raise ReadFailure("CORRUPT", "no readable section")
    for number in skipped:
        doc.warn("SECTION_SKIPPED", n=number)
    doc.drawn = pager.drawn or package.has_pictures()
    emit_body(doc, body, pager.pages if pager.has_lines else None, pager.most_columns)
    doc.set_title(title_borne_out(package.title(), doc))
