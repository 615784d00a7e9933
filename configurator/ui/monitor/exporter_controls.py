"""The Monitor tab's Prometheus exporter: a switch, the address it listens on, and what it
serves (with a warning when it is reachable from the network) or why it could not start."""

from __future__ import annotations

import html

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QLineEdit, QWidget

from configurator.core.i18n import fill
from configurator.monitor.exporter import AddressError, Exporter, parse_address
from configurator.ui.i18n import translate
from configurator.ui.theme import colours, on_theme_change


class ExporterControls(QWidget):
    def __init__(self, exporter: Exporter, settings: QSettings, parent: QWidget | None = None):
        super().__init__(parent)
        self.exporter = exporter
        self.settings = settings
        self._error: str | None = None
        self.check = QCheckBox()
        self.check.setObjectName("exporterCheck")
        self.check.toggled.connect(self.set_exporter)
        self.address = QLineEdit(str(settings.value("monitor/exporter", "127.0.0.1:9400")))
        self.address.setObjectName("exporterAddress")
        self.address.setMaximumWidth(170)
        self.state = QLabel()
        self.state.setObjectName("exporterState")
        self.state.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.check)
        row.addWidget(self.address)
        row.addWidget(self.state, 1)
        on_theme_change(self.update_state)  # its colours are the scheme's

    def retranslate(self) -> None:
        self.check.setText(translate("Monitor", "Prometheus exporter on"))
        self.check.setToolTip(translate(
            "Monitor", "Serve /metrics for Prometheus and Grafana (MON-2). 127.0.0.1 is reachable from this "
                       "machine only; 0.0.0.0 from the network."))
        self.update_state()

    def set_exporter(self, on: bool) -> None:
        self._error = None
        if on:
            try:
                host, port = parse_address(self.address.text())
                self.exporter.start(host, port)
                self.settings.setValue("monitor/exporter", self.address.text().strip())
            except AddressError as exc:
                self._error = exc.message.render(translate)
            except OSError as exc:
                self._error = fill(translate("Monitor", "cannot listen on {address}: {error}"),
                                   address=self.address.text(), error=exc.strerror or str(exc))
            if self._error is not None:
                self.check.blockSignals(True)
                self.check.setChecked(False)
                self.check.blockSignals(False)
        else:
            self.exporter.stop()
        self.address.setEnabled(not self.exporter.running)
        self.update_state()

    def update_state(self) -> None:
        if self._error:
            self.state.setText(f"<span style='color:{colours(self.palette()).error}'>{self._error}</span>")
        elif self.exporter.running:
            url = self.exporter.url or ""
            text = fill(translate("Monitor", "serving {url}"), url=f"<a href='{url}'>{url}</a>")
            warning = self.exporter.warning
            if warning is not None:  # not on loopback: anyone who reaches the port reads the metrics
                text += (f"<br><span style='color:{colours(self.palette()).warning}'>"
                         f"{html.escape(warning.render(translate))}</span>")
            self.state.setText(text)
            self.state.setWordWrap(warning is not None)
            self.state.setOpenExternalLinks(True)
        else:
            self.state.setText(translate("Monitor", "off"))
