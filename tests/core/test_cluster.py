"""A build as one node of a small cluster: data-parallel scaling over the network (CLU-1), price and power in
all, and the build file's "cluster" field."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from cli_run import run
from planner_kit import CATALOGUE

from configurator.core.build import Build, BuildError, BuildPart, Cluster, Options, Workload, build_to_dict, parse_build
from configurator.core.engine import Report, check
from configurator.core.estimate.cluster import INTERCONNECT_IDS, INTERCONNECTS

NODE = Build((BuildPart("nvidia-rtx-3090", 2), BuildPart("amd-ryzen-threadripper-pro-3975wx"),
              BuildPart("samsung-m393a2k40db3-cwe-128gb-8x16gb-ddr4-3200-rdimm"), BuildPart("samsung-990-pro-2tb"),
              BuildPart("asus-pro-ws-wrx80e-sage-se-wifi"), BuildPart("phanteks-enthoo-pro-2-server-edition"),
              BuildPart("super-flower-leadex-platinum-2000w"), BuildPart("noctua-nh-u14s-tr4-sp3")),
             "node", None, Options(nvlink_bridge=True), Workload(model="bert-large", task="train", precision="amp"))


def checked(nodes: int, interconnect: str, build: Build = NODE) -> Report:
    return check(dataclasses.replace(build, cluster=Cluster(nodes, interconnect)), CATALOGUE)


def value(report: Report, key: str) -> float:
    e = report.estimate(key)
    assert e is not None and e.value is not None, key
    return float(e.value)


def test_efficiency_falls_with_slower_networks_and_more_nodes() -> None:
    eff = [value(checked(4, ic), "cluster_scaling_efficiency") for ic in INTERCONNECT_IDS]
    assert eff == sorted(eff) and eff[0] < 0.1 < 0.9 < eff[-1] <= 1.0  # 1 GbE … InfiniBand NDR
    assert value(checked(8, "10gbe"), "cluster_scaling_efficiency") < value(checked(2, "10gbe"),
                                                                             "cluster_scaling_efficiency")
    fast = checked(4, "ib-ndr")
    assert value(fast, "cluster_throughput") > 3 * value(fast, "throughput_total")


def test_1gbe_for_a_large_model_is_network_bound_and_names_a_network_that_is_not() -> None:
    slow = checked(4, "1gbe")
    clu = [f for f in slow.findings if f.rule == "CLU-1"]
    assert [f.severity for f in clu] == ["warning"]
    text = clu[0].message.render(None)
    assert "The network, not the GPUs, limits this job: over 1 GbE" in text
    enough = INTERCONNECTS[clu[0].numbers["enough"]]
    assert enough.gbit_s > 1 and enough.name in text
    assert checked(4, enough.key).estimate("cluster_throughput").inputs["network_bound"] is False  # type: ignore[union-attr]
    fine = [f for f in checked(4, "ib-ndr").findings if f.rule == "CLU-1"]
    assert [f.severity for f in fine] == ["info"]


def test_one_node_is_the_single_build_estimate() -> None:
    one = checked(1, "1gbe")
    alone = check(NODE, CATALOGUE)
    assert value(one, "cluster_throughput") == value(alone, "throughput_total")
    assert value(one, "cluster_scaling_efficiency") == 1.0
    assert value(one, "cluster_price_cny") == alone.total_cny
    assert not [f for f in one.findings if f.rule == "CLU-1"]
    one_gpu = dataclasses.replace(NODE, parts=(BuildPart("nvidia-rtx-3090"), *NODE.parts[1:]))
    assert value(checked(1, "10gbe", one_gpu), "cluster_throughput") == value(check(one_gpu, CATALOGUE),
                                                                              "throughput_total")


def test_price_and_power_per_node_and_in_all() -> None:
    r = checked(3, "25gbe")
    alone = check(NODE, CATALOGUE)
    assert value(r, "cluster_price_cny") == 3 * alone.total_cny
    assert value(r, "cluster_power_w") == pytest.approx(3 * value(alone, "training_draw_w"), abs=1)
    power = r.estimate("cluster_power_w")
    assert power is not None and power.inputs["peak_w"] == pytest.approx(3 * value(alone, "peak_power_w"))


def test_inference_nodes_are_independent() -> None:
    infer = dataclasses.replace(NODE, workload=Workload(model="resnet50", task="infer", precision="amp"))
    r = checked(4, "1gbe", infer)
    assert value(r, "cluster_throughput") == pytest.approx(4 * value(r, "throughput_total"), rel=1e-3)
    assert not [f for f in r.findings if f.rule == "CLU-1"]


DOC: dict[str, Any] = {"format": "configurator.build/1", "parts": [{"id": "nvidia-rtx-3090"}]}


@pytest.mark.parametrize(("cluster", "path", "text"), [
    ({"nodes": 0, "interconnect": "10gbe"}, "cluster.nodes", "positive integer"),
    ({"nodes": 10_000, "interconnect": "10gbe"}, "cluster.nodes", "at most 256"),
    ({"nodes": 2.5, "interconnect": "10gbe"}, "cluster.nodes", "positive integer"),
    ({"nodes": 2, "interconnect": "wifi"}, "cluster.interconnect", "1gbe, 10gbe, 25gbe, 100gbe, ib-hdr, ib-ndr"),
    ({"nodes": 2}, "cluster.interconnect", "required"),
    ({"nodes": 2, "interconnect": "10gbe", "switch": "x"}, "cluster.switch", "unknown key"),
    ([2, "10gbe"], "cluster", "object"),
])
def test_bad_cluster_fields_are_one_error_each(cluster: Any, path: str, text: str) -> None:
    with pytest.raises(BuildError) as err:
        parse_build({**DOC, "cluster": cluster}, CATALOGUE)
    assert [e.path for e in err.value.errors] == [path]
    assert text in err.value.errors[0].message.render(None)


def test_cluster_round_trips_through_the_build_file() -> None:
    b = parse_build({**DOC, "cluster": {"nodes": 4, "interconnect": "ib-hdr"}}, CATALOGUE)
    assert b.cluster == Cluster(4, "ib-hdr")
    assert build_to_dict(b)["cluster"] == {"nodes": 4, "interconnect": "ib-hdr"}
    assert "cluster" not in build_to_dict(dataclasses.replace(b, cluster=None))


def test_check_json_has_the_cluster_and_bad_fields_exit_2(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    good = tmp_path / "集群.json"
    good.write_text(json.dumps({**build_to_dict(NODE), "cluster": {"nodes": 4, "interconnect": "1gbe"}}), "utf-8")
    code, out, _ = run(capsys, "check", str(good), "--json")
    doc = json.loads(out)
    keys = {e["key"]: e for e in doc["estimates"]}
    assert {"cluster_throughput", "cluster_scaling_efficiency", "cluster_price_cny", "cluster_power_w"} <= set(keys)
    assert keys["cluster_throughput"]["inputs"]["network_bound"] is True
    assert any(f["rule"] == "CLU-1" and f["severity"] == "warning" for f in doc["findings"])
    # the node stacks two open-air RTX 3090s with no slot between them: THERM-2's error, the only one
    assert [f["rule"] for f in doc["findings"] if f["severity"] == "error"] == ["THERM-2"] and code == 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**DOC, "cluster": {"nodes": -1, "interconnect": "10gbe"}}), "utf-8")
    code, out, err = run(capsys, "check", str(bad), "--json")
    assert code == 2 and json.loads(out)["errors"][0]["path"] == "cluster.nodes"
    assert len(err.strip().splitlines()) == 1 and "cluster.nodes" in err
