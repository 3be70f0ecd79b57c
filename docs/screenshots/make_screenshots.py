"""Save screenshots of the window's main states here (docs/screenshots/), using the sample folder.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/make_screenshots.py

empty_state.png · unreadable_explained.png · answer_pdf_highlight.png · answer_hwp_passage.png ·
user_guide.png · gateway_settings.png · llm_answer.png (the LLM is a scripted model on loopback, tests/gateway).
Cache and settings go to a temporary folder; nothing is written in resources/sample/.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

PDF_QUESTION = "신청 기간은 언제인가?"
LLM_REPLY = "신청 기간은 2026년 3월 2일부터 3월 27일까지입니다 [1]. 지원 예산은 70억 원입니다 [1]."
HWP_QUESTION = "접대비 해당 여부는 무엇으로 판단하나요?"
LOCKED_DOCUMENT = "문서보안_잠긴문서.hwp"


def wait(app, condition, timeout_s: float = 300.0) -> None:
    end = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > end:
            raise TimeoutError("the window did not get there in time")
        app.processEvents()
        time.sleep(0.02)
    for _ in range(20):          # let layouts and repaints settle
        app.processEvents()
        time.sleep(0.01)


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="noda-shots-"))
    os.environ["NODA_CACHE_DIR"] = str(work / "cache")
    os.environ["NODA_CONFIG_DIR"] = str(work / "config")

    from PySide6.QtWidgets import QApplication

    from noda_desktop import paths
    from noda_desktop.gui import prepare_app
    from noda_desktop.settings import Settings
    from ui.answer_panel import CitationRole
    from ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    prepare_app(app)
    window = MainWindow(settings=Settings(), persist=False)
    window.resize(1600, 940)
    window.show()
    wait(app, lambda: True)
    window.grab().save(str(HERE / "empty_state.png"))

    key = window.add_folder(paths.sample_tenant(), remember=False)
    wait(app, lambda: window.service.state(key).documents is not None and not window.service.busy)
    window.documents.select(LOCKED_DOCUMENT)
    wait(app, lambda: True)
    window.grab().save(str(HERE / "unreadable_explained.png"))

    def ask(question: str, filename_suffix: str) -> None:
        window.answer_panel.question.setText(question)
        window.answer_panel.question.returnPressed.emit()
        wait(app, lambda: window.answer is not None)
        panel = window.answer_panel
        for row in range(panel.citations.count()):
            citation = panel.citations.item(row).data(CitationRole)
            if citation and citation["filename"].endswith(filename_suffix):
                panel.select_citation(citation)
                break
        wait(app, lambda: window.evidence.evidence is not None
             and window.evidence.evidence.citation["filename"].endswith(filename_suffix))

    ask(PDF_QUESTION, ".pdf")
    window.grab().save(str(HERE / "answer_pdf_highlight.png"))
    ask(HWP_QUESTION, ".hwp")
    window.grab().save(str(HERE / "answer_hwp_passage.png"))

    guide = window.help_box()
    guide.show()
    wait(app, lambda: True)
    guide.grab().save(str(HERE / "user_guide.png"))
    guide.close()

    from tests.gateway import samples
    from tests.gateway.llm_server import Answer, LLMServer
    script = [Answer(sse=samples.chat_stream(parts=["확인"])), Answer(sse=samples.chat_stream(parts=[LLM_REPLY]))]
    with LLMServer(script) as server:
        dialog = window.make_settings_dialog()
        dialog.tabs.setCurrentWidget(dialog.gateway)
        dialog.gateway.address.setText(server.base + "/v1")
        dialog.gateway.model.setText("exaone-3.5")
        dialog.gateway.key.setText("sk-internal-demo")
        dialog.gateway.test_button.click()
        dialog.show()
        wait(app, lambda: "연결되었습니다" in dialog.gateway.test_result.text(), 20)
        dialog.grab().save(str(HERE / "gateway_settings.png"))
        window.accept_settings(dialog)
        dialog.close()
        window.answer_panel.llm_toggle.setChecked(True)
        ask(PDF_QUESTION, "")            # whichever source the model cites first
        window.grab().save(str(HERE / "llm_answer.png"))
    window.close()
    print(f"저장했습니다: {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
