"""A torch-free stand-in for the worker, for tests: it misbehaves on request.

Same command line as :mod:`configurator.bench.worker`; the job name says what to do:

- ``ok``       report a result row (``value`` = the ``batch`` parameter) and finish;
- ``crash``    print a little, then die of SIGSEGV (as a broken CUDA kernel or driver would);
- ``exit``     write a reason to stderr and exit with code 7;
- ``hang``     start, then never finish (SIGTERM still ends it);
- ``stubborn`` start, then never finish and ignore SIGTERM (only SIGKILL ends it);
- ``oom``      report out-of-memory while ``batch`` > ``fits`` (parameters), else a result;
- ``garbage``  print text that is not the protocol and exit 0;
- ``slow``     report progress every 50 ms until stopped (for cancel);
- ``orphans``  start two sleepers that keep our stdout and stderr open, one in our session and
               process group, one in a session of its own (``setsid``), then hang;
- ``leaky``    the same sleepers, then report a result and exit 0 (they outlive us);
- ``tree``     like torchrun: two "ranks", each with a child of its own, then hang.
- ``spin``     keep one core busy for ``seconds`` (parameter, default 0.5), then report a result;
- ``noisy``    report a result whose spread is wide: median ``median``, IQR ``iqr`` (parameters).

The last three log ``started {pids}`` with ``pids`` = every process in the tree (this one first).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time

from configurator.bench.protocol import Emitter

SLEEP = "import time; time.sleep(600)"
# A rank: starts its own child (a DataLoader worker, say), tells its parent the pid, then waits.
RANK = ("import subprocess, sys; p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']); "
        "print(p.pid, flush=True); p.wait()")


def _spawn(code: str, *, stdout: int | None = None, new_session: bool = False) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL, stdout=stdout,
                            start_new_session=new_session)


def _tree(job: str) -> list[int]:
    """Start the descendants of ``orphans``, ``leaky`` or ``tree``; all their pids."""
    if job == "tree":
        pids = []
        for _ in range(2):
            rank = _spawn(RANK, stdout=subprocess.PIPE)
            assert rank.stdout is not None
            pids += [rank.pid, int(rank.stdout.readline())]
        return pids
    same_session = _spawn(SLEEP)  # inherits stdout and stderr: the job's pipes stay open
    own_session = _spawn(SLEEP, new_session=True)  # out of our session and group: killpg misses it
    return [same_session.pid, own_session.pid]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("job", nargs="?")
    ap.add_argument("--fingerprint", action="store_true")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--suite", default="quick")
    ap.add_argument("--params", default="{}")
    ap.add_argument("--threads", type=int, default=0)
    a = ap.parse_args(argv)
    emit = Emitter(sys.stdout)
    params = json.loads(a.params)
    emit.send("hello", protocol=1, job=a.job or "fingerprint", pid=os.getpid())
    if a.fingerprint:
        emit.send("fingerprint", fingerprint={"cpu": "fault worker", "cpu_logical": 1, "cpu_physical": 1,
                                              "ram_gib": 1.0, "gpus": [], "torch": None},
                  device="cpu" if a.device == "auto" else a.device)
        emit.send("done")
        return 0
    job = a.job or ""
    if job == "ok":
        emit.progress(0.5, "half way")
        emit.result("ok", float(params.get("batch", 1)), "img/s", float(params.get("batch", 1)), 0.0,
                    settings={"batch": params.get("batch")})
        emit.send("done")
        return 0
    if job == "spin":
        end = time.process_time() + float(params.get("seconds", 0.5))
        n = 0
        while time.process_time() < end:
            n += 1
        emit.result("spin", 1.0, "img/s", 1.0, 0.0, settings={"seconds": params.get("seconds", 0.5)})
        emit.send("done")
        return 0
    if job == "noisy":
        median = float(params.get("median", 100.0))
        emit.result("noisy", median, "img/s", median, float(params.get("iqr", 30.0)))
        emit.send("done")
        return 0
    if job == "crash":
        emit.progress(0.1, "about to crash")
        sys.stderr.write("fault worker: segfaulting on purpose\n")
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
        time.sleep(10)
        return 99
    if job == "exit":
        sys.stderr.write("fault worker: giving up with code 7\n")
        return 7
    if job in ("hang", "stubborn"):
        if job == "stubborn":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        emit.progress(0.1, "hanging")
        while True:
            time.sleep(3600)
    if job == "oom":
        batch = int(params.get("batch", 64))
        if batch > int(params.get("fits", 8)):
            emit.send("error", kind="oom", text="out of memory at batch {batch}", params={"batch": batch},
                      batch=batch, traceback="")
            return 3
        emit.result("oom", float(batch), "img/s", float(batch), 0.0, settings={"batch": batch})
        emit.send("done")
        return 0
    if job == "garbage":
        print("Segmentation fault? no: just a library printing to stdout")
        print("{not json")
        return 0
    if job in ("orphans", "leaky", "tree"):
        pids = [os.getpid(), *_tree(job)]
        emit.send("log", text="started {pids}", params={"pids": pids})
        if job == "leaky":
            emit.result("leaky", 1.0, "img/s", 1.0, 0.0)
            emit.send("done")
            return 0
        while True:
            time.sleep(3600)
    if job == "slow":
        i = 0
        while True:
            emit.progress(min(0.99, i / 1000), "step {n}", n=i)
            i += 1
            time.sleep(0.05)
    emit.send("error", kind="failed", text="unknown fault {job!r}", params={"job": job}, batch=None, traceback="")
    return 1


if __name__ == "__main__":
    sys.exit(main())
