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
sys.path.insert(0, str(OUT.parents[1]))  # the checkout: benchmarks.demo_cluster poses the cluster
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


def cluster_stack():  # type: ignore[no-untyped-def]
    """A small cluster on this machine: two nodes of this app's exporter on fake GPUs (one GPU of node-b
    lags), two nodes shaped like DCGM exporter with two Slurm jobs (4242 spans both nodes and one of its GPUs
    lags: DIST-1 across nodes; 5151 idles: GPU-6), and a real Prometheus."""
    from benchmarks.demo_cluster import DcgmGpu, PrometheusServer, StaticPages, dcgm_page, fake_node
    from configurator.monitor import fake_nvml

    lagging = fake_nvml.several(4)
    lagging.gpus[3].base_util, lagging.gpus[3].swing = 32.0, 20.0
    nodes = [fake_node("node-a", 4), fake_node("node-b", scenario=lagging)]
    pages = [StaticPages({"/metrics": ("text/plain; version=0.0.4", dcgm_page("dgx-1", [
        DcgmGpu(94, job="4242"), DcgmGpu(91, job="4242"), DcgmGpu(22, job="5151", power=None),
        DcgmGpu(18, job="5151", power=None)]))}),
        StaticPages({"/metrics": ("text/plain; version=0.0.4", dcgm_page("dgx-2", [
            DcgmGpu(92, job="4242"), DcgmGpu(41, job="4242")]))})]
    server = PrometheusServer({"configurator": [n.exporter.url.split("/")[2] for n in nodes],
                               "dcgm": [p.address for p in pages]}, scrape_interval_s=1.0).start()
    server.wait_for_targets(scrapes=2)

    def stop() -> None:
        server.stop()
        for p in pages:
            p.stop()
        for n in nodes:
            n.stop()

    return server, stop


def cluster_shot(name: str, lang: str, scheme: str = "light", node: bool = False) -> None:
    """The Monitor tab's cluster page over the last minute (and with ``node``, node-b's cards as ``cluster-node-…``)."""
    server, stop = cluster_stack()
    try:
        services, w = window(name, lang, fake_gpus=1, scheme=scheme)
        tab = w.tab(MonitorTab)
        tab.sources.setCurrentWidget(tab.cluster)
        tab.cluster.window_combo.setCurrentIndex(0)  # 1 min
        tab.cluster.set_server(server.url)
        wait(62000)  # a minute of history for the heat map, and GPU-6/DIST-1's 30 s windows
        done = []
        tab.cluster.refreshed.connect(lambda: done.append(True))
        tab.cluster.refresh()
        while not done:
            wait(100)
        wait(300)
        w.grab().save(str(OUT / f"{name}.png"))
        if node:
            tab.cluster.open_node("node-b")
            wait(800)
            w.grab().save(str(OUT / (name.replace("cluster-", "cluster-node-") + ".png")))
        w.close()
        services.close()
    finally:
        stop()


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


def fake_recording(path: Path, util: float, memory: float, seconds: int = 120) -> Path:
    """A training run on an RTX 3060 from the fake NVML (the real NVML backend reads it), with the
    monitor's own CsvRecorder."""
    from configurator.monitor import fake_nvml
    from configurator.monitor.nvml import NvmlBackend
    from configurator.monitor.recorder import CsvRecorder
    from configurator.monitor.snapshot import HostSample, NvmlStatus, Snapshot, TrainingProcess

    gib = 1024**3
    now = [1000.0]
    gpu = fake_nvml.FakeGpu(name="NVIDIA GeForce RTX 3060", memory_total=12 * gib, power_limit_w=170.0,
                            base_util=util, swing=3.0, memory_fraction=memory,
                            processes=[fake_nvml.FakeProcess(pid=4242, used_memory=11 * gib, name="python train.py")])
    backend = NvmlBackend(fake_nvml.FakeNvml(fake_nvml.Scenario([gpu]), clock=lambda: now[0]))
    backend.start()
    rec = CsvRecorder(path)
    for i in range(seconds):
        _status, gpus = backend.sample(slow=True)
        host = HostSample("lab-box", cpu_percent=35.0, iowait_percent=1.0, cpu_energy_j=65.0 * i,
                          training=TrainingProcess(4242, "python train.py", 50.0, 4, (40.0,) * 4))
        rec(Snapshot(1_764_000_000.0 + 5 * i, i, host, NvmlStatus(True), gpus))
        now[0] += 5.0
    rec.close()
    backend.close()
    return path


