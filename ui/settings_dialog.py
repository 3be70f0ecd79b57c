"""The settings dialog: cache location, parse limits, polling, the name for ACL.json, and the LLM gateway
(ui.gateway_settings)."""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFormLayout, QGroupBox, QHBoxLayout,
                               QLabel, QLineEdit, QPushButton, QSpinBox, QTabWidget, QVBoxLayout, QWidget)

from engine.limits import DEFAULT_LIMITS
from noda_desktop import paths
from noda_desktop.settings import EDITABLE_LIMITS, Settings, os_user_name
from ui import file_dialogs, texts
from ui.api_switch import ApiSettings
from ui.gateway_settings import GatewaySettings
from ui.runners import SyncRunner

MB = 1024 * 1024


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, parent=None, *, runner=None, config_dir=None):
        """``runner`` runs the gateway's connection test (default: at once); ``config_dir``: where it is saved."""
        super().__init__(parent)
        self.setWindowTitle(texts.SETTINGS_TITLE)
        self.settings = settings
        limits = settings.parse_limits()

        # cache
        self.cache = QLineEdit(str(settings.cache_root()))
        browse = QPushButton(texts.BROWSE)
        browse.clicked.connect(self._browse)
        cache_row = QHBoxLayout()
        cache_row.addWidget(self.cache, 1)
        cache_row.addWidget(browse)
        cache_box = QGroupBox(texts.CACHE_GROUP)
        cache_layout = QVBoxLayout(cache_box)
        cache_layout.addLayout(cache_row)
        cache_layout.addWidget(_note(texts.CACHE_NOTE))

        # limits
        self.limit_boxes: dict[str, QSpinBox] = {}
        limits_box = QGroupBox(texts.LIMITS_GROUP)
        form = QFormLayout(limits_box)
        for key in EDITABLE_LIMITS:
            box = QSpinBox()
            box.setRange(1, 2_000_000_000)
            value = getattr(limits, key)
            box.setValue(value // MB if key == "max_file_bytes" else value)
            if key == "max_file_bytes":
                box.setRange(1, 100_000)
            self.limit_boxes[key] = box
            form.addRow(texts.LIMIT_LABELS[key], box)
        self.poll = QSpinBox()
        self.poll.setRange(0, 3600)
        self.poll.setValue(settings.poll_seconds)
        form.addRow(texts.POLL_LABEL, self.poll)
        form.addRow(_note(texts.LIMITS_NOTE))

        self.api = ApiSettings(settings.api_enabled, settings.api_port)
        # who the user is for ACL.json
        self.principal = QLineEdit(settings.principal or "")
        self.principal.setPlaceholderText(texts.PRINCIPAL_HINT.format(user=os_user_name() or "?"))
        self.principal.setClearButtonEnabled(True)
        principal_box = QGroupBox(texts.PRINCIPAL_GROUP)
        principal_layout = QVBoxLayout(principal_box)
        principal_layout.addWidget(self.principal)
        principal_layout.addWidget(_note(texts.PRINCIPAL_NOTE))

        self.gateway = GatewaySettings(config_dir or paths.config_dir(), runner or SyncRunner())

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        general = QWidget()
        general_layout = QVBoxLayout(general)
        general_layout.addWidget(cache_box)
        general_layout.addWidget(limits_box)
        general_layout.addWidget(self.api)
        general_layout.addWidget(principal_box)
        general_layout.addStretch(1)
        self.tabs = QTabWidget()
        self.tabs.addTab(general, texts.SETTINGS_GENERAL_TAB)
        self.tabs.addTab(self.gateway, texts.SETTINGS_GATEWAY_TAB)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(buttons)

    def result_settings(self) -> Settings:
        """The settings as edited (limits equal to the defaults are not stored)."""
        overrides = {}
        for key, box in self.limit_boxes.items():
            value = box.value() * MB if key == "max_file_bytes" else box.value()
            if value != getattr(DEFAULT_LIMITS, key):
                overrides[key] = value
        cache = self.cache.text().strip()
        default_cache = str(replace(self.settings, cache_dir=None).cache_root())
        return replace(self.settings, cache_dir=None if cache in ("", default_cache) else cache,
                       limits=overrides, poll_seconds=self.poll.value(),
                       api_enabled=self.api.enabled.isChecked(), api_port=self.api.port.value(),
                       principal=self.principal.text().strip() or None)

    def _browse(self) -> None:
        folder = file_dialogs.choose_folder(self, texts.CACHE_GROUP, self.cache.text())
        if folder:
            self.cache.setText(folder)


def _note(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setStyleSheet("color:#666")
    return label
