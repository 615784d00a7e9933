"""Result rows and runs; the ``bench --json`` document, JSON and CSV export (atomic writes)."""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from configurator.bench.load import busy_reasons, impossible_reason, unstable_reason
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message, Translate
from configurator.files import write_atomic

STATUS_LABELS = {
    "ok": QT_TRANSLATE_NOOP("bench", "ok"),
    "failed": QT_TRANSLATE_NOOP("bench", "failed"),
    "timeout": QT_TRANSLATE_NOOP("bench", "timed out"),
    "cancelled": QT_TRANSLATE_NOOP("bench", "cancelled"),
    "skipped": QT_TRANSLATE_NOOP("bench", "skipped"),
    "running": QT_TRANSLATE_NOOP("bench", "running"),
    "finished": QT_TRANSLATE_NOOP("bench", "finished"),
}
CSV_COLUMNS = ("run", "started_at", "suite", "device", "machine", "workload", "status", "value", "unit",
               "median", "iqr", "error", "settings")


def fmt_value(v: float | None) -> str:
    """A measured figure with sensible precision: 1,234 · 12.3 · 1.23 · 0.123."""
    if v is None:
        return "—"
    a = abs(v)
    if a >= 100:
        return f"{v:,.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    return f"{v:.3g}"


@dataclass
class RowResult:
    name: str
    job: str
    status: str
    value: float | None = None
    unit: str | None = None
    median: float | None = None
    iqr: float | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)
    error: Message | None = None
    # How busy the machine was: {"before": {...}, "during": {...}} (configurator.bench.load.Window)
    load: dict[str, Any] | None = None

    @property
    def energy(self) -> dict[str, Any] | None:
        """Energy over the timed window: {"joules", "seconds", "mean_w", "method", "joules_per_sample",
        "per"} (configurator.bench.energy); None where it could not be measured."""
        e = self.details.get("energy")
        return e if isinstance(e, dict) and isinstance(e.get("joules"), int | float) else None

    @property
    def joules_per_sample(self) -> float | None:
        e = self.energy
        v = e.get("joules_per_sample") if e is not None else None
        return float(v) if isinstance(v, int | float) else None

    @property
    def peak_memory_bytes(self) -> int | None:
        """CUDA's peak allocated memory during the workload; None on other devices (n/a)."""
        v = self.details.get("peak_memory_bytes")
        if isinstance(v, int | float) and not isinstance(v, bool):
            return int(v)
        gib = self.details.get("peak_memory_gib")  # results stored before the bytes were recorded
        return int(gib * 1024**3) if isinstance(gib, int | float) and not isinstance(gib, bool) else None

    def error_text(self, translate: Translate | None = None) -> str | None:
        return self.error.render(translate) if self.error is not None else None

    def busy(self) -> list[Message]:
        """Why this result was measured on a busy machine; empty when it was not (or nothing is known). Only
        the devices the result ran on count: a CPU result is not blamed on the GPUs' processes."""
        if self.status != "ok":
            return []
        return busy_reasons(self.load, gpus=str(self.settings.get("device") or "cuda").startswith("cuda"))

    def unstable(self) -> Message | None:
        """Why this result must not be read as a fact (too wide a spread, or not measured at all)."""
        return unstable_reason(self.name, self.median, self.iqr, self.details) if self.status == "ok" else None

    def not_measured(self) -> Message | None:
        """Why this result cannot be true (more than ideal scaling, a spread wider than the median): it is
        shown as "not measured" with this reason, never as a number, a plot point or a ✓."""
        return impossible_reason(self.name, self.median, self.iqr, self.details) if self.status == "ok" else None

    @property
    def shown_value(self) -> float | None:
        """The value to show: None where the result is not measured (:meth:`not_measured`)."""
        return None if self.not_measured() is not None else self.value

    def to_json(self, full: bool = False, translate: Translate | None = None) -> dict[str, Any]:
        impossible = self.not_measured()
        d: dict[str, Any] = {"workload": self.name, "status": self.status, "value": self.value,
                             "unit": self.unit, "median": self.median, "iqr": self.iqr,
                             "error": self.error_text(translate)}
        if impossible is not None:  # no number that cannot be true: null, the reason, the raw figures apart
            d.update(value=None, median=None, iqr=None, not_measured=impossible.render(translate))
        peak = self.peak_memory_bytes
        e = self.energy
        d["peak_memory_gib"] = None if peak is None else round(peak / 1024**3, 3)
        d["energy_j"] = e["joules"] if e is not None else None
        d["joules_per_sample"] = self.joules_per_sample
        d["energy_method"] = e.get("method") if e is not None else None
        if full:
            d["job"] = self.job
            d["settings"] = self.settings
            d["details"] = self.details
            if impossible is not None:
                d["discarded"] = {"value": self.value, "median": self.median, "iqr": self.iqr}
            d["load"] = self.load
            d["busy"] = [m.render(translate) for m in self.busy()]
            unstable = self.unstable()
            d["unstable"] = unstable.render(translate) if unstable is not None else None
        return d


