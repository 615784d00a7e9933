"""The Monitor tab's remote hosts: a field to add a /metrics URL (this app, a DCGM exporter or
node_exporter), the hosts remembered across restarts, and their scrapes, one per host at a
time, off the GUI thread. Each host's card (in the cards area) shows its state; a host that
does not answer is retried with back-off by its target."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QSettings, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QPushButton, QWidget

from configurator.monitor.remote import RemoteError, RemoteTarget
from configurator.ui.i18n import translate
from configurator.ui.monitor.cards import RemoteCard
from configurator.ui.monitor.cards_area import CardsArea
from configurator.ui.tasks import TaskRunner
from configurator.ui.theme import colours, on_theme_change


class RemoteHosts(QWidget):
    """``scraped``: a host's card has new values (or a new state) to draw."""

    scraped = Signal()

    def __init__(self, area: CardsArea, settings: QSettings, tasks: TaskRunner, interval_s: Callable[[], float],
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.area = area
        self.settings = settings
        self.tasks = tasks
        self.interval_s = interval_s
        self._scraping: set[str] = set()
        self.edit = QLineEdit()
        self.edit.setObjectName("remoteEdit")
        self.edit.returnPressed.connect(self._add_clicked)
        self.button = QPushButton()
        self.button.setObjectName("remoteButton")
        self.button.clicked.connect(self._add_clicked)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1)
        row.addWidget(self.button)
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.scrape)
        on_theme_change(self.restyle)

    @property
    def remotes(self) -> list[RemoteCard]:
        return self.area.remotes

    def retranslate(self) -> None:
        self.edit.setPlaceholderText(translate(
            "Monitor", "Remote /metrics URL (this app, DCGM exporter or node_exporter), e.g. gpu-server:9400"))
        self.button.setText(translate("Monitor", "Add host"))

    def restyle(self) -> None:
        if self.edit.styleSheet():  # the border of a URL that was refused, in the new error colour
            self.edit.setStyleSheet(f"border: 1px solid {colours(self.palette()).error};")

    def restore(self) -> None:
        """Add the hosts remembered from the last session."""
        value = self.settings.value("monitor/remotes", [])
        urls = ([value] if value else []) if isinstance(value, str) else \
            [str(v) for v in value] if isinstance(value, list) else []
        for url in urls:
            self.add(url, save=False)

    def _save(self) -> None:
        self.settings.setValue("monitor/remotes", [r.target.url for r in self.remotes])

    def _ms(self) -> int:
        return int(max(1.0, self.interval_s()) * 1000)

    def interval_changed(self) -> None:
        if self.timer.isActive():
            self.timer.start(self._ms())

    def _add_clicked(self) -> None:
        if self.add(self.edit.text()):
            self.edit.clear()

    def add(self, url: str, save: bool = True) -> RemoteCard | None:
        try:
            target = RemoteTarget(url, timeout=min(3.0, max(0.5, self.interval_s())))
        except RemoteError as exc:
            self.edit.setToolTip(exc.message.render(translate))
            self.edit.setStyleSheet(f"border: 1px solid {colours(self.palette()).error};")
            return None
        self.edit.setStyleSheet("")
        self.edit.setToolTip("")
        if any(r.target.url == target.url for r in self.remotes):
            return None
        card = RemoteCard(target)
        card.remove.clicked.connect(lambda: self.remove(card))
        self.area.add_remote(card)
        if save:
            self._save()
        if not self.timer.isActive():
            self.timer.start(self._ms())
        self.scrape()
        return card

    def remove(self, card: RemoteCard) -> None:
        if card in self.remotes:
            self.area.remove_remote(card)
            self._save()
        if not self.remotes:
            self.timer.stop()

    def scrape(self) -> None:
        """Scrape each remote host off the GUI thread; one scrape per host at a time."""
        for card in self.remotes:
            target = card.target
            if target.url in self._scraping or not target.due():
                continue
            self._scraping.add(target.url)
            self.tasks.submit(target.scrape, partial(self._scraped, card), partial(self._scraped, card))

    def _scraped(self, card: RemoteCard, *_result: object) -> None:
        self._scraping.discard(card.target.url)
        if card in self.remotes:
            card.show_sample(card.target.latest)
            self.scraped.emit()

    def stop(self) -> None:
        self.timer.stop()
