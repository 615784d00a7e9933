"""Adding a custom part: a form made from the category's record, validated by core.

Nothing the user typed is lost on a mistake: the dialog stays open, each bad
field is marked and the problems are listed under the form.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import typing
from datetime import date
from pathlib import Path
from typing import Any, Literal

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from configurator.core.i18n import QT_TRANSLATE_NOOP, fill
from configurator.core.parts import (
    CATEGORIES,
    CATEGORY_LABELS,
    PART_TYPES,
    STORE_FIELDS,
    AnyPart,
    PartValidationError,
    parse_text_value,
    part_to_dict,
    value_label,
)
from configurator.store.repository import PartsRepository
from configurator.ui.files import save_file
from configurator.ui.i18n import translate
from configurator.ui.part_columns import header_text
from configurator.ui.theme import colours, on_theme_change

_EXAMPLES = {
    "pcie_slots": '[{"name": "PCIEX16_1", "position": 1, "physical_lanes": 16, "electrical_lanes": 16, '
                  '"gen": 4, "from": "cpu", "shares_with": []}]',
    "m2_slots": '[{"name": "M2_1", "gen": 4, "lanes": 4, "from": "cpu", "shares_with": []}]',
    "memory_types": "DDR4; DDR5",
    "board_form_factors": "ATX; Micro-ATX",
    "source": QT_TRANSLATE_NOOP("CustomPartDialog", "a spec page's URL, or where the figures come from"),
    "id": "brand-model",
}


def _is_optional(tp: Any) -> bool:
    return type(None) in typing.get_args(tp)


class CustomPartDialog(QDialog):
    def __init__(self, repo: PartsRepository, category: str, parent: QWidget | None = None,
                 settings: QSettings | None = None):
        super().__init__(parent)
        self.repo = repo
        self.settings = settings
        self.template_path: Path | None = None  # the last template saved
        self.created: AnyPart | None = None
        self.setWindowTitle(translate("CustomPartDialog", "Add a custom part"))
        self.resize(560, 680)

        self.category = QComboBox()
        self.category.setObjectName("customCategory")
        for cat in CATEGORIES:
            self.category.addItem(translate("parts", CATEGORY_LABELS[cat]), cat)
        self.category.setCurrentIndex(CATEGORIES.index(category))
        self.category.currentIndexChanged.connect(self._rebuild)
        # Start from an existing part of the category: its specs, to edit into the custom one.
        self.copy_from = QComboBox()
        self.copy_from.setObjectName("copyFrom")
        self.copy_from.activated.connect(lambda _i: self._copy_chosen())

        self.form_host = QWidget()
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setWidget(self.form_host)
        self.errors = QLabel()
        self.errors.setObjectName("customErrors")
        self.errors.setWordWrap(True)
        self.errors.setStyleSheet(self._error_style())
        self.errors.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(translate("CustomPartDialog", "Add part"))
        buttons.accepted.connect(self.try_accept)
        buttons.rejected.connect(self.reject)
        # Many parts at once: a CSV of this category's columns to fill in a spreadsheet and import.
        self.template_button = buttons.addButton(translate("CustomPartDialog", "Save template…"),
                                                 QDialogButtonBox.ButtonRole.ActionRole)
        self.template_button.setObjectName("saveTemplate")
        self.template_button.setToolTip(translate(
            "CustomPartDialog", "Many parts at once: save a CSV with this category's columns (the required ones "
                                "marked) and an example row, fill it in a spreadsheet, then File → Import parts "
                                "from CSV…"))
        self.template_button.clicked.connect(lambda: self.save_template())
        self.template_note = QLabel()
        self.template_note.setObjectName("templateNote")
        self.template_note.setWordWrap(True)
        self.template_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.template_note.hide()

        hint = QLabel(translate("CustomPartDialog", "Fields marked * are required. Units are in the labels. "
                                                    "Lists are separated by ';'."))
        hint.setWordWrap(True)
        top = QFormLayout()
        top.addRow(translate("parts", "Category"), self.category)
        top.addRow(translate("CustomPartDialog", "Copy from…"), self.copy_from)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(hint)
        layout.addWidget(self.scroll_area, 1)
        layout.addWidget(self.errors)
        layout.addWidget(self.template_note)
        layout.addWidget(buttons)
        self.editors: dict[str, QWidget] = {}
        self._labels: dict[str, QLabel] = {}
        self._rebuild()
        on_theme_change(self.restyle)

    @property
    def current_category(self) -> str:
        return str(self.category.currentData())

    def _error_style(self) -> str:
        return f"color: {colours(self.palette()).error}"

    def restyle(self) -> None:
        """The error colour of the scheme now shown."""
        self.errors.setStyleSheet(self._error_style())
        for label in self._labels.values():
            if label.styleSheet():
                label.setStyleSheet(self._error_style() + "; font-weight: bold")

    def _rebuild(self) -> None:
        # Keep what was typed in fields both categories share.
        kept = {k: self._text(k) for k in self.editors}
        host = QWidget()
        form = QFormLayout(host)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.editors, self._labels = {}, {}
        cls = PART_TYPES[self.current_category]
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if f.name in STORE_FIELDS:
                continue
            tp = hints[f.name]
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            editor = self._editor(f.name, tp, f)
            editor.setObjectName(f"field_{f.name}")
            label = QLabel(header_text(self.current_category, f.name) + (" *" if required else ""))
            self._labels[f.name] = label
            self.editors[f.name] = editor
            form.addRow(label, editor)
            if f.name in kept and kept[f.name] not in ("", None):
                self._set_text(f.name, kept[f.name])
        self.scroll_area.setWidget(host)
        self.form_host = host
        self._fill_copy_from()

    def save_template(self, path: Path | None = None) -> Path | None:
        """Write the template CSV of the category shown (``path``, else the one the user picks); the
        example row is the part chosen under "Copy from…", else a typical catalogue part."""
        from configurator.store.csvfile import export_template, template_example

        category = self.current_category
        if path is None:
            caption = translate("CustomPartDialog", "Save a template for your parts")
            default = Path.home() / f"{category}-template.csv"
            filter_ = translate("MainWindow", "CSV files (*.csv);;All files (*)")
            if self.settings is not None:
                chosen = save_file(self, self.settings, "parts-template", caption, default, filter_)
            else:
                chosen = QFileDialog.getSaveFileName(self, caption, str(default), filter_)[0]
            if not chosen:
                return None
            path = Path(chosen)
        part_id = self.copy_from.currentData()
        chosen_part = self.repo.get(str(part_id)) if part_id else None
        example = chosen_part if chosen_part is not None and not chosen_part.custom else template_example(
            self.repo.list_parts(category))
        try:
            cols = export_template(category, path, example, translate)
        except OSError as exc:
            self.template_note.setStyleSheet(self._error_style())
            self.template_note.setText(fill(translate("CustomPartDialog", "The template was not saved: {error}"),
                                            error=exc.strerror or str(exc)))
            self.template_note.show()
            return None
        self.template_path = path
        self.template_note.setStyleSheet("")
        self.template_note.setText(fill(translate(
            "CustomPartDialog", "Saved {path}: {required} of its {n} columns are required (the second row says "
                                "which, and what an empty cell means). Put a part on each row, then File → "
                                "Import parts from CSV…"),
            path=str(path), required=str(sum(c.required for c in cols)), n=str(len(cols))))
        self.template_note.show()
        return path

    def _fill_copy_from(self) -> None:
        self.copy_from.clear()
        self.copy_from.addItem(translate("CustomPartDialog", "— a blank part —"), None)
        for part in sorted(self.repo.list_parts(self.current_category), key=lambda p: p.name.casefold()):
            self.copy_from.addItem(part.name, part.id)

    def _copy_chosen(self) -> None:
        part_id = self.copy_from.currentData()
        part = self.repo.get(str(part_id)) if part_id else None
        if part is not None:
            self.copy_part(part)

    def copy_part(self, part: AnyPart) -> None:
        """Fill the form with ``part``'s fields; its id and name get "-copy" / "(copy)", so the new part
        is told apart from the one it started as (the user edits them)."""
        data = part_to_dict(part)
        data["id"] = f"{part.id}-copy"
        data["name"] = part.name + " " + translate("CustomPartDialog", "(copy)")
        for name in self.editors:
            value = data.get(name)
            w = self.editors[name]
            if isinstance(w, QLineEdit):
                if value is None:
                    w.clear()
                elif isinstance(value, list):
                    w.setText(json.dumps(value, ensure_ascii=False) if value and isinstance(value[0], dict)
                              else "; ".join(str(v) for v in value))
                else:
                    w.setText(str(value))
            else:
                self._set_text(name, value)
        if "price_date" in self.editors and isinstance(self.editors["price_date"], QLineEdit):
            self.editors["price_date"].setText(date.today().isoformat())  # the price is the user's, today
    def _editor(self, name: str, tp: Any, f: dataclasses.Field[Any]) -> QWidget:
        inner = [a for a in typing.get_args(tp) if a is not type(None)] if _is_optional(tp) else [tp]
        base = inner[0]
        if typing.get_origin(base) is Literal:
            box = QComboBox()
            if _is_optional(tp):
                box.addItem("—", None)
            for choice in typing.get_args(base):
                box.addItem(translate("parts", value_label(name, choice)), choice)  # words, not the key
            if f.default is not dataclasses.MISSING and f.default is not None:
                box.setCurrentIndex(box.findData(f.default))
            return box
        if base is bool and not _is_optional(tp):
            check = QCheckBox()
            check.setChecked(bool(f.default) if f.default is not dataclasses.MISSING else False)
            return check
        edit = QLineEdit()
        if name == "price_date":
            edit.setText(date.today().isoformat())
        elif f.default is not dataclasses.MISSING and f.default is not None and not _is_optional(tp):
            edit.setText(str(f.default))
        if name in _EXAMPLES:
            edit.setPlaceholderText(translate("CustomPartDialog", _EXAMPLES[name]) if name == "source"
                                    else _EXAMPLES[name])
        elif _is_optional(tp):
            edit.setPlaceholderText(translate("CustomPartDialog", "empty = not applicable"))
        elif f.default == "":
            edit.setPlaceholderText(translate("CustomPartDialog", "optional"))
        return edit

    def _text(self, name: str) -> Any:
        w = self.editors[name]
        if isinstance(w, QLineEdit):
            return w.text()
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, QComboBox):
            return w.currentData()
        return None

    def _set_text(self, name: str, value: Any) -> None:
        w = self.editors[name]
        if isinstance(w, QLineEdit) and isinstance(value, str):
            w.setText(value)
        elif isinstance(w, QCheckBox) and isinstance(value, bool):
            w.setChecked(value)
        elif isinstance(w, QComboBox):
            i = w.findData(value)
            if i >= 0:
                w.setCurrentIndex(i)

    def values(self) -> dict[str, Any]:
        cls = PART_TYPES[self.current_category]
        hints = typing.get_type_hints(cls)
        data: dict[str, Any] = {"category": self.current_category}
        for name in self.editors:
            value = self._text(name)
            if isinstance(value, str):
                if value.strip() == "":
                    continue
                value = parse_text_value(value, hints[name])
                if name in ("pcie_slots", "m2_slots") and isinstance(value, str):
                    with contextlib.suppress(json.JSONDecodeError):
                        value = json.loads(value)
            if value is None:
                continue
            data[name] = value
        return data

    def try_accept(self) -> None:
        for field_label in self._labels.values():
            field_label.setStyleSheet("")
        try:
            self.created = self.repo.add_custom(self.values())
        except PartValidationError as exc:
            lines = []
            for e in exc.errors:
                root = e.path.split("[")[0].split(".")[0]
                where = e.path
                if root in self._labels:
                    self._labels[root].setStyleSheet(self._error_style() + "; font-weight: bold")
                    # The label the user sees, keeping "[2].gen" of a slot.
                    where = header_text(self.current_category, root) + e.path[len(root):]
                lines.append(f"• {where}: {e.message.render(translate)}")
            self.errors.setText("\n".join(lines))
            self.errors.show()
            first = exc.errors[0].path.split("[")[0].split(".")[0] if exc.errors else None
            if first in self.editors:
                self.scroll_area.ensureWidgetVisible(self.editors[first], 50, 50)
                self.editors[first].setFocus(Qt.FocusReason.OtherFocusReason)
            return
        self.accept()
