"""The window's side of the LLM gateway: state shown, settings edited and tested, questions answered through it."""
from __future__ import annotations

import json
import stat

import pytest
from PySide6.QtCore import Qt

from engine import wording
from engine.gateway.config import KEY_FILE, SETTINGS_FILE
from noda_desktop import paths
from tests.gateway import samples
from tests.gateway.llm_server import Answer, LLMServer
from tests.gui.test_window import READ_TIMEOUT, ask, wait_read
from ui import texts
from ui.main_window import MainWindow

KEY = "sk-window-secret-5150"
REPLY = "신청 기간은 3월 27일까지입니다 [1]. 지원 예산은 70억 원입니다 [1]."


@pytest.fixture
def window(qtbot, engine_host):
    w = MainWindow(host=engine_host, persist=False)
    qtbot.addWidget(w)
    w.show()
    return w


def test_with_the_gateway_off_the_window_says_so_and_offers_no_llm(window):
    assert window.gateway_label.text() == texts.GATEWAY_STATUS_OFF
    toggle = window.answer_panel.llm_toggle
    assert not toggle.isHidden() and not toggle.isEnabled() and not window.answer_panel.use_llm()
    assert wording.gateway_text("GATEWAY_OFF") in toggle.toolTip()


def test_a_public_address_is_refused_in_the_settings(qtbot, window):
    dialog = window.make_settings_dialog()
    qtbot.addWidget(dialog)
    gateway = dialog.gateway
    gateway.address.setText("https://api.openai.com/v1")
    gateway.model.setText("gpt")
    assert gateway.state.text() == wording.gateway_text("GATEWAY_EXTERNAL")
    assert not gateway.test_button.isEnabled()
    window.accept_settings(dialog)
    assert window.gateway_label.text() == texts.GATEWAY_STATUS_REFUSED
    assert not window.answer_panel.llm_toggle.isEnabled()
    assert wording.gateway_text("GATEWAY_EXTERNAL") in window.answer_panel.llm_toggle.toolTip()


def test_set_up_test_and_answer_through_a_loopback_model(qtbot, window, office):
    script = [Answer(sse=samples.chat_stream(parts=["확인"])), Answer(sse=samples.chat_stream(parts=[REPLY]))]
    window.add_folder(office)
    wait_read(qtbot, window, office)
    with LLMServer(script) as server:
        # the administrator fills the gateway section and tests the connection
        dialog = window.make_settings_dialog()
        qtbot.addWidget(dialog)
        dialog.tabs.setCurrentWidget(dialog.gateway)
        dialog.show()
        gateway = dialog.gateway
        gateway.format.setCurrentIndex(gateway.format.findData("openai-chat"))
        gateway.address.setText(server.base + "/v1")
        gateway.model.setText("exaone")
        gateway.key.setText(KEY)
        assert gateway.state.text() == texts.GATEWAY_WILL_SEND.format(
            endpoint=server.base + "/v1/chat/completions", model="exaone")
        qtbot.mouseClick(gateway.test_button, Qt.MouseButton.LeftButton)
        ok = texts.GATEWAY_TEST_OK.format(endpoint=server.base + "/v1/chat/completions", model="exaone")
        qtbot.waitUntil(lambda: gateway.test_result.text() == ok, timeout=10_000)
        assert server.received[0].body["model"] == "exaone"
        window.accept_settings(dialog)

        # saved: settings without the key, the key in a user-only file
        saved = (paths.config_dir() / SETTINGS_FILE).read_text(encoding="utf-8")
        assert json.loads(saved)["base_url"] == server.base + "/v1" and KEY not in saved
        key_file = paths.config_dir() / KEY_FILE
        assert key_file.read_text(encoding="utf-8") == KEY and stat.S_IMODE(key_file.stat().st_mode) == 0o600

        # the window shows where text goes and offers the LLM
        assert window.gateway_label.text() == texts.GATEWAY_STATUS_ON.format(host="127.0.0.1", model="exaone")
        toggle = window.answer_panel.llm_toggle
        assert toggle.isEnabled() and "127.0.0.1" in toggle.toolTip()
        qtbot.mouseClick(toggle, Qt.MouseButton.LeftButton)
        assert window.answer_panel.use_llm()
        answer = ask(qtbot, window, "신청 기간은 언제까지인가?")
    request = server.received[1]
    assert request.headers["authorization"] == f"Bearer {KEY}"
    user = request.body["messages"][-1]["content"]
    assert "신청 기간은 언제까지인가?" in user and "공고.pdf" in user

    assert answer["answered"] and answer["made_by"] == wording.gateway_text("made_by")
    shown = window.answer_panel.text.toPlainText()
    assert "3월 27일까지입니다 [1]" in shown
    assert wording.gateway_text("UNSUPPORTED_NUMBERS", numbers="70") in shown      # the invented number is flagged
    assert wording.gateway_text("made_by") in shown and "exaone" in shown and "127.0.0.1" in shown
    panel = window.answer_panel
    assert panel.citations.count() == len(answer["citations"]) >= 1
    assert "공고" in panel.citations.item(0).text()
    # the [1] in the answer is a link to the citation, and the citation shows its page with boxes
    assert "cite:1" in panel.text.toHtml()
    qtbot.waitUntil(window.evidence.showing_pages, timeout=10_000)
    assert KEY not in json.dumps(answer, ensure_ascii=False)


def test_an_unreachable_gateway_is_reported_not_replaced_by_extraction(qtbot, window, office):
    with LLMServer([Answer(json=samples.chat_json())]) as server:
        base = server.base
    dialog = window.make_settings_dialog()                 # the server is gone now: nothing listens there
    qtbot.addWidget(dialog)
    dialog.gateway.address.setText(base)
    dialog.gateway.model.setText("m")
    window.accept_settings(dialog)
    window.answer_panel.llm_toggle.setChecked(True)
    window.add_folder(office)
    wait_read(qtbot, window, office)
    answer = ask(qtbot, window, "신청 기간은 언제까지인가?")
    assert not answer["answered"] and answer["reason"] == "GATEWAY_UNREACHABLE"
    shown = window.answer_panel.text.toPlainText()
    assert wording.gateway_text("GATEWAY_UNREACHABLE") in shown
    assert not answer.get("lines") and window.answer_panel.citations.count() == 0
