"""The published measurements of the GPU selected in the Parts tab (issue 15 §1).

The Parts tab reads the rows from the database's measurements table
(``store.measurements.MeasurementsRepository.for_gpu``); :func:`gpu_measurements` reads the shipped
CSV for a pane without a database. The widget shows,
per row: model, task, precision, batch / sequence length, value and unit, software, the source as a
link, and its date."""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from configurator.core import measurements as ms
from configurator.core.i18n import QT_TRANSLATE_NOOP, fill
from configurator.ui.i18n import translate
from configurator.ui.theme import colours, on_theme_change

MeasurementsSource = Callable[[str], Sequence[ms.Measurement]]
HEADS = (
    QT_TRANSLATE_NOOP("GpuMeasurements", "Model"), QT_TRANSLATE_NOOP("GpuMeasurements", "Task"),
    QT_TRANSLATE_NOOP("GpuMeasurements", "Precision"), QT_TRANSLATE_NOOP("GpuMeasurements", "Batch / length"),
    QT_TRANSLATE_NOOP("GpuMeasurements", "Value"), QT_TRANSLATE_NOOP("GpuMeasurements", "Software"),
    QT_TRANSLATE_NOOP("GpuMeasurements", "Source"), QT_TRANSLATE_NOOP("GpuMeasurements", "Date"),
)


@functools.lru_cache(maxsize=1)
def _published() -> tuple[ms.Measurement, ...]:
    return tuple(ms.load())


def gpu_measurements(gpu_id: str) -> list[ms.Measurement]:
    """The published measurements of one catalogue GPU (every GPU count), in the shipped order."""
    return ms.for_gpu(_published(), gpu_id)


def _shape(m: ms.Measurement) -> str:
    """Batch and lengths: "bs 256 · 224 px", "bs 32 · seq 384", "prompt 512 · gen 128"."""
    parts = []
    if m.batch_size is not None:
        parts.append(fill(translate("GpuMeasurements", "bs {n}"), n=str(m.batch_size)))
    if m.seq_len is not None:
        parts.append(fill(translate("GpuMeasurements", "seq {n}"), n=str(m.seq_len)))
    if m.prompt_len is not None:
        parts.append(fill(translate("GpuMeasurements", "prompt {n}"), n=str(m.prompt_len)))
    if m.gen_len is not None:
        parts.append(fill(translate("GpuMeasurements", "gen {n}"), n=str(m.gen_len)))
    if m.image_size is not None and m.seq_len is None:
        parts.append(f"{m.image_size} px")
    return " · ".join(parts) or "—"


def _software(m: ms.Measurement, limit: int = 36) -> str:
    text = " ".join(x for x in (m.framework, m.framework_version) if x)
    if m.runtime:
        runtime = m.runtime if len(m.runtime) <= limit else m.runtime[:limit - 1].rstrip() + "…"
        text = f"{text}, {runtime}" if text else runtime
    return text or "—"


def _link(m: ms.Measurement) -> str:
    if not m.source_url:
        return html.escape(m.source_ref)
    parts = urlsplit(m.source_url)
    path = [p for p in parts.path.split("/") if p]
    label = parts.netloc + ("/" + "/".join(path[:2]) if parts.netloc == "github.com" and len(path) >= 2 else "")
    return (f"<a href='{html.escape(m.source_url, quote=True)}' title='{html.escape(m.source_ref, quote=True)}'>"
            f"{html.escape(label)}</a>")


def _value(m: ms.Measurement) -> str:
    unit = m.unit
    if unit.startswith(ms.RATIO_PREFIX):
        unit = "× " + unit.removeprefix(ms.RATIO_PREFIX)
    count = f" ({m.gpu_count}×)" if m.gpu_count > 1 else ""
    value = f"{m.value:,.0f}" if abs(m.value) >= 100 else f"{m.value:,.3g}"
    return f"{value} {html.escape(unit)}{count}"


class GpuMeasurements(QWidget):
    """A table of one GPU's published measurements, or nothing for a part that is not a GPU."""

    def __init__(self, source: MeasurementsSource = gpu_measurements, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gpuMeasurements")
        self.source = source
        self.gpu_id: str | None = None
        self.rows: list[ms.Measurement] = []
        self.label = QLabel()
        self.label.setObjectName("gpuMeasurementsTable")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setOpenExternalLinks(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        # The table wraps to the pane's width rather than widening the pane (and clipping the notes above).
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        self.show_gpu(None)
        on_theme_change(self.refresh)  # the note's colour is the scheme's

    def show_gpu(self, gpu_id: str | None) -> None:
        """Show this GPU's rows (None: hide)."""
        self.gpu_id = gpu_id
        if gpu_id is None:
            self.rows = []
        else:
            try:
                self.rows = list(self.source(gpu_id))
            except ms.MeasurementError as exc:  # a packaging bug: said, not a crash
                self.rows = []
                self.label.setText(html.escape(str(exc)))
                self.setVisible(True)
                return
        self.setVisible(gpu_id is not None)
        if gpu_id is not None:
            self.label.setText(self._html())

    def _html(self) -> str:
        title = html.escape(translate("GpuMeasurements", "Published measurements"))
        if not self.rows:
            note = translate("GpuMeasurements", "No published measurement of this GPU is shipped yet; its "
                                                "throughput estimates rest on the model fitted to the others.")
            return f"<h3>{title}</h3><p>{html.escape(note)}</p>"
        heads = [translate("GpuMeasurements", h) for h in HEADS]
        out = [f"<h3>{title}</h3><table cellspacing='0' cellpadding='3'><tr>"]
        out += [f"<th align='left' style='padding-right:8px'>{html.escape(h)}</th>" for h in heads]
        out.append("</tr>")
        for m in self.rows:
            cells = [html.escape(m.model), html.escape(m.task), html.escape(m.precision or "—"),
                     html.escape(_shape(m)), f"<b>{_value(m)}</b>", html.escape(_software(m)), _link(m),
                     html.escape(m.source_date or "—")]
            out.append("<tr>" + "".join(f"<td style='padding-right:8px'>{c}</td>" for c in cells) + "</tr>")
        out.append("</table>")
        sources = len({m.origin for m in self.rows})
        note = fill(translate("GpuMeasurements", "{n} measurements from {sources} sources; the link opens the exact "
                                                 "file or page."), n=str(len(self.rows)), sources=str(sources))
        out.append(f"<p style='color:{colours(self.palette()).muted_text}'>{html.escape(note)}</p>")
        return "".join(out)

    def refresh(self) -> None:
        """The table again, in the current language and scheme."""
        if self.gpu_id is not None:
            self.label.setText(self._html())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.refresh()
        super().changeEvent(event)
