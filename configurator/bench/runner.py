"""Running a suite: one child process per job, speaking JSON lines.

:class:`SuiteSession` is the whole policy and knows nothing about processes: it hands out
jobs (argv, timeout), reads the lines a child prints, and is told how the child ended.
It decides what each ending means: an out-of-memory error halves the batch and retries;
a crash, a hang past the timeout or output it cannot understand is recorded as a failure
with its reason, and the suite goes on; cancel stops everything.

:func:`run_session` drives a session with :mod:`subprocess` (the CLI, ``make bench``);
``configurator.ui.bench.process`` drives the same session with ``QProcess`` in the GUI.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from configurator.bench import suites
from configurator.bench.fingerprint import machine_id
from configurator.bench.load import SETTLE_S, GpuReader, LoadMeter, Window
from configurator.bench.protocol import ProtocolError, decode
from configurator.bench.results import RowResult, RunRecord
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.paths import worker_source_dir

WORKER_MODULE = "configurator.bench.worker"
PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding configurator/
GRACE_S = 3.0  # between terminate and kill
TREE_VAR = "CONFIGURATOR_BENCH_TREE"  # set for each child: what inherits it is the child's to end
STDERR_TAIL = 30


def _msg(text: str, **params: Any) -> Message:
    return Message("bench", text, params)


# What PyInstaller's bootloader and runtime hooks point into the bundle (LD_LIBRARY_PATH keeps its
# original value in LD_LIBRARY_PATH_ORIG): the user's interpreter must not load the bundle's libraries.
_FROZEN_PATH_VARS = ("LD_LIBRARY_PATH", "LIBPATH", "DYLD_LIBRARY_PATH", "PATH", "PYTHONPATH", "QT_PLUGIN_PATH",
                     "QML2_IMPORT_PATH")


def _unfreeze(env: dict[str, str], bundle: Path) -> None:
    """Undo in ``env`` what running inside the frozen app (``bundle`` = ``sys._MEIPASS``) added."""
    for key in [k for k in env if k.startswith("_PYI_") or k == "_MEIPASS2"]:
        del env[key]
    for key in _FROZEN_PATH_VARS:
        if f"{key}_ORIG" in env:
            env[key] = env.pop(f"{key}_ORIG")
        if key not in env:
            continue
        kept = [p for p in env[key].split(os.pathsep) if p and not Path(p).is_relative_to(bundle)]
        if kept:
            env[key] = os.pathsep.join(kept)
        else:
            del env[key]


def child_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a child: the package importable from a source checkout, UTF-8 I/O.

    In the frozen app the worker runs from the plain source the bundle carries
    (:func:`configurator.paths.worker_source_dir`) under the user's interpreter, with the
    bundle's library paths taken out of the environment.
    """
    env = dict(os.environ if base is None else base)
    root = PACKAGE_ROOT
    source = worker_source_dir()
    if source is not None:
        root = str(source)
        _unfreeze(env, source.parent)
    env["PYTHONPATH"] = os.pathsep.join(x for x in (root, env.get("PYTHONPATH")) if x)
    env["PYTHONIOENCODING"] = "utf-8"
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("QT_QPA_PLATFORM", None)
    return env


@dataclass
class Job:
    kind: str  # "fingerprint" | "workload"
    name: str
    argv: list[str]
    timeout_s: float
    overrides: dict[str, Any] = field(default_factory=dict)
    attempt: int = 1
    settle_s: float = 0.0  # the driver waits this long before starting the child ("before" is measured then)


@dataclass(frozen=True)
class Event:
    """What the session reports while it runs. ``kind``: progress, log, row, job_started, job_finished,
    garbage, stderr, finished."""

    kind: str
    job: str = ""
    message: Message | None = None
    fraction: float | None = None
    row: RowResult | None = None
    text: str = ""


@dataclass
class _JobState:
    job: Job
    rows: dict[str, RowResult] = field(default_factory=dict)
    error: dict[str, Any] | None = None
    done: bool = False
    garbage: list[str] = field(default_factory=list)
    fraction: float = 0.0
    fingerprint: dict[str, Any] | None = None
    device: str | None = None
    before: Window | None = None  # how busy the machine was in the pause before the child started