def lab_recording(path: Path) -> Path:
    """Ninety minutes of a two-RTX 3090 training run, sampled every 10 s from the fake NVML (read by the
    real NVML backend) and written by the monitor's CsvRecorder: a slow first epoch while the page cache
    fills (the DataLoader workers at a full core), GPU 1 throttling for heat for a quarter of an hour, an
    evaluation pass that leaves the GPUs waiting, the CPU packages' energy from RAPL."""
    from configurator.monitor import fake_nvml
    from configurator.monitor.nvml import NvmlBackend
    from configurator.monitor.recorder import CsvRecorder
    from configurator.monitor.snapshot import HostSample, NvmlStatus, Snapshot, TrainingProcess

    gib = 1024**3
    now = [1000.0]
    gpus = [fake_nvml.FakeGpu(name="NVIDIA GeForce RTX 3090", memory_total=24 * gib, power_limit_w=350.0,
                              base_util=92.0, swing=4.0, memory_fraction=0.78 + 0.04 * k,
                              processes=[fake_nvml.FakeProcess(pid=4242 + k, used_memory=18 * gib,
                                                               name=f"python train.py --local-rank {k}")])
            for k in range(2)]
    backend = NvmlBackend(fake_nvml.FakeNvml(fake_nvml.Scenario(gpus), clock=lambda: now[0]))
    backend.start()
    rec = CsvRecorder(path)
    step, t0 = 10, 1_764_640_800.0  # 2025-12-02 10:00 local-ish
    for i in range(90 * 60 // step):
        minute = i * step / 60
        first_epoch = minute < 12
        evaluating = 62 <= minute < 68
        for g in gpus:
            g.base_util = 48.0 if first_epoch else 35.0 if evaluating else 93.0
        gpus[1].throttle = 0x20 | 0x40 if 35 <= minute < 50 else 0  # software and hardware thermal slowdown
        if i * step in (12 * 60, 62 * 60, 68 * 60):
            rec.mark({12 * 60: "epoch 1 done", 62 * 60: "evaluation", 68 * 60: "epoch 5"}[i * step])
        _status, sampled = backend.sample(slow=True)
        workers = (99.0,) * 6 if first_epoch else (38.0,) * 6
        host = HostSample("lab-box", cpu_percent=78.0 if first_epoch else 41.0,
                          iowait_percent=6.0 if first_epoch else 0.8, cpu_energy_j=105.0 * step * i,
                          training=TrainingProcess(4242, "python train.py", 95.0, 6, workers))
        rec(Snapshot(t0 + step * i, i, host, NvmlStatus(True), sampled))
        now[0] += step
    rec.close()
    backend.close()
    return path


def report_shot(suffix: str, lang: str) -> None:
    """The run report PDF (what ``configurator report RUN.csv --pdf`` writes), rendered to PNG."""
    import shutil
    import subprocess

    csv = lab_recording(TMP / "run.csv")
    pdf = TMP / f"report-{suffix}.pdf"
    subprocess.run([sys.executable, "-m", "configurator", "--lang", lang, "report", str(csv), "--tariff", "0.62",
                    "--pdf", str(pdf)], check=True)
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        sys.exit("report shots need pdftoppm (poppler-utils)")
    subprocess.run([pdftoppm, "-r", "80", "-png", str(pdf), str(TMP / f"report-{suffix}")], check=True)
    from PySide6.QtGui import QColor, QImage, QPainter

    pages = [QImage(str(p)) for p in sorted(TMP.glob(f"report-{suffix}-*.png"))]
    sheet = QImage(sum(p.width() for p in pages) + 8 * (len(pages) - 1), max(p.height() for p in pages),
                   QImage.Format.Format_RGB32)
    sheet.fill(QColor("#9a9a9a"))  # the pages side by side, as a viewer shows them
    painter = QPainter(sheet)
    x = 0
    for page in pages:
        painter.drawImage(x, 0, page)
        x += page.width() + 8
    painter.end()
    sheet.save(str(OUT / f"report-{suffix}.png"))


def upgrade_shot(name: str, lang: str, scheme: str = "light") -> None:
    """The Upgrade panel for "This machine" (the entry tier), with a recording of a run that filled VRAM."""
    from configurator.core.build import build_to_dict
    from configurator.store.recordings import RecordingsRepository
    from configurator.store.repository import BuildsRepository

    services, w = window(name, lang, scheme=scheme)
    planner = w.tab(PlannerTab)
    entry = next(p for p in planner.tiers if p.tier.id == "TIER-entry").build
    saved = BuildsRepository(services.store).save("This machine", build_to_dict(entry.__class__(
        entry.parts, "This machine", None, entry.options, entry.workload)))
    csv = fake_recording(TMP / "resnet50-run.csv", util=93.0, memory=0.985)
    rid = RecordingsRepository(services.store).start(csv, "lab-box", 5.0)
    RecordingsRepository(services.store).finish(rid, rows=120, gpus=1)
    panel = planner.upgrade
    panel.refresh_sources()
    planner.open_saved(saved)
    planner.side.setCurrentWidget(panel)
    while panel.run is None and not panel.error:
        wait(100)
    panel.find_upgrades()
    while panel.busy:
        wait(100)
    panel.table.selectRow(0)
    wait(400)
    w.grab().save(str(OUT / f"{name}.png"))
    w.close()
    services.close()


def recordings_shot(suffix: str, lang: str) -> None:
    """The Monitor tab's recordings list and a run report opened from it (two files)."""
    from configurator.store.recordings import RecordingsRepository

    services, w = window(f"recordings-{suffix}", lang)
    tab = w.tab(MonitorTab)
    repo = RecordingsRepository(services.store)
    for name, util in (("resnet50-run.csv", 93.0), ("dataloader-run.csv", 45.0)):
        rid = repo.start(fake_recording(TMP / name, util=util, memory=0.7), "lab-box", 5.0)
        repo.finish(rid, rows=120, gpus=1)
    repo.start(TMP / "moved-away.csv", "lab-box", 1.0)
    lst = tab.recordings_list
    tab.bottom.setCurrentWidget(lst)
    lst.refresh()
    lst.table.selectRow(1)
    lst.open_report()
    while lst.dialog is None:
        wait(100)
    wait(400)
    w.grab().save(str(OUT / f"monitor-recordings-{suffix}.png"))
    lst.dialog.grab().save(str(OUT / f"monitor-report-dialog-{suffix}.png"))
    lst.dialog.close()
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


# A CUDA run as the runner stores it, for the calibration shots (the machine that makes the shots has no
# GPU): the ResNet-50 figure is Lambda's published RTX 3090 AMP training measurement (905 img/s,
# db/measurements), the peak the guide's REF-1 AMP memory figure (5.8 GB), the energy that card's 350 W
# board power over a 60 s window. They show what the tab and the planner do with such a run.
SHOT_FP = {"cpu": "AMD Ryzen 9 5950X 16-Core Processor", "cpu_mhz": 3400, "cpu_logical": 32, "cpu_physical": 16,
           "cpu_usable": 32, "ram_gib": 64, "torch": "2.5.1", "cuda": "12.4",
           "gpus": [{"index": 0, "name": "NVIDIA GeForce RTX 3090", "memory_gib": 24.0, "capability": "8.6"}]}


def store_cuda_run(services, settings) -> None:  # type: ignore[no-untyped-def]
    from datetime import datetime, timedelta

    from configurator.bench.fingerprint import machine_id
    from configurator.bench.results import RowResult, RunRecord
    from configurator.store.bench_results import BenchResultsRepository

    when = datetime(2026, 12, 1, 9, 30)
    machine = machine_id(SHOT_FP)
    rec = RunRecord("quick", "cuda", sys.executable, when, resolved_device="cuda",
                    finished_at=when + timedelta(minutes=4), status="finished", fingerprint=SHOT_FP, machine=machine)
    resnet = {"device": "cuda", "threads": 16, "torch": "2.5.1", "batch": 64, "image": 224, "classes": 1000,
              "layout": "channels_last", "amp": "fp16", "dtype": "fp16", "optimizer": "SGD(momentum=0.9)"}
    energy = {"joules": 21000.0, "seconds": 60.0, "mean_w": 350.0, "method": "nvml-energy-counter",
              "joules_per_sample": round(350.0 / 905.0, 4), "per": "image"}
    rec.rows = [RowResult("resnet50-train", "resnet50", "ok", 905.0, "img/s", 905.0, 6.0, resnet,
                          {"best": 912.0, "peak_memory_bytes": int(5.8 * 1024**3), "peak_memory_gib": 5.8,
                           "energy": energy})]
    BenchResultsRepository(services.store).save(rec)
    settings.setValue("bench/machine", machine)


def calibration_shots(suffix: str, lang: str) -> None:
    """The Benchmark tab's peak memory and energy for a stored CUDA run, and the planner calibrated by it."""
    from PySide6.QtCore import QSettings as _Settings

    from configurator.core.build import Build, BuildPart, Workload
    from configurator.ui.i18n import translate

    name = f"calibration-{suffix}"
    settings = _Settings(str(TMP / f"{name}.ini"), _Settings.Format.IniFormat)
    services = build_services(argparse.Namespace(db=str(TMP / f"{name}.db"), lang=lang, fake_gpus=None), settings)
    store_cuda_run(services, settings)
    services.close()
    services, w = window(name, lang)
    bench = w.tab(BenchmarkTab)
    w.tabs.setCurrentWidget(bench)
    w.resize(1800, 950)
    bench.panel.split.setSizes([1480, 320])
    wait(400)
    bar = bench.panel.table.horizontalScrollBar()
    bar.setValue(bar.maximum())  # the new columns: peak memory against the estimate, energy
    wait(300)
    w.grab().save(str(OUT / f"benchmark-peak-{suffix}.png"))
    planner = w.tab(PlannerTab)
    w.tabs.setCurrentWidget(planner)
    parts = ("nvidia-rtx-3090", "amd-ryzen-9-5950x", "asus-proart-b550-creator",
             "corsair-vengeance-lpx-64gb-2x32gb-ddr4-3200", "samsung-990-pro-2tb", "seasonic-prime-px-1600",
             "fractal-design-define-7-xl")
    planner.doc.start_new(Build(tuple(BuildPart(p) for p in parts), "RTX 3090", 30000,
                                workload=Workload(model="resnet50", task="train", precision="amp", batch_size=64)),
                          translate("Planner", "Suggested build"))
    wait(600)
    w.grab().save(str(OUT / f"planner-calibrated-{suffix}.png"))
    planner.doc.undo_stack.setClean()


def parts_measurements_shot(name: str, lang: str, scheme: str = "light") -> None:
    """The Parts tab with a GPU's published measurements in view (the detail pane widened)."""
    from PySide6.QtWidgets import QScrollArea

    services, w = window(name, lang, scheme=scheme)
    browser = w.parts_browser
    w.tabs.setCurrentWidget(browser)
    browser.ensure_loaded()
    browser.select_part("nvidia-rtx-3090")
    browser.splitter.setSizes([150, 480, 870])
    wait(300)
    scroll = browser.detail.findChild(QScrollArea)
    scroll.ensureWidgetVisible(browser.detail.measurements, 0, 0)
    scroll.verticalScrollBar().setValue(browser.detail.measurements.y() - 40)
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
                    "planner-details-en", "planner-details-zh", "planner-details-dark", "cluster-en", "cluster-zh",
                    "cluster-dark", "calibration-en", "calibration-zh",
                    "parts-measurements-en", "parts-measurements-zh", "parts-measurements-dark", "planner-upgrade-en",
                    "planner-upgrade-zh", "planner-upgrade-dark", "monitor-recordings-en", "monitor-recordings-zh",
                    "planner-cluster-en", "planner-cluster-zh", "planner-cluster-dark", "report-en", "report-zh"):
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
        "planner-upgrade-en": lambda: upgrade_shot("planner-upgrade-en", "en"),
        "planner-upgrade-zh": lambda: upgrade_shot("planner-upgrade-zh", "zh_CN"),
        "planner-upgrade-dark": lambda: upgrade_shot("planner-upgrade-dark", "en", "dark"),
        "report-en": lambda: report_shot("en", "en"),
        "report-zh": lambda: report_shot("zh", "zh_CN"),
        "monitor-recordings-en": lambda: recordings_shot("en", "en"),
        "monitor-recordings-zh": lambda: recordings_shot("zh", "zh_CN"),
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
        "cluster-en": lambda: cluster_shot("cluster-en", "en", node=True),
        "cluster-zh": lambda: cluster_shot("cluster-zh", "zh_CN", node=True),
        "cluster-dark": lambda: cluster_shot("cluster-dark", "en", "dark"),
        "parts-en": lambda: parts_shot("parts-en", "en"),
        "calibration-en": lambda: calibration_shots("en", "en"),
        "calibration-zh": lambda: calibration_shots("zh", "zh_CN"),
        "parts-zh": lambda: parts_shot("parts-zh", "zh_CN"),
        "parts-measurements-en": lambda: parts_measurements_shot("parts-measurements-en", "en"),
        "parts-measurements-zh": lambda: parts_measurements_shot("parts-measurements-zh", "zh_CN"),
        "parts-measurements-dark": lambda: parts_measurements_shot("parts-measurements-dark", "en", "dark"),
        "monitor-remote-down-en": lambda: remote_down_shot("monitor-remote-down-en", "en"),
        "monitor-remote-down-zh": lambda: remote_down_shot("monitor-remote-down-zh", "zh_CN"),
    }
    for key, job in jobs.items():
        if not only or key in only:
            job()
            print("wrote", OUT / f"{key}.png")
