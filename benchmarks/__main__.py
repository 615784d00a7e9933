"""`make bench`: every benchmark, each against its own baseline measured in the same run."""

from __future__ import annotations

import argparse

from benchmarks import (
    bench_cluster,
    bench_cluster_ui,
    bench_gui_startup,
    bench_memory,
    bench_monitor,
    bench_planner,
    bench_planner_ui,
    bench_reliability,
    bench_runner,
    bench_scale,
    bench_startup,
)

SUITES = {"startup": bench_startup.run, "planner": bench_planner.run, "planner_ui": bench_planner_ui.run,
          "runner": bench_runner.run, "monitor": bench_monitor.run, "gui_startup": bench_gui_startup.run,
          "scale": bench_scale.run, "cluster": bench_cluster.run, "memory": bench_memory.run,
          "cluster_ui": bench_cluster_ui.run, "reliability": bench_reliability.run}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("--only", help="comma-separated: " + ",".join(SUITES))
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(SUITES)
    for name in names:
        SUITES[name](repeats=args.repeats)


if __name__ == "__main__":
    main()