class SuiteSession:
    """The policy of one suite run; see the module docstring."""

    def __init__(
        self,
        suite: str = "quick",
        device: str = "auto",
        jobs: Sequence[str] | None = None,
        python: str | None = None,
        *,
        overrides: dict[str, dict[str, Any]] | None = None,
        timeout_s: float | None = None,
        threads: int = 0,
        worker_module: str = WORKER_MODULE,
        fingerprint: bool = True,
        settle_s: float = SETTLE_S,
        gpus: GpuReader | None = None,
    ):
        if suite not in suites.SUITES:
            raise ValueError(f"unknown suite {suite!r}")
        if device not in suites.DEVICES:
            raise ValueError(f"unknown device {device!r}")
        self.suite, self.device = suite, device
        self.python = python or sys.executable
        self.jobs = list(jobs if jobs is not None else suites.SUITE_JOBS[suite])
        self.overrides = {k: dict(v) for k, v in (overrides or {}).items()}
        self.timeout_s = timeout_s if timeout_s is not None else suites.TIMEOUTS[suite]
        self.threads = threads
        self.worker_module = worker_module
        self.settle_s = settle_s
        self.meter = LoadMeter(gpus)
        self.record = RunRecord(suite, device, self.python, datetime.now())
        self._queue: list[Job] = []
        if fingerprint:
            self._queue.append(Job("fingerprint", "fingerprint", self._argv(["--fingerprint"]),
                                   min(self.timeout_s, 120.0)))
        else:
            self.record.resolved_device = device if device != "auto" else "cpu"
            self._queue_workloads()
        self._total = max(1, len(self.jobs))
        self._finished_jobs = 0
        self._current: _JobState | None = None
        self._events: list[Event] = []
        self.cancelled = False

    # -- building jobs -----------------------------------------------------------
    def _argv(self, extra: list[str]) -> list[str]:
        return [self.python, "-m", self.worker_module, *extra, "--device", self.device, "--suite", self.suite,
                *(["--threads", str(self.threads)] if self.threads else [])]

    def workload_job(self, name: str, overrides: dict[str, Any], attempt: int = 1) -> Job:
        extra = [name] + (["--params", json.dumps(overrides)] if overrides else [])
        return Job("workload", name, self._argv(extra), self.timeout_s, overrides, attempt, self.settle_s)

    def _queue_workloads(self) -> None:
        for name in self.jobs:
            self._queue.append(self.workload_job(name, self.overrides.get(name, {})))

    # -- what the driver calls ---------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.record.status != "running"

    @property
    def fraction(self) -> float:
        cur = self._current.fraction if self._current and self._current.job.kind == "workload" else 0.0
        return min(1.0, (self._finished_jobs + cur) / self._total)

    def next_job(self) -> Job | None:
        """The next child to start, or None when the suite is over (then ``record`` is complete)."""
        while self._queue and not self.cancelled:
            job = self._queue.pop(0)
            skip = self._skip_reason(job)
            if skip is not None:
                for name in _rows_of(job.name):
                    row = RowResult(name, job.name, "skipped", error=skip)
                    self._add_row(row)
                    self._events.append(Event("row", job.name, row=row))
                self._finished_jobs += 1
                self._events.append(Event("job_finished", job.name, skip, self.fraction))
                continue
            self._current = _JobState(job)
            if job.kind == "workload":
                self.meter.open()  # "before": the pause the driver waits before starting the child
            return job
        self._finish()
        return None

    def child_starting(self) -> None:
        """The driver is about to start the current job's child: "before" ends, "during" begins."""
        st = self._current
        if st is not None and st.job.kind == "workload":
            st.before = self.meter.close()
            self.meter.open()

    def sample_load(self, ours: Sequence[int] = ()) -> None:
        """While a child runs (the driver's periodic tick): note the GPUs' use by processes not ``ours``."""
        if self._current is not None and self._current.job.kind == "workload":
            self.meter.sample_gpus(ours)

    def _load(self, st: _JobState) -> dict[str, Any] | None:
        if st.before is None:
            return None
        # While our job runs on a GPU its utilisation is ours; on the CPU, GPU use is someone else's.
        during = self.meter.close(gpu_utilisation=self.record.resolved_device != "cuda")
        return {"before": st.before.to_json(), "during": during.to_json()}

    def take_events(self) -> list[Event]:
        """Events that arose outside a child (jobs skipped without starting one); call after next_job."""
        events, self._events = self._events, []
        return events

    def _skip_reason(self, job: Job) -> Message | None:
        if job.kind != "workload":
            return None
        info = suites.JOBS.get(job.name)
        if info is None:
            return None
        dev = self.record.resolved_device
        if info.cuda_only and dev != "cuda":
            return _msg(QT_TRANSLATE_NOOP("bench", "needs a CUDA GPU (this run: {device})"), device=dev)
        fp = self.record.fingerprint
        for pkg in info.needs:
            if fp and fp.get(pkg) is None:
                return _msg(QT_TRANSLATE_NOOP("bench", "needs {package}, which {python} does not have: "
                                                       "pip install {package}"), package=pkg, python=self.python)
        return None

    def feed(self, line: str) -> list[Event]:
        """One line of the child's stdout."""
        st = self._current
        if st is None or not line.strip():
            return []
        try:
            msg = decode(line)
        except ProtocolError:
            text = line.strip()[:300]
            st.garbage.append(text)
            return [Event("garbage", st.job.name, text=text)]
        kind = msg["type"]
        if kind == "progress":
            st.fraction = float(msg["fraction"])
            return [Event("progress", st.job.name, _worker_message(msg), self.fraction)]
        if kind == "log":
            return [Event("log", st.job.name, _worker_message(msg))]
        if kind == "fingerprint" and st.job.kind == "fingerprint":
            fp = msg.get("fingerprint")
            st.fingerprint = fp if isinstance(fp, dict) else {}
            dev = msg.get("device")
            st.device = dev if dev in ("cpu", "cuda", "mps") else None
            return []
        if kind == "result" and st.job.kind == "workload":
            row = RowResult(msg["name"], st.job.name, "ok", _f(msg.get("value")), str(msg.get("unit") or ""),
                            _f(msg.get("median")), _f(msg.get("iqr")), _d(msg.get("settings")),
                            _d(msg.get("details")))
            if st.job.attempt > 1:
                row.details["oom_retries"] = st.job.attempt - 1
            st.rows[row.name] = row
            return [Event("row", st.job.name, row=row)]
        if kind == "skipped" and st.job.kind == "workload":
            row = RowResult(str(msg.get("name")), st.job.name, "skipped", error=_worker_message(msg))
            st.rows[row.name] = row
            return [Event("row", st.job.name, row=row)]
        if kind == "error":
            st.error = msg
            return [Event("log", st.job.name, _worker_message(msg))]
        if kind == "done":
            st.done = True
        return []

    def job_finished(self, exit_code: int | None, *, signal_no: int | None = None, timed_out: bool = False,
                     cancelled: bool = False, stderr_tail: str = "", start_error: str | None = None) -> list[Event]:
        """How the current child ended. ``exit_code`` None: killed by a signal (``signal_no`` if known)."""
        st = self._current
        if st is None:
            return []
        self._current = None
        job = st.job
        events: list[Event] = []
        reason: Message | None = None
        status = "failed"
        if cancelled:
            status, reason = "cancelled", _msg(QT_TRANSLATE_NOOP("bench", "cancelled"))
        elif start_error is not None:
            reason = _msg(QT_TRANSLATE_NOOP("bench", "could not start {python}: {error}"), python=self.python,
                          error=start_error)
        elif timed_out:
            status = "timeout"
            reason = _msg(QT_TRANSLATE_NOOP("bench", "stopped after {seconds} s without finishing"),
                          seconds=_secs(job.timeout_s))
        elif st.error is not None and st.error.get("kind") == "oom":
            batch = st.error.get("batch")
            if isinstance(batch, int) and batch > 1:
                half = batch // 2
                retry = self.workload_job(job.name, {**job.overrides, "batch": half}, job.attempt + 1)
                self._queue.insert(0, retry)
                events.append(Event("log", job.name, _msg(QT_TRANSLATE_NOOP(
                    "bench", "{job}: out of memory at batch {batch}, retrying with batch {half}"),
                    job=job.name, batch=batch, half=half)))
                return events
            reason = _msg(QT_TRANSLATE_NOOP("bench", "out of memory even at batch {batch}"),
                          batch=batch if batch is not None else "?")
        elif st.error is not None:
            reason = _worker_message(st.error)
        elif exit_code == 0 and st.done:
            reason = None
        elif exit_code is None or exit_code < 0:
            sig = signal_no if signal_no is not None else (-exit_code if exit_code is not None else None)
            if sig is None:
                reason = _msg(QT_TRANSLATE_NOOP("bench", "crashed: killed by a signal{detail}"),
                              detail=_tail_detail(stderr_tail))
            else:
                reason = _msg(QT_TRANSLATE_NOOP("bench", "crashed: killed by signal {signal}{detail}"),
                              signal=_signal_name(sig), detail=_tail_detail(stderr_tail))
        elif st.garbage and not st.rows:
            reason = _msg(QT_TRANSLATE_NOOP("bench", "the worker's output was not understood: {line}"),
                          line=st.garbage[0][:200])
        elif exit_code == 0:
            reason = _msg(QT_TRANSLATE_NOOP("bench", "the worker ended without finishing its job"))
        else:
            reason = _msg(QT_TRANSLATE_NOOP("bench", "crashed: exit code {code}{detail}"), code=exit_code,
                          detail=_tail_detail(stderr_tail))

        if job.kind == "fingerprint":
            if reason is None and st.fingerprint is not None:
                self.record.fingerprint = st.fingerprint
                self.record.machine = machine_id(st.fingerprint)
                self.record.resolved_device = st.device or "cpu"
                self._queue_workloads()
            else:
                self.record.error = reason or _msg(QT_TRANSLATE_NOOP("bench", "the worker reported no fingerprint"))
                self._queue.clear()
                self.record.status = "cancelled" if cancelled else "failed"
                self.record.finished_at = datetime.now()
            return events

        load = self._load(st) if job.kind == "workload" else None
        expected = _rows_of(job.name, tuple(st.rows))
        for name in expected:
            row = st.rows.get(name)
            if row is None:
                if reason is None:
                    reason = _msg(QT_TRANSLATE_NOOP("bench", "the worker did not report this result"))
                row = RowResult(name, job.name, status, error=reason)
                if st.error and st.error.get("traceback"):
                    row.details["traceback"] = str(st.error["traceback"])[-4000:]
                events.append(Event("row", job.name, row=row))
            row.load = load
            self._add_row(row)
        for name, row in st.rows.items():  # rows a job reported beyond its declared ones
            if name not in expected:
                row.load = load
                self._add_row(row)
        self._finished_jobs += 1
        events.append(Event("job_finished", job.name, reason, self.fraction))
        if cancelled:
            self.cancel()
        return events

    def cancel(self) -> None:
        """Record every job not run yet as cancelled; the driver stops the running child."""
        self.cancelled = True
        for job in self._queue:
            if job.kind == "workload":
                for name in _rows_of(job.name):
                    if self.record.row(name) is None:
                        self._add_row(RowResult(name, job.name, "cancelled",
                                                error=_msg(QT_TRANSLATE_NOOP("bench", "cancelled"))))
        self._queue.clear()
        if self._current is None:
            self._finish()

    def _add_row(self, row: RowResult) -> None:
        self.record.rows = [r for r in self.record.rows if r.name != row.name] + [row]

    def _finish(self) -> None:
        if self.record.finished_at is None:
            self.record.finished_at = datetime.now()
        if self.record.status == "running":
            self.record.status = "cancelled" if self.cancelled else "finished"


