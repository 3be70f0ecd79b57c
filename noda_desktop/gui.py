"""`noda-desktop [FOLDER or FILE…]`: open the window (remembered folders plus the folders, ZIP files and files given)."""
from __future__ import annotations

import multiprocessing
import os
import sys


def prepare_app(app) -> None:
    """Name, version, icon, the Korean font, Qt's Korean translations, and cycle collection on this thread."""
    from engine import __version__
    from ui.collector import install_gui_collector
    from ui.fonts import install_korean_font
    from ui.window_parts import app_icon
    from ui.translations import install_korean_translations

    app.setApplicationName("Noda Desktop")
    app.setApplicationVersion(__version__)
    app.setWindowIcon(app_icon())
    install_korean_font(app)
    install_korean_translations(app)
    install_gui_collector(app)


def main(argv=None) -> int:
    multiprocessing.freeze_support()   # the engine and parser processes of a frozen build
    from PySide6.QtWidgets import QApplication

    from noda_desktop.hosted_api import HostedApi
    from ui.main_window import MainWindow

    argv = list(sys.argv if argv is None else argv)
    app = QApplication.instance() or QApplication(argv)
    prepare_app(app)
    window = MainWindow(folders=argv[1:], api=HostedApi)
    window.show()
    if os.environ.get("NODA_SMOKE"):  # installer smoke test: report once the event loop runs, then close
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, lambda: print("noda-desktop: window shown", flush=True) or window.close())
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
