"""The alerts list: a thin Qt table model over the engine's alerts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from configurator.monitor.alerts import Alert
from configurator.ui.i18n import translate
from configurator.ui.theme import colours

ALERT_ROLE = Qt.ItemDataRole.UserRole + 1
COLUMNS = ("severity", "rule", "title", "message", "since", "state")


def severity_text(severity: str) -> str:
    return {"error": translate("Monitor", "error"), "warning": translate("Monitor", "warning"),
            "info": translate("Monitor", "info")}.get(severity, severity)


class AlertsModel(QAbstractTableModel):
    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.alerts: list[Alert] = []

    def set_alerts(self, alerts: list[Alert]) -> None:
        self.beginResetModel()
        self.alerts = list(alerts)
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.alerts)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return (translate("Monitor", "Severity"), translate("Monitor", "Rule"), translate("Monitor", "Alert"),
                translate("Monitor", "What to do"), translate("Monitor", "Since"),
                translate("Monitor", "State"))[section]

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        a = self.alerts[index.row()]
        col = COLUMNS[index.column()]
        if role == ALERT_ROLE:
            return a
        if role == Qt.ItemDataRole.ForegroundRole and (col == "severity" or not a.active):
            c = colours()  # the application's scheme, read when the view paints
            if col == "severity":
                return QBrush(QColor({"error": c.error, "warning": c.warning}.get(a.severity, c.info)))
            return QBrush(QColor(c.faint_text))
        if role == Qt.ItemDataRole.ToolTipRole and col in ("message", "title"):
            return a.message.render(translate)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if col == "severity":
            return severity_text(a.severity)
        if col == "rule":
            return f"{a.rule} · {a.source}"
        if col == "title":
            return a.title.render(translate)
        if col == "message":
            return a.message.render(translate)
        if col == "since":
            return datetime.fromtimestamp(a.since).strftime("%H:%M:%S")
        if a.active:
            return translate("Monitor", "active")
        return translate("Monitor", "cleared {time}").replace(
            "{time}", datetime.fromtimestamp(a.cleared or 0).strftime("%H:%M:%S"))
