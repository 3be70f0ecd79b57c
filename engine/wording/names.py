"""The names people see: the product, file formats, how a text was read, who locked a file."""
from __future__ import annotations

PRODUCT_NAME = "노다 문서 근거 찾기"   # the one name of the product: window title, menu entry, About, evidence pages

# Vendor names shown to users when we know who locked a file.
DRM_VENDORS = {
    "markany": "마크애니 문서보안(Document SAFER)",
    "fasoo": "파수 문서보안(Fasoo DRM)",
    "softcamp": "소프트캠프 문서보안",
    "hwp": "한글 문서 보안",
    "hwp_distribution": "한글 배포용 문서",
}

FORMAT_NAMES = {
    "pdf": "PDF", "docx": "워드(DOCX)", "xlsx": "엑셀(XLSX)", "hwpx": "한글(HWPX)",
    "hwp": "한글(HWP)", "hwp3": "한글 3.0(HWP)", "hwp2": "한글 2.x(HWP)", "hml": "한글 HWPML(HML)",
    "csv": "CSV 표", "zip": "ZIP 압축", "png": "PNG 그림",
    "jpeg": "JPEG 그림", "tiff": "TIFF 그림", "bmp": "BMP 그림", "gif": "GIF 그림", "text": "텍스트(TXT)",
    "doc": "워드 97-2003(DOC)", "xls": "엑셀 97-2003(XLS)", "ppt": "파워포인트 97-2003(PPT)",
    "pptx": "파워포인트(PPTX)", "unknown": "알 수 없는 형식",
}

# How a reader got a text out, in words for people (engine/read/parse.py READERS names them for programs; blocks
# read another way name theirs: "ocr", "hwp-preview" in engine/read/formats/hwp/preview.py).
EXTRACTOR_NAMES = {
    "pymupdf": "PDF 글자층", "ocr": "기계가 읽은 글자(OCR)", "python-docx": "워드 문서 본문",
    "doc-native": "워드 97-2003 문서 본문", "openpyxl": "엑셀 칸 값", "xlrd": "엑셀 97-2003 칸 값",
    "hwpx-native": "한글 문서 본문", "hwp-native": "한글 문서 본문", "hwp-preview": "한글 문서 미리보기 글",
    "hwp3-native": "한글 3.0 문서 본문", "hwpml-native": "한글 HWPML 본문", "python-pptx": "파워포인트 글상자",
    "image": "그림", "text": "텍스트 파일", "csv": "CSV 칸 값",
}


def format_name(fmt: str) -> str:
    return FORMAT_NAMES.get(fmt, fmt)


def extractors_text(extractors) -> str:
    """'PDF 글자층, 기계가 읽은 글자(OCR)' for a citation's extractors (an unknown one as it is)."""
    return ", ".join(dict.fromkeys(EXTRACTOR_NAMES.get(x, x) for x in extractors or [] if x))
