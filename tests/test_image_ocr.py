"""Picture reader and OCR: corpus pictures against their truth, generated pictures, language data lookup."""
from __future__ import annotations

import functools
import struct
import threading
from pathlib import Path

import pymupdf
import pytest

from engine.read import ocr
from engine.read.parse import parse_bytes, parse_path
from tests.corpus import REASON_MATCH, corpus_params, requires_corpus

needs_ocr = pytest.mark.skipif(not ocr.ocr_available(),
                               reason="OCR unavailable: no Tesseract kor.traineddata found (or NODA_OCR=0)")


def picture(text: str, *, fmt: str = "png", size: float = 20, alpha: bool = False) -> bytes:
    """A 600x300 pixel picture of ``text`` in the built-in Korean font."""
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=300)
    page.insert_text((30, 150), text, fontname="korea", fontsize=size)
    pix = page.get_pixmap(dpi=72, alpha=alpha)  # one pixel per point
    return pix.tobytes(fmt) if fmt != "jpg" else pix.tobytes("jpg", jpg_quality=90)


def as_bmp(png: bytes) -> bytes:
    """The picture as a 24-bit BMP (rows bottom-up, BGR, padded to 4 bytes)."""
    pix = pymupdf.Pixmap(png)
    row_size = (pix.w * 3 + 3) // 4 * 4
    rows = []
    for y in range(pix.h - 1, -1, -1):
        row = pix.samples[y * pix.stride: y * pix.stride + pix.w * 3]
        bgr = bytes(b for i in range(0, len(row), 3) for b in (row[i + 2], row[i + 1], row[i]))
        rows.append(bgr + b"\0" * (row_size - len(bgr)))
    body = b"".join(rows)
    header = struct.pack("<2sIHHI", b"BM", 54 + len(body), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, pix.w, pix.h, 1, 24, 0, len(body), 2835, 2835, 0, 0)
    return header + info + body


@functools.lru_cache(maxsize=None)
def parsed(path: Path):
    """Each corpus picture is read (OCRed) once for all the tests below."""
    return parse_path(str(path))[0]


def bare(text: str) -> str:
    return "".join(text.split())


# ---- corpus pictures -------------------------------------------------------------

@requires_corpus
@needs_ocr
@pytest.mark.parametrize("path,truth", corpus_params({"image"}))
def test_corpus_picture_agrees_with_truth(path, truth):
    doc = parsed(path)
    assert doc.readable == truth["readable"], doc.access.reason
    assert doc.access.reason in REASON_MATCH[truth["reason"]]
    assert doc.source.pages == truth["pages"] == 1
    text = bare(doc.all_text())
    missing = [s for s in truth["snippets"] if bare(s) not in text]
    assert 1 - len(missing) / len(truth["snippets"]) >= 0.95, (missing, doc.all_text())
    assert "OCR_TEXT" in doc.warning_codes()
    size = pymupdf.Pixmap(path.read_bytes())
    width, height = size.width, size.height
    for block in doc.blocks:
        assert block.extractor == "ocr" and block.confidence == ocr.CONFIDENCE and block.page == 1
        x0, y0, x1, y1 = block.bbox
        assert 0 <= x0 < x1 <= width + 1 and 0 <= y0 < y1 <= height + 1  # pixels of the picture


@requires_corpus
def test_jpeg_named_png_in_corpus_is_flagged(monkeypatch):
    monkeypatch.setenv("NODA_OCR", "0")  # the warning does not depend on OCR
    path = next(p for p, truth in (c.values for c in corpus_params({"image"}))
                if truth.get("detected_format") == "jpeg" and p.suffix == ".png")
    doc = parse_path(str(path))[0]
    assert doc.source.format == "jpeg" and "EXTENSION_MISMATCH" in doc.warning_codes()


# ---- generated pictures ------------------------------------------------------------

def test_jpeg_named_png_gets_extension_mismatch(monkeypatch):
    monkeypatch.setenv("NODA_OCR", "0")
    doc = parse_bytes(picture("확장자 시험", fmt="jpg"), "사진.png")[0]
    assert doc.source.format == "jpeg"
    warning = next(w for w in doc.warnings if w.code == "EXTENSION_MISMATCH")
    assert ".png" in warning.text and "JPEG" in warning.text


def test_picture_without_ocr_is_no_text_and_says_how_to_enable_it(monkeypatch):
    monkeypatch.setenv("NODA_OCR", "0")
    assert not ocr.ocr_available()
    doc = parse_bytes(picture("글자 인식 꺼짐"), "그림.png")[0]
    assert not doc.readable and doc.access.reason == "NO_TEXT"
    assert doc.source.pages == 1
    assert "OCR" in doc.access.reason_text and "tessdata" in doc.access.reason_text


