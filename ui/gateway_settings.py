"""The settings dialog's LLM gateway section: format, address, model, key, allow-list, test connection.

What the fields say is checked as they are typed (engine.gateway.Gateway
without any connection): the line under them says where text would go, or
why the gateway stays off. "연결 확인" asks the model one short question
with no document text, off the GUI thread. Saving writes gateway.json and
puts the key in the keyring or a user-only file (engine.gateway.config);
the key is never shown again, only whether one is stored.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Optional

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, \
    QWidget
from shiboken6 import isValid

from engine import wording
from engine.gateway import Gateway, GatewayConfig, GatewayError, load_config, load_key, save_config, save_key
from engine.gateway.config import FORMATS, key_store
from ui import texts

TEST_TIMEOUT_S = 30.0
OK_STYLE = "color:#1e6b2f"
WARN_STYLE = "color:#b3261e"


class GatewaySettings(QWidget):
    """Edits the gateway settings saved in ``config_dir``; ``runner.run_task`` runs the connection test."""

    def __init__(self, config_dir: Path, runner, parent=None):
        super().__init__(parent)
        self.config_dir = Path(config_dir)
        self.runner = runner
        self.saved = load_config(self.config_dir)
        self.saved_key = load_key(self.config_dir)
        self.has_key = bool(self.saved_key)
        self._test_no = 0

        self.format = QComboBox()
        for name in FORMATS:
            self.format.addItem(texts.GATEWAY_FORMATS[name], name)
        self.format.setCurrentIndex(max(0, self.format.findData(self.saved.format)))
        self.address = QLineEdit(self.saved.base_url)
        self.address.setPlaceholderText(texts.GATEWAY_ADDRESS_HINT)
        self.model = QLineEdit(self.saved.model)
        self.key = QLineEdit()
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setPlaceholderText(texts.GATEWAY_KEY_SAVED if self.has_key else texts.GATEWAY_KEY_HINT)
        self.forget_key = QCheckBox(texts.GATEWAY_KEY_FORGET)
        self.forget_key.setVisible(self.has_key)
        self.allowed = QLineEdit(", ".join(self.saved.allowed_hosts))
        self.allowed.setPlaceholderText(texts.GATEWAY_ALLOWED_HINT)
        self.test_button = QPushButton(texts.GATEWAY_TEST)
        self.test_button.clicked.connect(self.test_connection)
        self.state = _label()
        self.test_result = _label()

        key_row = QHBoxLayout()
        key_row.addWidget(self.key, 1)
        key_row.addWidget(self.forget_key)
        form = QFormLayout(self)
        form.addRow(_label(texts.GATEWAY_INTRO, "color:#666"))
        form.addRow(texts.GATEWAY_FORMAT, self.format)
        form.addRow(texts.GATEWAY_ADDRESS, self.address)
        form.addRow(texts.GATEWAY_MODEL, self.model)
        form.addRow(texts.GATEWAY_KEY, key_row)
        form.addRow(texts.GATEWAY_ALLOWED, self.allowed)
        form.addRow(_label(texts.GATEWAY_ALLOWED_NOTE, "color:#666"))
        form.addRow(_label(texts.GATEWAY_KEY_WHERE[key_store()], "color:#666"))
        form.addRow(self.state)
        form.addRow(self.test_button, self.test_result)

        for edit in (self.address, self.model, self.key, self.allowed):
            edit.textChanged.connect(self._update_state)
        self.format.currentIndexChanged.connect(self._update_state)
        self.forget_key.toggled.connect(self._update_state)
        self._update_state()

    # ---- what the fields say ---------------------------------------------------------
    def config(self) -> GatewayConfig:
        """The settings as typed (other settings, e.g. proxy or rate limits, stay as saved)."""
        allowed = [a.strip() for a in self.allowed.text().split(",") if a.strip()]
        return replace(self.saved, format=self.format.currentData(), base_url=self.address.text().strip(),
                       model=self.model.text().strip(), allowed_hosts=allowed)

    def typed_key(self) -> str:
        """The key the gateway would use: the one typed, else the saved one (unless it is to be forgotten)."""
        typed = self.key.text().strip()
        if typed or self.forget_key.isChecked():
            return typed
        return self.saved_key

    def gateway(self) -> Gateway:
        return Gateway(self.config(), self.typed_key())

    def save(self) -> None:
        """Write the settings and the key (a new key replaces the stored one)."""
        save_config(self.config(), self.config_dir)
        if self.key.text().strip() or self.forget_key.isChecked():
            save_key(self.key.text().strip(), self.config_dir)

    def _update_state(self) -> None:
        info = self.gateway().describe()
        if info["enabled"]:
            self.state.setText(texts.GATEWAY_WILL_SEND.format(endpoint=info["endpoint"], model=info["model"]))
            self.state.setStyleSheet(OK_STYLE)
        elif info["configured"]:
            self.state.setText(info["reason_text"])
            self.state.setStyleSheet(WARN_STYLE)
        else:
            self.state.setText(info["reason_text"])
            self.state.setStyleSheet("color:#666")
        self.test_button.setEnabled(info["enabled"])
        self.test_result.clear()

    # ---- connection test --------------------------------------------------------------
    def test_connection(self) -> None:
        """Ask the model a short question in the background; say what happened."""
        gateway = Gateway(replace(self.config(), timeout_s=TEST_TIMEOUT_S, retries=0, empty_retries=0),
                          self.typed_key())
        if not gateway.enabled:
            return
        self._test_no += 1
        test_no = self._test_no
        info = gateway.describe()
        self.test_button.setEnabled(False)
        self.test_result.setStyleSheet("color:#666")
        self.test_result.setText(texts.GATEWAY_TESTING)
        self.runner.run_task(lambda: gateway.complete(wording.gateway.PROBE),
                             lambda _reply: self._tested(test_no, info, None),
                             lambda exc: self._tested(test_no, info, exc))

    def _tested(self, test_no: int, info: dict, error: Optional[BaseException]) -> None:
        if not isValid(self) or test_no != self._test_no:   # the dialog closed meanwhile
            return
        self.test_button.setEnabled(True)
        if error is None:
            self.test_result.setStyleSheet(OK_STYLE)
            self.test_result.setText(texts.GATEWAY_TEST_OK.format(endpoint=info["endpoint"], model=info["model"]))
            return
        code = error.code if isinstance(error, GatewayError) else "GATEWAY_UNREACHABLE"
        self.test_result.setStyleSheet(WARN_STYLE)
        self.test_result.setText(wording.gateway_text(code))
        self.test_result.setToolTip(getattr(error, "detail", "") or str(error))


def _label(text: str = "", style: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    if style:
        label.setStyleSheet(style)
    return label
