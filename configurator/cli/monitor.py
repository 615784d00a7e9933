"""`configurator monitor`: the live monitor without a window.

    configurator monitor [--once] [--json] [--interval S] [--serve HOST:PORT] [--record F.csv] [--count N]

``--once`` prints one snapshot (``--json``: the document DESIGN.md gives) and
exits 0 with or without an NVIDIA driver. Without it, one line per interval
(``--json``: one JSON document per line) until Ctrl-C or ``--count`` samples.
``--serve`` runs the Prometheus exporter; ``--record`` writes a CSV and indexes
it in the database. Imports stay inside the functions so other commands do not
pay for them.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from configurator.cli.context import EXIT_OK, Cli, Subcommands, add_command
from configurator.core.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from configurator.monitor.service import MonitorService
    from configurator.monitor.snapshot import Snapshot
    from configurator.store.database import Store

from configurator.core.units import GIB


def register(sub: Subcommands) -> None:
    p = add_command(sub, "monitor", help="watch the GPUs and the host (NVML + psutil)")
    p.add_argument("--once", action="store_true", help="print one snapshot and exit (0 with or without a driver)")
    p.add_argument("--json", action="store_true", help="JSON: one document (--once) or one per line")
    p.add_argument("--interval", type=float, default=1.0, metavar="S", help="seconds between samples (default 1)")
    p.add_argument("--serve", metavar="HOST:PORT", help="serve Prometheus /metrics (e.g. 127.0.0.1:9400)")
    p.add_argument("--record", metavar="F.csv", help="record every sample to a CSV file (a new file, or see --force)")
    p.add_argument("--force", action="store_true", help="with --record: overwrite the file if it exists")
    p.add_argument("--count", type=int, default=None, metavar="N", help="stop after N samples")
    p.add_argument("--prometheus", metavar="URL",
                   help="read a cluster from a Prometheus server (DCGM exporter, node_exporter, this app's exporter)")
    p.add_argument("--node-name", metavar="NAME",
                   help="with --serve: the hostname label of the metrics (default: this host's name)")
    p.add_argument("--timeout", type=float, default=5.0, metavar="S",
                   help="with --prometheus: seconds a query may take (default 5)")
    p.set_defaults(func=cmd_monitor)


def _n(value: float | None, fmt: str = "{:.0f}") -> str:
    return "n/a" if value is None else fmt.format(value)


def _no_driver_text(cli: Cli, snap: Snapshot) -> str:
    kind = snap.nvml.error_kind
    if kind == "no_library":
        return cli.say(QT_TRANSLATE_NOOP(
            "cli", "No NVIDIA driver: the NVML library (libnvidia-ml) was not found. Monitoring the host only."))
    if kind == "no_driver":
        return cli.say(QT_TRANSLATE_NOOP(
            "cli", "No NVIDIA driver loaded (the kernel module is not running). Monitoring the host only."))
    if kind == "no_permission":
        return cli.say(QT_TRANSLATE_NOOP(
            "cli", "NVML refused access (insufficient permissions). Monitoring the host only."))
    return cli.say(QT_TRANSLATE_NOOP("cli", "NVML is not available ({error}). Monitoring the host only."),
                   error=snap.nvml.error or "?")


def _human(cli: Cli, snap: Snapshot, header: bool) -> str:
    from datetime import datetime

    h = snap.host
    lines = []
    if header:
        lines.append(cli.say(QT_TRANSLATE_NOOP("cli", "Host {host}: {cores} cores, {ram} GiB RAM"),
                             host=h.hostname, cores=len(h.per_cpu_percent),
                             ram=_n(None if h.memory_total_bytes is None else h.memory_total_bytes / GIB, "{:.1f}")))
        if not snap.nvml.available:
            lines.append(_no_driver_text(cli, snap))
        elif not snap.gpus:
            lines.append(cli.say(QT_TRANSLATE_NOOP("cli", "NVIDIA driver {version}, but no GPU found."),
                                 version=snap.nvml.driver_version or "?"))
        else:
            lines.append(cli.say(QT_TRANSLATE_NOOP("cli", "NVIDIA driver {version}, {n} GPUs."),
                                 version=snap.nvml.driver_version or "?", n=len(snap.gpus)))
    stamp = datetime.fromtimestamp(snap.time).strftime("%H:%M:%S")
    lines.append(cli.say(QT_TRANSLATE_NOOP(
        "cli", "{time}  host: CPU {cpu} %, iowait {iowait} %, load {load}, RAM {ram_used}/{ram_total} GiB, "
               "disk r/w {read}/{write} MB/s, net rx/tx {rx}/{tx} MB/s"),
        time=stamp, cpu=_n(h.cpu_percent), iowait=_n(h.iowait_percent), load=_n(h.load_1m, "{:.2f}"),
        ram_used=_n(None if h.memory_used_bytes is None else h.memory_used_bytes / GIB, "{:.1f}"),
        ram_total=_n(None if h.memory_total_bytes is None else h.memory_total_bytes / GIB, "{:.1f}"),
        read=_n(None if h.disk_read_bytes_per_s is None else h.disk_read_bytes_per_s / 1e6, "{:.1f}"),
        write=_n(None if h.disk_write_bytes_per_s is None else h.disk_write_bytes_per_s / 1e6, "{:.1f}"),
        rx=_n(None if h.net_rx_bytes_per_s is None else h.net_rx_bytes_per_s / 1e6, "{:.2f}"),
        tx=_n(None if h.net_tx_bytes_per_s is None else h.net_tx_bytes_per_s / 1e6, "{:.2f}")))
    for g in snap.gpus:
        if g.lost:
            lines.append(cli.say(QT_TRANSLATE_NOOP("cli", "  GPU {gpu} {name}: LOST (retrying)"),
                                 gpu=g.id, name=g.name))
            continue
        lines.append(cli.say(QT_TRANSLATE_NOOP(
            "cli", "  GPU {gpu} {name}: {util} % busy, VRAM {used}/{total} GiB, {temp} °C, {power}/{limit} W, "
                   "fan {fan} %, PCIe Gen{gen} x{width}, processes: {procs}"),
            gpu=g.id, name=g.name, util=_n(g.utilization_gpu_percent),
            used=_n(None if g.memory_used_bytes is None else g.memory_used_bytes / GIB, "{:.1f}"),
            total=_n(None if g.memory_total_bytes is None else g.memory_total_bytes / GIB, "{:.1f}"),
            temp=_n(g.temperature_c), power=_n(g.power_w), limit=_n(g.power_limit_w), fan=_n(g.fan_percent),
            gen=_n(g.pcie_gen, "{}"), width=_n(g.pcie_width, "{}"), procs=len(g.processes)))
    return "\n".join(lines)


def _record_problems(cli: Cli, path: str, force: bool) -> list[tuple[str, str]]:
    """Checked before sampling starts; the recorder's open (O_NOFOLLOW, O_EXCL without --force) still
    refuses the same things if the file changes in between."""
    import os

    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return []
    except (OSError, ValueError):
        return []  # the open reports it
    import stat

    if stat.S_ISLNK(info.st_mode):
        return [("--record", cli.say(QT_TRANSLATE_NOOP(
            "cli", "{path} is a symbolic link; give the file itself"), path=path))]
    if stat.S_ISDIR(info.st_mode):
        return [("--record", cli.say(QT_TRANSLATE_NOOP("cli", "{path} is a folder; give a file name"),
                                     path=path))]
    if not force:
        return [("--record", cli.say(QT_TRANSLATE_NOOP(
            "cli", "{path} already exists; add --force to overwrite it"), path=path))]
    return []


def _record_error(cli: Cli, path: str, exc: OSError) -> str:
    import errno

    if exc.errno == errno.ELOOP:
        return cli.say(QT_TRANSLATE_NOOP("cli", "{path} is a symbolic link; give the file itself"), path=path)
    if exc.errno == errno.EEXIST:
        return cli.say(QT_TRANSLATE_NOOP("cli", "{path} already exists; add --force to overwrite it"), path=path)
    return exc.strerror or str(exc)


def _cluster(cli: Cli) -> int:
    """--prometheus URL: the cluster a Prometheus server holds, once (--once) or every --interval."""
    import math

    from configurator.monitor.cluster import PrometheusCluster, cluster_to_dict
    from configurator.monitor.prometheus import PrometheusError

    args = cli.args
    errors: list[tuple[str, str]] = []
    for flag in ("serve", "record", "node_name"):
        if getattr(args, flag) is not None:
            errors.append(("--" + flag.replace("_", "-"), cli.say(QT_TRANSLATE_NOOP(
                "cli", "works on this machine's GPUs, not with --prometheus"))))
    if not (math.isfinite(args.timeout) and 0.1 <= args.timeout <= 120):
        errors.append(("--timeout", cli.say(QT_TRANSLATE_NOOP("cli", "must be between 0.1 and 120 seconds"))))
    if not (math.isfinite(args.interval) and 1 <= args.interval <= 3600):
        errors.append(("--interval", cli.say(QT_TRANSLATE_NOOP(
            "cli", "with --prometheus: must be between 1 and 3600 seconds"))))
    if errors:
        cli.fail(errors)
    try:
        source = PrometheusCluster(args.prometheus, timeout_s=args.timeout)
    except PrometheusError as exc:
        cli.fail([("--prometheus", cli.render(exc.message))])
    shown = 0
    said = ""  # the failure last said on stderr: a server that stays down is one line, not one per interval
    while True:
        try:
            snap = source.snapshot()
        except PrometheusError as exc:
            if args.once or shown == 0:
                cli.fail([("--prometheus", cli.render(exc.message))])
            line = cli.render(exc.message)
            if line != said:
                cli.warn(line)  # a later failure: say so (once) and try again next interval
            said = line
        else:
            said = ""
            doc = cluster_to_dict(snap, render=cli.render)
            if args.json:
                (cli.emit_json if args.once else cli.emit_json_line)(doc)
            else:
                print(_cluster_text(cli, doc), flush=True)
            shown += 1
        if args.once or (args.count is not None and shown >= args.count):
            return EXIT_OK
        time.sleep(args.interval)


def _cluster_text(cli: Cli, doc: dict[str, Any]) -> str:
    """The cluster as text: a line per node (host CPU, iowait, RAM), a line per GPU, then a line per job with
    its verdicts. n/a where a node does not export the metric."""

    def gib(v: float | None) -> str:
        return _n(None if v is None else v / GIB, "{:.1f}")

    names = {j["id"]: j["name"] for j in doc["jobs"]}
    lines = [cli.say(QT_TRANSLATE_NOOP("cli", "{nodes} nodes from {source}"), nodes=len(doc["nodes"]),
                     source=doc["source"])]
    for node in doc["nodes"]:
        h = node["host"]
        lines.append(cli.say(QT_TRANSLATE_NOOP("cli", "{node}: CPU {cpu} %, iowait {iowait} %, RAM {used}/{total} GiB"),
                             node=node["hostname"], cpu=_n(h["cpu_percent"]), iowait=_n(h["iowait_percent"]),
                             used=gib(h["memory_used_bytes"]), total=gib(h["memory_total_bytes"])))
        for g in node["gpus"]:
            if g["lost"]:
                lines.append(cli.say(QT_TRANSLATE_NOOP("cli", "  GPU {gpu} {name}: LOST"), gpu=g["id"],
                                     name=g["name"]))
                continue
            job = "" if not g["job"] else cli.say(QT_TRANSLATE_NOOP("cli", ", job {job}"),
                                                  job=names.get(g["job"], g["job"]))
            lines.append(cli.say(QT_TRANSLATE_NOOP(
                "cli", "  GPU {gpu} {name}: {util} % busy, VRAM {used}/{total} GiB, {temp} °C, {power} W{job}"),
                gpu=g["id"], name=g["name"], util=_n(g["utilization_gpu_percent"]), used=gib(g["memory_used_bytes"]),
                total=gib(g["memory_total_bytes"]), temp=_n(g["temperature_c"]), power=_n(g["power_w"]), job=job))
    kinds = {"slurm": QT_TRANSLATE_NOOP("cli", "Slurm job"), "kubernetes": QT_TRANSLATE_NOOP("cli", "Kubernetes pod"),
             "process": QT_TRANSLATE_NOOP("cli", "Processes")}
    for j in doc["jobs"]:
        lines.append(cli.say(QT_TRANSLATE_NOOP(
            "cli", "{kind} {job} on {nodes}: {n} GPUs, {util} % busy ({low}–{high})"),
            kind=cli.say(kinds.get(j["kind"], j["kind"])), job=j["name"], nodes=", ".join(j["nodes"]),
            n=len(j["gpus"]), util=_n(j["utilization_gpu_percent"]), low=_n(j["utilization_gpu_percent_min"]),
            high=_n(j["utilization_gpu_percent_max"])))
        for a in j["alerts"]:
            lines.append(f"  [{a['rule']}] {a['message']}")
    return "\n".join(lines)


def cmd_monitor(cli: Cli) -> int:
    from configurator.monitor.service import MonitorService

    args = cli.args
    if args.prometheus is not None:
        return _cluster(cli)
    address = _checked_address(cli)
    service = MonitorService.create(cli.fake_gpus, interval_s=args.interval if not args.once else 1.0,
                                    node_name=args.node_name)
    service.gpu.start()
    recording: dict[str, Any] = {}  # "store": the database, "id": the recording's row, once recording
    try:
        if args.record:
            _start_recording(cli, service, recording)
        if address is not None:
            _serve(cli, service, address)
        if args.once:
            return _once(cli, service)
        return _watch(cli, service)
    finally:
        _stop(cli, service, recording.get("store"), recording.get("id"))


def _checked_address(cli: Cli) -> tuple[str, int] | None:
    """Where --serve listens (None: it is not given); every problem of the options: one line each, exit 2."""
    from configurator.monitor.exporter import AddressError, parse_address
    from configurator.monitor.sampler import MAX_INTERVAL_S, MIN_INTERVAL_S

    args = cli.args
    errors: list[tuple[str, str]] = []
    if args.node_name is not None and (args.serve is None or not args.node_name.strip() or len(args.node_name) > 253
                                       or any(not ch.isprintable() for ch in args.node_name)):
        errors.append(("--node-name", cli.say(QT_TRANSLATE_NOOP(
            "cli", "needs --serve, and a printable name of 1 to 253 characters"))))
    if not MIN_INTERVAL_S <= args.interval <= MAX_INTERVAL_S:
        errors.append(("--interval", cli.say(QT_TRANSLATE_NOOP(
            "cli", "must be between {low} and {high} seconds, not {got}"),
            low=MIN_INTERVAL_S, high=MAX_INTERVAL_S, got=args.interval)))
    if args.count is not None and args.count < 1:
        errors.append(("--count", cli.say(QT_TRANSLATE_NOOP("cli", "must be at least 1, not {got}"),
                                          got=args.count)))
    errors.extend(cli.fake_gpus_problems())
    address = None
    if args.serve is not None:
        if args.once:
            errors.append(("--serve", cli.say(QT_TRANSLATE_NOOP(
                "cli", "cannot be combined with --once: the exporter serves until you stop it"))))
        try:
            address = parse_address(args.serve)
        except AddressError as exc:
            errors.append(("--serve", cli.render(exc.message)))
    if args.record is not None:
        errors.extend(_record_problems(cli, args.record, args.force))
    if errors:
        cli.fail(errors)
    return address


def _start_recording(cli: Cli, service: MonitorService, recording: dict[str, Any]) -> None:
    """Start --record's CSV and its row in the database (kept in ``recording`` as soon as the database
    is open, so that it is closed whatever happens next)."""
    from configurator.store.recordings import RecordingsRepository

    args = cli.args
    try:
        recorder = service.start_recording(args.record, overwrite=args.force)
    except OSError as exc:
        cli.fail([(args.record, _record_error(cli, args.record, exc))])
    store = recording["store"] = cli.open_store(writable=True)
    recording["id"] = RecordingsRepository(store).start(recorder.path, service.host.hostname, args.interval,
                                                        recorder.started_at)


def _serve(cli: Cli, service: MonitorService, address: tuple[str, int]) -> None:
    """Start the Prometheus exporter at ``address`` (exit 2 if it cannot listen there)."""
    try:
        url = service.exporter.start(*address)
    except OSError as exc:
        cli.fail([("--serve", cli.say(QT_TRANSLATE_NOOP("cli", "cannot listen on {address}: {error}"),
                                      address=cli.args.serve, error=exc.strerror or str(exc)))])
    cli.warn(cli.say(QT_TRANSLATE_NOOP("cli", "Serving Prometheus metrics at {url}"), url=url))
    if service.exporter.warning is not None:  # not loopback: the metrics are unauthenticated
        cli.warn(cli.render(service.exporter.warning))


def _once(cli: Cli, service: MonitorService) -> int:
    """One snapshot, printed."""
    from configurator.monitor.snapshot import snapshot_to_dict

    # psutil's CPU and I/O rates need two readings: the first one primes them.
    service.sampler.sample_once()
    time.sleep(min(cli.args.interval, 0.5))
    snap = service.sampler.sample_once()
    if cli.args.json:
        cli.emit_json(snapshot_to_dict(snap))
    else:
        print(_human(cli, snap, header=True))
    return EXIT_OK


def _watch(cli: Cli, service: MonitorService) -> int:
    """Continuous: the sampler thread samples, this thread prints, until --count snapshots, Ctrl-C or
    SIGTERM."""
    import signal
    import threading

    from configurator.monitor.snapshot import snapshot_to_dict

    args = cli.args
    done = threading.Event()
    printed = [0]
    header = [True]

    def show(snap: Snapshot) -> None:
        if args.json:
            cli.emit_json_line(snapshot_to_dict(snap))
        else:
            print(_human(cli, snap, header=header[0]), flush=True)
            header[0] = False
        printed[0] += 1
        if args.count is not None and printed[0] >= args.count:
            done.set()

    def alerts(events: list[Any]) -> None:
        for e in events:
            word = cli.translate("cli", "ALERT") if e.kind == "raised" else cli.translate("cli", "cleared")
            cli.warn(f"{word} {e.alert.rule} · {e.alert.source}: {cli.render(e.alert.message)}")

    service.sampler.subscribe(show)
    service.on_alerts(alerts)
    previous = signal.signal(signal.SIGTERM, lambda *_: done.set()) \
        if threading.current_thread() is threading.main_thread() else None
    service.start()
    try:
        while not done.wait(0.2):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    return EXIT_OK


def _stop(cli: Cli, service: MonitorService, store: Store | None, recording_id: int | None) -> None:
    """Stop sampling and the recording; its row in the database gets what was recorded."""
    rec = service.stop_recording()
    service.stop()
    if store is not None:
        from configurator.store.recordings import RecordingsRepository

        if recording_id is not None and rec is not None:
            RecordingsRepository(store).finish(recording_id, rows=rec.rows, gpus=rec.gpus,
                                               markers=rec.markers, stopped_at=rec.stopped_at)
            cli.warn(cli.say(QT_TRANSLATE_NOOP("cli", "Recorded {rows} samples to {path}"),
                             rows=rec.rows, path=str(rec.path)))
        store.close()
