"""The Benchmark tab: one button runs the suite in child processes; a progress bar, a live
log and cancel; results in a table and charts, compared with the guides' reference figures,
with earlier runs on this machine and (when one is wired in) with the planner's estimate.

It composes three parts: the suite controls (:mod:`.suite_controls`), the interpreter picker
(:mod:`.interpreter_picker`) and the results (:mod:`.results_panel`); it runs the suite and
stores what it measured."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QSettings, Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QVBoxLayout, QWidget

from configurator.bench import suites
from configurator.bench.load import GpuReader
from configurator.bench.results import STATUS_LABELS, RowResult, RunRecord, export_csv, export_json, fmt_value
from configurator.bench.runner import WORKER_MODULE, Event, SuiteSession
from configurator.core.i18n import fill
from configurator.paths import is_frozen
from configurator.store.bench_results import BenchResultsRepository
from configurator.store.repository import BuildsRepository
from configurator.ui.bench.fmt import render
from configurator.ui.bench.interpreter_picker import DiscoverFn, InterpreterPicker, ProbeFn
from configurator.ui.bench.process import QtSuiteRunner
from configurator.ui.bench.results_panel import EstimateFor, ResultsPanel
from configurator.ui.bench.suite_controls import SuiteControls
from configurator.ui.files import save_file
from configurator.ui.i18n import translate
from configurator.ui.tasks import TaskRunner
from configurator.ui.theme import colours, on_theme_change

__all__ = ["BenchmarkTab", "EstimateFor"]


class BenchmarkTab(QWidget):
    run_saved = Signal()  # a run and its measurements of this machine are stored (the planner recalibrates)

    def __init__(
        self,
        runner: QtSuiteRunner,
        tasks: TaskRunner,
        settings: QSettings,
        results: BenchResultsRepository | None = None,
        builds: BuildsRepository | None = None,
        estimate_for: EstimateFor | None = None,
        parent: QWidget | None = None,
        *,
        discover_fn: DiscoverFn | None = None,
        probe_fn: ProbeFn | None = None,
        gpus: GpuReader | None = None,
    ):
        super().__init__(parent)
        self.setObjectName("BenchmarkTab")
        self.runner = runner
        self.tasks = tasks
        self.settings = settings
        self.results = results
        self.gpus = gpus  # how busy the GPUs are (the monitor's samples), for each run's "busy" note
        self.worker_module = WORKER_MODULE  # tests put the fault worker here
        self._note: tuple[str, str] | None = None  # the status (text, style) an interpreter note covers
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

        self.controls = SuiteControls(settings, builds)
        self.controls.run_clicked.connect(self.start)
        self.controls.cancel_clicked.connect(self.cancel)
        self.picker = InterpreterPicker(tasks, settings, discover_fn=discover_fn, probe_fn=probe_fn)
        self.picker.changed.connect(self._update_python_note)
        self.picker.failed.connect(lambda text: self._set_status(text, error=True))
        self.progress = QProgressBar()
        self.progress.setObjectName("benchProgress")
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.setTextVisible(True)
        self.status = QLabel()
        self.status.setObjectName("benchStatus")
        self.status.setWordWrap(True)
        self.panel = ResultsPanel(estimate_for)
        self.panel.export_requested.connect(self.export_dialog)
        self.panel.runs.open_requested.connect(self.open_run)

        layout = QVBoxLayout(self)
        layout.addWidget(self.controls)
        layout.addWidget(self.picker)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.panel, 1)

        runner.job_event.connect(self._on_event)
        runner.finished.connect(self._on_finished)
        self.retranslate()
        self.controls.refresh_builds()
        self._set_running(False)
        on_theme_change(self.restyle)
        self.load_runs(open_latest=True)  # after a restart: the newest stored run of this machine

    @property
    def record(self) -> RunRecord | None:
        return self.panel.record

    # -- language and colours ------------------------------------------------------------------
    def retranslate(self) -> None:
        self.controls.retranslate()
        if self._note is not None:  # the note is written again below, in the new language
            self.status.setText(self._note[0])
            self.status.setStyleSheet(self._note[1])
            self._note = None
        self.panel.retranslate()
        self._show_empty_state()
        if self._note is None and not self.status.styleSheet():
            self._show_opened()
        self.picker.retranslate()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _error_style(self) -> str:
        return f"color: {colours(self.palette()).error};"

    def restyle(self) -> None:
        """Charts, status colours and the error line in the colours of the palette's scheme."""
        if self.status.styleSheet():  # the only style it gets is the error colour
            self.status.setStyleSheet(self._error_style())
        if self._note is not None and self._note[1]:
            self._note = (self._note[0], self._error_style())
        self.panel.show_record()

    def showEvent(self, event: Any) -> None:
        self.controls.refresh_builds()
        if not self.picker.discovered and not self.picker.discovering:
            self.picker.search()
        super().showEvent(event)

    def shutdown(self) -> None:
        """Stop a search for interpreters that is under way (its child processes are killed)."""
        self.picker.shutdown()

    # -- the interpreter's note ------------------------------------------------------------------
    def _update_python_note(self) -> None:
        """Say in the status line, before anything runs, when the chosen interpreter cannot be used."""
        if self.runner.is_running():
            return
        note = self.picker.problem()
        if note is not None:
            if self._note is None:
                self._note = (self.status.text(), self.status.styleSheet())
            self._set_status(note, error=True)
        elif self._note is not None:
            text, style = self._note
            self._note = None
            self.status.setText(text)
            self.status.setStyleSheet(style)

    # -- stored runs ---------------------------------------------------------------------------------
    @property
    def machine(self) -> str | None:
        """This machine's id, as the last run here found it (runs are listed for it)."""
        return str(self.settings.value("bench/machine", "") or "") or None

    def load_runs(self, open_latest: bool = False) -> None:
        """List the stored runs of this machine; ``open_latest``: open the newest if none is shown."""
        if self.results is None:
            return
        runs = self.results.runs(machine=self.machine)
        self.panel.runs.set_runs(runs, self.record.run_id if self.record else None)
        if open_latest and self.record is None and runs:
            newest = next((r for r in runs if r.status == "finished"), runs[0])
            self.open_run(newest.id)

    def open_run(self, run_id: int) -> bool:
        """Show a stored run, compared with the finished runs on its machine before it."""
        if self.results is None or self.runner.is_running():
            return False
        rec = self.results.get(run_id)
        if rec is None:
            return False
        repo = self.results
        earlier = {r.name: [p.value for p in repo.history(rec.machine, r.name, before=rec.started_at)]
                   for r in rec.rows if r.status == "ok"}
        panel = self.panel
        panel.record, panel.earlier, panel.saved_run_id, panel.opened = rec, {k: v for k, v in earlier.items()
                                                                             if v}, rec.run_id, True
        panel.log.clear()
        panel.runs.select(run_id)
        self._note = None
        self.progress.setValue(0)
        self._show_opened()
        panel.show_record()
        self._set_running(False)
        self._update_python_note()
        return True

    def _show_opened(self) -> None:
        rec = self.record
        if rec is None or not self.panel.opened:
            return
        self._set_status(fill(translate("BenchmarkTab", "Showing run {id} of {time} ({status}); “Run benchmarks” "
                                                        "measures again."),
                              id=str(rec.run_id), time=rec.started_at.strftime("%Y-%m-%d %H:%M"),
                              status=translate("bench", STATUS_LABELS.get(rec.status, rec.status))))

    # -- running -----------------------------------------------------------------------------------
    def start(self, jobs: list[str] | None = None, overrides: dict[str, dict[str, Any]] | None = None,
              timeout_s: float | None = None) -> bool:
        """Start the chosen suite (tests may narrow it to ``jobs`` and small ``overrides``)."""
        if self.runner.is_running():
            return False
        python = self.picker.python_path()
        if not python and is_frozen():
            self._set_status(translate("BenchmarkTab", "No Python with PyTorch found; pick one with “…”."),
                             error=True)
            return False
        if not python or not Path(python).is_file():
            self._set_status(fill(translate("BenchmarkTab", "No Python interpreter at {path}: choose one with “…”."),
                                  path=python or "—"), error=True)
            return False
        problem = self.picker.problem()
        if problem is not None:
            self._set_status(problem, error=True)
            return False
        self._note = None
        suite, device = self.controls.suite, self.controls.device
        self.controls.remember()
        self.settings.setValue("bench/python", python)
        session = SuiteSession(suite, device, jobs, python, overrides=overrides, timeout_s=timeout_s,
                               worker_module=self.worker_module, gpus=self.gpus)
        panel = self.panel
        panel.opened = False
        panel.record = session.record
        panel.record.build_id = self.controls.build_id
        panel.earlier = {}
        panel.saved_run_id = None
        panel.log.clear()
        panel.append(fill(translate("BenchmarkTab", "Suite {suite} on {device} with {python}"),
                          suite=suite, device=device, python=python))
        self.progress.setValue(0)
        self._set_running(True)
        self._set_status(translate("BenchmarkTab", "Checking the interpreter and the hardware…"))
        panel.show_record()
        self.runner.start(session)
        return True

    def cancel(self) -> None:
        if self.runner.is_running():
            self._set_status(translate("BenchmarkTab", "Cancelling…"))
            self.runner.cancel()

    def _set_running(self, running: bool) -> None:
        self.controls.set_running(running)
        self.picker.set_running(running)
        self.panel.set_running(running)

    def _set_status(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet(self._error_style() if error else "")

    def _show_empty_state(self) -> None:
        if self.record is None and self._note is None and not self.status.styleSheet():
            self.status.setText(translate(
                "BenchmarkTab", "No run yet. “Run benchmarks” measures this machine in child processes: matrix "
                                "multiply, memory bandwidth, ResNet training, GPT-2 inference, data loading and "
                                "DDP scaling. The quick suite takes about two minutes on a small CPU; a benchmark "
                                "that crashes or runs out of memory cannot take the app down."))

    def _on_event(self, ev: Event) -> None:
        if ev.fraction is not None:
            self.progress.setValue(int(ev.fraction * 1000))
        label = translate("bench", suites.JOBS[ev.job].label) if ev.job in suites.JOBS else ev.job
        append = self.panel.append
        if ev.kind == "job_started":
            if ev.job == "fingerprint":
                return
            append(f"▶ {label}")
            self._set_status(fill(translate("BenchmarkTab", "Running {job}…"), job=label))
        elif ev.kind == "progress":
            detail = render(ev.message)
            self._set_status(f"{label}: {detail}" if detail else label)
        elif ev.kind == "log":
            append(f"  {render(ev.message)}")
        elif ev.kind == "garbage":
            append("  " + fill(translate("BenchmarkTab", "output not understood: {line}"), line=ev.text))
        elif ev.kind == "stderr":
            if ev.text.strip():
                append(f"  │ {ev.text}")
        elif ev.kind == "row" and ev.row is not None:
            append("  " + self._row_summary(ev.row))
            self.panel.show_record()
        elif ev.kind == "job_finished":  # its rows now know how busy the machine was
            self.panel.show_record()

    def _row_summary(self, row: RowResult) -> str:
        name = translate("bench", suites.ROW_LABELS.get(row.name, row.name))
        impossible = row.not_measured()
        if impossible is not None:
            return "✗ " + fill(translate("BenchmarkTab", "{name}: not measured — {reason}"), name=name,
                               reason=render(impossible))
        if row.status == "ok":
            return f"✓ {name}: {fmt_value(row.value)} {row.unit}"
        mark = "–" if row.status == "skipped" else "✗"
        return f"{mark} {name}: {translate('bench', STATUS_LABELS.get(row.status, row.status))} — " \
               f"{row.error_text(translate) or ''}"

    def _on_finished(self, record: RunRecord) -> None:
        self.panel.record = record
        self._set_running(False)
        self.progress.setValue(1000)
        if record.error is not None:
            self._set_status(fill(translate("BenchmarkTab", "The suite could not run: {reason}"),
                                  reason=record.error.render(translate)), error=True)
        else:
            ok = sum(1 for r in record.rows if r.status == "ok")
            self._set_status(fill(translate("BenchmarkTab", "{status} in {seconds} s: {ok} of {n} results measured."),
                                  status=translate("bench", STATUS_LABELS.get(record.status,
                                                                                      record.status)).capitalize(),
                                  seconds=f"{record.duration_s or 0:.0f}", ok=str(ok), n=str(len(record.rows))))
        self.panel.show_record()
        if self.results is not None and record.rows:
            repo = self.results
            build_id = record.build_id

            def save() -> dict[str, list[float]]:
                earlier = {r.name: [p.value for p in repo.history(record.machine, r.name, before=record.started_at)]
                           for r in record.rows if r.status == "ok"}
                repo.save(record, build_id=build_id)
                return earlier

            self.tasks.submit(save, self._saved, self._save_failed)

    def _saved(self, earlier: dict[str, list[float]]) -> None:
        self.panel.earlier = {k: v for k, v in earlier.items() if v}
        self.panel.saved_run_id = self.record.run_id if self.record else None
        if self.record is not None and self.record.machine:
            self.settings.setValue("bench/machine", self.record.machine)
        self.load_runs()
        self.panel.show_record()
        self.run_saved.emit()

    def _save_failed(self, exc: BaseException, _tb: str) -> None:
        self._set_status(fill(translate("BenchmarkTab", "The results could not be saved: {error}"), error=str(exc)),
                         error=True)

    # -- export ------------------------------------------------------------------------------------
    def export_dialog(self, kind: str) -> None:
        name, filter_ = (("benchmark.json", translate("BenchmarkTab", "JSON files (*.json)")) if kind == "json"
                         else ("benchmark.csv", translate("BenchmarkTab", "CSV files (*.csv)")))
        path = save_file(self, self.settings, "bench-export", translate("BenchmarkTab", "Export results"),
                         Path.home() / name, filter_)
        if path:
            self.export(Path(path), kind)

    def export(self, path: Path, kind: str) -> None:
        record = self.record
        if record is None:
            return
        write = export_json if kind == "json" else export_csv
        self.tasks.submit(lambda: write(record, path, translate),
                          lambda p: self._set_status(fill(translate("BenchmarkTab", "Wrote {path}."), path=str(p))),
                          lambda exc, _tb: self._set_status(fill(translate("BenchmarkTab", "Could not write {path}: "
                                                                                           "{error}"),
                                                                 path=str(path), error=str(exc)), error=True))
