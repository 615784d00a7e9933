"""Scale: a shop's 100,000-part CSV against the shipped 187-part catalogue.

Each figure is measured at the catalogue's size and at 100k parts, and printed as a ratio:

- `parts import` of a CSV (rows/s) and its peak memory (ru_maxrss of a child process that does
  only the import, beside a child that only opens the store);
- `parts list` (the CLI, in a child, stdout to a file) and `parts list --json` (medians);
- the Parts tab (benchmarks/bench_parts_tab.py, in a child): opening it, a search ("24 nvlink") and a
  sort (price, down): seconds until the rows are shown, and the longest the GUI thread was blocked;
- `check` of a two-GPU build (the whole command);
- `suggest` (¥20000, ResNet-50 AMP) on the catalogue read from the database;
- the schema library (#32): the 100k CSV's rows parsed and validated into part records with pydantic v2
  (what core/schema.py uses) and with msgspec (when installed), and the problems each reports for one bad
  build file; and, with ``BENCH_SCALE_BASELINE=REF`` (a git revision, e.g. the commit before the schema),
  the 100k import of that revision beside this one's, in the same run.

The 100k CSV is made from the catalogue's own parts: new ids, prices from 0.85x to 1.6x, and for
one part in five a spec that a shop listing might differ in (a card's length or power, a drive's
capacity, a supply's wattage, a case's clearance).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any

from annotated_types import Le

from configurator.core.schema import Number, Positive, Text, record

SIZES = (100_000,)

# Per category: the fields a shop's listing of a model may differ in (by up to 10 %).
VARIED: dict[str, tuple[str, ...]] = {
    "gpu": ("length_mm", "board_power_w"),
    "memory": ("cas_latency",),
    "storage": ("capacity_gb", "seq_read_mbs"),
    "psu": ("watts",),
    "case": ("max_gpu_length_mm", "expansion_slots"),
}


def synthetic_parts(n: int, seed: int = 7) -> Iterator[Any]:
    """``n`` valid parts derived from the shipped catalogue (none of them with a catalogue id)."""
    from configurator.store.catalogue import load_catalogue

    rng = random.Random(seed)
    base = load_catalogue()
    for i in range(n):
        p = base[i % len(base)]
        changes: dict[str, Any] = {"id": f"{p.id}-s{i}", "name": f"{p.name} #{i}",
                                   "price_cny": max(1, int(p.price_cny * rng.uniform(0.85, 1.6)))}
        fields = VARIED.get(p.category, ())
        if fields and rng.random() < 0.2:
            name = rng.choice(fields)
            value = getattr(p, name)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                changes[name] = max(1, round(value * rng.uniform(0.9, 1.1)))
        yield replace(p, **changes)


def write_csv(path: Path, n: int) -> None:
    from configurator.store.csvio import export_csv

    export_csv(synthetic_parts(n), path)


_CHILD = r"""
import resource, sys, time
from pathlib import Path
from configurator.store.database import open_store
from configurator.store.seed import seed_store
from configurator.store.repository import PartsRepository
store = open_store(Path(sys.argv[1]), seed=seed_store)
start = time.perf_counter()
if sys.argv[2] != "-":
    from configurator.store.csvio import import_csv
    result = import_csv(Path(sys.argv[2]), PartsRepository(store))
    rows = len(result.added) + len(result.prices_updated) + len(result.replaced) + len(result.unchanged)
else:
    rows = 0
