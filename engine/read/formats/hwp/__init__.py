"""HWP 5.0 reader: OLE2 container → FileHeader → section records → blocks and tables.

Written from Hancom's published format documents (본 제품은 한글과컴퓨터의 한글 문서 파일(.hwp)
공개 문서를 참고하여 개발하였습니다). Module map: ``header`` (FileHeader bits), ``container``
(OLE streams, inflate), ``records`` (record headers and nesting), ``distribution`` (배포용
decryption), ``text`` (PARA_TEXT controls), ``tables`` (cell geometry), ``body`` (records →
paragraphs/tables/side texts), ``pages`` (page estimate), ``docinfo`` (outline headings),
``emit`` (→ builder), ``preview`` (PrvText, read when the body is damaged before any text).
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator, Optional

from engine.read.failures import ReadFailure
from engine.read.formats.base import DocumentBuilder, title_borne_out
from engine.read.formats.hwp.body import Para, SectionReader
from engine.read.formats.hwp.container import HwpContainer, inflate
from engine.read.formats.hwp.distribution import decrypt_section
from engine.read.formats.hwp.docinfo import outline_levels
from engine.read.formats.hwp.emit import emit_body
from engine.read.formats.hwp.header import FileHeader, parse_header
from engine.read.formats.hwp.pages import PageCounter
from engine.read.formats.hwp.preview import EXTRACTOR as PREVIEW_EXTRACTOR, read_preview
from engine.read.formats.hwp.records import RecordStream

STUB = "상위 버전의 배포용 문서"   # the BodyText of a 배포용 document says only this
_IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"GIF87a", b"GIF89a", b"BM", b"\xff\xd8\xff")


def read(data: bytes, doc: DocumentBuilder) -> None:
    """Read an HWP 5.0 file into ``doc``; raise ReadFailure when it cannot be read."""
    with _collector_paused():
        container = HwpContainer(data)
        try:
            _read(container, doc)
        finally:
            container.close()


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a file is read, then restore its state.

    A read makes tens of thousands of small objects that reference counting frees; the
    collector would walk them, and now and then the whole heap, for nothing (about 5 % of the
    read time on the corpus, more in a process with a larger heap). What the read keeps is
    collected as usual afterwards. It is turned back on only if it was on, so reads that
    overlap (threads) end with it as it was.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def preview_image(data: bytes) -> Optional[bytes]:
    """The PrvImage thumbnail (PNG, GIF or BMP bytes) of an HWP file, or None."""
    try:
        container = HwpContainer(data)
    except ReadFailure:
        return None
    try:
        if not container.has("PrvImage"):
            return None
        image = container.read("PrvImage")
    except Exception:
        return None
    finally:
        container.close()
    return image if image.startswith(_IMAGE_MAGIC) else None


class _Sections:
    """Reads the section streams of one storage (BodyText or ViewText) into paragraphs."""

    def __init__(self, container: HwpContainer, header: FileHeader, storage: str,
                 outline: dict[int, int]):
        self.container = container
        self.header = header
        self.encrypted = storage == "ViewText"
        self.names = container.sections(storage)
        self.pages = PageCounter()
        self.outline = outline
        self.damaged = False
        self.drawn = False   # some section holds a drawing object (picture, shape …)

    def read(self, name: str) -> list[Para]:
        raw = self.container.read(name)
        if self.encrypted:
            raw = decrypt_section(raw)
        if self.header.compressed:
            raw, complete = inflate(raw)
            self.damaged |= not complete
        stream = RecordStream(raw)
        self.damaged |= stream.truncated
        reader = SectionReader(self.pages, self.outline)
        paras = reader.read(stream)
        self.drawn |= reader.drawn
        return paras


def _read(container: HwpContainer, doc: DocumentBuilder) -> None:
    if not container.has("FileHeader"):
        raise ReadFailure("CORRUPT", "no FileHeader")
    header = parse_header(container.read("FileHeader"))
    sections = _read_body(container, header, doc)
    if sections.damaged and not doc.doc.all_text().strip():
        if sections.encrypted:   # a 배포용 body has no stand-in: only a plain BodyText falls back on the preview
            raise ReadFailure("CORRUPT", "damaged before any text")
        _read_preview(container, doc)
    else:
        _describe_body(container, sections, doc)
    doc.set_title(title_borne_out(container.title(), doc))


def _read_body(container: HwpContainer, header: FileHeader, doc: DocumentBuilder) -> _Sections:
    """Emit the sections of BodyText, or of ViewText in a 배포용 file. A damaged section after the first
    is skipped; a body without its first section is damaged and not read further."""
    outline = _outline(container, header)
    distribution = header.distribution and bool(container.sections("ViewText"))
    if header.distribution and not distribution:
        raise ReadFailure("DRM_ENCRYPTED", "no ViewText", drm_vendor="hwp_distribution")
    sections = _Sections(container, header, "ViewText" if distribution else "BodyText", outline)
    if not sections.names:   # the body has lost its sections
        sections.damaged = True
        return sections
    try:
        first = sections.read(sections.names[0])
        if not distribution and container.sections("ViewText") and _is_stub(first):
            sections = _Sections(container, header, "ViewText", outline)   # the bit was lost: the 배포용 stub
            first = sections.read(sections.names[0])
    except ReadFailure:   # the container cannot give the first section back
        sections.damaged = True
        return sections
    emit_body(doc, first)
    for name in sections.names[1:]:
        try:
            emit_body(doc, sections.read(name))
        except ReadFailure:   # one damaged section: keep the others
            sections.damaged = True
    return sections


def _describe_body(container: HwpContainer, sections: _Sections, doc: DocumentBuilder) -> None:
    """Warnings, access and page count of a read body."""
    if sections.damaged:
        doc.warn("TRUNCATED")
    doc.drawn = sections.drawn or container.has_pictures()
    if sections.encrypted:
        doc.doc.access.distribution = True
        doc.warn("DISTRIBUTION_DOCUMENT")
    doc.set_pages(sections.pages.page)
    doc.warn("PAGE_APPROXIMATE")
    if sections.pages.columns > 1:
        doc.warn("LAYOUT_SIDE_BY_SIDE")


def _read_preview(container: HwpContainer, doc: DocumentBuilder) -> None:
    """The PrvText preview in place of a body damaged before any text; without one the file is CORRUPT."""
    paragraphs = read_preview(container)
    if not paragraphs:
        raise ReadFailure("CORRUPT", "damaged before any text, no preview")
    for text in paragraphs:
        doc.add_block("paragraph", text, extractor=PREVIEW_EXTRACTOR)
    doc.warn("PREVIEW_ONLY")


def _outline(container: HwpContainer, header: FileHeader) -> dict[int, int]:
    """Outline levels from DocInfo; without a readable DocInfo there are just no headings."""
    if not container.has("DocInfo"):
        return {}
    try:
        raw = container.read("DocInfo")
    except ReadFailure:
        return {}
    if header.compressed:
        raw, _complete = inflate(raw)
    return outline_levels(raw)


def _is_stub(paras: list[Para]) -> bool:
    return any(STUB in p.text for p in paras[:5])
