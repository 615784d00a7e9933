"""First start (create, migrate, seed) and warm start of `configurator parts list`,
as ratios to `python -c "import sqlalchemy"` in the same run (interleaved, medians)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from benchmarks.common import python, report, time_command


def run(repeats: int = 7) -> None:
    py = python()
    baseline: list[float] = []
    first: list[float] = []
    warm: list[float] = []
    warm_json: list[float] = []
    with tempfile.TemporaryDirectory(prefix="configurator-bench-") as tmp:
        warm_db = Path(tmp) / "warm" / "configurator.db"
        time_command([py, "-m", "configurator", "--db", str(warm_db), "parts", "list"])  # create it once
        for i in range(repeats):
            baseline.append(time_command([py, "-c", "import sqlalchemy"]))
            fresh = Path(tmp) / f"first-{i}" / "configurator.db"
            first.append(time_command([py, "-m", "configurator", "--db", str(fresh), "parts", "list"]))
            warm.append(time_command([py, "-m", "configurator", "--db", str(warm_db), "parts", "list"]))
            warm_json.append(time_command([py, "-m", "configurator", "--db", str(warm_db), "parts", "list",
                                           "--json"]))
    report(
        f"parts list start-up ({repeats} runs each, interleaved)",
        'python -c "import sqlalchemy"',
        [
            ("first start: create + migrate + seed + list", first),
            ("warm start: parts list", warm),
            ("warm start: parts list --json", warm_json),
        ],
        baseline,
    )


if __name__ == "__main__":
    run()
