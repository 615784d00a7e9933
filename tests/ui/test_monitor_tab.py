"""The Monitor tab, driven as a user would, on the fake NVML (and on this machine's real one)."""

from __future__ import annotations

import argparse
import itertools
import urllib.request
from pathlib import Path

import pytest
from dialogs import forget_unsaved
from painted import Paints
from PySide6.QtCore import QEvent, QSettings, Qt
from PySide6.QtWidgets import QMessageBox

from configurator.app import Services, build_services, build_window
from configurator.monitor.alerts import Thresholds
from configurator.monitor.fake_nvml import FakeNvml, several
from configurator.monitor.nvml import NvmlBackend
from configurator.monitor.service import MonitorService
from configurator.store.recordings import RecordingsRepository
from configurator.ui.main_window import MainWindow
from configurator.ui.monitor import MonitorTab
from configurator.ui.monitor.alerts_model import ALERT_ROLE


def monitor_tab(w: MainWindow) -> MonitorTab:
    return next(t for t, _title in w.extra_tabs if isinstance(t, MonitorTab))


def shows_newest(tab: MonitorTab) -> bool:
    """The tab shows its newest snapshot (the host card's values are that snapshot's)."""
    return tab.latest is not None and tab.cards.host_card.sample is tab.latest.host


def redraws(tab: MonitorTab) -> Paints:
    """Counts the tab's redraws as the host card's plot being painted again."""
    return Paints(tab.cards.host_card.plot)


@pytest.fixture
def fake_services(qapp, db_path: Path, settings: QSettings):  # type: ignore[no-untyped-def]
    s = build_services(argparse.Namespace(db=str(db_path), lang="en", fake_gpus=3), settings)
    yield s
    s.languages.install("en")
    s.close()


@pytest.fixture
def fake_window(qtbot, fake_services: Services):  # type: ignore[no-untyped-def]
    w = build_window(fake_services)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    tab = monitor_tab(w)
    tab.service.sampler.set_interval(0.05)
    w.tabs.setCurrentWidget(tab)
    return w


