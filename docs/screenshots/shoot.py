"""The README's screenshots, made offscreen from the app itself.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/shoot.py [NAME ...]

Fake GPUs for the Monitor (``--fake-gpus``), none for the no-driver state; the Benchmark
shot is a real (short) run on this machine's CPU.
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
OUT = Path(__file__).resolve().parent
TMP = Path(tempfile.mkdtemp(prefix="configurator-shots-"))
os.environ["XDG_CONFIG_HOME"] = str(TMP / "cfg")
os.environ["XDG_DATA_HOME"] = str(TMP / "data")

from PySide6.QtCore import QEventLoop, QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

app = QApplication(sys.argv[:1])

from configurator.app import build_services, build_window  # noqa: E402
from configurator.ui.bench import BenchmarkTab  # noqa: E402
from configurator.ui.monitor import MonitorTab  # noqa: E402
from configurator.ui.planner.tab import PlannerTab  # noqa: E402
from configurator.ui.theme import setup_theme  # noqa: E402

theme = setup_theme(app)


def wait(ms: int) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def window(name: str, lang: str = "en", fake_gpus: int | None = None, scheme: str = "light"):  # type: ignore[no-untyped-def]
    theme.apply(scheme)
    settings = QSettings(str(TMP / f"{name}.ini"), QSettings.Format.IniFormat)
    services = build_services(argparse.Namespace(db=str(TMP / f"{name}.db"), lang=lang, fake_gpus=fake_gpus),
                              settings)
    w = build_window(services)
    w.resize(1500, 950)
    w.show()
    wait(300)
    return services, w


def planner_shot(name: str, lang: str, scheme: str = "light") -> None:
    services, w = window(name, lang, scheme=scheme)
    planner = w.tab(PlannerTab)
    preset = next(p for p in planner.tiers if p.tier.id == "TIER-pro")
    planner.apply_preset(preset)
    wait(600)
    w.grab().save(str(OUT / f"{name}.png"))
    planner.doc.undo_stack.setClean()  # the preset is an unsaved build: closing would ask to save it
    w.close()
    services.close()


def planner_cluster_shot(name: str, lang: str, scheme: str = "light") -> None:
    """The Pro tier as one of 4 nodes on 1 GbE (CLU-1): the cluster section of the results and its finding."""
    services, w = window(name, lang, scheme=scheme)
    planner = w.tab(PlannerTab)
    preset = next(p for p in planner.tiers if p.tier.id == "TIER-pro")
    planner.apply_preset(preset)
    wait(300)
    planner.form.interconnect.setCurrentIndex(planner.form.interconnect.findData("1gbe"))
    planner.form.nodes.setValue(4)
    wait(900)
    planner.results.estimates_label.verticalScrollBar().setValue(
        planner.results.estimates_label.verticalScrollBar().maximum())
    wait(100)
    w.grab().save(str(OUT / f"{name}.png"))
    planner.doc.undo_stack.setClean()
    w.close()
    services.close()


def with_popup(w, popup):  # type: ignore[no-untyped-def]
    """The window's grab with an open popup (a window of its own) painted where it is on screen."""
    from PySide6.QtGui import QPainter

    shot = w.grab()
    top = popup.window()
    p = QPainter(shot)
    p.drawPixmap(w.mapFromGlobal(top.mapToGlobal(top.rect().topLeft())), top.grab())
    p.end()
    return shot


def planner_details_shot(suffix: str, lang: str, scheme: str = "light") -> None:
    """A picker open, an expanded finding and the PCIe map (three files: planner-picker-, -finding-, -pcie-)."""
    services, w = window(f"details-{suffix}", lang, scheme=scheme)
    planner = w.tab(PlannerTab)
    preset = next(p for p in planner.tiers if p.tier.id == "TIER-pro")
    planner.apply_preset(preset)
    wait(600)
    combo = planner.rows["gpu"].combo
    combo.showPopup()
    wait(400)
    with_popup(w, combo.view()).save(str(OUT / f"planner-picker-{suffix}.png"))
    combo.hidePopup()
    tree = planner.findings
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        top.setExpanded(True)
        for j in range(top.childCount()):
            if top.child(j).data(0, 256) in ("PWR-2", "FIT-1"):
                top.child(j).setExpanded(True)
                for k in range(top.child(j).childCount()):
                    top.child(j).child(k).setExpanded(True)
    wait(400)
    planner.results.grab().save(str(OUT / f"planner-finding-{suffix}.png"))
    planner.results.pcie_box.grab().save(str(OUT / f"planner-pcie-{suffix}.png"))
    planner.doc.undo_stack.setClean()
    w.close()
    services.close()


def monitor_shot(name: str, fake_gpus: int | None, lang: str = "en", scheme: str = "light") -> None:
    services, w = window(name, lang, fake_gpus=fake_gpus, scheme=scheme)
    tab = w.tab(MonitorTab)
    tab.window_combo.setCurrentIndex(0)
    tab.interval.setValue(0.5)  # as a user would: the spin box says what the sampler does
    wait(15000 if fake_gpus else 4000)
    w.grab().save(str(OUT / f"{name}.png"))
    w.close()
    services.close()


def remote_down_shot(name: str, lang: str) -> None:
    """A remote host that cannot be reached: its card says so and backs off; nothing else happens."""
    import socket

    services, w = window(name, lang, fake_gpus=1)
    tab = w.tab(MonitorTab)
    with socket.socket() as s:  # a loopback port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    tab.remote_hosts.add(f"127.0.0.1:{port}")
    wait(6000)
    tab.cards.ensureWidgetVisible(tab.cards.remotes[0])
    wait(300)
    w.grab().save(str(OUT / f"{name}.png"))
    w.close()
    services.close()


