"""The benchmark child process: ``python -m configurator.bench.worker JOB [options]``.

Speaks JSON lines on stdout (see :mod:`configurator.bench.protocol`). Anything a library
prints goes to stderr: the protocol stream is a private copy of the original stdout.
Imports only the standard library and torch (plus torchvision/transformers for their jobs).

Exit codes: 0 done (results or skips reported), 1 failed, 2 bad arguments, 3 out of memory.
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import os
import signal
import sys
import traceback
from typing import Any

from configurator.bench import suites
from configurator.bench.i18n import QT_TRANSLATE_NOOP
from configurator.bench.protocol import PROTOCOL, Emitter

EXIT_FAILED, EXIT_USAGE, EXIT_OOM = 1, 2, 3


def _protocol_stream() -> Any:
    """Keep the real stdout for the protocol; point fd 1 (and sys.stdout) at stderr."""
    sys.stdout.flush()
    fd = os.dup(1)  # not inherited by children
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(fd, "w", encoding="utf-8", buffering=1)


def _on_term(signum: int, _frame: Any) -> None:
    from configurator.bench.workloads.common import stop_children

    stop_children()
    os._exit(128 + signum)


def _import_torch(emit: Emitter) -> Any:
    try:
        import torch
    except Exception as exc:
        emit.send("error", kind="failed", text=QT_TRANSLATE_NOOP(
            "bench", "torch cannot be imported by {python}: {error}"), params={
            "python": sys.executable, "error": f"{type(exc).__name__}: {exc}"}, batch=None, traceback="")
        raise SystemExit(EXIT_FAILED) from None
    return torch


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m configurator.bench.worker")
    ap.add_argument("job", nargs="?", help="one of: " + ", ".join(suites.JOBS))
    ap.add_argument("--fingerprint", action="store_true", help="report the fingerprint and resolved device")
    ap.add_argument("--doctor", action="store_true", help="run the environment checks")
    ap.add_argument("--device", default="auto", choices=suites.DEVICES)
    ap.add_argument("--suite", default="quick", choices=suites.SUITES)
    ap.add_argument("--params", default="{}", help="JSON object overriding the suite's parameters")
    ap.add_argument("--threads", type=int, default=0, help="torch threads (default: torch's own choice)")
    args = ap.parse_args(argv)
    emit = Emitter(_protocol_stream(), job=args.job or "")
    faulthandler.enable()
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, _on_term)
    emit.send("hello", protocol=PROTOCOL, job=args.job or ("fingerprint" if args.fingerprint else "doctor"),
              pid=os.getpid())

    if args.doctor:
        from configurator.bench.doctor import run_checks

        emit.send("doctor", checks=[c.to_json() for c in run_checks()])
        emit.send("done")
        return 0

    try:
        overrides = json.loads(args.params)
        if not isinstance(overrides, dict):
            raise ValueError("--params must be a JSON object")
    except ValueError as exc:
        emit.send("error", kind="failed", text=QT_TRANSLATE_NOOP("bench", "bad parameters: {error}"),
                  params={"error": str(exc)}, batch=None, traceback="")
        return EXIT_USAGE
    if not args.fingerprint and args.job not in suites.JOBS:
        emit.send("error", kind="failed", text=QT_TRANSLATE_NOOP("bench", "unknown job {job!r}"),
                  params={"job": args.job}, batch=None, traceback="")
        return EXIT_USAGE

    torch = _import_torch(emit)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    from configurator.bench import fingerprint
    from configurator.host import cpu

    if args.fingerprint:
        fp = fingerprint.collect(torch)
        device = fingerprint.resolve_device(args.device, torch)
        usable = _device_usable(torch, device)
        if usable is not None:
            emit.send("error", kind="failed", text=usable[0], params=usable[1], batch=None, traceback="")
            return EXIT_FAILED
        emit.send("fingerprint", fingerprint=fp, device=device)
        emit.send("done")
        return 0

    device = fingerprint.resolve_device(args.device, torch)
    cpus = cpu.counts()["usable"] or 1
    params = {**suites.params(args.job, args.suite, device, cpus), **overrides}
    from configurator.bench.workloads import get
    from configurator.bench.workloads.common import Context, Skip, WorkloadError, is_oom

    ctx = Context(args.job, torch, device, params, emit, fingerprint=params.pop("fingerprint", {}) or {})
    try:
        get(args.job)(ctx)
    except Skip as skip:
        for row in suites.JOBS[args.job].rows:
            if row not in emit.sent:
                emit.skipped(row, skip.text, **skip.params)
    except WorkloadError as exc:
        emit.send("error", kind="failed", text=exc.text, params=exc.params, batch=None, traceback="")
        return EXIT_FAILED
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        if is_oom(exc):
            emit.send("error", kind="oom", text=QT_TRANSLATE_NOOP("bench", "out of memory at batch {batch}"),
                      params={"batch": params.get("batch")}, batch=params.get("batch"),
                      traceback=traceback.format_exc(limit=3))
            return EXIT_OOM
        emit.send("error", kind="failed", text="{error}", params={"error": f"{type(exc).__name__}: {exc}"},
                  batch=params.get("batch"), traceback=traceback.format_exc())
        return EXIT_FAILED
    emit.send("done")
    return 0


def _device_usable(torch: Any, device: str) -> tuple[str, dict[str, Any]] | None:
    if device == "cuda" and not torch.cuda.is_available():
        return (QT_TRANSLATE_NOOP("bench", "CUDA was asked for, but torch.cuda.is_available() is False "
                                           "(torch {version}, built for CUDA {cuda}); `configurator doctor` "
                                           "says why"), {"version": torch.__version__, "cuda": torch.version.cuda})
    if device == "mps":
        mps = getattr(torch.backends, "mps", None)
        if mps is None or not mps.is_available():
            return (QT_TRANSLATE_NOOP("bench", "MPS was asked for, but this is not an Apple-silicon Mac "
                                               "with MPS support"), {})
    return None


if __name__ == "__main__":
    sys.exit(main())
