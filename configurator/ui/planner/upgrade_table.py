"""The Upgrade panel's answer: what limits the build (the resource, the rule, the evidence), the table of catalogue
changes the engine accepts (gain, range, price, price per percent), the guide's upgrade path, the status line,
and "Apply as a new build". A mixin of :class:`~configurator.ui.planner.upgrade_panel.UpgradePanel`, which makes
the widgets and asks the advisor."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QPushButton, QTableWidget, QTableWidgetItem, QTextBrowser

from configurator.core.build import Build
from configurator.core.estimate.power import MeasuredPower
from configurator.core.i18n import fill
from configurator.core.parts import AnyPart
from configurator.ui.i18n import translate
from configurator.ui.planner.upgrade_evidence import Outcome
from configurator.ui.theme import colours

if TYPE_CHECKING:
    from configurator.core.advise import Upgrade
    from configurator.monitor.report import RunReport


def _resource(key: str) -> str:
    return {"vram": translate("Upgrade", "VRAM"), "gpu": translate("Upgrade", "the GPU"),
            "cpu": translate("Upgrade", "the CPU (data loading)"), "storage": translate("Upgrade", "storage"),
            "pcie": translate("Upgrade", "the PCIe link"),
            "pipeline": translate("Upgrade", "the input pipeline"),
            "interconnect": translate("Upgrade", "the link between the GPUs")}.get(key, key)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class UpgradeTable:
    """Shows the advisor's outcome (the panel's widgets and state, made in its constructor)."""

    current: Callable[[], Build]
    catalogue: Callable[[], Mapping[str, AnyPart]]
    apply_build: Any  # the panel's Signal(object, object)
    status: QLabel
    limit: QLabel
    basis: QLabel
    guide: QTextBrowser
    table: QTableWidget
    apply_button: QPushButton
    build_combo: QComboBox
    outcome: Outcome | None
    run: RunReport | None
    bench_text: str
    error: str
    busy: bool
    _asked: Build | None

    @property
    def measured_power(self) -> MeasuredPower | None:  # the panel's
        raise NotImplementedError

    # -- showing it --------------------------------------------------------------------------------------
    def _show_status(self) -> None:
        c = colours(self.table.palette())
        if self.error:
            self.status.setStyleSheet(f"color: {c.error};")
            self.status.setText(self.error)
            return
        self.status.setStyleSheet(f"color: {c.muted_text};")
        if self.busy:
            return
        parts = []
        if self.run is not None:
            parts.append(fill(translate("Upgrade", "Evidence: {file}, {minutes:.0f} min."),
                              file=Path(self.run.path).name, minutes=self.run.duration_s / 60))
        power = self.measured_power
        if power is not None:
            parts.append(fill(translate("Upgrade", "Measured draw {w:,.0f} W: the planner's PWR-4 and BUD-3 use it "
                                                   "for this machine."), w=power.mean_w))
        if self.outcome is None:
            parts.append(translate("Upgrade", "Press “Find upgrades”: every candidate is checked as a whole build."))
        elif self._asked is not None and self.build_combo.currentData() is None and self._asked != self.current():
            parts.append(translate("Upgrade", "The build has changed since: find upgrades again."))
        self.status.setText(" ".join(parts))

    def _show(self) -> None:
        self._show_status()
        o = self.outcome
        self.table.setRowCount(0)
        self.apply_button.setEnabled(False)
        self.basis.clear()
        if o is None:
            self.limit.clear()
            self._show_guide()
            return
        a = o.advice
        c = colours(self.table.palette())
        no_workload = _esc(translate(
            "Upgrade", "The build has no workload: the advice is for ResNet-50 training (mixed precision)."))
        assumed = f"<br><span style='color:{c.muted_text}'>{no_workload}</span>"
        title = fill(translate("Upgrade", "Limited by {what}"), what=_resource(a.limit.resource))
        self.limit.setText(
            f"<b>{_esc(title)}</b>"
            f" · {_esc(a.limit.rule)}<br>{_esc(a.limit.evidence.render(translate))}"
            + (assumed if o.workload_assumed else ""))
        catalogue = self.catalogue()
        self.table.setRowCount(len(a.upgrades))
        for i, u in enumerate(a.upgrades):
            buy = " + ".join((f"{q} × " if q > 1 else "") + (catalogue[p].name if p in catalogue else p)
                             for p, q in u.buy)
            removed = ", ".join(catalogue[p].name if p in catalogue else p for p in u.remove) or "—"
            span = "—" if u.gain_low is None or u.gain_high is None else \
                f"{u.gain_low * 100:+.0f} … {u.gain_high * 100:+.0f} %"
            cells = (buy, removed, f"{u.gain * 100:+.0f} %", span, f"¥{u.price_cny:,}", f"¥{u.cny_per_percent:,.0f}")
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(u.basis.render(translate))
                if col >= 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(i, col, item)
        if not a.upgrades:
            self.basis.setText(translate("Upgrade", "No catalogue change that the engine accepts lifts it."))
        self.table.resizeRowsToContents()
        self._show_guide()

    def _show_guide(self) -> None:
        items = [m.render(translate) for m in self.outcome.advice.guide] if self.outcome is not None else []
        if self.bench_text:
            items.append(self.bench_text)
        self.guide.setHtml("<ul>" + "".join(f"<li>{_esc(t)}</li>" for t in items) + "</ul>" if items else "")

    def selected(self) -> Upgrade | None:
        rows = self.table.selectionModel().selectedRows()
        if self.outcome is None or not rows:
            return None
        return self.outcome.advice.upgrades[rows[0].row()]

    def _selection_changed(self) -> None:
        u = self.selected()
        self.apply_button.setEnabled(u is not None)
        self.basis.setText(u.basis.render(translate) if u is not None else "")

    def upgraded_build(self, u: Upgrade) -> Build:
        """The build with the change made, as a new build (named for it, the original's budget kept)."""
        base = self._asked or self.current()
        names = ", ".join(self.catalogue()[p].name if p in self.catalogue() else p for p, _q in u.buy)
        name = fill(translate("Upgrade", "{name} + {parts}"), name=base.name or translate("Upgrade", "Build"),
                    parts=names)
        return replace(u.report.build, name=name, budget_cny=base.budget_cny, workload=base.workload)

    def apply_selected(self) -> None:
        u = self.selected()
        if u is None:
            return
        self.apply_build.emit(self.upgraded_build(u), lambda: translate("Upgrade", "Apply upgrade"))

