"""Save screenshots of the window's main states here (docs/screenshots/), using the sample folder.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/make_screenshots.py

empty_state.png · unreadable_explained.png · answer_pdf_highlight.png · answer_hwp_passage.png ·
user_guide.png · gateway_settings.png · llm_answer.png (the LLM is a scripted model on loopback, tests/gateway) ·
window_1366x768.png (the window filling a 1366×768 laptop's free area) · answer_table.png · answer_xlsx.png ·
answer_not_found.png · single_file_drop.png (one file dropped: it goes to "개별 파일") ·
restart_cached_list.png (a restart: the saved list on screen before the engine process has answered) ·
window_1366x768_125pct.png (the same laptop at 125 % scaling, in a process of its own: Qt's scale is per process).
Cache and settings go to a temporary folder; nothing is written in resources/sample/.
"""
from __future__ import annotations

import os
import shutil
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
TABLE_QUESTION = "초기 창업 지원 금액은 얼마인가?"        # a table row under its header, the cell asked for in bold
XLSX_QUESTION = "사업비 집행현황에서 창업 교육 집행액은?"
NOT_FOUND_QUESTION = "주차장 이용 요금은 얼마인가?"
LAPTOP = (1366, 728)        # 1366×768 less the taskbar


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
    window.opener = lambda url: True          # nothing is opened for real
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
    from engine.gateway.config import GatewayConfig, save_config
    save_config(GatewayConfig(), paths.config_dir())          # the gateway off again, as in most offices
    window.update_gateway_state()
    shoot_office_worker(app, window, key, ask, work)
    window.close()
    shoot_restart(app, work)
    run_at_125()
    print(f"저장했습니다: {HERE}")
    return 0


def shoot_office_worker(app, window, key, ask, work: Path) -> None:
    """The 1366×768 window, table, XLSX and not-found answers, a single dropped file."""
    from PySide6.QtCore import QUrl

    from noda_desktop import paths
    from ui import drops, intake

    window.resize(*LAPTOP)
    window.tenants.select(key)
    ask(PDF_QUESTION, ".pdf")
    window.grab().save(str(HERE / "window_1366x768.png"))
    for question, name, suffix in ((TABLE_QUESTION, "answer_table.png", ".pdf"),
                                   (XLSX_QUESTION, "answer_xlsx.png", ".xlsx")):
        ask(question, suffix)
        window.grab().save(str(HERE / name))
    window.answer_panel.question.setText(NOT_FOUND_QUESTION)
    window.answer_panel.question.returnPressed.emit()
    wait(app, lambda: window.answer is not None)
    window.grab().save(str(HERE / "answer_not_found.png"))

    downloads = work / "다운로드"
    downloads.mkdir()
    dropped = downloads / "업무조정회의_결과.docx"
    shutil.copyfile(paths.sample_tenant() / "업무조정회의_결과.docx", dropped)
    intake.open_dropped(window, drops.sort_dropped([QUrl.fromLocalFile(str(dropped))]))
    wait(app, lambda: any(Path(f).name == drops.SINGLE_FILES_NAME for f in window.service.folders()))
    single = next(f for f in window.service.folders() if Path(f).name == drops.SINGLE_FILES_NAME)
    wait(app, lambda: window.service.state(single).documents is not None and not window.service.busy
         and (window.documents.selected_entry() or {}).get("filename") == dropped.name)
    window.grab().save(str(HERE / "single_file_drop.png"))


def shoot_restart(app, work: Path) -> None:
    """A restart with the sample folder remembered: the saved list, before the engine process answers."""
    from noda_desktop import paths
    from noda_desktop.settings import Settings
    from ui.main_window import MainWindow

    window = MainWindow(settings=Settings(folders=[str(paths.sample_tenant().resolve())]), persist=False)
    window.resize(*LAPTOP)
    window.show()
    key = window.service.folders()[0]
    wait(app, lambda: window.service.state(key).documents is not None, 30)
    if window.service.state(key).from_cache:
        window.grab().save(str(HERE / "restart_cached_list.png"))
    window.close()


def shoot_at_125() -> int:
    """In this process (QT_SCALE_FACTOR=1.25 on a 1366×728 offscreen screen): the maximised window with an answer."""
    work = Path(tempfile.mkdtemp(prefix="noda-shots-125-"))
    os.environ["NODA_CACHE_DIR"] = str(work / "cache")
    os.environ["NODA_CONFIG_DIR"] = str(work / "config")
    from PySide6.QtWidgets import QApplication

    from noda_desktop import paths
    from noda_desktop.gui import prepare_app
    from noda_desktop.settings import Settings
    from ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    prepare_app(app)
    window = MainWindow(settings=Settings(), persist=False)
    window.showMaximized()
    key = window.add_folder(paths.sample_tenant(), remember=False)
    wait(app, lambda: window.service.state(key).documents is not None and not window.service.busy)
    window.answer_panel.question.setText(PDF_QUESTION)
    window.answer_panel.question.returnPressed.emit()
    wait(app, lambda: window.answer is not None and window.evidence.evidence is not None)
    window.grab().save(str(HERE / "window_1366x768_125pct.png"))
    window.close()
    return 0


def run_at_125() -> None:
    """Take the 125 % picture in a child process with its own scale factor and screen."""
    import json
    import subprocess

    config = Path(tempfile.mkdtemp(prefix="noda-screen-")) / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": LAPTOP[0],
                                               "height": LAPTOP[1], "logicalDpi": 96, "logicalBaseDpi": 96,
                                               "dpr": 1}]}), encoding="utf-8")
    env = {**os.environ, "QT_SCALE_FACTOR": "1.25", "QT_QPA_PLATFORM": f"offscreen:configfile={config}"}
    subprocess.run([sys.executable, __file__, "--at-125"], env=env, check=True)


if __name__ == "__main__":
    sys.exit(shoot_at_125() if sys.argv[1:] == ["--at-125"] else main())