def test_no_driver_state_and_host_on_this_machine(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = monitor_tab(window)
    tab.service.sampler.set_interval(0.05)
    window.tabs.setCurrentWidget(tab)
    assert window.tabs.tabText(window.tabs.indexOf(tab)) == "Monitor"
    # until a shown sample has this app's CPU share: it needs 0.1 s since the sampler's start, which two
    # samples 0.05 s apart need not span (the flaky "n/a; sample took 2.7 ms" when other files ran first)
    qtbot.waitUntil(lambda: shows_newest(tab) and tab.latest.seq >= 2  # type: ignore[union-attr]
                    and tab.latest.host.own_cpu_percent is not None, timeout=5000)  # type: ignore[union-attr]
    snap = tab.latest
    assert snap is not None
    if snap.nvml.available:
        pytest.skip("this machine has an NVIDIA driver")
    assert tab.status.isVisible() and "No NVIDIA driver" in tab.status.text()
    assert tab.cards.gpu_cards == {}
    assert "%" in tab.cards.host_card.values["cpu"].text() and "GiB" in tab.cards.host_card.values["ram"].text()
    assert tab.empty_processes.isVisible() and "No NVIDIA GPU" in tab.empty_processes.text()
    assert "of a core" in tab.own_cpu.text()


def test_cards_plots_and_processes_with_fake_gpus(qtbot, fake_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = monitor_tab(fake_window)
    qtbot.waitUntil(lambda: len(tab.cards.gpu_cards) == 3 and shows_newest(tab), timeout=5000)
    assert not tab.status.isVisible()
    card = tab.cards.gpu_cards["0"]
    assert "RTX 4090" in card.title.text()
    assert "GiB" in card.values["vram"].text() and "W" in card.values["power"].text()
    assert "°C" in card.values["temp"].text() and "MHz" in card.values["clocks"].text()
    assert "Gen4 x16" in card.values["pcie"].text()
    qtbot.waitUntil(lambda: card.plot.curves["gpu0.util"].getData()[0] is not None
                    and len(card.plot.curves["gpu0.util"].getData()[0]) >= 2, timeout=5000)
    x, _y = card.plot.curves["gpu0.util"].getData()
    assert -tab.window_s <= x.min() and x.max() < 1  # clipped to the window, newest at 0 (the sampler may be ahead)
    assert tab.processes.isVisible() and tab.processes.rowCount() == 3
    names = {tab.processes.item(r, 2).text() for r in range(3)}
    assert "python train.py --local-rank 0" in names
    assert tab.processes.item(0, 4).text().endswith("GiB")


def test_never_redraws_while_hidden_and_catches_up_when_shown(qtbot, fake_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = monitor_tab(fake_window)
    painted = redraws(tab)
    qtbot.waitUntil(lambda: painted.count >= 1, timeout=5000)
    fake_window.tabs.setCurrentIndex(0)
    assert not tab.isVisible()
    count = painted.count
    woken: list[int] = []
    handle = tab.bridge.on_snapshot
    tab.bridge.on_snapshot = lambda snap: (woken.append(snap.seq), handle(snap))
    seq = tab.service.latest.seq  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: tab.service.latest.seq >= seq + 5, timeout=5000)  # type: ignore[union-attr]
    qtbot.wait(50)
    assert painted.count == count
    assert len(woken) <= 1  # not woken for the snapshots (one may have been on its way)
    shown_before = tab.cards.host_card.sample
    fake_window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: painted.count > count and tab.cards.host_card.sample is not shown_before, timeout=5000)
    # The first redraw shows the newest snapshot, not the ones it missed one by one.
    assert tab.latest.seq >= seq + 5  # type: ignore[union-attr]
    assert tab.cards.host_card.sample is tab.latest.host  # type: ignore[union-attr]


def test_a_minimised_window_is_not_redrawn_and_catches_up_when_restored(qtbot, fake_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = monitor_tab(fake_window)
    qtbot.waitUntil(lambda: shows_newest(tab), timeout=5000)
    fake_window.showMinimized()
    qtbot.waitUntil(lambda: not tab.bridge.watching, timeout=5000)
    qtbot.wait(100)  # one wake-up may have been on its way
    shown = tab.cards.host_card.sample
    seq = tab.service.latest.seq  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: tab.service.latest.seq >= seq + 5, timeout=5000)  # type: ignore[union-attr]
    # still "visible" to Qt, but nobody can see it: not redrawn (the cards keep their values)
    assert tab.cards.host_card.sample is shown
    fake_window.showNormal()
    qtbot.waitUntil(lambda: shows_newest(tab), timeout=5000)
    assert tab.latest.seq >= seq + 5  # type: ignore[union-attr]


def test_at_most_ten_redraws_a_second(qtbot, fake_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """100 snapshots a second are shown at most 10 times a second. Timed on the redraws
    themselves (the host card taking a sample), not on paint events (one redraw can paint a
    widget more than once) nor on wall-clock totals: a busy machine only spaces redraws out."""
    import time

    tab = monitor_tab(fake_window)
    tab.service.sampler.set_interval(0.01)  # 100 snapshots a second
    card = tab.cards.host_card
    shown_at: list[float] = []
    show = card.show_sample
    card.show_sample = lambda h: (shown_at.append(time.monotonic()), show(h))  # type: ignore[method-assign]
    seq = tab.service.latest.seq  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: tab.service.latest.seq >= seq + 60 and len(shown_at) >= 4, timeout=10000)  # type: ignore[union-attr]
    gaps = [b - a for a, b in itertools.pairwise(shown_at)]
    # MIN_REDRAW_MS is 100; Qt's coarse timers may fire up to 5 % early, and the redraw stamps
    # its time a moment before the card takes the sample.
    assert min(gaps) >= 0.08, [round(g * 1000) for g in gaps]
    assert len(shown_at) < tab.service.latest.seq - seq  # type: ignore[union-attr]


def test_a_card_scrolled_out_of_view_catches_up_when_scrolled_back(qtbot, fake_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """Cards off screen are not redrawn (their values and plots are most of a redraw's cost);
    scrolled into view they show the newest snapshot at once, values and plot."""
    tab = monitor_tab(fake_window)
    fake_window.resize(700, 560)  # one column: the host card and GPU 0 fill the view
    painted = redraws(tab)
    qtbot.waitUntil(lambda: len(tab.cards.gpu_cards) == 3 and painted.count >= 2, timeout=5000)
    last = tab.cards.gpu_cards["2"]
    qtbot.waitUntil(lambda: not tab.cards.on_screen(last), timeout=5000)
    count = painted.count
    qtbot.waitUntil(lambda: painted.count >= count + 3, timeout=5000)
    tab.service.sampler.stop()  # hold the newest snapshot still
    qtbot.waitUntil(lambda: tab.latest is tab.service.latest, timeout=5000)
    newest = next(g for g in tab.latest.gpus if g.id == "2")  # type: ignore[union-attr]
    assert last.sample is not newest  # it was left alone while out of view
    tab.cards.ensureWidgetVisible(last)
    qtbot.waitUntil(lambda: last.sample is newest, timeout=5000)
    assert last.values["power"].text().startswith(f"{newest.power_w:,.0f} W")
    t, _y = last.plot.curves["gpu2.util"].getData()
    assert len(t) >= 3


def test_pause_freezes_the_plots_but_not_the_values(qtbot, fake_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = monitor_tab(fake_window)
    qtbot.waitUntil(lambda: "0" in tab.cards.gpu_cards and shows_newest(tab), timeout=5000)
    qtbot.mouseClick(tab.pause_button, Qt.MouseButton.LeftButton)
    assert tab.paused and tab.pause_button.text() == "Resume"
    card = tab.cards.gpu_cards["0"]
    curve = card.plot.curves["gpu0.util"]
    frozen = len(curve.getData()[0])
    seq = tab.latest.seq  # type: ignore[union-attr]
    # the values go on: the card shows the newest snapshot, three snapshots on
    qtbot.waitUntil(lambda: tab.latest.seq >= seq + 3 and shows_newest(tab)  # type: ignore[union-attr]
                    and card.sample is next(g for g in tab.latest.gpus if g.id == "0"), timeout=5000)  # type: ignore[union-attr]
    assert len(curve.getData()[0]) == frozen
    qtbot.mouseClick(tab.pause_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(curve.getData()[0]) > frozen, timeout=5000)


def test_interval_and_window_controls(qtbot, fake_window: MainWindow, settings: QSettings) -> None:  # type: ignore[no-untyped-def]
    tab = monitor_tab(fake_window)
    tab.interval.setValue(2.5)
    assert tab.service.sampler.interval_s == 2.5 and float(settings.value("monitor/interval")) == 2.5
    tab.window_combo.setCurrentIndex(5)
    assert tab.window_s == 24 * 3600 and tab.window_combo.currentText() == "24 h"
    assert [tab.window_combo.itemText(i) for i in range(6)] == ["1 min", "5 min", "15 min", "1 h", "6 h", "24 h"]


def test_alerts_model_notifications_and_lost_gpu(qtbot, fake_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = monitor_tab(fake_window)
    fake = tab.service.gpu.lib
    assert isinstance(fake, FakeNvml)
    notified: list[tuple[str, str]] = []  # what goes to the desktop, through the main window's tray icon
    tab.notification.connect(lambda title, text: notified.append((title, text)))
    tab.service.alerts.th = Thresholds(util_sustain_s=0.0, clear_s=0.0)
    fake.scenario.gpus[1].base_util = 30.0
    fake.scenario.gpus[1].swing = 0.0
    qtbot.waitUntil(lambda: tab.alerts_model.rowCount() >= 1, timeout=5000)
    alert = tab.alerts_model.index(0, 0).data(ALERT_ROLE)
    assert alert.rule == "GPU-6" and alert.active
    assert tab.alerts_model.index(0, 1).data() == "GPU-6 · M 1.1"
    assert "likely bottleneck" in tab.alerts_model.index(0, 3).data()
    assert tab.bottom.tabText(1) == "Alerts (1)" and not tab.alerts_view.isHidden() and tab.empty_alerts.isHidden()
    qtbot.waitUntil(lambda: bool(notified), timeout=5000)
    assert notified[0][0].startswith("GPU-6")
    tab.service.gpu.retry_s = 999
    fake.lose(2)
    qtbot.waitUntil(lambda: any(a.rule == "MON-1" and a.severity == "error" for a in tab.alerts_model.alerts),
                    timeout=5000)
    qtbot.waitUntil(lambda: "lost" in tab.status.text(), timeout=5000)
    assert tab.status.isVisible() and tab.cards.gpu_cards["2"].state.isVisible()
    fake.scenario.gpus[1].base_util = 95.0
    qtbot.waitUntil(lambda: any(a.rule == "GPU-6" and not a.active for a in tab.alerts_model.alerts), timeout=5000)


def test_recording_with_markers_is_indexed(qtbot, fake_window: MainWindow, tmp_path: Path,  # type: ignore[no-untyped-def]
                                           fake_services: Services) -> None:
    tab = monitor_tab(fake_window)
    assert not tab.recorder.marker_button.isEnabled()
    path = tmp_path / "监控 记录.csv"
    assert tab.recorder.start_recording(path)
    assert tab.recorder.recording and tab.recorder.record_button.text() == "Stop recording"
    assert tab.recorder.marker_button.isEnabled()
    rec = tab.service.recorder
    assert rec is not None
    qtbot.waitUntil(lambda: rec.rows >= 2, timeout=5000)
    tab.recorder.marker_edit.setText("warm-up done")
    qtbot.mouseClick(tab.recorder.marker_button, Qt.MouseButton.LeftButton)
    assert tab.recorder.marker_edit.text() == "" and "warm-up done" in tab.recorder.record_state.text()
    rows = rec.rows
    qtbot.waitUntil(lambda: rec.rows >= rows + 2, timeout=5000)
    tab.recorder.stop_recording()
    assert not tab.recorder.recording and "Recorded" in tab.recorder.record_state.text()
    (saved,) = RecordingsRepository(fake_services.store).list()
    assert saved.path == path.resolve() and saved.rows == rec.rows and saved.gpus == 3
    assert [m["label"] for m in saved.markers] == ["warm-up done"]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == rec.rows + 1 and sum(",warm-up done," in line for line in lines) == 1


def test_recording_to_a_bad_folder_says_why(fake_window: MainWindow, tmp_path: Path) -> None:
    tab = monitor_tab(fake_window)
    assert not tab.recorder.start_recording(tmp_path / "missing" / "x.csv")
    assert not tab.recorder.recording and "Cannot record" in tab.recorder.record_state.text()


def test_exporter_switch(qtbot, fake_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = monitor_tab(fake_window)
    qtbot.waitUntil(lambda: tab.service.latest is not None, timeout=5000)
    tab.exporter.address.setText("127.0.0.1:0")
    tab.exporter.check.setChecked(True)
    assert tab.service.exporter.running and not tab.exporter.address.isEnabled()
    url = tab.service.exporter.url
    assert url and url in tab.exporter.state.text()
    with urllib.request.urlopen(url, timeout=5) as resp:
        assert b'configurator_gpu_utilization_ratio{gpu="0"' in resp.read()
    assert "without a password" not in tab.exporter.state.text()  # loopback: nothing to warn of
    tab.exporter.check.setChecked(False)
    assert not tab.service.exporter.running and tab.exporter.state.text() == "off"
    tab.exporter.address.setText("0.0.0.0:0")  # every interface: the tab says who can read it
    tab.exporter.check.setChecked(True)
    assert tab.service.exporter.running and "without a password" in tab.exporter.state.text()
    tab.exporter.check.setChecked(False)
    tab.exporter.address.setText("localhost:http")
    tab.exporter.check.setChecked(True)
    assert not tab.exporter.check.isChecked() and "port must be a number" in tab.exporter.state.text()


def test_remote_host_is_plotted_beside_local(qtbot, fake_window: MainWindow, settings: QSettings) -> None:  # type: ignore[no-untyped-def]
    tab = monitor_tab(fake_window)
    other = MonitorService(NvmlBackend(FakeNvml(several(2, model=2))))
    try:
        other.sampler.sample_once()
        url = other.exporter.start("127.0.0.1", 0)
        assert tab.remote_hosts.add("not a url at all ://") is None
        assert "not an http(s) URL" in tab.remote_hosts.edit.toolTip()
        card = tab.remote_hosts.add(url)
        assert card is not None and card in tab.cards.remotes
        qtbot.waitUntil(lambda: card.target.latest is not None, timeout=5000)
        qtbot.waitUntil(lambda: "RTX A6000" in card.gpu_labels.text(), timeout=5000)
        assert settings.value("monitor/remotes") in ([url], url)
        qtbot.waitUntil(lambda: len(card.history) >= 2, timeout=10000)
        tab.remote_hosts.remove(card)
        assert tab.cards.remotes == [] and not tab.remote_hosts.timer.isActive()
    finally:
        other.stop()
        fake_window.parent()  # keep the window alive until here
    qtbot.waitUntil(lambda: not tab.remote_hosts._scraping, timeout=5000)


def test_an_unreachable_or_garbage_remote_host_shows_its_state_and_backs_off(qtbot, fake_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """A host that refuses connections and one that answers HTML: each card says so and the
    tab keeps redrawing, with no error raised (pytest-qt fails a test on an exception in a slot,
    which the app turns into a dialog); retries back off instead of one a second; Remove works."""
    import http.server
    import socket
    import threading

    tab = monitor_tab(fake_window)
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed_port = s.getsockname()[1]

    class Html(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<html><body>{not: metrics}</body></html>")

        def log_message(self, *_args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Html)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        down = tab.remote_hosts.add(f"127.0.0.1:{closed_port}")
        garbage = tab.remote_hosts.add(f"http://127.0.0.1:{server.server_address[1]}/metrics")
        assert down is not None and garbage is not None
        qtbot.waitUntil(lambda: down.target.failures >= 1 and garbage.target.failures >= 1, timeout=10000)
        qtbot.waitUntil(lambda: "cannot reach" in down.state.text(), timeout=5000)
        assert "failed tries" in down.state.text() and "next in 2 s" in down.state.text()
        assert "not a Prometheus metrics page" in garbage.state.text() or "GPU" not in garbage.gpu_labels.text()
        seq = tab.latest.seq  # type: ignore[union-attr]
        qtbot.waitUntil(lambda: tab.latest.seq >= seq + 5 and shows_newest(tab), timeout=5000)  # type: ignore[union-attr]  # the local cards go on
        assert down.target.failures <= 2  # backed off: not a try per second
        assert not tab.findChildren(QMessageBox)
        tab.remote_hosts.remove(down)
        tab.remote_hosts.remove(garbage)
        assert tab.cards.remotes == []
        qtbot.waitUntil(lambda: not tab.remote_hosts._scraping, timeout=5000)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_language_change_retranslates(qtbot, fake_window: MainWindow, fake_services: Services, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    tab = monitor_tab(fake_window)
    calls = []
    original = tab.retranslate
    monkeypatch.setattr(tab, "retranslate", lambda: (calls.append(1), original()))
    fake_window.set_language("zh_CN")
    assert calls
    fake_window.set_language("en")
    assert tab.pause_button.text() == "Pause"
    tab.changeEvent(QEvent(QEvent.Type.LanguageChange))


def test_values_and_plots_repainted_in_part_look_as_if_painted_whole(qtbot, fake_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """A changed value repaints only its cell, a plot only its view box; what is on screen then
    must equal the card painted afresh (no stale pixels, no text drawn twice over itself)."""
    tab = monitor_tab(fake_window)
    tab.window_combo.setCurrentIndex(0)  # one minute: each redraw moves the lines by a pixel or more
    painted = redraws(tab)
    qtbot.waitUntil(lambda: "0" in tab.cards.gpu_cards and painted.count >= 3, timeout=5000)
    count = painted.count
    qtbot.waitUntil(lambda: painted.count >= count + 10, timeout=5000)
    tab.service.sampler.stop()
    qtbot.wait(200)
    card = tab.cards.gpu_cards["0"]
    panel = card.panel
    screen = fake_window.screen()

    def on_screen() -> object:
        top_left = panel.mapTo(fake_window, panel.rect().topLeft())
        shot = screen.grabWindow(fake_window.winId(), top_left.x(), top_left.y(), panel.width(), panel.height())
        return shot.toImage().convertToFormat(panel.grab().toImage().format())

    plot = card.plot  # redrawn by marking only its view box dirty: nothing stale may be left around it
    at = plot.mapTo(fake_window, plot.rect().topLeft())
    shot = screen.grabWindow(fake_window.winId(), at.x(), at.y(), plot.width(), plot.height()).toImage()
    assert shot.convertToFormat(plot.grab().toImage().format()) == plot.grab().toImage()

    card.set("power", "123 W of 450 W")
    card.set("temp", "99 °C", "error")
    card.set("power", "124 W of 450 W")  # twice before one paint
    qtbot.waitUntil(lambda: on_screen() == panel.grab().toImage(), timeout=5000)
    assert "124 W" in card.values["power"].text()


def test_the_planner_detects_this_machine_from_the_monitors_gpus(qtbot, fake_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """Planner → "This machine": the GPUs the monitor samples (three fake cards) and this host's parts
    matched to the catalogue open as a new, unsaved build; the status line names what is left to pick."""
    from configurator.ui.planner.tab import PlannerTab

    qtbot.waitUntil(lambda: monitor_tab(fake_window).latest is not None, timeout=10000)
    planner = fake_window.tab(PlannerTab)
    messages: list[str] = []
    planner.status_message.connect(messages.append)
    planner.act_detect.trigger()
    qtbot.waitUntil(lambda: planner.doc.build.name == "This machine", timeout=10000)
    gpus = {p.id: p.qty for p in planner.doc.build.parts if planner.catalogue[p.id].category == "gpu"}
    assert gpus == {"nvidia-rtx-4090": 1, "nvidia-rtx-3090": 1, "nvidia-rtx-a6000": 1}  # the fake NVML's cards
    assert planner.doc.modified and planner.doc.saved_id is None  # kept only when the user saves it
    assert any("parts matched to the catalogue" in m for m in messages) and planner.act_detect.isEnabled()
    forget_unsaved(fake_window)
