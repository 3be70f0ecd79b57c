"""The user guide (resources/help/guide.ko.md), with the table of unreadable reasons taken from engine.wording."""
from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

from engine import wording
from noda_desktop import paths
from ui import texts

GUIDE = "help/guide.ko.md"
REASONS_MARK = "{reasons}"


def guide_markdown() -> str:
    """The guide's Markdown with every reason's "what happened" and "what to do" filled in."""
    rows = [f"| {texts.HELP_REASON_HEAD} | {texts.DETAIL_STEP} |", "|---|---|"]
    rows += [f"| {what} | {step} |" for what, step in wording.REASONS.values()]
    text = (paths.resources_dir() / GUIDE).read_text(encoding="utf-8")
    return text.replace(REASONS_MARK, "\n".join(rows))


class HelpDialog(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle(texts.HELP)
        self.text = QTextBrowser()
        self.text.setOpenExternalLinks(False)
        self.text.setMarkdown(guide_markdown())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(820, 720)
