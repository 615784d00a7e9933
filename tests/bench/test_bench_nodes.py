"""DDP across nodes: ``bench --only ddp --nnodes N --node-rank R --rdzv-endpoint HOST:PORT`` through torchrun's
c10d rendezvous. Two real nodes over loopback (two ``configurator bench`` processes, gloo; ~10-20 s on two
cores, most of it importing torch), a third node that never joins ending the run on both, the launch commands
and bad input."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psutil
import pytest
from cli_run import run

from configurator.bench.launch import Cluster, parse_endpoint, torchrun_argv
from configurator.bench.workloads.common import WorkloadError
from configurator.bench.workloads.multinode import rendezvous_failure


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def node(rank: int, port: int, tmp: Path, mark: str, timeout: float = 60, nnodes: int = 2,
         as_json: bool = True) -> subprocess.Popen[str]:
    env = {**os.environ, "CONFIGURATOR_DB": str(tmp / "never.db"), "TEST_NODE_MARK": mark}
    argv = [sys.executable, "-m", "configurator", "bench", "--only", "ddp", "--device", "cpu", "--threads", "1",
            "--nnodes", str(nnodes), "--node-rank", str(rank), "--rdzv-endpoint", f"127.0.0.1:{port}",
            "--rdzv-timeout", f"{timeout:g}", "--no-store", *(["--json"] if as_json else []),
            "--out", str(tmp / f"node{rank}.json")]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def left_behind(mark: str) -> list[str]:
    """Processes still running that were started by the test's nodes (they inherited its marker)."""
    found = []
    for p in psutil.process_iter(["pid", "cmdline"]):
        try:
            if p.environ().get("TEST_NODE_MARK") == mark and p.status() != psutil.STATUS_ZOMBIE:
                found.append(" ".join(p.info["cmdline"] or [str(p.pid)]))
        except (psutil.Error, OSError):
            continue
    return found


@pytest.mark.full_env  # the benchmark child needs torch
@pytest.mark.integration
def test_two_nodes_over_loopback_rank_0_reports_ranks_aggregate_and_efficiency(tmp_path: Path) -> None:
    port, mark = free_port(), uuid.uuid4().hex
    nodes = [node(0, port, tmp_path, mark, as_json=False), node(1, port, tmp_path, mark)]  # node 0 as text
    outs = [p.communicate(timeout=240) for p in nodes]
    for p, (_out, err) in zip(nodes, outs, strict=True):
        assert p.returncode == 0, err
    text, second = outs[0][0], json.loads(outs[1][0])
    first = json.loads((tmp_path / "node0.json").read_text("utf-8"))
    rows0 = {r["workload"]: r for r in first["results"]}
    rows1 = {r["workload"]: r for r in second["results"]}
    assert rows0["ddp-nodes"]["status"] == "ok" and rows0["ddp-nodes"]["unit"] == "samples/s"
    scaling = rows0["ddp-scaling"]
    # two nodes on one busy host: a measured efficiency, or (above ideal) "not measured" with the reason
    assert scaling["status"] == "ok" and (0 < (scaling["value"] or 0) <= 102 or (
        scaling["value"] is None and scaling["not_measured"].startswith("a measurement problem")))
    assert rows1["ddp-nodes"]["status"] == "ok" and rows1["ddp-scaling"]["status"] == "skipped"
    assert "node 0 reports" in rows1["ddp-scaling"]["error"]
    full = {r["workload"]: r for r in json.loads((tmp_path / "node0.json").read_text("utf-8"))["results"]}
    ranks = full["ddp-nodes"]["details"]["ranks"]
    assert sorted(r["node"] for r in ranks) == [0, 1] and all(r["samples_per_s"] > 0 for r in ranks)
    assert full["ddp-nodes"]["settings"]["backend"] == "gloo" and full["ddp-nodes"]["settings"]["world"] == 2
    runs = full["ddp-scaling"]["details"]["runs"]
    assert [(r["nodes"], r["processes"]) for r in runs] == [(1, 1), (2, 2)]
    assert runs[1]["ideal_speedup"] == 2.0
    assert "share one machine" in full["ddp-scaling"]["details"]["ideal"]
    # node 0's text: every node's and every rank's throughput, and the one-node run it is judged against
    lines = text.splitlines()
    assert re.fullmatch(r"Across 2 nodes \(gloo, 2 processes\): node 0 [\d,]+ samples/s, node 1 [\d,]+ samples/s",
                        next(line for line in lines if line.startswith("Across ")))
    assert sum(bool(re.fullmatch(r"  rank [01] \(node [01], .+, local rank 0\): [\d,]+ samples/s", line))
               for line in lines) == 2
    assert re.search(r"Node 0 alone: [\d,]+ samples/s; all 2 nodes: [\d,]+ samples/s, [\d.]+× of an ideal 2× "
                     r"\(the nodes share one machine here: not a measure of the network\)", text)
    assert left_behind(mark) == []


