"""The benchmark runner's matmul figure against a bare torch loop of the same shape.

Both run in child processes with the same thread count; pairs are interleaved so drift in
the machine's load hits both alike. Both report the same statistic: work per second at the
median time of one matmul, over the same minimum time after two warm-up calls (a mean would
let one stall on a shared machine decide the figure). A ratio near 1.0 says the runner's child
process, protocol and timing loop cost nothing measurable.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys

from benchmarks.common import median_iqr, python
from configurator.bench.runner import SubprocessRunner, SuiteSession

SIZE = 1024
MIN_TIME = 1.5

BARE = """
import statistics, sys, time, torch
threads, n, min_time = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
torch.set_num_threads(threads)
g = torch.Generator().manual_seed(0)
a, b = torch.randn(n, n, generator=g), torch.randn(n, n, generator=g)
out = torch.empty(n, n)
for _ in range(2):
    torch.matmul(a, b, out=out)
times = []
while sum(times) < min_time or len(times) < 5:
    t0 = time.perf_counter()
    torch.matmul(a, b, out=out)
    times.append(time.perf_counter() - t0)
print(2.0 * n ** 3 / statistics.median(times) / 1e12)
"""


def threads() -> int:
    code = "import torch; print(torch.get_num_threads())"
    return int(subprocess.run([python(), "-c", code], capture_output=True, text=True, check=True).stdout)


def runner_tflops(n_threads: int) -> float:
    params = {"shapes": [[SIZE, SIZE, SIZE]], "dtypes": ["fp32"], "min_time": MIN_TIME, "min_reps": 5, "warmup": 2}
    session = SuiteSession("quick", "cpu", ["matmul"], python(), overrides={"matmul": params}, threads=n_threads,
                           fingerprint=False)
    record = SubprocessRunner(session).run()
    row = record.row("matmul-fp32")
    if row is None or row.status != "ok" or row.median is None:
        raise RuntimeError(f"the runner's matmul failed: {row and row.error_text()}")
    return row.median


def bare_tflops(n_threads: int) -> float:
    out = subprocess.run([python(), "-c", BARE, str(n_threads), str(SIZE), str(MIN_TIME)], capture_output=True,
                         text=True, check=True).stdout
    return float(out.strip().splitlines()[-1])


def run(repeats: int = 7) -> None:
    pairs = max(7, repeats)
    n_threads = threads()
    runner: list[float] = []
    bare: list[float] = []
    for i in range(pairs):
        # alternate which goes first, so neither always gets the cooler machine
        if i % 2 == 0:
            runner.append(runner_tflops(n_threads))
            bare.append(bare_tflops(n_threads))
        else:
            bare.append(bare_tflops(n_threads))
            runner.append(runner_tflops(n_threads))
        print(f"  pair {i + 1}/{pairs}: runner {runner[-1]:.4f}  bare {bare[-1]:.4f} TFLOPS  "
              f"ratio {runner[-1] / bare[-1]:.3f}", file=sys.stderr)
    ratios = [r / b for r, b in zip(runner, bare, strict=True)]
    r_med, r_iqr = median_iqr(runner)
    b_med, b_iqr = median_iqr(bare)
    ratio, ratio_iqr = median_iqr(ratios)
    print(f"\n== runner matmul vs bare torch loop (fp32 {SIZE}³, {n_threads} threads, {pairs} interleaved pairs) ==")
    print(f"{'measurement':<40} {'median':>12} {'IQR':>10}")
    print(f"{'bare torch loop (baseline)':<40} {b_med:>8.4f} TF {b_iqr:>7.4f} TF")
    print(f"{'configurator bench runner':<40} {r_med:>8.4f} TF {r_iqr:>7.4f} TF")
    print(f"{'ratio runner / bare (median of pairs)':<40} {ratio:>10.3f}x {ratio_iqr:>8.3f}")
    verdict = "OK" if ratio >= 0.97 else "BELOW 0.97"
    print(f"{verdict}: the runner reports {ratio:.3f}× the bare loop's throughput "
          f"(mean of all pair ratios {statistics.fmean(ratios):.3f})")
    print(json.dumps({"ratio": ratio, "runner_tflops": r_med, "bare_tflops": b_med, "pairs": pairs,
                      "threads": n_threads}))


if __name__ == "__main__":
    run()
