"""The results repository, and the bench/doctor command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from cli_run import run

from configurator.bench.results import RowResult, RunRecord
from configurator.store.bench_results import BenchResultsRepository
from configurator.store.database import Store
from configurator.store.repository import BuildsRepository, RepositoryError


def rec(value: float, when: datetime, machine: str = "m1") -> RunRecord:
    r = RunRecord("quick", "auto", "/py", when, resolved_device="cpu", finished_at=when + timedelta(seconds=90),
                  status="finished", fingerprint={"cpu": "X"}, machine=machine)
    r.rows = [RowResult("resnet18-train", "resnet18", "ok", value, "img/s", value, 1.0, {"batch": 16}, {"best": 1}),
              RowResult("vram-test", "vram", "skipped")]
    return r


def test_repository_history_per_machine_and_builds(store: Store) -> None:
    repo = BenchResultsRepository(store)
    t0 = datetime(2026, 1, 1, 12)
    ids = [repo.save(rec(v, t0 + timedelta(days=i))) for i, v in enumerate((100.0, 110.0, 90.0))]
    repo.save(rec(999.0, t0, machine="other"))
    assert [p.value for p in repo.history("m1", "resnet18-train")] == [100.0, 110.0, 90.0]
    assert [p.value for p in repo.history("m1", "resnet18-train", before=t0 + timedelta(days=2))] == [100.0, 110.0]
    assert repo.history("m1", "vram-test") == []
    assert [r.id for r in repo.runs("m1")] == ids[::-1] and repo.runs("m1")[0].results == 2
    got = repo.get(ids[0])
    assert got is not None and got.rows[0].settings == {"batch": 16} and got.rows[0].details == {"best": 1}
    assert got.rows[0].job == "resnet18" and got.fingerprint == {"cpu": "X"}
    build = BuildsRepository(store).save("工作站", {})
    repo.link_build(ids[1], build)
    assert [r.run_id for r in repo.runs_for_build(build)] == [ids[1]]
    with pytest.raises(RepositoryError):
        repo.link_build(ids[1], 12345)
    with pytest.raises(RepositoryError):
        repo.save(rec(1.0, t0), build_id=12345)
    BuildsRepository(store).delete(build)
    assert repo.runs("m1")[1].build_id is None  # ON DELETE SET NULL
    repo.delete(ids[0])
    assert repo.get(ids[0]) is None and len(repo.runs("m1")) == 2


@pytest.mark.parametrize("argv, path", [
    (["bench", "--only", "matmul,warp", "--json"], "--only"),
    (["bench", "--no-store", "--build", "3", "--json"], "--build"),
    (["bench", "--python", "/no/python", "--json"], "--python"),
    (["bench", "--timeout", "0", "--json"], "--timeout"),
])
def test_bench_bad_input_is_exit_2_with_json(capsys, db_path: Path, argv: list[str], path: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "--db", str(db_path), *argv)
    assert code == 2 and "Traceback" not in err
    doc = json.loads(out)
    assert doc["ok"] is False and doc["errors"][0]["path"] == path
    assert not db_path.exists()


def test_bench_unknown_suite_is_exit_2(capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run(capsys, "bench", "--suite", "huge")
    assert code == 2 and "invalid choice" in err


def test_bench_unknown_build_is_exit_2(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--db", str(db_path), "bench", "--build", "77", "--json")
    assert code == 2 and json.loads(out)["errors"][0]["path"] == "--build"


def test_cli_does_not_import_torch_for_parts_list(db_path: Path) -> None:
    code = ("import sys; from configurator.cli.entry import main;"
            "main(['--db', sys.argv[1], 'parts', 'list', '--json']);"
            "sys.stderr.write('TORCH=%s' % ('torch' in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code, str(db_path)], capture_output=True, text=True, check=True)
    assert "TORCH=False" in p.stderr


@pytest.mark.full_env  # the benchmark child needs torch
def test_bench_no_store_runs_headless_and_writes_out(tmp_path: Path) -> None:
    db = tmp_path / "never.db"
    out = tmp_path / "结果" / "run.json"
    env = {**os.environ, "CONFIGURATOR_DB": str(db)}
    p = subprocess.run([sys.executable, "-m", "configurator", "bench", "--device", "cpu", "--only", "membw,copies",
                        "--no-store", "--json", "--out", str(out)], capture_output=True, text=True, env=env,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert set(doc) == {"run", "fingerprint", "results"}
    status = {r["workload"]: r["status"] for r in doc["results"]}
    assert status["membw"] == "ok" and status["h2d-pinned"] == "skipped"
    assert doc["run"]["status"] == "finished" and doc["fingerprint"]["torch"]
    assert "[1/2] membw" in p.stderr
    full = json.loads(out.read_text(encoding="utf-8"))
    assert full["results"][0]["settings"]["buffer_mib"] == 64
    assert not db.exists()


def test_doctor_json(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "doctor", "--json")
    doc = json.loads(out)
    assert code == (0 if doc["ok"] else 1)
    ids = {c["id"] for c in doc["checks"]}
    assert {"driver", "cuda_available", "pip_check", "paths", "os", "cpu_threads"} <= ids
    assert all(set(c) == {"id", "check", "verdict", "detail", "fix", "rules"} for c in doc["checks"])


# -- which interpreter: `bench --python` and `bench interpreters` ------------------------------------


def _probe(path: str, torch: str | None = None, error: str | None = None):  # type: ignore[no-untyped-def]
    from configurator.bench.interpreters import Probe
    from configurator.core.i18n import Message

    return Probe(path, python="3.12.3", executable=path, prefix=path + "-env", platform="linux", torch=torch,
                 cuda="12.8" if torch else None, torchvision=bool(torch),
                 error=Message("bench", error) if error else None)


def test_frozen_bench_without_any_torch_is_exit_2_naming_python(capsys, db_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from configurator.bench import interpreters

    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(interpreters, "discover", lambda **kw: [_probe("/usr/bin/python3")])
    code, out, err = run(capsys, "--db", str(db_path), "bench", "--json")
    assert code == 2 and "Traceback" not in err
    error = json.loads(out)["errors"][0]
    assert error["path"] == "--python" and "no Python with PyTorch found" in error["message"]
    assert "--python PATH" in error["message"] and "configurator bench interpreters" in error["message"]
    assert not db_path.exists()


def test_frozen_bench_runs_under_the_first_interpreter_with_torch(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from configurator.bench import interpreters, runner

    used: list[str] = []

    class FakeRunner:
        def __init__(self, session, on_event) -> None:  # type: ignore[no-untyped-def]
            self.session = session

        def run(self):  # type: ignore[no-untyped-def]
            used.append(self.session.python)
            return self.session.record

        def cancel(self) -> None:
            pass

    monkeypatch.setattr(runner, "SubprocessRunner", FakeRunner)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(interpreters, "discover", lambda **kw: [_probe("/opt/conda/bin/python", "2.14.1"),
                                                                _probe("/usr/bin/python3")])
    code, out, err = run(capsys, "bench", "--no-store", "--json", "--only", "matmul")
    assert code == 0 and used == ["/opt/conda/bin/python"]
    assert json.loads(out)["run"]["python"] == "/opt/conda/bin/python"
    assert "Looking for a Python interpreter with PyTorch" in err

    monkeypatch.delattr(sys, "frozen")  # from a source checkout: this interpreter, no search
    monkeypatch.setattr(interpreters, "discover", lambda **kw: pytest.fail("no search needed"))
    run(capsys, "bench", "--no-store", "--json", "--only", "matmul")
    assert used[-1] == sys.executable


def test_bench_interpreters_lists_json_and_table(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from configurator.bench import interpreters

    found = [_probe("/envs/dl/bin/python", "2.14.1+cu128"), _probe("/usr/bin/python3"),
             _probe("/old/python2", error="Python 2.7.18 is too old")]
    seen: list[dict] = []
    monkeypatch.setattr(interpreters, "discover", lambda **kw: seen.append(kw) or found)
    code, out, _ = run(capsys, "bench", "interpreters", "--json")
    assert code == 0 and seen == [{"import_torch": False}]
    doc = json.loads(out)
    assert doc["default"] == sys.executable  # not frozen: this interpreter
    first = doc["interpreters"][0]
    assert first == {"path": "/envs/dl/bin/python", "python": "3.12.3", "executable": "/envs/dl/bin/python",
                     "prefix": "/envs/dl/bin/python-env", "torch": "2.14.1+cu128", "cuda": "12.8", "hip": None,
                     "cuda_available": None, "torchvision": True, "transformers": False, "usable": True,
                     "error": None}
    assert [i["usable"] for i in doc["interpreters"]] == [True, False, False]
    assert "pip install torch" in doc["interpreters"][1]["error"]

    monkeypatch.setattr(sys, "frozen", True, raising=False)
    code, out, _ = run(capsys, "bench", "interpreters", "--import-torch")
    assert code == 0 and seen[-1] == {"import_torch": True}
    lines = out.splitlines()
    assert lines[0].split() == ["Python", "PyTorch", "CUDA", "torchvision", "transformers", "Path"]
    assert lines[2].split() == ["3.12.3", "2.14.1+cu128", "12.8", "✓", "–", "/envs/dl/bin/python"]
    assert "no PyTorch" in lines[3] and "/usr/bin/python3" in lines[3]
    assert "  /old/python2: Python 2.7.18 is too old" in out
    assert "`configurator bench` runs under /envs/dl/bin/python" in out
