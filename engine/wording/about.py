"""The About box and the licence notice: what Noda is, Hancom's notice, the bundled parts and what their licences ask."""
from __future__ import annotations

from engine.wording.names import PRODUCT_NAME

# Hancom's condition for using its published HWP format documents (docs/hwp.md): this exact sentence.
HANCOM_NOTICE = "본 제품은 한글과컴퓨터의 한글 문서 파일(.hwp) 공개 문서를 참고하여 개발하였습니다."

SUMMARY = ("한국어 업무 문서(한글·PDF·워드·엑셀·그림·ZIP)를 읽고, 못 읽은 문서는 까닭을 알려 주며, "
           "질문에 근거(파일·쪽·자리)와 함께 답합니다. 인터넷에 연결하지 않습니다.")
COMPONENTS_HEAD = "함께 든 구성 요소:"


def licence(*, licence: str) -> str:
    """'라이선스: AGPL-3.0-or-later'."""
    return f"라이선스: {licence}"


# (component, Python distribution or None, licence) — every part the bundle ships.
COMPONENTS = [
    ("Python 3.11", None, "PSF-2.0"),
    ("Qt 6 (PySide6, Shiboken6)", "PySide6-Essentials", "LGPL-3.0"),
    ("MuPDF / PyMuPDF (Artifex)", "pymupdf", "AGPL-3.0"),
    ("Tesseract OCR (MuPDF 안) · kor/eng 학습 데이터", None, "Apache-2.0"),
    ("Droid Sans Fallback 글꼴 (PyMuPDF 안)", None, "Apache-2.0"),
    ("Kiwi 형태소 분석기 (kiwipiepy, kiwipiepy_model)", "kiwipiepy", "Apache-2.0"),
    ("Whoosh-Reloaded", "whoosh-reloaded", "BSD-2-Clause"),
    ("python-docx", "python-docx", "MIT"),
    ("openpyxl", "openpyxl", "MIT"),
    ("olefile", "olefile", "BSD-2-Clause"),
    ("hypua2jamo (한양 PUA 옛한글 → 첫가끝 자모)", "hypua2jamo", "LGPL-3.0"),
    ("xlrd", "xlrd", "BSD-3-Clause"),
    ("python-pptx", "python-pptx", "MIT"),
    ("Pillow (python-pptx가 씀)", "pillow", "MIT-CMU"),
    ("XlsxWriter (python-pptx가 씀)", "xlsxwriter", "BSD-2-Clause"),
    ("lxml (libxml2, libxslt)", "lxml", "BSD-3-Clause"),
    ("cryptography (OpenSSL)", "cryptography", "Apache-2.0 OR BSD-3-Clause"),
    ("Pebble", "pebble", "LGPL-3.0"),
    ("platformdirs", "platformdirs", "MIT"),
    ("keyring (운영체제 암호 보관함 연결)", "keyring", "MIT"),
    ("NumPy (OpenBLAS)", "numpy", "BSD-3-Clause"),
    ("pydantic (pydantic-core)", "pydantic", "MIT"),
    ("FastAPI · Starlette (로컬 API)", "fastapi", "MIT · BSD-3-Clause"),
    ("Uvicorn · h11", "uvicorn", "BSD-3-Clause · MIT"),
    ("MCP Python SDK (mcp, mcp-types)", "mcp", "MIT"),
    ("cffi · AnyIO · sse-starlette · httpx2 · jsonschema · PyJWT · click · python-multipart · "
     "OpenTelemetry API (위 구성 요소가 쓰는 것)", None, "MIT · BSD-3-Clause · Apache-2.0"),
]

OBLIGATIONS = [
    f"{PRODUCT_NAME}는 AGPL-3.0-or-later로 배포합니다. 함께 든 MuPDF/PyMuPDF도 AGPL-3.0입니다. "
    "그래서 이 설치 파일을 다른 기관이나 사람에게 건넬 때는 받는 사람에게 노다의 전체 소스 코드"
    "(고친 부분 포함)도 같은 라이선스로 함께 주거나 받을 수 있게 알려야 합니다. "
    "고친 노다를 네트워크로 다른 사람에게 쓰게 할 때도 그 사람에게 소스를 제공해야 합니다.",
    "Qt는 LGPL-3.0입니다. Qt 라이브러리는 설치 폴더 안(_internal)에 따로 떨어진 파일로 들어 있어 "
    "사용자가 같은 버전대의 다른 Qt로 바꿔 쓸 수 있고, Qt 소스는 download.qt.io에서 받을 수 있습니다.",
    "Apache·BSD·MIT 구성 요소는 저작권 고지와 라이선스 문구를 함께 전하면 됩니다 (이 글이 그 고지입니다).",
]
