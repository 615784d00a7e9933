"""A torch-free stand-in for the worker, for tests: it misbehaves on request.

Same command line as :mod:`configurator.bench.worker`; the job name says what to do:

- ``ok``       report a result row (``value`` = the ``batch`` parameter) and finish;
- ``crash``    print a little, then die of SIGSEGV (as a broken CUDA kernel or driver would);
- ``exit``     write a reason to stderr and exit with code 7;
- ``hang``     start, then never finish (SIGTERM still ends it);
- ``stubborn`` start, then never finish and ignore SIGTERM (only SIGKILL ends it);
- ``oom``      report out-of-memory while ``batch`` > ``fits`` (parameters), else a result;
- ``garbage``  print text that is not the protocol and exit 0;
- ``slow``     report progress every 50 ms until stopped (for cancel).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time

from configurator.bench.protocol import Emitter


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
