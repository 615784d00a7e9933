"""Protocol, statistics, suites, results export, the doctor's verdicts (no torch needed)."""

from __future__ import annotations

import io
import json
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from configurator.bench import doctor, suites
from configurator.bench.doctor import Probe, arch_supported, run_checks
from configurator.bench.fingerprint import machine_id
from configurator.bench.protocol import Emitter, ProtocolError, decode, encode
from configurator.bench.results import RowResult, RunRecord, export_csv, export_json
from configurator.bench.stats import measure, median_iqr, quartiles
from configurator.core.i18n import Message
from configurator.host.gpu import pcie_expected_gbps


def test_protocol_round_trip_and_garbage() -> None:
    buf = io.StringIO()
    e = Emitter(buf)
    e.result("x", float("nan"), "GB/s", 1.0, 0.5, settings={"a": 1})
    e.progress(1.7, "t {n}", n=1)
    lines = buf.getvalue().splitlines()
    first = decode(lines[0])
    assert first["value"] is None and first["settings"] == {"a": 1}
    assert decode(lines[1])["fraction"] == 1.0
    for bad in ("", "hello", "[1]", '{"type": "nope"}', '{"type": "result"}',
                '{"type": "result", "name": "x", "value": "fast"}', '{"type": "progress"}'):
        with pytest.raises(ProtocolError):
            decode(bad)
    with pytest.raises(ProtocolError):
        encode({"type": "bogus"})


@given(st.lists(st.floats(min_value=0.001, max_value=1e6), min_size=1, max_size=50))
def test_quartiles_are_ordered(samples: list[float]) -> None:
    q1, med, q3 = quartiles(samples)
    assert min(samples) <= q1 <= med <= q3 <= max(samples)
    assert median_iqr(samples) == (med, q3 - q1)


def test_measure_excludes_warmup_and_meets_minimum_time_and_count() -> None:
    clock = iter(range(0, 10_000)).__next__  # each read advances one "second"
    calls = {"step": 0, "sync": 0, "setup": 0}

    def step() -> None:
        calls["step"] += 1

    def sync() -> None:
        calls["sync"] += 1

    t = measure(step, sync=sync, warmup=3, min_time=7, min_reps=2, clock=lambda: float(clock()),
                setup=lambda: calls.__setitem__("setup", calls["setup"] + 1))
    assert t.count == 7 and all(s == 1.0 for s in t.seconds)  # 7 samples of 1 s to reach 7 s
    assert calls["step"] == 3 + 7 and calls["setup"] == 3 + 7
    assert calls["sync"] == 1 + 2 * 7  # after warm-up, then before and after every sample
    assert t.rate_stats(10.0) == (10.0, 10.0, 0.0)


def test_parse_only_and_params() -> None:
    assert suites.parse_only("gpt2-decode, matmul ,gpt2") == (["matmul", "gpt2"], [])
    assert suites.parse_only("matmul,warp") == (["matmul"], ["warp"])
    for suite in suites.SUITES:
        for job in suites.SUITE_JOBS[suite]:
            for dev in ("cpu", "cuda"):
                assert isinstance(suites.params(job, suite, dev, 2), dict)
    assert suites.params("ddp", "quick", "cpu", 2)["procs"] == [1, 2]
    assert suites.params("ddp", "quick", "cpu", 1)["procs"] == [1]


def test_pcie_expectation() -> None:
    assert pcie_expected_gbps(4, 16) == pytest.approx(31.5, abs=0.1)
    assert pcie_expected_gbps(3, 8) == pytest.approx(7.88, abs=0.01)
    assert pcie_expected_gbps(None, 16) is None


def test_machine_id_ignores_software_and_small_ram_drift() -> None:
    fp = {"cpu": "X", "cpu_logical": 8, "cpu_physical": 4, "ram_gib": 31.3, "gpus": [{"name": "RTX 3090",
                                                                                      "memory_gib": 24.0}]}
    assert machine_id(fp) == machine_id({**fp, "torch": "2.9", "ram_gib": 31.4})
    assert machine_id(fp) != machine_id({**fp, "gpus": []})


def record() -> RunRecord:
    rec = RunRecord("quick", "cpu", "/py", datetime(2026, 1, 2, 3, 4, 5), resolved_device="cpu",
                    finished_at=datetime(2026, 1, 2, 3, 6, 5), status="finished", machine="m1")
    rec.rows = [RowResult("resnet18-train", "resnet18", "ok", 120.5, "img/s", 120.5, 3.0, {"batch": 16}),
                RowResult("gpt2-decode", "gpt2", "failed", error=Message("bench", "crashed: exit code {code}",
                                                                       {"code": 1}))]
    return rec


def test_json_document_follows_the_cli_contract(tmp_path: Path) -> None:
    doc = record().to_json()
    assert set(doc) == {"run", "fingerprint", "results"}
    assert [set(r) for r in doc["results"]] == [{"workload", "status", "value", "unit", "median", "iqr",
                                                 "error", "peak_memory_gib", "energy_j", "joules_per_sample",
                                                 "energy_method"}] * 2
    assert doc["results"][1]["error"] == "crashed: exit code 1" and doc["run"]["duration_s"] == 120.0
    path = tmp_path / "基准" / "out.json"
    export_json(record(), path)
    full = json.loads(path.read_text(encoding="utf-8"))
    assert full["results"][0]["settings"] == {"batch": 16}
    path.write_text("old")
    export_csv(record(), path)  # replaces atomically
    assert path.read_text(encoding="utf-8-sig").splitlines()[1].split(",")[5:8] == ["resnet18-train", "ok",
                                                                                     "120.5"]


