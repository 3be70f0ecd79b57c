"""Register a Korean font inside the app so Hangul never draws as boxes."""
from __future__ import annotations

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication


def install_korean_font(app: QApplication) -> str | None:
    """Load PyMuPDF's bundled Korean font (Noto Sans CJK KR subset) and make it the app font."""
    try:
        import pymupdf
        data = pymupdf.Font("korea").buffer
    except Exception:
        return None
    font_id = QFontDatabase.addApplicationFontFromData(bytes(data))
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    if not families:
        return None
    font = QFont(families[0])
    font.setPointSize(max(app.font().pointSize(), 10))
    app.setFont(font)
    return families[0]
