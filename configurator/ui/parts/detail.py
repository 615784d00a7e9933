"""The Parts tab's detail pane: every spec of the selected part and its source, its price history,
the price editor, and (for a GPU) its published measurements."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from configurator.core.i18n import fill
from configurator.core.parts import AnyPart, Motherboard, part_to_dict
from configurator.store.repository import PartsRepository, RepositoryError, today
from configurator.ui.i18n import translate
from configurator.ui.part_columns import display_value, header_text
from configurator.ui.parts.measurements import GpuMeasurements, MeasurementsSource, gpu_measurements
from configurator.ui.parts.values import unverified_words
from configurator.ui.theme import colours, on_theme_change

SKIP_IN_DETAIL = {"id", "name", "source", "notes", "pcie_slots", "m2_slots", "custom", "user_edited", "unverified"}


def _lane_source(source: str) -> str:
    return translate("PartsBrowser", "CPU") if source == "cpu" else translate("PartsBrowser", "chipset")


class DetailPane(QWidget):
    """Every spec of the selected part, its source, and the price editor."""

    price_changed = Signal(object)  # the updated part

    def __init__(self, repo: PartsRepository, parent: QWidget | None = None,
                 measurements: MeasurementsSource = gpu_measurements):
        super().__init__(parent)
        self.repo = repo
        self.part: AnyPart | None = None
        self.setObjectName("DetailPane")

        self.title = QLabel()
        self.title.setObjectName("detailTitle")
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body = QLabel()
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.body.setOpenExternalLinks(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.body.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.measurements = GpuMeasurements(measurements)

        self.price_label = QLabel()
        self.price = QSpinBox()
        self.price.setRange(0, 50_000_000)
        self.price.setSingleStep(100)
        self.price.setPrefix("¥ ")
        self.price.setGroupSeparatorShown(True)
        self.price.setObjectName("priceEditor")
        self.save_price = QPushButton()
        self.save_price.setObjectName("savePrice")
        self.reset_price = QPushButton()
        self.reset_price.setObjectName("resetPrice")
        self.save_price.clicked.connect(self._save_price)
        self.reset_price.clicked.connect(self._reset_price)
        self.price.valueChanged.connect(self._update_buttons)

        price_row = QHBoxLayout()
        price_row.addWidget(self.price_label)
        price_row.addWidget(self.price, 1)
        price_row.addWidget(self.save_price)
        price_row.addWidget(self.reset_price)

        inner = QWidget()
        inner_layout = QVBoxLayout(inner)
        inner_layout.addWidget(self.title)
        inner_layout.addWidget(self.body)
        inner_layout.addWidget(self.measurements)
        inner_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 0, 0, 0)
        layout.addWidget(scroll, 1)
        layout.addLayout(price_row)
        self.retranslate()
        self.show_part(None)
        on_theme_change(self.restyle)

    def retranslate(self) -> None:
        self.price_label.setText(translate("PartsBrowser", "Price:"))
        self.save_price.setText(translate("PartsBrowser", "Save price"))
        self.save_price.setToolTip(
            translate("PartsBrowser", "Keep this price; catalogue updates will not overwrite it"))
        self.reset_price.setText(translate("PartsBrowser", "Catalogue price"))
        self.reset_price.setToolTip(translate("PartsBrowser", "Go back to the price shipped with the catalogue"))
        self.show_part(self.part)

    def show_part(self, part: AnyPart | None) -> None:
        self.part = part
        editable = part is not None
        for w in (self.price, self.save_price, self.reset_price):
            w.setEnabled(editable)
        self.measurements.show_gpu(part.id if part is not None and part.category == "gpu" else None)
        if part is None:
            self.title.setText(translate("PartsBrowser", "No part selected"))
            self.body.setText(translate("PartsBrowser", "Pick a part in the table to see every specification, "
                                                 "where it comes from, and to edit its price."))
            return
        self.title.setText(f"<h2>{html.escape(part.name)}</h2>")
        self.price.blockSignals(True)
        self.price.setValue(part.price_cny)
        self.price.blockSignals(False)
        self.body.setText(self._html(part))
        self._update_buttons()

    def _update_buttons(self) -> None:
        part = self.part
        if part is None:
            return
        self.save_price.setEnabled(self.price.value() != part.price_cny)
        self.reset_price.setEnabled(part.user_edited and not part.custom)

    def _html(self, part: AnyPart) -> str:
        d = part_to_dict(part)
        doubt = set(part.unverified)
        warn = colours(self.palette()).warning
        mark = f" <span style='color:{warn}'>{html.escape(unverified_words())}</span>"
        rows = []
        for key, value in d.items():
            if key in SKIP_IN_DETAIL:
                continue
            rows.append(
                f"<tr><td style='padding-right:14px'>{html.escape(header_text(part.category, key))}"
                f"</td><td><b>{html.escape(display_value(key, value))}</b>{mark if key in doubt else ''}</td></tr>"
            )
        out = [f"<p><code>{html.escape(part.id)}</code>"]
        if part.custom:
            out.append(" · " + html.escape(translate("PartsBrowser", "custom part")))
        if part.user_edited:
            out.append(" · " + html.escape(translate("PartsBrowser", "price edited by you")))
        out.append("</p><table cellspacing='0' cellpadding='2'>" + "".join(rows) + "</table>")
        if isinstance(part, Motherboard) and part.pcie_slots:
            out.append(f"<h3>{html.escape(translate('parts', 'PCIe slots'))}"
                       f"{mark if 'pcie_slots' in doubt else ''}</h3>"
                       "<table cellspacing='0' cellpadding='3'>")
            heads = (
                translate("PartsBrowser", "Slot"), translate("PartsBrowser", "Position"),
                translate("PartsBrowser", "Size"), translate("PartsBrowser", "Link"),
                translate("PartsBrowser", "From"), translate("PartsBrowser", "Shares lanes with"),
            )
            out.append("<tr>" + "".join(
                f"<th align='left' style='padding-right:10px'>{html.escape(h)}</th>" for h in heads) + "</tr>")
            for s in part.pcie_slots:
                out.append(
                    f"<tr><td>{html.escape(s.name)}</td><td>{s.position}</td><td>x{s.physical_lanes}</td>"
                    f"<td>x{s.electrical_lanes} Gen{s.gen}</td>"
                    f"<td>{html.escape(_lane_source(s.source))}"
                    f"</td><td>{html.escape(', '.join(s.shares_with) or '—')}</td></tr>"
                )
            out.append("</table>")
        if isinstance(part, Motherboard) and part.m2_slots:
            out.append(f"<h3>{html.escape(translate('parts', 'M.2 slots'))}"
                       f"{mark if 'm2_slots' in doubt else ''}</h3>"
                       "<table cellspacing='0' cellpadding='3'>")
            for m in part.m2_slots:
                out.append(
                    f"<tr><td style='padding-right:10px'>{html.escape(m.name)}</td><td>x{m.lanes} Gen{m.gen}</td>"
                    f"<td style='padding-left:10px'>"
                    f"{html.escape(_lane_source(m.source))}"
                    f"</td><td style='padding-left:10px'>{html.escape(', '.join(m.shares_with) or '')}</td></tr>"
                )
            out.append("</table>")
        if doubt:
            fields = ", ".join(header_text(part.category, k) for k in part.unverified)
            note = fill(html.escape(translate("PartsBrowser", "Not verified against a vendor source ({n}): {fields}. "
                                                              "Check the vendor's figure before relying on it.")),
                        n=len(part.unverified), fields=html.escape(fields))
            out.append(f"<p id='unverified' style='color:{warn}'>{note}</p>")
        if part.notes:
            out.append(f"<h3>{html.escape(translate('parts', 'Notes'))}</h3><p>{html.escape(part.notes)}</p>")
        # A URL is a link; a user's own part may name its source in words, or not at all.
        if part.source.startswith(("https://", "http://")):
            source = f"<a href='{html.escape(part.source, quote=True)}'>{html.escape(part.source)}</a>"
        else:
            source = html.escape(part.source or translate("PartsBrowser", "not given"))
        out.append(f"<h3>{html.escape(translate('parts', 'Source'))}</h3><p>{source}</p>")
        history = self.repo.price_history(part.id)
        if len(history) > 1:
            heading = translate("PartsBrowser", "Price history")
            out.append(f"<h3>{html.escape(heading)}</h3>"
                       "<table cellspacing='0' cellpadding='2'>")
            origins = {
                "catalogue": translate("PartsBrowser", "catalogue"),
                "user": translate("PartsBrowser", "edited by you"),
                "import": translate("PartsBrowser", "CSV import"),
                "reset": translate("PartsBrowser", "back to catalogue price"),
            }
            for point in reversed(history[-8:]):
                out.append(
                    f"<tr><td style='padding-right:14px'>{point.recorded_at:%Y-%m-%d %H:%M}</td>"
                    f"<td align='right' style='padding-right:14px'><b>¥{point.price_cny:,}</b></td>"
                    f"<td>{html.escape(origins.get(point.origin, point.origin))} ({html.escape(point.price_date)})"
                    "</td></tr>")
            out.append("</table>")
        note = translate("PartsBrowser",
                         "Price: street-price estimate in CNY as of {date}; edit it to match your quote.")
        out.append(f"<p style='color:{colours(self.palette()).muted_text}'>"
                   + fill(html.escape(note), date=html.escape(part.price_date)) + "</p>")
        return "".join(out)

    def _save_price(self) -> None:
        if self.part is None:
            return
        try:
            part = self.repo.set_price(self.part.id, self.price.value(), today())
        except RepositoryError as exc:
            QMessageBox.warning(self, translate("PartsBrowser", "Price not saved"), exc.message.render(translate))
            return
        self.show_part(part)
        self.price_changed.emit(part)

    def _reset_price(self) -> None:
        if self.part is None:
            return
        try:
            part = self.repo.reset_price(self.part.id)
        except RepositoryError as exc:
            QMessageBox.warning(self, translate("PartsBrowser", "Price not reset"), exc.message.render(translate))
            return
        self.show_part(part)
        self.price_changed.emit(part)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def restyle(self) -> None:
        self.show_part(self.part)  # the note's colour, in the new scheme