def test_atomic_write_keeps_the_old_file_when_it_fails(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text("old")
    rec = record()
    rec.rows[0].settings = {"bad": object()}
    with pytest.raises(TypeError):
        export_json(rec, path)
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["r.json"]


class FakeCuda:
    def __init__(self, available: bool, cap: tuple[int, int] = (8, 6), archs: tuple[str, ...] = ("sm_80", "sm_90")):
        self._available, self._cap, self._archs = available, cap, archs

    def is_available(self) -> bool:
        return self._available

    def device_count(self) -> int:
        return 1

    def get_arch_list(self) -> list[str]:
        return list(self._archs)

    def get_device_capability(self, _i: int) -> tuple[int, int]:
        return self._cap

    def get_device_name(self, _i: int) -> str:
        return "NVIDIA GeForce RTX 3090"


class FakeTorch:
    def __init__(self, cuda: str | None, available: bool = False, **kw):  # type: ignore[no-untyped-def]
        self.__version__ = "2.9.0"
        self.version = type("V", (), {"cuda": cuda})()
        self.cuda = FakeCuda(available, **kw)
        self.backends = type("B", (), {"cudnn": type("C", (), {"version": staticmethod(lambda: 91002)})()})()

    def get_num_threads(self) -> int:
        return 8


def verdicts(probe: Probe) -> dict[str, str]:
    return {c.id: c.verdict for c in run_checks(probe)}


def base_probe(**kw) -> Probe:  # type: ignore[no-untyped-def]
    p = Probe(torch=FakeTorch(None), cpu={"logical": 16, "usable": 16, "physical": 8}, in_venv=True,
              pip_check=(0, "No broken requirements found."),
              paths={"cwd": "/home/a", "HF_HOME": "/h", "TORCH_HOME": "/t"}, platform="linux")
    for k, v in kw.items():
        setattr(p, k, v)
    return p


def test_doctor_cpu_only_machine_passes() -> None:
    checks = run_checks(base_probe())
    v = {c.id: c.verdict for c in checks}
    assert set(v) == set(doctor.TITLES)
    assert v["driver"] == "skip" and v["torch_cuda"] == "pass" and doctor.exit_code(checks) == 0
    assert all(c.render()["fix"] is None for c in checks if c.verdict == "pass")


GPU = [{"bus_id": "0000:01:00.0", "gen_current": 1, "gen_max": 4, "width_current": 8, "width_max": 16}]
SMI = {"driver": "535.104.05", "cuda": "12.2", "gpus": [{"name": "RTX 3090", "driver": "535.104.05", **GPU[0]}]}


def test_doctor_one_registered_check_each_in_order() -> None:
    """Each check is a function of its own, run in the order it is registered; the order is what the
    CLI and the Benchmark tab show, and CUDA is asked once however many checks need it."""
    torch = FakeTorch("12.1", available=True)
    asked = []
    torch.cuda.is_available = lambda: asked.append(1) or True  # type: ignore[method-assign]
    checks = run_checks(base_probe(nvidia_pci=GPU, smi=SMI, torch=torch))
    assert [c.id for c in checks] == ["driver", "torch_cuda", "cuda_runtime", "cuda_available", "cudnn", "arch",
                                      "pcie", "cpu_threads", "os", "venv", "pip_check", "paths"]
    assert len(doctor.CHECKS) == len(checks) and asked == [1]
    assert [c.verdict for c in checks][:6] == ["pass"] * 6


def test_doctor_gpu_failures_have_fixes() -> None:
    # a GPU on the bus but no driver, and a CPU-only torch
    checks = run_checks(base_probe(nvidia_pci=GPU))
    v = {c.id: c for c in checks}
    assert v["driver"].verdict == "fail" and v["torch_cuda"].verdict == "fail"
    assert "download.pytorch.org" in (v["torch_cuda"].render()["fix"] or "")
    assert doctor.exit_code(checks) == 1
    # driver too old for torch's CUDA 13 runtime; link at x8 of x16
    v2 = verdicts(base_probe(nvidia_pci=GPU, smi=SMI, torch=FakeTorch("13.0", available=False)))
    assert v2["cuda_runtime"] == "fail" and v2["cuda_available"] == "fail" and v2["pcie"] == "warn"
    # all good, but the GPU's architecture is not in the build
    v3 = verdicts(base_probe(nvidia_pci=GPU, smi=SMI, torch=FakeTorch("12.1", available=True, cap=(12, 0))))
    assert v3["cuda_runtime"] == "pass" and v3["cuda_available"] == "pass" and v3["cudnn"] == "pass"
    assert v3["arch"] == "fail"


def test_doctor_environment_checks() -> None:
    v = verdicts(base_probe(wsl="wsl1", in_venv=False, pip_check=(1, "a 1.0 has requirement b<2, but you have b 3"),
                            paths={"cwd": "/home/用户/项目", "HF_HOME": "/h", "TORCH_HOME": "/t"}))
    assert (v["os"], v["venv"], v["pip_check"], v["paths"]) == ("fail", "warn", "fail", "warn")
    assert verdicts(base_probe(wsl="wsl2"))["os"] == "pass"
    assert verdicts(base_probe(platform="win32"))["os"] == "warn"


def test_arch_compatibility() -> None:
    archs = ["sm_50", "sm_80", "sm_86", "sm_90", "compute_90"]
    assert arch_supported(8, 9, archs)  # sm_86 cubins run on 8.9
    assert arch_supported(10, 0, archs)  # through PTX compute_90
    assert not arch_supported(3, 7, archs)
    assert not arch_supported(12, 0, ["sm_80", "sm_90"])


def test_doctor_runs_for_real() -> None:
    checks = run_checks(Probe.gather(run_pip=False))
    assert {c.verdict for c in checks} <= set(doctor.VERDICTS)