@dataclass
class RunRecord:
    suite: str
    device: str  # as requested: auto | cpu | cuda | mps
    python: str
    started_at: datetime
    resolved_device: str | None = None
    finished_at: datetime | None = None
    status: str = "running"
    fingerprint: dict[str, Any] = field(default_factory=dict)
    machine: str = ""
    rows: list[RowResult] = field(default_factory=list)
    error: Message | None = None  # why the suite could not run at all
    run_id: int | None = None
    build_id: int | None = None

    @property
    def duration_s(self) -> float | None:
        if self.finished_at is None:
            return None
        return round((self.finished_at - self.started_at).total_seconds(), 1)

    def row(self, name: str) -> RowResult | None:
        return next((r for r in self.rows if r.name == name), None)

    def run_json(self, translate: Translate | None = None) -> dict[str, Any]:
        return {
            "id": self.run_id, "suite": self.suite, "device": self.resolved_device or self.device,
            "requested_device": self.device, "status": self.status, "python": self.python,
            "started_at": self.started_at.isoformat(timespec="seconds"),
            "finished_at": self.finished_at.isoformat(timespec="seconds") if self.finished_at else None,
            "duration_s": self.duration_s, "machine": self.machine or None, "build_id": self.build_id,
            "error": self.error.render(translate) if self.error else None,
        }

    def to_json(self, full: bool = False, translate: Translate | None = None) -> dict[str, Any]:
        """The ``bench --json`` document; ``full`` adds each row's settings and details."""
        return {"run": self.run_json(translate), "fingerprint": self.fingerprint,
                "results": [r.to_json(full, translate) for r in self.rows]}

    def csv_text(self, translate: Translate | None = None) -> str:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(CSV_COLUMNS)
        for r in self.rows:
            w.writerow([self.run_id if self.run_id is not None else "",
                        self.started_at.isoformat(timespec="seconds"), self.suite,
                        self.resolved_device or self.device, self.machine, r.name, r.status,
                        _num(r.shown_value), r.unit or "", _num(r.median if r.shown_value is not None else None),
                        _num(r.iqr if r.shown_value is not None else None),
                        _row_error(r, translate),
                        json.dumps(r.settings, ensure_ascii=False, sort_keys=True)])
        return buf.getvalue()


def _row_error(r: RowResult, translate: Translate | None) -> str:
    impossible = r.not_measured()
    return impossible.render(translate) if impossible is not None else r.error_text(translate) or ""


def _num(v: float | None) -> str:
    return "" if v is None else repr(float(v))


def atomic_write(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> Path:
    """Write to a temporary file beside ``path``, fsync it, then replace ``path`` in one step; never through a
    symbolic link (configurator.files)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    return write_atomic(target, text, encoding)


def export_json(record: RunRecord, path: str | os.PathLike[str], translate: Translate | None = None) -> Path:
    return atomic_write(path, json.dumps(record.to_json(full=True, translate=translate), ensure_ascii=False,
                                         indent=2) + "\n")


def export_csv(record: RunRecord, path: str | os.PathLike[str], translate: Translate | None = None) -> Path:
    # UTF-8 with a BOM, like the parts export, so spreadsheet programs read Chinese text.
    return atomic_write(path, "\ufeff" + record.csv_text(translate))