def _rows_of(job: str, reported: tuple[str, ...] = ()) -> tuple[str, ...]:
    info = suites.JOBS.get(job)
    return info.rows if info is not None else (reported or (job,))


def _f(v: Any) -> float | None:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


def _d(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def _secs(s: float) -> str:
    return f"{s:g}"


def _worker_message(msg: dict[str, Any]) -> Message:
    params = msg.get("params")
    return Message("bench", str(msg.get("text") or ""), params if isinstance(params, dict) else {})


def _signal_name(sig: int | None) -> str:
    if sig is None:
        return "?"
    try:
        return f"{signal.Signals(sig).name} ({sig})"
    except ValueError:
        return str(sig)


def _tail_detail(stderr_tail: str) -> str:
    lines = [ln.strip() for ln in stderr_tail.strip().splitlines() if ln.strip()]
    return f" — {lines[-1][:300]}" if lines else ""


# -- ending a child and everything it started ----------------------------------------------

def _psutil() -> Any:
    try:
        import psutil
    except ImportError:  # a source checkout on a GPU server with only torch: the process group must do
        return None
    return psutil


class ProcessTree:
    """A child started in its own session, and every process it started that we can find.

    The process group reaches what stayed in it; psutil finds what left it (``setsid``,
    ``setpgid``: torchrun's ranks, daemons). ``refresh`` remembers the descendants alive now,
    so one whose parent has died (re-parented to PID 1, out of the tree) is still ended;
    ``signal`` also looks for processes still in the child's session or group.
    """

    def __init__(self, pid: int, token: str | None = None):
        self.pid = pid
        self.token = token  # the value of TREE_VAR the child was started with: its descendants inherit it
        self._ps = _psutil()
        self._known: dict[int, Any] = {}  # pid -> psutil.Process (it checks the pid was not reused)
        self._root: Any = None
        if self._ps is not None:
            with contextlib.suppress(self._ps.Error):
                self._root = self._ps.Process(pid)
        self.refresh()

    def refresh(self) -> None:
        ps = self._ps
        if ps is None:
            return
        for parent in [self._root, *self._known.values()]:
            if parent is None:
                continue
            try:
                found = parent.children(recursive=True)
            except ps.Error:
                continue
            for child in found:
                self._known.setdefault(child.pid, child)

    def _members(self) -> list[Any]:
        """Processes still in the child's session or process group, or started with its token in their
        environment: the child's descendants, whose parent may be gone."""
        ps = self._ps
        if ps is None:
            return []
        out = []
        for pid in ps.pids():
            if pid in (self.pid, os.getpid()) or pid in self._known:
                continue
            try:
                p = ps.Process(pid)
                ours = hasattr(os, "getsid") and self.pid in (os.getsid(pid), os.getpgid(pid))
                if ours or (self.token is not None and p.environ().get(TREE_VAR) == self.token):
                    out.append(p)
            except (OSError, ps.Error):
                continue
        return out

    def adopt_pipe_holders(self, pipes: list[Any]) -> None:
        """Remember the processes that hold these pipes of ours open (Linux): only our child's descendants
        can, including one that left the session before we saw it (its parent already gone)."""
        ps = self._ps
        if ps is None or not os.path.isdir("/proc/self/fd"):
            return
        targets = set()
        for f in pipes:
            with contextlib.suppress(OSError, ValueError):
                targets.add(f"pipe:[{os.fstat(f.fileno()).st_ino}]")
        for pid in ps.pids():
            if pid == os.getpid() or pid in self._known:
                continue
            try:
                fds = os.listdir(f"/proc/{pid}/fd")
            except OSError:
                continue
            for fd in fds:
                try:
                    held = os.readlink(f"/proc/{pid}/fd/{fd}") in targets
                except OSError:
                    continue
                if held:
                    with contextlib.suppress(ps.Error):
                        self._known.setdefault(pid, ps.Process(pid))
                    break

    def descendants(self) -> list[Any]:
        return list(self._known.values())

    def alive(self) -> list[int]:
        """Pids of the descendants found that still run (zombies do not)."""
        ps = self._ps
        if ps is None:
            return []
        out = []
        for p in self._known.values():
            try:
                if p.is_running() and p.status() != ps.STATUS_ZOMBIE:
                    out.append(p.pid)
            except ps.Error:
                continue
        return out

    def signal(self, sig: int, proc: subprocess.Popen[Any] | None = None) -> None:
        """Send ``sig`` to the child (``proc``, if we started it), its group and every descendant found."""
        self.refresh()
        if self._ps is not None:
            for p in self._members():
                self._known.setdefault(p.pid, p)
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                proc.send_signal(sig)
        if hasattr(os, "killpg"):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, sig)  # those in the group: DataLoader workers, torchrun's ranks
        elif proc is None and self._root is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                self._root.send_signal(sig)
        for p in list(self._known.values()):
            try:
                p.send_signal(sig)  # psutil refuses a pid that now names another process
            except self._ps.Error:
                continue

    def terminate(self, proc: subprocess.Popen[Any] | None = None) -> None:
        self.signal(signal.SIGTERM, proc)

    def kill(self, proc: subprocess.Popen[Any] | None = None) -> None:
        self.signal(getattr(signal, "SIGKILL", signal.SIGTERM), proc)


