"""The Benchmark tab's suite controls: suite, device, the saved build a run is linked to, and
the Run and Cancel buttons."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget

from configurator.store.repository import BuildsRepository
from configurator.ui.bench.fmt import device_names, suite_names
from configurator.ui.i18n import translate


class SuiteControls(QWidget):
    run_clicked = Signal()
    cancel_clicked = Signal()

    def __init__(self, settings: QSettings, builds: BuildsRepository | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.settings = settings
        self.builds = builds
        self.suite_label = QLabel()
        self.suite_combo = QComboBox()
        self.suite_combo.setObjectName("benchSuite")
        self.device_label = QLabel()
        self.device_combo = QComboBox()
        self.device_combo.setObjectName("benchDevice")
        self.build_label = QLabel()
        self.build_combo = QComboBox()
        self.build_combo.setObjectName("benchBuild")
        self.run_button = QPushButton()
        self.run_button.setObjectName("benchRun")
        font = QFont(self.run_button.font())
        font.setBold(True)
        self.run_button.setFont(font)
        self.run_button.clicked.connect(lambda _checked=False: self.run_clicked.emit())
        self.cancel_button = QPushButton()
        self.cancel_button.setObjectName("benchCancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(lambda _checked=False: self.cancel_clicked.emit())
        for combo in (self.suite_combo, self.device_combo, self.build_combo):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(7)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for w in (self.suite_label, self.suite_combo, self.device_label, self.device_combo, self.build_label,
                  self.build_combo):
            row.addWidget(w)
        row.addStretch(1)
        row.addWidget(self.run_button)
        row.addWidget(self.cancel_button)

    def retranslate(self) -> None:
        self.suite_label.setText(translate("BenchmarkTab", "Suite:"))
        self.device_label.setText(translate("BenchmarkTab", "Device:"))
        self.build_label.setText(translate("BenchmarkTab", "Link to build:"))
        for combo, names, key in ((self.suite_combo, suite_names(), "bench/suite"),
                                  (self.device_combo, device_names(), "bench/device")):
            current = combo.currentData() or self.settings.value(key, next(iter(names)))
            combo.blockSignals(True)
            combo.clear()
            for code, text in names.items():
                combo.addItem(text, code)
            combo.setCurrentIndex(max(0, combo.findData(current)))
            combo.blockSignals(False)
        self.suite_combo.setToolTip(translate("BenchmarkTab", "Quick: about 2 minutes on a small CPU. Standard: "
                                                              "10–20 minutes. Full: an hour or more."))
        self.run_button.setText(translate("BenchmarkTab", "Run benchmarks"))
        self.cancel_button.setText(translate("BenchmarkTab", "Cancel"))
        if self.build_combo.count():
            self.build_combo.setItemText(0, translate("BenchmarkTab", "(none)"))

    @property
    def suite(self) -> str:
        return str(self.suite_combo.currentData())

    @property
    def device(self) -> str:
        return str(self.device_combo.currentData())

    @property
    def build_id(self) -> int | None:
        data = self.build_combo.currentData()
        return int(data) if data is not None else None

    def remember(self) -> None:
        self.settings.setValue("bench/suite", self.suite)
        self.settings.setValue("bench/device", self.device)

    def set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        for w in (self.suite_combo, self.device_combo, self.build_combo):
            w.setEnabled(not running)

    def refresh_builds(self) -> None:
        current = self.build_combo.currentData()
        self.build_combo.blockSignals(True)
        self.build_combo.clear()
        self.build_combo.addItem(translate("BenchmarkTab", "(none)"), None)
        if self.builds is not None:
            for b in self.builds.list():
                self.build_combo.addItem(b.name, b.id)
        self.build_combo.setCurrentIndex(max(0, self.build_combo.findData(current)))
        self.build_combo.blockSignals(False)
