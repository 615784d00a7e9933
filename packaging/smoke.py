"""Smoke test of the packaged app (dist/configurator/), run by ``make package``.

    .venv/bin/python packaging/smoke.py [--app dist/configurator/configurator] [--python PY] [--no-bench]

Everything runs offscreen with a temporary HOME and XDG folders, so the user's data is untouched:

1. the GUI starts (first start: a new database, migrations, the welcome box), logs "ready" and quits
   once every tab is built (CONFIGURATOR_QUIT_WHEN_SHOWN=loaded) with exit status 0;
2. the GUI with ``--fake-gpus 2`` stays up for a few seconds (live plots) and is then terminated;
3. the command line: parts list, presets, check, export-pdf, monitor --once --json (with and without
   simulated GPUs); on Linux, the .desktop file, metainfo and icons in share/;
4. the benchmark worker's plain source in the bundle (``_internal/worker_src``) runs
   ``-m configurator.bench.worker`` under PY (default: this interpreter) with nothing but
   PYTHONPATH pointing at it, every worker module coming from there;
5. unless --no-bench, or PY has no torch: ``configurator bench --python PY --only matmul`` from the
   frozen app, checking the worker's environment (its configurator from worker_src, none of the
   bundle's library folders on LD_LIBRARY_PATH).

Any ModuleNotFoundError, ImportError, Qt platform-plugin error or traceback in the output or the
log, an early exit, a wrong exit status or a timeout fails it (exit status 1, with the output and
the log's tail). At the end: a summary with timings and the bundle's size.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_APP = ROOT / "dist" / "configurator" / "configurator"
FATAL = re.compile(r"ModuleNotFoundError|ImportError|Could not load the Qt platform plugin|qt\.qpa\.plugin"
                   r"|Traceback \(most recent call last\)|uncaught exception")
TRACEBACK = re.compile(r"Traceback \(most recent call last\)")  # the doctor reports a missing torch as data
OFFSCREEN_NOISE = re.compile(r"This plugin does not support")  # the offscreen platform's limits, not ours
READY = re.compile(r" INFO configurator\.app: ready$", re.MULTILINE)
TAIL = 40


class SmokeError(Exception):
    pass


@dataclass
class Step:
    name: str
    seconds: float
    detail: str


def tail(text: str, lines: int = TAIL) -> str:
    return "\n".join("    | " + line for line in text.rstrip().splitlines()[-lines:])


class Smoke:
    def __init__(self, app: Path, python: str, timeout: float):
        self.app = app.resolve()
        self.bundle = self.app.parent
        self.internal = self.bundle / "_internal"
        self.worker_src = self.internal / "worker_src"
        self.python = python
        self.timeout = timeout
        self.tmp = Path(tempfile.mkdtemp(prefix="configurator-smoke-"))
        self.home = self.tmp / "home"
        self.env = self._env()
        self.steps: list[Step] = []
        self.notes: list[str] = []

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("XDG_", "QT_", "CONFIGURATOR_", "PYTHON", "_PYI_"))
               and k not in ("DISPLAY", "WAYLAND_DISPLAY", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
        for sub in ("config", "data", "cache", "state", "runtime"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        (self.home / "runtime").chmod(0o700)
        env.update(HOME=str(self.home), XDG_CONFIG_HOME=str(self.home / "config"),
                   XDG_DATA_HOME=str(self.home / "data"), XDG_CACHE_HOME=str(self.home / "cache"),
                   XDG_STATE_HOME=str(self.home / "state"), XDG_RUNTIME_DIR=str(self.home / "runtime"),
                   QT_QPA_PLATFORM="offscreen", LANG="C.UTF-8",
                   PYTHONDONTWRITEBYTECODE="1")  # the worker must not write __pycache__ into the bundle
        return env

    # -- helpers ---------------------------------------------------------------------------
    def step(self, name: str, started: float, detail: str) -> None:
        self.steps.append(Step(name, time.monotonic() - started, detail))
        print(f"  ok  {name:<34} {time.monotonic() - started:6.1f} s  {detail}", flush=True)

    def logs(self) -> str:
        return "".join(p.read_text(encoding="utf-8", errors="replace")
                       for p in sorted(self.home.rglob("configurator.log")))

    def run(self, args: Sequence[str], codes: Sequence[int] = (0,), env: dict[str, str] | None = None,
            timeout: float | None = None, fatal: re.Pattern[str] = FATAL) -> subprocess.CompletedProcess[str]:
        argv = [str(a) for a in args]
        try:
            proc = subprocess.run(argv, env=env or self.env, cwd=self.tmp, capture_output=True, text=True,
                                  encoding="utf-8", errors="replace", timeout=timeout or self.timeout, check=False)
        except subprocess.TimeoutExpired as exc:
            raise SmokeError(f"{shlex.join(argv)}: no exit within {exc.timeout:.0f} s") from None
        found = fatal.search(proc.stdout + "\n" + proc.stderr)
        if proc.returncode not in codes or found:
            why = (f"found {found.group(0)!r}" if found else
                   f"exit status {proc.returncode}, expected {' or '.join(map(str, codes))}")
            raise SmokeError(f"{shlex.join(argv)}: {why}\n  stdout:\n{tail(proc.stdout)}\n  stderr:\n"
                               f"{tail(proc.stderr)}")
        return proc

    def cli(self, *args: str, codes: Sequence[int] = (0,)) -> subprocess.CompletedProcess[str]:
        return self.run([self.app, *args], codes)

    # -- 1, 2: the GUI -----------------------------------------------------------------------
    def gui(self, name: str, args: Sequence[str], quit_when_shown: bool, linger_s: float = 3.0) -> None:
        started = time.monotonic()
        env = dict(self.env)
        if quit_when_shown:
            env["CONFIGURATOR_QUIT_WHEN_SHOWN"] = "loaded"  # quit once the tabs built after the first paint are done
        log_before = len(self.logs())
        proc = subprocess.Popen([str(self.app), *args], env=env, cwd=self.tmp, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, encoding="utf-8",
                                errors="replace", start_new_session=True)
        output: list[str] = []
        stream = proc.stdout
        assert stream is not None
        reader = threading.Thread(target=lambda: output.extend(iter(stream.readline, "")), daemon=True)
        reader.start()

        def fail(why: str) -> SmokeError:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            reader.join(5)
            return SmokeError(f"GUI ({name}): {why}\n  output:\n{tail(''.join(output)) or '    (none)'}\n"
                                f"  log:\n{tail(self.logs()[log_before:]) or '    (none)'}")

        def check() -> str:
            log = self.logs()[log_before:]
            found = FATAL.search("".join(output)) or FATAL.search(log)
            if found:
                raise fail(f"found {found.group(0)!r}")
            return log

        deadline = started + self.timeout
        ready_at = None
        while ready_at is None:
            log = check()
            if READY.search(log):
                ready_at = time.monotonic()
            elif proc.poll() is not None:
                raise fail(f"exited with status {proc.returncode} before it was ready")
            elif time.monotonic() > deadline:
                raise fail(f"no \"ready\" in the log within {self.timeout:.0f} s")
            else:
                time.sleep(0.1)
        if quit_when_shown:
            try:
                code = proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                raise fail("did not quit within 30 s of being shown (CONFIGURATOR_QUIT_WHEN_SHOWN)") from None
            reader.join(5)
            check()
            if code != 0:
                raise fail(f"exit status {code} after being shown")
            how = "quit when shown, exit 0"
        else:
            while time.monotonic() < ready_at + linger_s:
                check()
                if proc.poll() is not None:
                    raise fail(f"exited with status {proc.returncode} {time.monotonic() - ready_at:.1f} s after "
                               f"\"ready\"")
                time.sleep(0.1)
            proc.terminate()
            try:
                code = proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                code = proc.wait()
                self.notes.append(f"GUI ({name}) ignored SIGTERM and was killed")
            reader.join(5)
            check()
            how = f"up {linger_s:.0f} s after ready, terminated ({code})"
        for line in self.logs()[log_before:].splitlines():
            if (" WARNING " in line or " ERROR " in line) and not OFFSCREEN_NOISE.search(line):
                note = f"GUI ({name}) log: {line.split(' ', 2)[-1]}"
                if note not in self.notes:
                    self.notes.append(note)
        self.step(f"GUI {name}", started, f"ready after {ready_at - started:.1f} s, {how}")

    # -- 3: the command line -------------------------------------------------------------------
    def command_line(self) -> None:
        t = time.monotonic()
        out = self.cli("--help").stdout
        if "export-pdf" not in out:
            raise SmokeError("configurator --help does not list the sub-commands")
        self.step("configurator --help", t, f"{len(out.splitlines())} lines")

        t = time.monotonic()
        rows = [line for line in self.cli("parts", "list").stdout.splitlines() if line.strip()]
        if len(rows) <= 100:
            raise SmokeError(f"configurator parts list printed {len(rows)} lines; the catalogue has more than 100")
        self.step("configurator parts list", t, f"{len(rows)} lines")

        t = time.monotonic()
        self.cli("presets")
        presets = json.loads(self.cli("presets", "--json").stdout)
        if not presets or not all({"id", "source", "build"} <= set(p) for p in presets):
            raise SmokeError("configurator presets --json: not a list of {id, source, build}")
        build = self.tmp / "build.json"
        build.write_text(json.dumps(presets[-1]["build"], ensure_ascii=False), encoding="utf-8")
        self.step("configurator presets", t, f"{len(presets)} presets; {presets[-1]['id']} → build.json")

        t = time.monotonic()
        code = self.cli("check", str(build), codes=(0, 1)).returncode
        doc = json.loads(self.cli("check", str(build), "--json", codes=(0, 1)).stdout)
        self.step("configurator check build.json", t, f"exit {code}, JSON keys: {', '.join(sorted(doc)[:6])}")

        t = time.monotonic()
        pdf = self.tmp / "sheet.pdf"
        self.cli("export-pdf", str(build), str(pdf))
        if not pdf.is_file() or not pdf.read_bytes().startswith(b"%PDF"):
            raise SmokeError("configurator export-pdf wrote no PDF")
        self.step("configurator export-pdf", t, f"{pdf.stat().st_size // 1024} KiB")

        t = time.monotonic()
        snap = json.loads(self.cli("monitor", "--once", "--json").stdout)
        if not {"time", "host", "nvml", "gpus"} <= set(snap):
            raise SmokeError(f"configurator monitor --once --json: keys {sorted(snap)}")
        nvml = snap["nvml"]
        state = (f"NVML available, {len(snap['gpus'])} GPU(s)" if nvml.get("available")
                 else f"no driver: {nvml.get('error')}")
        self.step("configurator monitor --once --json", t, state)

        t = time.monotonic()
        fake = json.loads(self.cli("--fake-gpus", "2", "monitor", "--once", "--json").stdout)
        if len(fake["gpus"]) != 2:
            raise SmokeError(f"--fake-gpus 2 monitor --once --json: {len(fake['gpus'])} GPUs")
        self.step("configurator --fake-gpus 2 monitor", t, "2 simulated GPUs")

        t = time.monotonic()  # a global option after the sub-command (configurator.cli.context.add_command)
        fake = json.loads(self.cli("monitor", "--once", "--json", "--fake-gpus", "3").stdout)
        if len(fake["gpus"]) != 3:
            raise SmokeError(f"monitor --once --json --fake-gpus 3: {len(fake['gpus'])} GPUs")
        self.step("configurator monitor --fake-gpus 3", t, "3 simulated GPUs")

    def desktop_files(self) -> None:
        t = time.monotonic()
        share = self.bundle / "share"
        desktop = sorted((share / "applications").glob("*.desktop"))
        if len(desktop) != 1 or not (share / "metainfo" / f"{desktop[0].stem}.metainfo.xml").is_file():
            raise SmokeError(f"{share}: expected one .desktop file and its metainfo, found {desktop}")
        entry = dict(line.split("=", 1) for line in desktop[0].read_text(encoding="utf-8").splitlines()
                     if "=" in line and not line.startswith("#"))
        icons = sorted(share.glob(f"icons/hicolor/*/apps/{entry['Icon']}.*"))
        if entry["Exec"].split()[0] != self.app.name or len(icons) < 9:
            raise SmokeError(f"{desktop[0].name}: Exec={entry['Exec']}, {len(icons)} icons named {entry['Icon']}")
        self.step("share/ (desktop integration)", t, f"{desktop[0].name}, metainfo, {len(icons)} icons")

    # -- 4, 5: the benchmark worker under the user's interpreter ----------------------------------
    def worker_env(self) -> dict[str, str]:
        return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.home), "LANG": "C.UTF-8",
                "PYTHONPATH": str(self.worker_src), "PYTHONDONTWRITEBYTECODE": "1"}

    def worker_source(self) -> None:
        t = time.monotonic()
        if not (self.worker_src / "configurator" / "bench" / "worker.py").is_file():
            raise SmokeError(f"{self.worker_src}: the worker's source is missing")
        names = sorted(".".join(p.relative_to(self.worker_src).with_suffix("").parts).removesuffix(".__init__")
                       for p in self.worker_src.rglob("*.py"))
        probe = ("import importlib, json, sys\n"
                 f"names = {names!r}\n"
                 "print(json.dumps({n: importlib.import_module(n).__file__ for n in names}))")
        files = json.loads(self.run([self.python, "-s", "-c", probe], env=self.worker_env()).stdout)
        outside = [n for n, f in files.items() if not Path(f).resolve().is_relative_to(self.worker_src.resolve())]
        if outside:
            raise SmokeError(f"imported from outside {self.worker_src}: {outside}")
        lines = self.run([self.python, "-s", "-m", "configurator.bench.worker", "--doctor"],
                         env=self.worker_env(), fatal=TRACEBACK).stdout.splitlines()
        kinds = [json.loads(line)["type"] for line in lines if line.startswith("{")]
        if kinds[:1] != ["hello"] or "doctor" not in kinds:
            raise SmokeError(f"-m configurator.bench.worker --doctor: {kinds}\n{tail(chr(10).join(lines))}")
        self.step("worker_src under --python", t, f"{len(names)} modules from worker_src; --doctor: {kinds}")

    def bench(self) -> None:
        t = time.monotonic()
        has_torch = subprocess.run([self.python, "-c", "import torch"], capture_output=True, check=False,
                                   env=self.worker_env() | {"PYTHONPATH": ""}).returncode == 0
        if not has_torch:
            self.notes.append(f"bench skipped: {self.python} cannot import torch")
            return
        # A wrapper as the interpreter: records what the worker sees, then runs it.
        seen = self.tmp / "worker-seen.json"
        wrapper = self.tmp / "python-wrapper"
        wrapper.write_text(
            "#!/bin/sh\n"
            f"{shlex.quote(self.python)} -c 'import configurator, json, os, sys; json.dump({{\"configurator\": "
            f"configurator.__file__, \"LD_LIBRARY_PATH\": os.environ.get(\"LD_LIBRARY_PATH\", \"\"), "
            f"\"PYTHONPATH\": os.environ.get(\"PYTHONPATH\", \"\"), \"pyi\": [k for k in os.environ if "
            f"k.startswith(\"_PYI_\")]}}, open(sys.argv[1], \"w\"))' {shlex.quote(str(seen))} || exit 97\n"
            f"exec {shlex.quote(self.python)} \"$@\"\n", encoding="utf-8")
        wrapper.chmod(0o755)
        out = self.run([self.app, "bench", "--python", wrapper, "--no-store", "--only", "matmul", "--device", "cpu",
                        "--suite", "quick", "--json"], timeout=max(self.timeout, 300)).stdout
        doc = json.loads(out)
        ok = [r for r in doc["results"] if r["status"] == "ok"]
        if doc["run"]["status"] != "finished" or not ok:
            raise SmokeError(f"configurator bench: {doc['run']['status']}, results {doc['results']}")
        env = json.loads(seen.read_text(encoding="utf-8"))
        if not Path(env["configurator"]).resolve().is_relative_to(self.worker_src.resolve()):
            raise SmokeError(f"the worker imported configurator from {env['configurator']}, not worker_src")
        leaked = [p for p in (env["LD_LIBRARY_PATH"] + os.pathsep + env["PYTHONPATH"]).split(os.pathsep)
                  if p and Path(p).resolve() == self.internal.resolve()] + env["pyi"]
        if leaked:
            raise SmokeError(f"the bundle leaked into the worker's environment: {leaked}")
        best = max(ok, key=lambda r: r["value"] or 0)
        self.step("frozen app: bench --python PY", t,
                  f"{len(ok)} results, e.g. {best['workload']} {best['value']:.3g} {best['unit']}")

    # -- the summary -----------------------------------------------------------------------------
    def size(self) -> tuple[int, int]:
        files = [p for p in self.bundle.rglob("*") if p.is_file() and not p.is_symlink()]
        return sum(p.stat().st_size for p in files), len(files)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Smoke test of the packaged configurator.")
    ap.add_argument("--app", type=Path, default=DEFAULT_APP, help="the packaged program (default: %(default)s)")
    ap.add_argument("--python", default=sys.executable,
                    help="interpreter for the benchmark worker, with torch for the bench step (default: this one)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds for each start and command")
    ap.add_argument("--no-bench", action="store_true", help="skip running a benchmark from the frozen app")
    args = ap.parse_args(argv)
    if not args.app.is_file():
        print(f"smoke: {args.app} not found; build it first (make package)", file=sys.stderr)
        return 1
    smoke = Smoke(args.app, args.python, args.timeout)
    print(f"smoke test of {smoke.app} (temporary home {smoke.home})", flush=True)
    started = time.monotonic()
    try:
        smoke.gui("first start", [], quit_when_shown=True)
        smoke.gui("--fake-gpus 2", ["--fake-gpus", "2"], quit_when_shown=False)
        smoke.command_line()
        if sys.platform == "linux":
            smoke.desktop_files()
        smoke.worker_source()
        if not args.no_bench:
            smoke.bench()
    except SmokeError as exc:
        print(f"FAIL {exc}", file=sys.stderr)
        print(f"smoke: FAILED after {time.monotonic() - started:.1f} s (files kept in {smoke.tmp})", file=sys.stderr)
        return 1
    size, count = smoke.size()
    for note in smoke.notes:
        print(f"  note: {note}")
    print(f"smoke: {len(smoke.steps)} checks passed in {time.monotonic() - started:.1f} s; bundle "
          f"{smoke.bundle}: {size / 2**20:.0f} MiB in {count} files")
    shutil.rmtree(smoke.tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