elapsed = time.perf_counter() - start
store.close()
print(rows, elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _child_import(db: Path, csv_path: Path | None, source: Path | None = None) -> tuple[int, float, int]:
    """(rows, seconds, peak memory) of an import in a child; ``source``: the project's tree to import with."""
    env = {**os.environ, "PYTHONPATH": str(source)} if source is not None else None
    out = subprocess.run([sys.executable, "-c", _CHILD, str(db), str(csv_path) if csv_path else "-"],
                         capture_output=True, text=True, check=True, env=env, cwd=source).stdout.split()
    return int(out[0]), float(out[1]), int(out[2]) * 1024  # ru_maxrss is KiB on Linux


def _time_cli_args(db: Path, argv: list[str], runs: int = 1, ok: tuple[int, ...] = (0,)) -> float:
    """The median seconds of ``runs`` `configurator ARGV` commands (stdout to a file); an exit code not in
    ``ok`` is an error."""
    env = {**os.environ, "CONFIGURATOR_DB": str(db), "QT_QPA_PLATFORM": "offscreen"}
    times = []
    for _ in range(runs):
        with tempfile.TemporaryFile() as sink:
            start = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "configurator", "--lang", "en", *argv],
                                  env=env, stdout=sink, stderr=subprocess.PIPE)
            times.append(time.perf_counter() - start)
            if proc.returncode not in ok:
                raise RuntimeError(f"configurator {' '.join(argv)}: exit {proc.returncode}: {proc.stderr[-2000:]!r}")
    return statistics.median(times)


# `check` of a two-GPU workstation (exit 0: nothing wrong, 1: findings; both are a finished check).
CHECK_BUILD = {"format": "configurator.build/1", "name": "Two 3090s", "budget_cny": 40000,
               "parts": [{"id": "nvidia-rtx-3090", "qty": 2}, {"id": "amd-ryzen-9-5950x"}],
               "workload": {"model": "gpt2", "task": "train", "batch_size": 8, "seq_len": 1024}}


def _check_s(db: Path, folder: Path, runs: int) -> float:
    build = folder / "check-build.json"
    build.write_text(json.dumps(CHECK_BUILD), encoding="utf-8")
    return _time_cli_args(db, ["check", str(build)], runs, ok=(0, 1))


def _time_cli(db: Path, *args: str, runs: int = 1) -> float:
    """The median seconds of ``runs`` `parts list` commands."""
    return _time_cli_args(db, ["parts", "list", *args], runs)


