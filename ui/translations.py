"""Qt's own Korean translations, so standard buttons and dialogs (확인, 취소, 파일 고르기…) speak Korean."""
from __future__ import annotations

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

_installed: list[QTranslator] = []   # a translator must outlive its installation


def install_korean_translations(app: QApplication) -> bool:
    """Load Qt's qtbase_ko translations into the app; False when they are not shipped."""
    translator = QTranslator(app)
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if not translator.load(QLocale(QLocale.Language.Korean), "qtbase", "_", folder):
        return False
    app.installTranslator(translator)
    _installed.append(translator)
    return True