@pytest.mark.parametrize("data", [b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, b"\xff\xd8\xff\xe0" + b"\x13" * 64,
                                  b"GIF89a" + b"\x01" * 20, b"BM" + b"\x00" * 40])
def test_corrupt_picture_is_corrupt(data):
    doc = parse_bytes(data, "깨진그림")[0]
    assert not doc.readable and doc.access.reason == "CORRUPT"


@needs_ocr
@pytest.mark.parametrize("fmt,alpha", [("png", False), ("png", True), ("jpg", False)])
def test_generated_picture_is_read_with_pixel_bboxes(fmt, alpha):
    doc = parse_bytes(picture("예산 집행 계획서", fmt=fmt, size=28, alpha=alpha), f"그림.{fmt}")[0]
    assert doc.readable and doc.source.pages == 1, doc.access.reason
    assert "예산집행계획서" in bare(doc.all_text())
    block = doc.blocks[0]
    assert block.type == "paragraph" and block.extractor == "ocr" and block.confidence < 1.0
    x0, y0, x1, y1 = block.bbox  # the text was drawn from (30, ~125) to (~270, 150) in a 600x300 picture
    assert 15 < x0 < 60 and 100 < y0 < 140 and 200 < x1 < 330 and 140 < y1 < 170


@needs_ocr
def test_bmp_picture_is_read():
    doc = parse_bytes(as_bmp(picture("비트맵 그림 시험", size=28)), "스캔.bmp")[0]
    assert doc.source.format == "bmp" and doc.readable, doc.access.reason
    assert "비트맵그림시험" in bare(doc.all_text())


@needs_ocr
def test_picture_without_any_text_is_no_text():
    blank = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 400, 300), False)
    blank.clear_with(255)
    doc = parse_bytes(blank.tobytes("png"), "빈그림.png")[0]
    assert not doc.readable and doc.access.reason == "NO_TEXT"


@needs_ocr
def test_two_threads_may_ocr_at_once():
    results = {}

    def work(name, text):
        results[name] = parse_bytes(picture(text, size=28), name)[0]

    threads = [threading.Thread(target=work, args=(f"{i}.png", t))
               for i, t in enumerate(["첫째 그림", "둘째 그림"])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(doc.readable for doc in results.values()), [d.access.reason for d in results.values()]
    assert "첫째그림" in bare(results["0.png"].all_text()) and "둘째그림" in bare(results["1.png"].all_text())


# ---- engine.read.ocr ----------------------------------------------------------------------

def test_tessdata_from_env_comes_first(tmp_path, monkeypatch):
    (tmp_path / "kor.traineddata").write_bytes(b"stand-in")
    monkeypatch.setenv("NODA_TESSDATA", str(tmp_path))
    assert ocr.find_tessdata("kor") == str(tmp_path)
    assert ocr.find_tessdata("kor+eng") != str(tmp_path)  # eng is missing there


def test_bundled_tessdata_comes_before_the_system(tmp_path, monkeypatch):
    bundled = tmp_path / "tessdata"
    bundled.mkdir()
    (bundled / "kor.traineddata").write_bytes(b"stand-in")
    monkeypatch.delenv("NODA_TESSDATA", raising=False)
    monkeypatch.setattr(ocr, "BUNDLED_TESSDATA", bundled)
    assert ocr.find_tessdata("kor") == str(bundled)


def test_no_tessdata_anywhere(tmp_path, monkeypatch):
    monkeypatch.setenv("NODA_TESSDATA", str(tmp_path))
    monkeypatch.setattr(ocr, "BUNDLED_TESSDATA", tmp_path / "missing")
    monkeypatch.setattr(ocr, "SYSTEM_TESSDATA", ())
    monkeypatch.setattr(ocr, "_pymupdf_tessdata", lambda: None)
    assert ocr.find_tessdata("kor") is None and not ocr.ocr_available("kor")
    with pytest.raises(RuntimeError):
        ocr.OcrSession(language="kor")


@needs_ocr
def test_slow_pages_are_rendered_smaller_next_time():
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "시간 제한 시험", fontname="korea", fontsize=20)
    session = ocr.OcrSession(long_side=2000, time_limit=0.001)
    assert "시간제한시험" in bare(" ".join(t.text for t in session.read_page(doc[0])))
    assert session.long_side == ocr.MIN_LONG_SIDE


def test_ocr_can_be_switched_off(monkeypatch):
    monkeypatch.setenv("NODA_OCR", "off")
    assert not ocr.ocr_available()
    monkeypatch.setenv("NODA_OCR", "1")
    assert ocr.ocr_available() == (ocr.find_tessdata() is not None)
