"""The wheel, installed into a clean virtual environment, works from its own data.

What a user gets from ``pip install configurator-*.whl``: the command line lists the catalogue
(``db/`` is inside the wheel), checks the guides' presets and speaks Chinese (the ``.qm`` in
``resources/`` is inside too), with no source checkout anywhere on the path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


def run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode in (0, 1), (f"{' '.join(argv)} → {proc.returncode}\n"
                                       f"{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
    return proc


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], Path]:
    tmp = tmp_path_factory.mktemp("wheel")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "CONFIGURATOR_DB")}
    env |= {"HOME": str(tmp / "home"), "XDG_DATA_HOME": str(tmp / "data"), "XDG_CONFIG_HOME": str(tmp / "config"),
            "XDG_STATE_HOME": str(tmp / "state"), "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME", ""),
            "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    if not env["XDG_CACHE_HOME"]:  # keep pip's cache (the venv's packages were just downloaded into it)
        env.pop("XDG_CACHE_HOME")
        env["PIP_CACHE_DIR"] = str(Path.home() / ".cache" / "pip")
    dist = tmp / "dist"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dist), str(ROOT)],
        tmp, env)
    wheel = next(dist.glob("configurator-*.whl"))
    target = tmp / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(target)
    python = target / "bin" / "python"
    run([str(python), "-m", "pip", "install", "-q", str(wheel)], tmp, env, timeout=900)
    return target, env, wheel


def test_wheel_carries_the_data(installed: tuple[Path, dict[str, str], Path]) -> None:
    _target, _env, wheel = installed
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("configurator/_data/db/catalogue/") and n.endswith(".toml") for n in names)
    assert any(n.startswith("configurator/_data/db/migrations/versions/") for n in names)
    assert any(n.startswith("configurator/_data/db/measurements/") and n.endswith(".csv") for n in names)
    assert "configurator/_data/resources/translations/configurator_zh_CN.qm" in names
    assert "configurator/_data/docs/rules.md" in names  # the rules catalogue the About box opens
    assert not any(n.startswith(("tests/", "benchmarks/")) for n in names)
    # what only the tests and the benchmarks use stays out: the misbehaving worker, the posed cluster
    assert not any(n.endswith(("/fault_worker.py", "/demo_cluster.py")) for n in names)
    assert "configurator/host/cpu.py" in names and "configurator/host/rapl.py" in names  # the worker reads them


def test_installed_cli_lists_checks_and_translates(installed: tuple[Path, dict[str, str], Path],
                                                   tmp_path: Path) -> None:
    target, env, _wheel = installed
    exe = str(target / "bin" / "configurator")
    where = run([str(target / "bin" / "python"), "-c", "import configurator.paths as p; print(p.DATA_ROOT)"],
                tmp_path, env).stdout.strip()
    assert where.startswith(str(target)) and where.endswith("_data")  # not this checkout
    rules_doc = run([str(target / "bin" / "python"), "-c",
                     "import configurator.paths as p; print(p.RULES_DOC.read_text(encoding='utf-8')[:80])"],
                    tmp_path, env).stdout
    assert rules_doc.startswith("# The rules catalogue")
    listed = run([exe, "parts", "list", "--json"], tmp_path, env).stdout
    parts = json.loads(listed)
    assert len(parts) > 150 and {"gpu", "cpu", "motherboard", "psu"} <= {p["category"] for p in parts}
    presets = json.loads(run([exe, "presets", "--json"], tmp_path, env).stdout)
    build = tmp_path / "build.json"
    build.write_text(json.dumps(presets[0]["build"], ensure_ascii=False), encoding="utf-8")
    checked = run([exe, "check", str(build), "--json"], tmp_path, env)
    doc = json.loads(checked.stdout)
    assert checked.returncode == (0 if doc["ok"] else 1) and doc["findings"]
    assert doc["estimates"]
    zh = run([exe, "--lang", "zh_CN", "check", str(build)], tmp_path, env).stdout
    assert any("\u4e00" <= ch <= "\u9fff" for ch in zh)  # Chinese from the wheel's .qm
