"""Every ``--json`` document's numbers are rounded to what they mean (configurator.cli.rounding): no
``51.00000000001239``, no ``1.06298828125``; spec-sheet and published figures keep their digits."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from configurator.bench.results import RowResult, RunRecord
from configurator.cli import rounding
from configurator.cli.context import Cli
from configurator.cli.entry import build_parser
from configurator.core import measurements as ms
from configurator.core.parts import part_to_dict
from configurator.store.catalogue import load_catalogue
from tests.cli_run import run


def floats(doc: Any, path: str = "") -> Iterator[tuple[str, float]]:
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from floats(v, f"{path}.{k}")
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from floats(v, f"{path}[{i}]")
    elif isinstance(doc, float):
        yield path, doc


def too_precise(x: float) -> bool:
    """More than 4 decimals and more than 4 significant figures: noise, not meaning. (0.00333 and
    1307.4 pass; 1.06298828125, 7687.470679 and 51.00000000001239 do not.)"""
    d = Decimal(repr(x)).normalize()
    _sign, digits, exponent = d.as_tuple()
    assert isinstance(exponent, int)
    decimals = max(-exponent, 0)
    return decimals > 4 and len(digits) > 4


def documents(capsys, db: Path, tmp_path: Path) -> Iterator[tuple[str, Any]]:  # type: ignore[no-untyped-def]
    def doc(*argv: str, codes: tuple[int, ...] = (0,)) -> Any:
        code, out, err = run(capsys, "--db", str(db), *argv)
        assert code in codes, (argv, err)
        return json.loads(out)

    yield "parts list", doc("parts", "list", "--json")
    yield "parts show", doc("parts", "show", "nvidia-rtx-4090", "--json")
    presets = doc("presets", "--json")
    yield "presets", presets
    for i, p in enumerate(presets):
        build = tmp_path / f"preset-{i}.json"
        build.write_text(json.dumps(p["build"], ensure_ascii=False), encoding="utf-8")
        yield f"check {p['id']}", doc("check", str(build), "--json", codes=(0, 1))
    for workload, task in (("resnet50", "train"), ("bert-base", "train"), ("gpt2", "infer"), ("llama-7b", "infer")):
        yield f"suggest {workload}", doc("suggest", "--budget", "45000.5", "--workload", workload, "--task", task,
                                         "--json", codes=(0, 1))
    yield "measurements list", doc("measurements", "list", "--json")
    yield "monitor --once", doc("monitor", "--once", "--json", "--interval", "0.1", "--fake-gpus", "8")
    code, out, err = run(capsys, "--db", str(db), "--fake-gpus", "2", "monitor", "--json", "--interval", "0.1",
                         "--count", "3")
    assert code == 0, err
    for n, line in enumerate(out.splitlines()):
        yield f"monitor line {n}", json.loads(line)
    yield "doctor", doc("doctor", "--json", codes=(0, 1))
    csv = tmp_path / "parts.csv"
    yield "parts export", doc("parts", "export", str(csv), "--category", "gpu", "--json")
    yield "parts import", doc("parts", "import", str(csv), "--json")
    yield "cloud-prices", doc("cloud-prices", "--json")
    yield "models list", doc("models", "list", "--json")
    yield "models show", doc("models", "show", "llama-7b", "--json")
    yield "detect", doc("--fake-gpus", "2", "detect", "--json")
    yield "suggest serve", doc("suggest", "--budget", "200000", "--workload", "llama-7b", "--task", "serve",
                               "--request-rate", "2", "--prompt-tokens", "512", "--output-tokens", "256", "--json",
                               codes=(0, 1))
    recording = tmp_path / "run.csv"
    code, _out, err = run(capsys, "--db", str(db), "--fake-gpus", "2", "monitor", "--record", str(recording),
                          "--interval", "0.1", "--count", "4")
    assert code == 0, err
    yield "report", doc("report", str(recording), "--json")
    build = tmp_path / "preset-0.json"
    yield "advise", doc("advise", str(build), "--recording", str(recording), "--json")
    yield "advise budget", doc("advise", str(build), "--budget", "20000", "--json")


def test_no_command_prints_noise_digits(capsys, db_path: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    seen = 0
    for name, doc in documents(capsys, db_path, tmp_path):
        bad = [(path, x) for path, x in floats(doc) if too_precise(x) or not math.isfinite(x)]
        assert not bad, f"`configurator {name} --json`: {bad[:5]}"
        seen += sum(1 for _ in floats(doc))
    assert seen > 1000  # the documents above do hold floats


def test_the_monitor_stream_was_noisy_before_rounding() -> None:
    """What the rounding is for: the monitor's own document has noise digits (a load average is a
    fixed-point fraction of 2048ths, a CPU share a ratio of times), the printed one does not."""
    from configurator.monitor.service import MonitorService
    from configurator.monitor.snapshot import snapshot_to_dict

    service = MonitorService.create(2, interval_s=1.0)
    service.gpu.start()
    try:
        service.sampler.sample_once()
        raw = snapshot_to_dict(service.sampler.sample_once())
    finally:
        service.stop()
    assert raw["host"]["load_1m"] is not None
    raw["host"]["load_1m"] = 1.06298828125  # a real reading of /proc/loadavg's 1.06 (as psutil gives it)
    raw["gpus"][0]["power_w"] = 51.00000000001239
    shown = rounding.tidy(raw)
    assert shown["host"]["load_1m"] == 1.06 and shown["gpus"][0]["power_w"] == 51.0
    assert not [p for p, x in floats(shown) if too_precise(x)]
    assert isinstance(shown["gpus"][0]["pcie_rx_bytes_per_s"], int | None)


def test_catalogue_specs_and_published_measurements_keep_their_digits(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--db", str(db_path), "parts", "list", "--json")
    assert code == 0
    shown = {p["id"]: p for p in json.loads(out)}
    shipped = {p.id: part_to_dict(p) for p in load_catalogue()}
    assert shown == shipped and any(isinstance(v, float) for p in shown.values() for v in p.values())
    code, out, _ = run(capsys, "--db", str(db_path), "measurements", "list", "--json")
    assert code == 0
    assert [m["value"] for m in json.loads(out)] == [m.value for m in ms.load()]


@pytest.mark.parametrize("key, value, shown", [
    ("power_w", 51.00000000001239, 51.0),  # watts: 1 decimal
    ("draw_w", 366.846, 366.8),
    ("vram_gib", 3.6249999, 3.62),  # GiB: 2 decimals
    ("ram_gib", 23.4817, 23.48),
    ("price_cny", 12999.0, 12999),  # prices: integers
    ("electricity_cny_per_month", 46.2, 46),
    ("electricity_cny_per_kwh", 0.6, 0.6),  # a tariff is not a price
    ("cv_median_error", 0.14912345, 0.1491),  # fractions: 4 decimals
    ("cpu_percent", 7.894736842017085, 7.9),  # percent: 1 decimal …
    ("own_cpu_percent", 0.5504624237907115, 0.55),  # … but 2 figures: the app's share of a core
    ("pcie_rx_bytes_per_s", 3895447552.0, 3895447552),  # bytes: integers
    ("sm_clock_mhz", 1905.0, 1905),
    ("load_1m", 1.06298828125, 1.06),
    ("throughput", 1336.24567, 1336.25),  # throughput: 2 decimals, 3 figures below 1
    ("fp32_tflops", 35.58, 35.58),
    ("memory_bandwidth_gbs", 0.1930658336457885, 0.193),
    ("something_new", 3.14159265, 3.142),  # no known unit: 2 decimals, 4 figures
    ("something_new", 0.000123456, 0.0001235),
])
def test_each_quantity_is_rounded_by_its_key(key: str, value: float, shown: float) -> None:
    got = rounding.tidy({key: value})[key]
    assert got == shown and type(got) is type(shown)


def test_a_row_with_a_unit_is_rounded_by_its_unit() -> None:
    t0 = datetime(2026, 12, 1, 12)
    record = RunRecord("quick", "cpu", "/py", t0, resolved_device="cpu", finished_at=t0 + timedelta(seconds=98),
                       status="finished", fingerprint={"cpu_mhz": 2000.0, "ram_gib": 23.456})
    # The figures of a real `bench --suite quick --device cpu` run on this kind of machine.
    record.rows = [RowResult("matmul-fp32", "matmul", "ok", 0.1930658336457885, "TFLOPS", 0.18974532663331192,
                             0.003326518110257165),
                   RowResult("dataloader-warm", "dataloader", "ok", 7687.470679032414, "samples/s",
                             7687.470679032414, 966.5114384861108),
                   RowResult("ddp-scaling", "ddp", "ok", 33.93829621763301, "%", 33.93829621763301, 5.788982187551664)]
    doc = rounding.tidy(record.to_json())
    assert [(r["value"], r["median"], r["iqr"]) for r in doc["results"]] == [
        (0.193, 0.19, 0.00333), (7687.47, 7687.47, 966.51), (33.9, 33.9, 5.8)]
    assert doc["fingerprint"] == {"cpu_mhz": 2000, "ram_gib": 23.46}
    assert doc["run"]["duration_s"] == 98.0
    estimate = {"key": "vram_per_gpu_gib", "value": 3.621, "unit": "GiB", "low": 2.9871, "high": 4.4649,
                "inputs": {"weights": 100.43, "activations": 2.6234}}
    assert rounding.tidy(estimate) == {**estimate, "value": 3.62, "low": 2.99, "high": 4.46,
                                       "inputs": {"weights": 100.43, "activations": 2.62}}


def test_json_still_refuses_nan(capsys) -> None:  # type: ignore[no-untyped-def]
    cli = Cli(build_parser().parse_args(["doctor"]))
    with pytest.raises(ValueError):
        cli.emit_json({"power_w": math.nan})
    with pytest.raises(ValueError):
        cli.emit_json_line({"value": math.inf, "unit": "img/s"})
    assert capsys.readouterr().out == ""


def test_every_number_of_every_command_is_declared(capsys, db_path: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """No key-suffix guess: each float a command prints has a declared precision (a record's field, its output's
    table in core/schema_precision.py, its estimate's key or its unit), or this fails naming it."""
    for name, doc in documents(capsys, db_path, tmp_path):
        assert not rounding.undeclared(doc), f"`configurator {name} --json`: {rounding.undeclared(doc)[:5]}"