@pytest.mark.full_env  # the benchmark child needs torch
@pytest.mark.integration
def test_a_node_that_never_joins_ends_the_run_on_every_node_and_leaves_no_process(tmp_path: Path) -> None:
    """Three nodes expected, two started: both end after the rendezvous timeout with a clear line and exit 1."""
    port, mark = free_port(), uuid.uuid4().hex
    started = time.monotonic()
    nodes = [node(r, port, tmp_path, mark, timeout=6, nnodes=3) for r in (0, 1)]
    outs = [p.communicate(timeout=180) for p in nodes]
    for rank, (p, (out, err)) in enumerate(zip(nodes, outs, strict=True)):
        assert p.returncode == 1, err
        last = err.strip().splitlines()[-1]
        assert last.startswith(f"The run across nodes failed: node {rank}:"), last
        # the node that waited out the timeout says so; the other finds the rendezvous closed by it, or
        # the store gone with the node that hosted it
        assert any(text in last for text in (
            f"not all 3 nodes joined the rendezvous at 127.0.0.1:{port} within 6 s",
            f"another node closed the rendezvous at 127.0.0.1:{port}: not all 3 nodes joined within 6 s",
            f"the node hosting the rendezvous at 127.0.0.1:{port} stopped before all 3 nodes joined within 6 s")), last
        assert "--print-launch" in last and "is node 0 running" not in last
        row = {r["workload"]: r for r in json.loads(out)["results"]}["ddp-scaling"]
        assert row["status"] == "failed"
    assert left_behind(mark) == []
    assert time.monotonic() - started < 120


def test_rendezvous_failures_in_torchruns_log_are_named() -> None:
    c = Cluster(3, 1, "gpu01", 29500, 30)
    for log, text in [
        ("torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError\n",
         "node 1: not all 3 nodes joined the rendezvous at gpu01:29500 within 30 s"),
        ("    raise RendezvousClosedError\ntorch.distributed.elastic.rendezvous.api.RendezvousClosedError\n",
         "node 1: another node closed the rendezvous at gpu01:29500: not all 3 nodes joined within 30 s"),
        ("[c10d] recvValueWithTimeout failed on SocketImpl(fd=3): Failed to recv, got 0 bytes. Connection was likely "
         "closed. Did the remote server shutdown or crash?\ntorch.distributed.elastic.rendezvous.api."
         "RendezvousConnectionError: The connection to the C10d store has failed.\n",
         "node 1: the node hosting the rendezvous at gpu01:29500 stopped before all 3 nodes joined within 30 s"),
        ("torch.distributed.DistNetworkError: The client socket has timed out after 30000ms while trying to "
         "connect to (gpu01, 29500).\n", "node 1: could not reach the rendezvous store at gpu01:29500 within 30 s"),
    ]:
        with pytest.raises(WorkloadError) as err:
            rendezvous_failure(c, log)
        assert str(err.value).startswith(text)
    rendezvous_failure(c, "RuntimeError: CUDA error: out of memory\n")  # not the rendezvous: the caller says it


def test_print_launch_gives_every_node_its_command_and_an_sbatch_script(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "bench", "--only", "ddp", "--nnodes", "3", "--rdzv-endpoint", "gpu01:29400",
                       "--nproc-per-node", "8", "--print-launch")
    assert code == 0
    for r in range(3):
        assert f"configurator bench --only ddp --nnodes 3 --node-rank {r} --rdzv-endpoint gpu01:29400" in out
    assert out.count("--rdzv-backend=c10d --rdzv-endpoint=gpu01:29400") == 3
    assert "--nproc-per-node=8" in out and "(hosts the rendezvous at gpu01:29400)" in out
    assert "#SBATCH --nodes=3" in out and "#SBATCH --gpus-per-node=8" in out
    assert '--node-rank "$SLURM_NODEID" --rdzv-endpoint "$head:29400"' in out


@pytest.mark.parametrize(("argv", "path", "text"), [
    (["--nnodes", "2", "--node-rank", "2", "--rdzv-endpoint", "h:1"], "--node-rank", "from 0 to 1"),
    (["--nnodes", "0", "--node-rank", "0", "--rdzv-endpoint", "h:1"], "--nnodes", "from 1 to"),
    (["--nnodes", "2", "--node-rank", "0", "--rdzv-endpoint", "h"], "--rdzv-endpoint", "HOST:PORT"),
    (["--nnodes", "2", "--node-rank", "0", "--rdzv-endpoint", "h:70000"], "--rdzv-endpoint", "1 to 65535"),
    (["--nnodes", "2", "--node-rank", "0"], "--rdzv-endpoint", "HOST:PORT"),
    (["--nnodes", "2", "--node-rank", "0", "--rdzv-endpoint", "h:1", "--rdzv-timeout", "nan"], "--rdzv-timeout",
     "seconds"),
])
def test_bad_cluster_arguments_are_one_line_each_and_exit_2(capsys, argv: list[str], path: str,  # type: ignore[no-untyped-def]
                                                            text: str) -> None:
    code, out, err = run(capsys, "bench", "--only", "ddp", "--no-store", "--json", *argv)
    assert code == 2
    errors = json.loads(out)["errors"]
    assert len(errors) == 1 and errors[0]["path"] == path and text in errors[0]["message"]
    assert err.strip() == f"{path}: {errors[0]['message']}"


def test_other_workloads_are_refused_across_nodes(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "bench", "--only", "matmul", "--nnodes", "2", "--node-rank", "0",
                       "--rdzv-endpoint", "h:1", "--no-store", "--json")
    assert code == 2 and "--only ddp" in json.loads(out)["errors"][0]["message"]


def test_endpoint_and_torchrun_command() -> None:
    assert parse_endpoint("[fe80::1]:29500") == ("fe80::1", 29500)
    assert parse_endpoint("node1:29500") == ("node1", 29500)
    argv = torchrun_argv(Cluster(4, 2, "fe80::1", 29500, 30), 8, ["-m", "x"], python="py")
    assert "--rdzv-endpoint=[fe80::1]:29500" in argv and "--nnodes=4" in argv and "--nproc-per-node=8" in argv
    assert "--rdzv-conf=join_timeout=30,read_timeout=30" in argv and argv[-2:] == ["-m", "x"]