def bench_shot(name: str) -> None:
    services, w = window(name)
    tab = w.tab(BenchmarkTab)
    tab.picker.set_python(sys.executable)
    tab.controls.device_combo.setCurrentIndex(tab.controls.device_combo.findData("cpu"))
    done = []
    tab.runner.finished.connect(lambda *_a: done.append(True))
    tab.start(jobs=["matmul", "membw", "copies", "resnet18", "gpt2"])  # the quick suite's defaults
    for _ in range(600):
        if done:
            break
        wait(500)
    wait(1500)
    w.grab().save(str(OUT / f"{name}.png"))
    w.close()
    services.close()


def grab_with_popup(w, popup) -> None:  # type: ignore[no-untyped-def]
    """The window with an open popup (a window of its own) painted where it shows."""
    from PySide6.QtGui import QPainter

    image = w.grab().toImage()
    painter = QPainter(image)
    painter.drawPixmap(w.mapFromGlobal(popup.mapToGlobal(popup.rect().topLeft())), popup.grab())
    painter.end()
    return image


def bench_runs_shot(name: str, lang: str, scheme: str = "light") -> None:
    """The Benchmark tab's stored runs, after a restart: the newest is shown and the list is open."""
    tiny = {"matmul": {"shapes": [[512, 512, 512]]}, "membw": {"mib": 64}}
    services, w = window(name, lang, scheme=scheme)
    tab = w.tab(BenchmarkTab)
    tab.picker.set_python(sys.executable)
    tab.controls.device_combo.setCurrentIndex(tab.controls.device_combo.findData("cpu"))
    for cancel in (False, False, True):
        done: list[bool] = []
        tab.runner.finished.connect(lambda *_a, d=done: d.append(True))
        if cancel:
            tab.runner.job_event.connect(lambda ev: tab.cancel() if ev.kind == "job_started" and ev.job == "membw"
                                         else None)
        tab.start(jobs=["matmul", "membw"], overrides=tiny)
        for _ in range(600):
            if done:
                break
            wait(200)
        wait(1500)
    w.close()
    services.close()
    services, w = window(name, lang, scheme=scheme)  # the app again, on the same database
    tab = w.tab(BenchmarkTab)
    wait(800)
    combo = tab.panel.runs.combo
    combo.showPopup()
    wait(500)
    grab_with_popup(w, combo.view().window()).save(str(OUT / f"{name}.png"))
    combo.hidePopup()
    w.close()
    services.close()


def parts_shot(name: str, lang: str) -> None:
    services, w = window(name, lang)
    w.tabs.setCurrentWidget(w.parts_browser)
    w.parts_browser.ensure_loaded()
    w.parts_browser.select_part("nvidia-rtx-4090")
    wait(500)
    w.grab().save(str(OUT / f"{name}.png"))
    w.close()
    services.close()


if __name__ == "__main__":
    if len(sys.argv) == 1:  # each shot in a process of its own (the language is per process)
        import subprocess

        for key in ("planner-en", "planner-zh", "planner-dark", "monitor-en", "monitor-no-driver", "benchmark-en",
                    "parts-en", "parts-zh", "monitor-remote-down-en", "monitor-remote-down-zh", "monitor-zh",
                    "monitor-dark", "benchmark-runs-en", "benchmark-runs-zh", "benchmark-runs-dark",
                    "planner-details-en", "planner-details-zh", "planner-details-dark", "planner-cluster-en",
                    "planner-cluster-zh", "planner-cluster-dark"):
            subprocess.run([sys.executable, __file__, key], check=True)
        sys.exit(0)
    only = set(sys.argv[1:])
    jobs = {
        "planner-en": lambda: planner_shot("planner-en", "en"),
        "planner-zh": lambda: planner_shot("planner-zh", "zh_CN"),
        "planner-dark": lambda: planner_shot("planner-dark", "en", "dark"),
        "planner-details-en": lambda: planner_details_shot("en", "en"),
        "planner-details-zh": lambda: planner_details_shot("zh", "zh_CN"),
        "planner-details-dark": lambda: planner_details_shot("dark", "en", "dark"),
        "planner-cluster-en": lambda: planner_cluster_shot("planner-cluster-en", "en"),
        "planner-cluster-zh": lambda: planner_cluster_shot("planner-cluster-zh", "zh_CN"),
        "planner-cluster-dark": lambda: planner_cluster_shot("planner-cluster-dark", "en", "dark"),
        "monitor-en": lambda: monitor_shot("monitor-en", 4),
        "monitor-no-driver": lambda: monitor_shot("monitor-no-driver", None),
        "monitor-zh": lambda: monitor_shot("monitor-zh", 4, "zh_CN"),
        "monitor-dark": lambda: monitor_shot("monitor-dark", 4, scheme="dark"),
        "benchmark-runs-en": lambda: bench_runs_shot("benchmark-runs-en", "en"),
        "benchmark-runs-zh": lambda: bench_runs_shot("benchmark-runs-zh", "zh_CN"),
        "benchmark-runs-dark": lambda: bench_runs_shot("benchmark-runs-dark", "en", "dark"),
        "benchmark-en": lambda: bench_shot("benchmark-en"),
        "parts-en": lambda: parts_shot("parts-en", "en"),
        "parts-zh": lambda: parts_shot("parts-zh", "zh_CN"),
        "monitor-remote-down-en": lambda: remote_down_shot("monitor-remote-down-en", "en"),
        "monitor-remote-down-zh": lambda: remote_down_shot("monitor-remote-down-zh", "zh_CN"),
    }
    for key, job in jobs.items():
        if not only or key in only:
            job()
            print("wrote", OUT / f"{key}.png")
