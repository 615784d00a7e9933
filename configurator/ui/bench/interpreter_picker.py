"""The Benchmark tab's interpreter picker: an editable list of the Python interpreters found on
this machine (searched in the background when the tab is first shown, never at start-up), each
probed for torch, with a browse button and Refresh. Interpreters that cannot run the benchmarks
stay listed, with the reason, but greyed."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget

from configurator.bench import interpreters
from configurator.bench.interpreters import Probe
from configurator.core.i18n import fill
from configurator.paths import is_frozen
from configurator.ui.bench.fmt import render
from configurator.ui.files import open_file
from configurator.ui.i18n import translate
from configurator.ui.tasks import TaskRunner

# Finding interpreters (run on a worker thread): all of them, or one path the user typed or browsed to.
DiscoverFn = Callable[[], "list[Probe]"]
ProbeFn = Callable[[str], Probe]


class InterpreterPicker(QWidget):
    """``changed``: the choice, or what is known about it, changed (the tab updates its note)."""

    changed = Signal()
    failed = Signal(str)  # the search could not run: why

    def __init__(self, tasks: TaskRunner, settings: QSettings, parent: QWidget | None = None, *,
                 discover_fn: DiscoverFn | None = None, probe_fn: ProbeFn | None = None):
        super().__init__(parent)
        self.tasks = tasks
        self.settings = settings
        self._stop = threading.Event()
        self.discover_fn: DiscoverFn = discover_fn or (lambda: interpreters.discover(cancelled=self._stop.is_set))
        self.probe_fn: ProbeFn = probe_fn or (lambda path: interpreters.probe(path))
        self.probes: dict[tuple[str, str], Probe] = {}
        self.discovering = False
        self.discovered = False  # a search has finished
        self._running = False
        self._probing: set[tuple[str, str]] = set()

        self.label = QLabel()
        self.combo = QComboBox()
        self.combo.setObjectName("benchPython")
        self.combo.setEditable(True)
        self.combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(20)
        initial = str(settings.value("bench/python", "") or "") or ("" if is_frozen() else sys.executable)
        if initial:
            self.combo.addItem(initial, initial)
        self.combo.currentIndexChanged.connect(lambda _i: self.changed.emit())
        line_edit = self.combo.lineEdit()
        assert line_edit is not None
        line_edit.editingFinished.connect(self._on_typed)
        self.browse = QPushButton("…")
        self.browse.setFixedWidth(32)
        self.browse.clicked.connect(self.pick)
        self.refresh = QPushButton()
        self.refresh.setObjectName("benchPythonRefresh")
        self.refresh.clicked.connect(self.search)

        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label)
        row.addWidget(self.combo, 1)
        row.addWidget(self.browse)
        row.addWidget(self.refresh)

    def retranslate(self) -> None:
        self.label.setText(translate("BenchmarkTab", "Python:"))
        self.combo.setToolTip(translate("BenchmarkTab", "The interpreter the benchmarks run under: it needs "
                                                        "torch (and torchvision, transformers for the model "
                                                        "workloads)."))
        self.browse.setToolTip(translate("BenchmarkTab", "Choose another Python interpreter"))
        self.refresh.setToolTip(translate("BenchmarkTab", "Look again for Python interpreters on this machine"))
        self.refresh.setText(translate("BenchmarkTab", "Searching…") if self.discovering
                             else translate("BenchmarkTab", "Refresh"))
        line_edit = self.combo.lineEdit()
        if line_edit is not None:
            line_edit.setPlaceholderText(
                translate("BenchmarkTab", "Looking for Python interpreters…") if self.discovering
                else translate("BenchmarkTab", "Path to a Python interpreter with PyTorch"))
        for i in range(self.combo.count()):
            path = self.combo.itemData(i)
            if path:
                self._set_item(i, str(path))
        self.changed.emit()

    def set_running(self, running: bool) -> None:
        self._running = running
        for w in (self.combo, self.browse):
            w.setEnabled(not running)
        self.refresh.setEnabled(not running and not self.discovering)

    def shutdown(self) -> None:
        """Stop a search for interpreters that is under way (its child processes are killed)."""
        self._stop.set()

    # -- the choice --------------------------------------------------------------------------------
    def python_path(self) -> str:
        """The interpreter chosen: the path behind the selected line, or the path typed in."""
        combo = self.combo
        text = combo.currentText().strip()
        i = combo.currentIndex()
        if i >= 0 and combo.itemText(i) == text and combo.itemData(i):
            return str(combo.itemData(i))
        i = combo.findText(text)
        if i >= 0 and combo.itemData(i):
            return str(combo.itemData(i))
        return text

    def set_python(self, path: str) -> None:
        """Choose ``path`` (typed, browsed or restored); it is probed in the background if new."""
        path = path.strip()
        if not path:
            self.combo.setCurrentIndex(-1)
            self.changed.emit()
            return
        i = self._item_for(path)
        if i < 0:
            self.combo.addItem(path, path)
            i = self.combo.count() - 1
            self._set_item(i, path)
        self.combo.setCurrentIndex(i)
        self.combo.setEditText(self.combo.itemText(i))
        self._probe_later(path)
        self.changed.emit()

    def known_probe(self, path: str) -> Probe | None:
        return self.probes.get(interpreters.identity(path)) if path else None

    def problem(self) -> str | None:
        """Why the benchmarks cannot start with the chosen interpreter, when that is known now."""
        path = self.python_path()
        if not path:
            if is_frozen() and self.discovered:
                return translate("BenchmarkTab", "No Python with PyTorch found; pick one with “…”.")
            return None
        probe = self.known_probe(path)
        problem = interpreters.problem(probe) if probe is not None else None
        return render(problem) if problem is not None else None

    def pick(self) -> None:
        current = self.python_path()
        path = open_file(self, self.settings, "python", translate("BenchmarkTab", "Python interpreter"),
                         Path(current).parent if current else Path.home())
        if path:
            self.set_python(path)

    def _on_typed(self) -> None:
        text = self.combo.currentText().strip()
        if text and self.combo.findText(text) < 0:
            self.set_python(text)

    # -- items ---------------------------------------------------------------------------------------
    def _item_for(self, path: str) -> int:
        key = interpreters.identity(path)
        for i in range(self.combo.count()):
            data = self.combo.itemData(i)
            if data and interpreters.identity(str(data)) == key:
                return i
        return -1

    def _set_item(self, i: int, path: str) -> None:
        probe = self.known_probe(path)
        combo = self.combo
        if probe is None:
            combo.setItemText(i, path)
            combo.setItemData(i, None, Qt.ItemDataRole.ToolTipRole)
        else:
            combo.setItemText(i, f"{render(interpreters.describe(probe))} — {path}")
            problem = interpreters.problem(probe)
            extras = [name for name, present in (("torchvision", probe.torchvision),
                                                 ("transformers", probe.transformers)) if present]
            tip = render(problem) if problem is not None else (
                fill(translate("BenchmarkTab", "Also installed: {packages}"), packages=", ".join(extras))
                if extras else "")
            combo.setItemData(i, tip or None, Qt.ItemDataRole.ToolTipRole)
        model = combo.model()
        item = model.item(i) if hasattr(model, "item") else None
        if item is not None:  # those that cannot run the benchmarks stay listed, with the reason, but greyed
            item.setEnabled(probe is None or probe.ok)

    # -- probing and searching -------------------------------------------------------------------------
    def _probe_later(self, path: str) -> None:
        key = interpreters.identity(path)
        if key in self.probes or key in self._probing or not Path(path).is_file():
            return
        self._probing.add(key)
        probe_fn = self.probe_fn
        self.tasks.submit(lambda: probe_fn(path), self._on_probed, lambda exc, _tb: self._probing.discard(key))

    def _on_probed(self, probe: Probe) -> None:
        key = interpreters.identity(probe.path)
        self._probing.discard(key)
        self.probes[key] = probe
        i = self._item_for(probe.path)
        if i >= 0:
            current = self.combo.currentIndex() == i
            self._set_item(i, str(self.combo.itemData(i)))
            if current:
                self.combo.setEditText(self.combo.itemText(i))
        self.changed.emit()

    def search(self) -> None:
        """Look for interpreters on a worker thread; the list fills when they have answered."""
        if self.discovering:
            return
        self.discovering = True
        self._stop.clear()
        self.refresh.setEnabled(False)
        self.retranslate()
        self.tasks.submit(self.discover_fn, self._on_discovered, self._on_discover_failed)

    def _discovery_done(self) -> None:
        self.discovering = False
        self.discovered = True
        self.refresh.setEnabled(not self._running)
        self.retranslate()

    def _on_discover_failed(self, exc: BaseException, _tb: str) -> None:
        self._discovery_done()
        self.failed.emit(fill(translate("BenchmarkTab", "Could not look for Python interpreters: {error}"),
                              error=str(exc)))

    def _on_discovered(self, found: list[Probe]) -> None:
        current = self.python_path()
        for p in found:
            self.probes[interpreters.identity(p.path)] = p
        combo = self.combo
        combo.blockSignals(True)
        combo.clear()
        for p in found:
            combo.addItem(p.path, p.path)
            self._set_item(combo.count() - 1, p.path)
        if not current and is_frozen():  # no choice yet: the first one with torch
            current = next((p.path for p in found if p.has_torch), "")
        if current:
            i = self._item_for(current)
            if i < 0:
                combo.insertItem(0, current, current)
                self._set_item(0, current)
                i = 0
                self._probe_later(current)
            combo.setCurrentIndex(i)
        else:
            combo.setCurrentIndex(-1)
            combo.setEditText("")
        view = combo.view()
        view.setMinimumWidth(min(view.sizeHintForColumn(0) + 24, 1200))
        combo.blockSignals(False)
        self._discovery_done()
