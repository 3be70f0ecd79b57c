"""Hostile and damaged files, generated (never stored): shared by the tests and bench/hostile_rss.py.

Every builder writes one file and returns its path. ``scale`` shrinks a
fixture for the default test run (1.0 is the size the issue was measured
with); the shape — what makes the file hostile — stays the same.
"""
from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import docx
import pymupdf

HP = "http://www.hancom.co.kr/hwpml/2011/paragraph"
HS = "http://www.hancom.co.kr/hwpml/2011/section"
MB = 1024 * 1024
_ZERO_MB = bytes(MB)


def _write_repeated(member, head: bytes, unit: bytes, total: int, tail: bytes) -> None:
    """``head``, ``unit`` repeated until about ``total`` bytes, then ``tail``, in 1 MB writes."""
    member.write(head)
    block = unit * max(1, MB // len(unit))
    written = len(head)
    while written < total:
        member.write(block)
        written += len(block)
    member.write(tail)


def _zeros(member, megabytes: int) -> None:
    for _ in range(megabytes):
        member.write(_ZERO_MB)


def hwpx_section_bomb(path: Path, scale: float = 1.0) -> Path:
    """A small HWPX whose one section inflates to ~190 MB of paragraphs (issue 14, case 1)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("mimetype", "application/hwp+zip", compress_type=zipfile.ZIP_STORED)
        zf.writestr("Contents/header.xml", '<hh:head xmlns:hh="x"/>')
        with zf.open("Contents/section0.xml", "w", force_zip64=True) as member:
            _write_repeated(member, f'<hs:sec xmlns:hs="{HS}" xmlns:hp="{HP}">'.encode(),
                            "<hp:p><hp:run><hp:t>부풀린 문단</hp:t></hp:run></hp:p>".encode(),
                            int(190 * MB * scale), b"</hs:sec>")
    return path


def docx_image_bomb(path: Path, scale: float = 1.0) -> Path:
    """A DOCX with two 1000 MiB picture parts of zeros, both related from the body (case 1)."""
    document = docx.Document()
    document.add_paragraph("그림이 부풀려진 문서입니다")
    buf = io.BytesIO()
    document.save(buf)
    size = max(1, int(1000 * scale))
    rels = ('<Relationship Id="rIdBomb{n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            'relationships/image" Target="media/bomb{n}.png"/>')
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "word/_rels/document.xml.rels":
                data = data.replace(b"</Relationships>",
                                    "".join(rels.format(n=n) for n in (1, 2)).encode() + b"</Relationships>")
            if info.filename == "[Content_Types].xml" and b'Extension="png"' not in data:
                data = data.replace(b"<Override", b'<Default Extension="png" ContentType="image/png"/><Override', 1)
            dst.writestr(info, data)
        for n in (1, 2):
            with dst.open(f"word/media/bomb{n}.png", "w", force_zip64=True) as member:
                member.write(b"\x89PNG\r\n\x1a\n")
                _zeros(member, size)
    return path


def xlsx_shared_strings(path: Path, scale: float = 1.0) -> Path:
    """An XLSX whose sharedStrings part holds ~60 MB of distinct strings (case 1)."""
    import openpyxl

    book = openpyxl.Workbook()
    book.active["A1"] = "표"
    buf = io.BytesIO()
    book.save(buf)
    count = int(60 * MB * scale) // 60
    rel = ('<Relationship Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
           'sharedStrings" Target="sharedStrings.xml" Id="rIdStrings"/></Relationships>').encode()
    override = ('<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
                'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>').encode()
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", rel)
            elif info.filename == "[Content_Types].xml":
                data = data.replace(b"</Types>", override)
            elif info.filename == "xl/worksheets/sheet1.xml":
                data = re.sub(rb'<c r="A1" t="inlineStr">.*?</c>', b'<c r="A1" t="s"><v>0</v></c>', data)
            dst.writestr(info, data)
        with dst.open("xl/sharedStrings.xml", "w", force_zip64=True) as member:
            member.write(b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">')
            for start in range(0, count, 10_000):
                member.write("".join(f"<si><t>공유 문자열 {n:010d} 이 칸은 부풀리기 위한 것</t></si>"
                                     for n in range(start, min(count, start + 10_000))).encode())
            member.write(b"</sst>")
    return path


def stored_zip_with_pdf_first(path: Path) -> Path:
    """A stored (uncompressed) ZIP whose first member is a PDF: '%PDF-' sits in its first 1 KB (case 2)."""
    members = {"1_공문.pdf": simple_pdf("첫째 문서 피디에프"),
               "2_붙임.docx": simple_docx("둘째 문서 워드"),
               "3_메모.docx": simple_docx("셋째 문서 워드")}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def simple_pdf(text: str) -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), text, fontname="korea")
    return doc.tobytes()


def simple_docx(text: str) -> bytes:
    document = docx.Document()
    document.add_paragraph(text)
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


def raw_pdf(objects: list[bytes]) -> bytes:
    """A PDF from object bodies (object 1 is the catalog), with a correct xref table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def _text_page(extra_resources: bytes, drawing: bytes, page_extra: bytes = b"") -> list[bytes]:
    content = b"BT /F1 14 Tf 72 720 Td (Broken picture report, page one) Tj ET\n" + drawing
    return [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> " + extra_resources + b">> " + page_extra + b">>",
            _stream(content),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]


def pdf_broken_jbig2(path: Path) -> Path:
    """A scanned-looking PDF page: one JBIG2 picture whose stream is garbage, so MuPDF reports
    errors when the page is rendered for OCR (case 3)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
               b"/Resources << /XObject << /Im1 5 0 R >> >> >>",
               _stream(b"q 500 0 0 700 40 60 cm /Im1 Do Q\n"),
               _stream(b"\x97JB2\r\n\x1a\n" + bytes(range(256)) * 4,
                       b"/Type /XObject /Subtype /Image /Width 300 /Height 300 /BitsPerComponent 1 "
                       b"/ColorSpace /DeviceGray /Filter /JBIG2Decode ")]
    path.write_bytes(raw_pdf(objects))
    return path


def pdf_nested_arrays(path: Path, depth: int = 5000) -> Path:
    """A text PDF whose page dictionary holds arrays nested ``depth`` deep: MuPDF reports errors (case 3)."""
    objects = _text_page(b"", b"", page_extra=b"/Junk " + b"[" * depth + b"]" * depth + b" ")
    path.write_bytes(raw_pdf(objects))
    return path


def nested_bomb(path: Path, levels: int = 5, width: int = 16, inner_mb: int = 16) -> Path:
    """A 42.zip-style file: ``width`` copies of the level below at each of ``levels`` levels,
    the innermost holding ``inner_mb`` MB of zeros (case 6)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        with zf.open("0.txt", "w", force_zip64=True) as member:
            _zeros(member, inner_mb)
    data = buf.getvalue()
    for level in range(levels - 1):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for n in range(width):
                zf.writestr(f"{level}_{n:02d}.zip", data)
        data = buf.getvalue()
    path.write_bytes(data)
    return path


def nested_within_limits(path: Path, levels: int = 4, width: int = 3, members: int = 1000,
                         member_bytes: int = 1_000_000) -> Path:
    """Nested archives inside every per-level rule — members just under the size the ratio rule
    looks at, each archive's declared total under 1 GB, few members, depth within the limit —
    that still expand to tens of GB over the levels (case 6: 340 KB -> 30 GB)."""
    buf = io.BytesIO()
    zeros = bytes(member_bytes)
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for n in range(members):
            zf.writestr(f"{n:04d}.txt", zeros)
    data = buf.getvalue()
    for level in range(levels - 1):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
            for n in range(width):
                zf.writestr(f"{level}_{n}.zip", data)
        data = buf.getvalue()
    path.write_bytes(data)
    return path


def _numbered_paragraphs(template: str, total: int):
    """XML paragraphs numbered 0, 1, 2 … (numbers keep the compression ratio ordinary) up to ~``total`` bytes."""
    n = 0
    size = 0
    while size < total:
        step = max(1, min(2000, (total - size) // 40))
        chunk = "".join(template.format(n=i) for i in range(n, n + step)).encode()
        n += step
        size += len(chunk)
        yield chunk


def hwpx_section_xml(size: int) -> bytes:
    """One HWPX section of about ``size`` bytes of numbered paragraphs."""
    body = b"".join(_numbered_paragraphs("<hp:p><hp:run><hp:t>문단 {n}번</hp:t></hp:run></hp:p>", size))
    return f'<hs:sec xmlns:hs="{HS}" xmlns:hp="{HP}">'.encode() + body + b"</hs:sec>"


def hwpx_under_limits(path: Path, megabytes: float = 24.0) -> Path:
    """An HWPX inside every budget rule: one section of ``megabytes`` of numbered paragraphs."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("mimetype", "application/hwp+zip", compress_type=zipfile.ZIP_STORED)
        zf.writestr("Contents/header.xml", '<hh:head xmlns:hh="x"/>')
        with zf.open("Contents/section0.xml", "w", force_zip64=True) as member:
            member.write(f'<hs:sec xmlns:hs="{HS}" xmlns:hp="{HP}">'.encode())
            for chunk in _numbered_paragraphs("<hp:p><hp:run><hp:t>문단 {n}번</hp:t></hp:run></hp:p>",
                                              int(megabytes * MB)):
                member.write(chunk)
            member.write(b"</hs:sec>")
    return path


def docx_under_limits(path: Path, megabytes: float = 24.0) -> Path:
    """A DOCX inside every budget rule: a body of ``megabytes`` of numbered paragraphs."""
    buf = io.BytesIO()
    docx.Document().save(buf)
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename != "word/document.xml":
                dst.writestr(info, src.read(info))
        with dst.open("word/document.xml", "w", force_zip64=True) as member:
            member.write(f'<w:document xmlns:w="{w}"><w:body>'.encode())
            for chunk in _numbered_paragraphs("<w:p><w:r><w:t>문단 {n}번</w:t></w:r></w:p>", int(megabytes * MB)):
                member.write(chunk)
            member.write(b"</w:body></w:document>")
    return path


def xlsx_many_cells(path: Path, cells: int = 2_000_000, cols: int = 20) -> Path:
    """An XLSX inside every rule: one sheet of ``cells`` numbered text and number cells."""
    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("자료")
    for r in range(cells // cols):
        sheet.append([f"항목 {r}-{c}" if c % 2 else r * cols + c for c in range(cols)])
    book.save(path)
    return path
