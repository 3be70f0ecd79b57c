"""설정 ▸ "다른 프로그램이 노다를 쓰도록 허용": the settings box, and the switch that runs the local API.

``ApiSettings`` is the settings dialog's box (a checkbox, off by default, and
the port). ``ApiSwitch`` keeps the engine process serving the API over the
window's folders while the setting is on (ui/engine_host.py, noda_desktop/
hosted_api.py) and says in the status bar whether it is on and on which port.
"""
from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QCheckBox, QFormLayout, QGroupBox, QLabel, QSpinBox

from noda_desktop import paths
from ui import texts

PORT_ERRORS = ("OSError", "PermissionError")   # what binding a taken or forbidden port raises in the engine process


class ApiSettings(QGroupBox):
    def __init__(self, enabled: bool, port: int, parent=None):
        super().__init__(texts.API_GROUP, parent)
        self.enabled = QCheckBox(texts.API_ALLOW)
        self.enabled.setChecked(enabled)
        self.port = QSpinBox()
        self.port.setRange(1024, 65535)
        self.port.setValue(port)
        note = QLabel(texts.API_NOTE.format(token=paths.token_path()))
        note.setWordWrap(True)
        note.setStyleSheet("color:#666")
        form = QFormLayout(self)
        form.addRow(self.enabled)
        form.addRow(texts.API_PORT, self.port)
        form.addRow(note)


class ApiSwitch(QObject):
    """Starts, updates and stops the API in the engine process; ``label`` is the status bar's note."""

    def __init__(self, service, parent=None):
        super().__init__(parent)
        self.service = service
        self.label = QLabel()
        self.enabled = False
        self.port = 0
        self.label.hide()
        service.tenants_changed.connect(self._sync)

    def apply(self, enabled: bool, port: int) -> None:
        """Follow the setting: serve on ``port`` when ``enabled``, otherwise stop."""
        was_on = self.enabled
        self.enabled, self.port = enabled, port
        if enabled:
            self._sync()
        elif was_on:
            self.label.hide()
            self.service.call(self.service.host.stop_api, None, lambda exc: None)

    def _sync(self) -> None:
        if not self.enabled:
            return
        service, port = self.service, self.port
        folders = service.folders()
        self.service.call(lambda: service.host.serve_api(port, folders, service.tenant_kwargs(), paths.config_dir()),
                          self._serving, self._failed)

    def _serving(self, port: int) -> None:
        if self.enabled:
            self.label.setText(texts.API_STATUS_ON.format(port=port))
            self.label.setToolTip(texts.API_STATUS_TIP.format(port=port, token=paths.token_path()))
            self.label.show()

    def _failed(self, exc: BaseException) -> None:
        if self.enabled:
            port_refused = getattr(exc, "kind", "") in PORT_ERRORS
            self.label.setText(texts.API_STATUS_FAILED.format(port=self.port) if port_refused
                               else texts.API_STATUS_ERROR.format(error=exc))
            self.label.setToolTip(str(exc))
            self.label.show()
