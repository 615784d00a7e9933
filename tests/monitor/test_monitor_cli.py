"""`configurator monitor`: the CLI contract, in-process and as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import run

from configurator.store.database import open_store
from configurator.store.recordings import RecordingsRepository
from configurator.store.seed import seed_store


def test_once_json_real_run_without_a_driver(db_path: Path) -> None:
    """A real process on this machine: host metrics and the no-driver state, exit 0."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run([sys.executable, "-m", "configurator", "--db", str(db_path), "monitor", "--once", "--json",
                           "--interval", "0.1"], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert set(doc) == {"time", "host", "nvml", "gpus"}
    assert doc["host"]["memory_total_bytes"] > 0 and len(doc["host"]["per_cpu_percent"]) == os.cpu_count()
    if doc["nvml"]["available"]:
        pytest.skip("this machine has an NVIDIA driver")
    assert doc["gpus"] == [] and doc["nvml"]["error"] and doc["nvml"]["error_kind"] in ("no_library", "no_driver")


def test_once_human_says_no_driver(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _err = run(capsys, "--db", str(db_path), "monitor", "--once", "--interval", "0.05")
    assert code == 0 and "RAM" in out and "GiB" in out
    if "NVIDIA driver 5" not in out:
        assert "No NVIDIA driver" in out and "Monitoring the host only" in out


def test_once_with_fake_gpus(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--db", str(db_path), "--fake-gpus", "3", "monitor", "--once", "--json",
                       "--interval", "0.05")
    doc = json.loads(out)
    assert code == 0 and doc["nvml"]["available"] is True and len(doc["gpus"]) == 3
    assert doc["gpus"][0]["processes"][0]["gpu_memory_bytes"] > 0
    code, out, _ = run(capsys, "--db", str(db_path), "--fake-gpus", "2", "monitor", "--once", "--interval", "0.05")
    assert code == 0 and "GPU 1 NVIDIA GeForce RTX 3090" in out and "°C" in out and " W" in out


def test_bad_input_is_exit_2_one_line_each(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "--db", str(db_path), "monitor", "--interval", "-1", "--serve", "1.2.3.4:99999",
                         "--count", "0", "--json")
    assert code == 2 and "Traceback" not in err
    doc = json.loads(out)
    assert doc["ok"] is False and [e["path"] for e in doc["errors"]] == ["--interval", "--count", "--serve"]
    assert len(err.strip().splitlines()) == 3
    code, _out, err = run(capsys, "--db", str(db_path), "monitor", "--once", "--serve", ":9400")
    assert code == 2 and "--once" in err
    code, _out, err = run(capsys, "--db", str(db_path), "--fake-gpus", "-3", "monitor", "--once")
    assert code == 2 and "--fake-gpus" in err


def test_record_headless_is_indexed_in_the_database(capsys, tmp_path: Path, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    csv_path = tmp_path / "记录 1.csv"
    code, out, err = run(capsys, "--db", str(db_path), "--fake-gpus", "2", "monitor", "--record", str(csv_path),
                         "--interval", "0.02", "--count", "3", "--json")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) >= 3 and all(json.loads(line)["gpus"] for line in lines)
    assert "Recorded" in err
    store = open_store(db_path, seed=seed_store)
    try:
        (rec,) = RecordingsRepository(store).list()
    finally:
        store.close()
    assert rec.path == csv_path.resolve() and rec.gpus == 2 and rec.rows >= 3 and rec.stopped_at is not None
    assert rec.interval_s == 0.02 and rec.exists
    assert len(csv_path.read_text(encoding="utf-8").splitlines()) == rec.rows + 1


def test_record_to_a_bad_path(capsys, tmp_path: Path, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, _out, err = run(capsys, "--db", str(db_path), "monitor", "--record", str(tmp_path / "no" / "x.csv"),
                          "--count", "1")
    assert code == 2 and "x.csv" in err and "Traceback" not in err


def test_serve_headless(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, _out, err = run(capsys, "--db", str(db_path), "--fake-gpus", "1", "monitor", "--serve", "127.0.0.1:0",
                          "--interval", "0.02", "--count", "2")
    assert code == 0 and "Serving Prometheus metrics at http://127.0.0.1:" in err


def test_serve_on_a_taken_port(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    port = sock.getsockname()[1]
    try:
        code, _out, err = run(capsys, "--db", str(db_path), "monitor", "--serve", f"127.0.0.1:{port}", "--count", "1")
    finally:
        sock.close()
    assert code == 2 and "cannot listen" in err
