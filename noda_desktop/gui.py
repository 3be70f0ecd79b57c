"""`noda-desktop [FOLDER…]`: open the window."""
from __future__ import annotations

import sys


def main(argv=None) -> int:
    from PySide6.QtWidgets import QApplication

    from ui.fonts import install_korean_font
    from ui.main_window import MainWindow

    argv = list(sys.argv if argv is None else argv)
    app = QApplication.instance() or QApplication(argv)
    app.setApplicationName("Noda Desktop")
    install_korean_font(app)
    window = MainWindow(folders=argv[1:])
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