def _parts_tab(db: Path, runs: int) -> dict[str, dict[str, float]]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run([sys.executable, "-m", "benchmarks.bench_parts_tab", str(db), str(runs)], env=env,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _suggest_s(db: Path, runs: int) -> tuple[float, float, int, float]:
    """Seconds to read suggest's candidates (one record per distinct specification, as `configurator
    suggest` reads them), the median seconds of ``runs`` suggest calls on them, the candidate count,
    and the median seconds of the whole `configurator suggest` command."""
    from configurator.core.build import Workload
    from configurator.core.suggest import suggest
    from configurator.store.database import open_store
    from configurator.store.repository import PartsRepository
    from configurator.store.seed import seed_store

    store = open_store(db, seed=seed_store)
    try:
        start = time.perf_counter()
        catalogue = {p.id: p for p in PartsRepository(store).cheapest_of_each_spec(4)}
        loaded = time.perf_counter() - start
    finally:
        store.close()
    w = Workload(model="resnet50", task="train", precision="amp")
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        suggest(catalogue, 20000, w)
        times.append(time.perf_counter() - start)
    command = _time_cli_args(db, ["suggest", "--budget", "20000"], runs)
    return loaded, statistics.median(times), len(catalogue), command


def _median_import(db: Path, csv_path: Path, runs: int) -> tuple[int, float, int]:
    """(rows, median seconds, peak memory) of ``runs`` imports, each into a new database."""
    got = [_child_import(db.with_name(f"{db.stem}-{i}.db"), csv_path) for i in range(runs)]
    return got[0][0], statistics.median(g[1] for g in got), max(g[2] for g in got)


# -- The schema library (#32): pydantic v2 against msgspec on the same rows and the same declarations. --

def _csv_values(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each row of an exported CSV as (category, its cells converted to the fields' types), as the import
    converts them before validation (parse_text_value; the same for both libraries)."""
    import csv
    import typing

    from configurator.core.parts import PART_TYPES, parse_text_value

    hints = {c: typing.get_type_hints(t) for c, t in PART_TYPES.items()}
    memo: dict[tuple[str, str], Any] = {}
    with path.open(encoding="utf-8-sig", newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        for rec in reader:
            cat = rec[header.index("category")]
            h = hints[cat]
            data: dict[str, Any] = {}
            for key, text in zip(header, rec, strict=True):
                if not text or key == "category" or key in ("custom", "user_edited"):
                    continue
                value = memo.get((key, text))
                if value is None:
                    value = memo[(key, text)] = parse_text_value(text, h[key])
                data[key] = list(value) if type(value) is list else value
            yield cat, data


def _msgspec_types() -> tuple[Any, dict[str, Any]]:
    """The part records and a build file's parts list as msgspec Structs, from the same declarations (type,
    bounds and JSON key of each field, read from the annotations core/parts.py gives them)."""
    import dataclasses
    import typing

    import msgspec
    from annotated_types import Ge, Gt

    from configurator.core.parts import PART_TYPES, M2Slot, PcieSlot

    made: dict[Any, Any] = {}

    def convert(tp: Any) -> Any:
        if typing.get_origin(tp) is typing.Annotated:
            base, *meta = typing.get_args(tp)
            bounds = {}
            for m in meta:
                if isinstance(m, Gt):
                    bounds["gt"] = m.gt
                elif isinstance(m, Ge):
                    bounds["ge"] = m.ge
            inner = convert(base)
            return typing.Annotated[inner, msgspec.Meta(**bounds)] if bounds else inner
        origin = typing.get_origin(tp)
        if origin in (typing.Union, __import__("types").UnionType):
            return typing.Optional[convert(next(a for a in typing.get_args(tp) if a is not type(None)))]  # noqa: UP045
        if origin is list:
            return list[convert(typing.get_args(tp)[0])]
        if dataclasses.is_dataclass(tp):
            return struct(tp)
        return tp

    def struct(cls: Any) -> Any:
        if cls not in made:
            hints = typing.get_type_hints(cls, include_extras=True)
            fields = []
            for f in dataclasses.fields(cls):
                name = "from" if cls in (PcieSlot, M2Slot) and f.name == "source" else f.name
                tp = convert(hints[f.name])
                if f.default is not dataclasses.MISSING:
                    fields.append((name, tp, f.default))
                elif f.default_factory is not dataclasses.MISSING:
                    fields.append((name, tp, msgspec.field(default_factory=f.default_factory)))
                else:
                    fields.append((name, tp))
            made[cls] = msgspec.defstruct(cls.__name__, fields, kw_only=True, forbid_unknown_fields=True,
                                          frozen=True)
        return made[cls]

    build = msgspec.defstruct("BuildFile", [
        ("parts", list[msgspec.defstruct("BuildPart", [
            ("id", str), ("qty", typing.Annotated[int, msgspec.Meta(gt=0, le=16)], 1)],
            forbid_unknown_fields=True)]),
        ("budget_cny", typing.Annotated[float, msgspec.Meta(ge=0, le=100_000_000)])], forbid_unknown_fields=True)
    return build, {c: struct(t) for c, t in PART_TYPES.items()}


# A build file's parts and budget declared for pydantic as core/schema.py declares records (and for msgspec in
# _msgspec_types): the two libraries' reports of BAD_BUILD side by side.
@record
@dataclass(frozen=True)
class _BuildPart:
    id: Text
    qty: Annotated[Positive, Le(16)] = 1


@record
@dataclass(frozen=True)
class _BuildFile:
    parts: list[_BuildPart]
    budget_cny: Annotated[Number, Le(100_000_000)]


BAD_BUILD = {"budget_cny": -5, "parts": [{"id": "nvidia-rtx-3090", "qty": 2}, {"id": "amd-ryzen-9-5950x"},
                                         {"id": "nvidia-rtx-4090", "qty": "two"}, {"id": 7, "colour": "red"}]}


def schema_libraries(csv_path: Path, runs: int = 3) -> dict[str, Any]:
    """Rows per second of parsing and validating ``csv_path`` into part records with each library (the
    median of ``runs``), and the problems each reports for :data:`BAD_BUILD`."""
    from pydantic import TypeAdapter, ValidationError

    from configurator.core.parts import PART_TYPES
    from configurator.core.schema import Schema, SchemaError

    rows = list(_csv_values(csv_path))
    out: dict[str, Any] = {"rows": len(rows)}

    def timed(validate: Any) -> float:
        times = []
        for _ in range(runs):
            batch = [(c, dict(d)) for c, d in rows]  # each run its own inputs (the lists are the records')
            start = time.perf_counter()
            for cat, data in batch:
                validate(cat, data)
            times.append(time.perf_counter() - start)
        return len(rows) / statistics.median(times)

    schemas = {c: Schema(t) for c, t in PART_TYPES.items()}
    out["pydantic_rows_s"] = timed(lambda c, d: schemas[c].validate(d))

    try:
        Schema(_BuildFile).validate(BAD_BUILD)
    except SchemaError as exc:
        out["pydantic_errors"] = [
            f"{p.path}: {p.kind}" + (f" ({getattr(p.expected, '__name__', p.expected)})" if p.expected is not None
                                     else "") for p in exc.problems]
    try:
        TypeAdapter(_BuildFile).validate_python(BAD_BUILD)
    except ValidationError as exc:
        out["pydantic_text"] = [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]
    try:
        import msgspec
    except ImportError:
        return out
    build, structs = _msgspec_types()
    out["msgspec_rows_s"] = timed(lambda c, d: msgspec.convert(d, structs[c], strict=True))
    try:
        msgspec.convert(BAD_BUILD, build, strict=True)
    except msgspec.ValidationError as exc:
        out["msgspec_errors"] = [str(exc)]
    return out


def baseline_import(ref: str, csv_path: Path, folder: Path, runs: int) -> float | None:
    """Rows per second of the 100k import at git revision ``ref`` (its tree unpacked beside), or None when
    the revision cannot be read (no git, not a checkout)."""
    root = Path(__file__).resolve().parents[1]
    tree = folder / "baseline"
    tree.mkdir()
    try:
        archive = subprocess.run(["git", "-C", str(root), "archive", ref, "configurator", "db", "resources"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    got = [_child_import(folder / f"baseline-{i}.db", csv_path, tree) for i in range(runs)]
    return got[0][0] / statistics.median(g[1] for g in got)


def run(repeats: int = 7, sizes: tuple[int, ...] = SIZES) -> None:
    # Medians: ``repeats`` runs at the catalogue's size, three at 100k (each takes seconds); the
    # `parts list` commands and the Parts tab three times at each size.
    big_runs = min(3, repeats)
    from configurator.store.catalogue import load_catalogue

    n_cat = len(load_catalogue())
    rows: list[dict[str, Any]] = []
    libraries: dict[str, Any] = {"rows": 0, "pydantic_rows_s": float("nan")}
    baseline: float | None = None
    with tempfile.TemporaryDirectory(prefix="configurator-bench-scale-") as tmp:
        t = Path(tmp)
        small_csv = t / "catalogue-size.csv"
        write_csv(small_csv, n_cat)
        base_db = t / "base.db"
        _, _, rss_open = _child_import(base_db, None)  # the shipped catalogue only
        got, secs, rss = _median_import(t / "small.db", small_csv, repeats)
        rows.append({"parts": n_cat, "import_rows": got, "import_s": secs, "rss": rss,
                     "list_s": _time_cli(base_db, runs=big_runs), "json_s": _time_cli(base_db, "--json", runs=big_runs),
                     "tab": _parts_tab(base_db, big_runs), "suggest": _suggest_s(base_db, repeats),
                     "check_s": _check_s(base_db, t, big_runs)})
        for n in sizes:
            big_csv = t / f"parts-{n}.csv"
            write_csv(big_csv, n)
            db = t / f"big-{n}.db"
            got, secs, rss = _median_import(db, big_csv, big_runs)
            db = db.with_name(f"{db.stem}-0.db")  # the first import's database
            rows.append({"parts": n + n_cat, "import_rows": got, "import_s": secs, "rss": rss,
                         "list_s": _time_cli(db, runs=big_runs), "json_s": _time_cli(db, "--json", runs=big_runs),
                         "tab": _parts_tab(db, big_runs), "suggest": _suggest_s(db, big_runs),
                         "check_s": _check_s(db, t, big_runs)})
            libraries = schema_libraries(big_csv, big_runs)
            ref = os.environ.get("BENCH_SCALE_BASELINE")
            baseline = baseline_import(ref, big_csv, t, big_runs) if ref else None

    print("\n== scale: the shipped catalogue against a shop's 100k-part CSV ==")
    print(f"  (peak memory of a child that only opens the store: {rss_open / 2**20:.0f} MiB)")
    print(f"{'measurement':<46} {'catalogue':>12} " + " ".join(f"{r['parts']:>12,}" for r in rows[1:])
          + f" {'ratio':>8}")

    def line(label: str, key: Any, fmt: str, unit: str) -> None:
        vals = [key(r) for r in rows]
        ratio = vals[-1] / vals[0] if vals[0] else float("nan")
        print(f"{label:<46} " + " ".join(f"{format(v, fmt) + unit:>12}" for v in vals) + f" {ratio:>7.1f}x")

    print(f"  (medians: {repeats} runs at the catalogue's size, {big_runs} at {rows[-1]['parts']:,} parts; "
          f"parts list and the Parts tab: {big_runs} at each)")
    line("import: rows per second (target >= 10,000)", lambda r: r["import_rows"] / r["import_s"], ",.0f", "")
    line("import: peak memory of the child", lambda r: r["rss"] / 2**20, ".0f", " MiB")
    line("import: peak memory above opening the store", lambda r: max(r["rss"] - rss_open, 0) / 2**20, ".0f",
         " MiB")
    line("parts list (CLI, whole command)", lambda r: r["list_s"], ".2f", " s")
    line("parts list --json (CLI, whole command)", lambda r: r["json_s"], ".2f", " s")
    for key, what in (("open", "open"), ("search", "search '24 nvlink'"), ("sort", "sort by price")):
        line(f"Parts tab: {what}, rows shown", lambda r, key=key: r["tab"][key]["s"], ".3f", " s")
        line(f"Parts tab: {what}, GUI thread blocked", lambda r, key=key: r["tab"][key]["blocked_s"], ".3f", " s")
    line("configurator check (two 3090s, whole command)", lambda r: r["check_s"], ".2f", " s")
    line("suggest's candidates read from SQLite", lambda r: r["suggest"][0], ".2f", " s")
    line("  candidates (one per distinct specification)", lambda r: r["suggest"][2], ",.0f", "")
    line("suggest ¥20000 ResNet-50 AMP, the search", lambda r: r["suggest"][1], ".3f", " s")
    line("configurator suggest (whole command, < 2 s)", lambda r: r["suggest"][3], ".2f", " s")
    big = rows[-1]
    print(f"\n== the schema library: {libraries['rows']:,} CSV rows parsed and validated into part records ==")
    print(f"  pydantic {__import__('pydantic').VERSION}: {libraries['pydantic_rows_s']:>10,.0f} rows/s")
    if "msgspec_rows_s" in libraries:
        print(f"  msgspec {__import__('msgspec').__version__}:  {libraries['msgspec_rows_s']:>10,.0f} rows/s")
    else:
        print("  msgspec: not installed, not measured")
    print("  a bad build file: pydantic reports every problem, with its kind and bound:")
    for e in libraries.get("pydantic_errors", []):
        print(f"    {e}")
    if "msgspec_errors" in libraries:
        print("  msgspec reports the first one, as an English sentence:")
        for e in libraries["msgspec_errors"]:
            print(f"    {e}")
    print(f"  100k import, this tree: {big['import_rows'] / big['import_s']:,.0f} rows/s", end="")
    print(f"; at {os.environ['BENCH_SCALE_BASELINE']} (before the schema): {baseline:,.0f} rows/s"
          if baseline is not None else " (BENCH_SCALE_BASELINE=REF measures a revision beside it)")
    print(f"  import {'meets' if big['import_rows'] / big['import_s'] >= 10_000 else 'MISSES'} 10,000 rows/s; "
          f"suggest {'meets' if big['suggest'][3] < 2 else 'MISSES'} 2 s at {big['parts']:,} parts (whole command)")


if __name__ == "__main__":
    run(sizes=tuple(int(a) for a in sys.argv[1:]) or SIZES)