def tree_token() -> str:
    """A fresh value for TREE_VAR, one per child."""
    import uuid

    return uuid.uuid4().hex


def stop_process_group(proc: subprocess.Popen[Any], sig: int) -> None:
    """Signal a child started with ``start_new_session`` and everything it started (see :class:`ProcessTree`)."""
    ProcessTree(proc.pid).signal(sig, proc)


# -- driving a session with subprocess -----------------------------------------------------

LINGER_S = 1.0  # after the child ended (or was killed), how long its descendants may keep our pipes open
REFRESH_S = 1.0  # how often to look for new descendants while a child runs
MAX_LINE = 1 << 20  # a "line" longer than this is cut


class _Pipes:
    """The child's stdout and stderr as lines, read without blocking: a descendant that holds a pipe
    open can delay nothing. POSIX: one selector; elsewhere, a reader thread per pipe."""

    def __init__(self, streams: dict[str, Any]):
        self.threaded = os.name != "posix"
        self.open = len(streams)
        self._streams = streams
        self._buf = dict.fromkeys(streams, b"")
        if self.threaded:
            self._q: queue.Queue[tuple[str, bytes | None]] = queue.Queue()
            for tag, stream in streams.items():
                threading.Thread(target=self._pump, args=(stream, tag), name=f"bench-{tag}", daemon=True).start()
        else:
            self._sel = selectors.DefaultSelector()
            for tag, stream in streams.items():
                os.set_blocking(stream.fileno(), False)
                self._sel.register(stream, selectors.EVENT_READ, tag)

    def _pump(self, stream: Any, tag: str) -> None:
        try:
            while chunk := stream.read1(65536):
                self._q.put((tag, chunk))
        except (OSError, ValueError):
            pass
        finally:
            self._q.put((tag, None))

    def read(self, timeout: float) -> list[tuple[str, str]]:
        """Complete lines (tag, text) that arrive within ``timeout`` seconds; [] if none."""
        chunks: list[tuple[str, bytes]] = []
        if self.threaded:
            try:
                item = self._q.get(timeout=timeout) if timeout > 0 else self._q.get_nowait()
                while True:
                    tag, chunk = item
                    chunks.append((tag, chunk if chunk is not None else b""))
                    item = self._q.get_nowait()
            except queue.Empty:
                pass
        elif self.open:
            for key, _events in self._sel.select(timeout):
                try:
                    chunk = os.read(key.fd, 65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    self._sel.unregister(key.fileobj)
                chunks.append((key.data, chunk))
        lines: list[tuple[str, str]] = []
        for tag, chunk in chunks:
            if not chunk:  # end of file
                self.open -= 1
                rest, self._buf[tag] = self._buf[tag], b""
                if rest:
                    lines.append((tag, rest.decode("utf-8", errors="replace")))
                continue
            *complete, rest = (self._buf[tag] + chunk).split(b"\n")
            if len(rest) > MAX_LINE:
                complete, rest = [*complete, rest], b""
            self._buf[tag] = rest
            lines.extend((tag, ln.decode("utf-8", errors="replace") + "\n") for ln in complete)
        return lines

    def close(self) -> None:
        if not self.threaded:
            self._sel.close()
        for stream in self._streams.values():
            stream.close()


class SubprocessRunner:
    """Runs a session's jobs one after another with :mod:`subprocess`. ``cancel()`` is thread-safe."""

    def __init__(self, session: SuiteSession, on_event: Callable[[Event], None] | None = None,
                 env: dict[str, str] | None = None, grace_s: float = GRACE_S):
        self.session = session
        self.on_event = on_event or (lambda _e: None)
        self.env = child_env(env)
        self.grace_s = grace_s
        self._cancel = threading.Event()
        self.tree: ProcessTree | None = None  # the running job's (for tests and diagnostics)

    def cancel(self) -> None:
        self._cancel.set()

    def run(self) -> RunRecord:
        while True:
            if self._cancel.is_set():
                self.session.cancel()
            job = self.session.next_job()
            for ev in self.session.take_events():
                self._emit(ev)
            if job is None:
                break
            if not self._settle(job.settle_s):  # cancelled in the pause before the child
                for ev in self.session.job_finished(None, cancelled=True):
                    self._emit(ev)
                continue
            self._emit(Event("job_started", job.name, fraction=self.session.fraction))
            for ev in self._run_job(job):
                self._emit(ev)
        self._emit(Event("finished", fraction=1.0))
        return self.session.record

    def _emit(self, ev: Event) -> None:
        self.on_event(ev)

    def _settle(self, seconds: float) -> bool:
        """Wait ``seconds`` before a workload (the machine's "before" is measured then); False if cancelled."""
        return not self._cancel.wait(seconds) if seconds > 0 else not self._cancel.is_set()

    def _run_job(self, job: Job) -> list[Event]:
        token = tree_token()
        self.session.child_starting()
        try:
            proc = subprocess.Popen(job.argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, env={**self.env, TREE_VAR: token}, bufsize=0,
                                    start_new_session=hasattr(os, "setsid"))
        except OSError as exc:
            return self.session.job_finished(None, start_error=exc.strerror or str(exc))
        self.tree = tree = ProcessTree(proc.pid, token)
        pipes = _Pipes({"out": proc.stdout, "err": proc.stderr})
        deadline = time.monotonic() + job.timeout_s
        tail: list[str] = []
        timed_out = cancelled = False
        kill_at: float | None = None  # SIGKILL then, if SIGTERM has not ended everything
        give_up_at: float | None = None  # stop reading then: the child has ended, its descendants had their chance
        refresh_at = time.monotonic() + REFRESH_S

        def take(lines: list[tuple[str, str]]) -> None:
            for tag, line in lines:
                if tag == "out":
                    for ev in self.session.feed(line):
                        self._emit(ev)
                else:
                    tail.append(line.rstrip("\n"))
                    del tail[:-STDERR_TAIL]
                    self._emit(Event("stderr", job.name, text=line.rstrip("\n")))

        try:
            while True:
                now = time.monotonic()
                if not (timed_out or cancelled):
                    if self._cancel.is_set():
                        cancelled = True
                    elif now >= deadline:
                        timed_out = True
                    if timed_out or cancelled:
                        tree.terminate(proc)
                        kill_at = now + self.grace_s
                if kill_at is not None and now >= kill_at:
                    tree.kill(proc)
                    kill_at = None
                    give_up_at = now + LINGER_S
                if give_up_at is None and kill_at is None and proc.poll() is not None:
                    give_up_at = now + LINGER_S
                if proc.poll() is not None and (not pipes.open or (give_up_at is not None and now >= give_up_at)):
                    break
                if now >= refresh_at:
                    tree.refresh()
                    self.session.sample_load([proc.pid, *(p.pid for p in tree.descendants())])
                    refresh_at = now + REFRESH_S
                wake = min(t for t in (None if timed_out or cancelled else deadline, kill_at, give_up_at, refresh_at)
                           if t is not None)
                take(pipes.read(min(0.25, max(0.01, wake - now))))
            # The child has ended: end what it left behind (holding our pipes or not), keep what it wrote.
            if pipes.open:
                tree.adopt_pipe_holders([proc.stdout, proc.stderr])
            tree.kill()
            take(pipes.read(0))
        finally:
            tree.kill(proc)  # also after an exception or KeyboardInterrupt: nothing of the job outlives it
            try:
                code = proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # unkillable (stuck in the kernel): report it as killed
                code = -getattr(signal, "SIGKILL", 9)
            pipes.close()
        return self.session.job_finished(code if code >= 0 else None, signal_no=-code if code < 0 else None,
                                         timed_out=timed_out, cancelled=cancelled, stderr_tail="\n".join(tail))
