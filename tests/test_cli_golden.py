"""Golden outputs of the command line: what `configurator` prints (stdout, stderr, exit code) for the
documentation's examples and for bad build files and bad CSVs, as captured before the records were declared
in one schema (core/schema.py). A change that alters a message, a path, an exit code or a JSON number fails
here; an intended change is recorded with ``GOLDEN_UPDATE=1 python -m pytest tests/test_cli_golden.py``
(then read the diff of tests/golden/).

Volatile figures are normalised: the temporary folder (``{dir}``), today's date (``{today}``)."""

from __future__ import annotations

import datetime
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from cli_run import run

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("GOLDEN_UPDATE") == "1"

GOOD = {"format": "configurator.build/1", "name": "Two 3090s", "budget_cny": 40000,
        "parts": [{"id": "nvidia-rtx-3090", "qty": 2}, {"id": "amd-ryzen-9-5950x"}],
        "options": {"hours_per_day": 8, "cloud_cny_per_month": 8000},
        "workload": {"model": "gpt2", "task": "train", "batch_size": 8, "seq_len": 1024}}
WORKSTATION = {"format": "configurator.build/1", "name": "工作站", "budget_cny": 30000,
               "parts": [{"id": "nvidia-rtx-4090"}, {"id": "amd-ryzen-9-7950x"},
                         {"id": "asus-proart-x670e-creator-wifi"},
                         {"id": "corsair-vengeance-64gb-2x32gb-ddr5-6000"}, {"id": "samsung-990-pro-2tb"},
                         {"id": "corsair-rm1000x-2021"}, {"id": "lian-li-o11-dynamic-evo"}],
               "workload": {"model": "resnet50", "task": "train", "precision": "amp", "batch_size": 64}}


def _w(**workload: Any) -> dict[str, Any]:
    return {**GOOD, "workload": {**GOOD["workload"], **workload}}


# name -> a bad (or good) build document, checked with `check BUILD.json` and `check BUILD.json --json`
BUILDS: dict[str, Any] = {
    "good": GOOD,
    "workstation": WORKSTATION,
    "qty-over-limit": {**GOOD, "parts": [{"id": "nvidia-rtx-3090", "qty": 17}]},
    "budget-1e309": {**GOOD, "budget_cny": 10**309},
    "budget-over": {**GOOD, "budget_cny": 100_000_001},
    "budget-text": {**GOOD, "budget_cny": "lots"},
    "budget-negative": {**GOOD, "budget_cny": -5},
    "hours": {**GOOD, "options": {"hours_per_day": 24.5}},
    "hours-bool": {**GOOD, "options": {"hours_per_day": True}},
    "cloud": {**GOOD, "options": {"cloud_cny_per_month": 10_000_001}},
    "options-unknown": {**GOOD, "options": {"colour": "red", "os": "macos", "nvlink_bridge": "yes"}},
    "options-not-object": {**GOOD, "options": [1]},
    "batch": _w(batch_size=65_537),
    "seq": _w(seq_len=2**20 + 1),
    "batch-text": _w(batch_size="8"),
    "batch-zero": _w(batch_size=0),
    "batch-float": _w(batch_size=8.0),
    "name-length": {**GOOD, "name": "n" * 201},
    "name-bidi": {**GOOD, "name": "evil\u202etxt.exe"},
    "name-number": {**GOOD, "name": 5},
    "id-nul": {**GOOD, "parts": [{"id": "nvidia\x00rtx"}]},
    "id-isolate": {**GOOD, "parts": [{"id": "\u2066x\u2069"}]},
    "qty-text": {**GOOD, "parts": [{"id": "nvidia-rtx-3090"}, {"id": "amd-ryzen-9-5950x"},
                                   {"id": "nvidia-rtx-4090", "qty": "two"}]},
    "qty-negative": {**GOOD, "parts": [{"id": "nvidia-rtx-3090", "qty": -1, "used": "no"}]},
    "part-unknown": {**GOOD, "parts": [{"id": "no-such-part"}, {"qty": 2}, "x",
                                      {"id": "nvidia-rtx-3090", "colour": 1}]},
    "parts-missing": {k: v for k, v in GOOD.items() if k != "parts"},
    "parts-not-list": {**GOOD, "parts": {"id": "nvidia-rtx-3090"}},
    "parts-too-many": {**GOOD, "parts": [{"id": "nvidia-rtx-3090"}] * 137},
    "format-wrong": {**GOOD, "format": "configurator.build/2"},
    "format-missing": {k: v for k, v in GOOD.items() if k != "format"},
    "top-unknown": {**GOOD, "colour": "red"},
    "top-list": [GOOD],
    "workload-model": _w(model="gpt-9"),
    "workload-task": _w(task="fly"),
    "workload-missing": {**GOOD, "workload": {"batch_size": 8}},
    "workload-choices": _w(precision="fp3", optimizer="lion", sharding="zero4", grad_checkpointing=1),
    "workload-unknown": _w(colour="red"),
    "workload-custom": _w(model="custom"),
    "workload-custom-ok": {**GOOD, "workload": {"model": "custom", "task": "train", "family": "transformer",
                                                "params": 1.2e8, "layers": 12, "hidden": 768, "heads": 12,
                                                "vocab": 50257}},
    "workload-only-custom": _w(params=1e9),
    "workload-int4-train": _w(precision="int4"),
    "workload-dataset": _w(dataset_gb=-1, checkpoints_kept=True),
    "workload-serve": {**GOOD, "workload": {"model": "llama-2-7b", "task": "serve", "concurrency": 8,
                                            "prompt_tokens": 512, "output_tokens": 128}},
    "workload-serve-bad": {**GOOD, "workload": {"model": "llama-2-7b", "task": "serve", "prompt_tokens": 0,
                                                "runtime": "llama.cpp"}},
    "cluster": {**GOOD, "cluster": {"nodes": 0, "interconnect": "pigeon"}},
    "cluster-missing": {**GOOD, "cluster": {}},
    "hf-config-missing": _w(model={"hf_config": "no/such/config.json"}),
}
RAW_BUILDS: dict[str, bytes] = {
    "not-json": b'{"format": "configurator.build/1",',
    "not-utf8": b'{"name": "\xff"}',
    "empty": b"",
    "deep": b"[" * 40 + b"]" * 40,
}

CSV_HEADER = ("id,category,name,brand,price_cny,price_date,source,watts,efficiency,form_factor,pcie_8pin,"
              "connector_12v2x6,eps_8pin\n")


def psu_row(pid: str, name: str = "PSU", watts: str = "850", price: str = "899", date: str = "2026-11",
            source: str | None = None, efficiency: str = "80 PLUS Gold") -> str:
    url = f"https://www.greatwall.com.cn/psu/{pid}" if source is None else source
    return f"{pid},psu,{name},长城,{price},{date},{url},{watts},{efficiency},ATX,4,1,2\n"


GPU_HEADER = ("id,category,name,price_cny,vendor,vram_gb,memory_bandwidth_gbs,fp32_tflops,tensor_cores,"
              "board_power_w,pcie_gen,pcie_lanes,cooling,slot_width,length_mm\n")
CPU_HEADER = ("id,category,name,price_cny,vendor,socket,cores,threads,base_ghz,boost_ghz,l3_mb,tdp_w,max_power_w,"
              "pcie_gen,pcie_lanes,memory_types,memory_channels,max_memory_gb,ecc,rdimm,avx512\n")
BOARD_HEADER = ("id,category,name,price_cny,socket,chipset,form_factor,memory_type,memory_slots,max_memory_gb,ecc,"
                "rdimm,pcie_slots\n")
SLOTS = '"[{""name"": ""PCIEX16_1"", ""position"": 1, ""physical_lanes"": 16, ""electrical_lanes"": 16, ' \
        '""gen"": 5, ""from"": ""cpu""}]"'

# name -> the text of a CSV, imported with `parts import F.csv` (and --json)
CSVS: dict[str, str | bytes] = {
    "good-psus": CSV_HEADER + psu_row("my-psu-1", "我的电源") + psu_row("my-psu-2", watts='"1,000"', price='"¥1,299"'),
    "good-mixed": (GPU_HEADER + "my-gpu-1,gpu,My 4090,12999,nvidia,24,1008,82.6,是,450,4,16,blower,3.5,304\n"
                   "my-gpu-2,gpu,My 3090,5999,nvidia,24,936.2,35.58,yes,350,4,16,,,\n"),
    "good-cpu-lists": CPU_HEADER + "my-cpu-1,cpu,My CPU,2999,amd,AM5,16,32,4.5,5.7,64,170,230,5,28,DDR5；DDR4,2,192,"
                                   "true,false,true\n",
    "good-board-slots": BOARD_HEADER + f"my-board-1,motherboard,My board,1999,AM5,X670E,ATX,DDR5,4,192,false,false,"
                                       f"{SLOTS}\n",
    "bad-rows": (CSV_HEADER + psu_row("good-psu-1", "Good") + psu_row("bad-psu-1", "Bad watts", watts="lots")
                 + psu_row("good-psu-2", "Good 2") + psu_row("bad-psu-2", "Negative price", price="-5")
                 + psu_row("good-psu-1", "Duplicate")),
    "bad-values": (CSV_HEADER + psu_row("Bad ID", watts="0") + psu_row("p-2", date="2026-13-01")
                   + psu_row("p-3", source="https://example.com") + psu_row("p-4", price="1.5")
                   + psu_row("p-5", watts="inf") + psu_row("p-6", price="1" * 50) + psu_row("p-7", price="9" * 20)
                   + psu_row("p-8", name="x" * 201) + psu_row("p-9", watts="850.0") + psu_row("p-10", watts="nan")),
    "bad-gpu": (GPU_HEADER + "g-1,gpu,G1,999,nvidia,24,1008,82.6,maybe,450,4,16,liquid,3.5,304\n"
                "g-2,gpu,G2,999,nvidea,-24,1008,0,true,450,4,16,blower,three,\n"
                "g-3,gpu,G3,999,nvidia,24,,82.6,true,,4,16,blower,3.5,304,extra\n"),
    "bad-cpu": CPU_HEADER + "c-1,cpu,C1,999,amd,AM5,16,32,4.5,5.7,64,170,230,5,28,DDR5;DDR3,2,192,true,false,true\n",
    "bad-board": BOARD_HEADER + "b-1,motherboard,B1,999,AM5,X670E,ATX,DDR5,4,192,false,false,"
                                '"[{""name"": ""S1"", ""position"": 0, ""gen"": ""5"", ""from"": ""gpu""}, 7]"\n'
                                "b-2,motherboard,B2,999,AM5,X670E,ATX,DDR5,4,192,false,false,[not json\n",
    "bad-category": "id,category,name,price_cny\nx-1,toaster,X,5\nx-2,,Y,5\n",
    "bad-header": "name,category,colour\nX,psu,red\n",
    "header-only": CSV_HEADER,
    "other-category-field": CSV_HEADER.rstrip("\n") + ",vram_gb\n" + psu_row("p-1").rstrip("\n") + ",24\n",
    "store-field": CSV_HEADER.rstrip("\n") + ",custom\n" + psu_row("p-1").rstrip("\n") + ",true\n",
    "missing-required": "id,category,name,price_cny\nm-1,psu,M,5\n",
    "nul": CSV_HEADER + psu_row("p-1", name="x\0y"),
    "surrogate-list": CPU_HEADER + "c-1,cpu,C1,999,amd,AM5,16,32,4.5,5.7,64,170,230,5,28,\"[\"\"\\ud800\"\"]\",2,192,"
                                   "true,false,true\n",
    "catalogue-change": "id,category,name,price_cny,vram_gb\nnvidia-rtx-3090,gpu,NVIDIA GeForce RTX 3090,4321,48\n",
    "old-spellings": "id,category,name,price_cny,form_factor,max_gpu_length_mm,expansion_slots,board_form_factors,"
                     "psu_form_factor\ncase-1,case,C,599,Mid tower,400,7,ATX;Micro-ATX,SFX\n",
    "comment-rows": "id,category,name,price_cny,watts,efficiency,form_factor,pcie_8pin,connector_12v2x6,eps_8pin\n"
                    "# required,,,,,,,,,\np-1,psu,P,5,850,Gold,ATX,4,1,2\n",
}

# the parts a good import adds, shown after it
SHOW = {"good-psus": ["my-psu-1", "my-psu-2"], "good-mixed": ["my-gpu-1", "my-gpu-2"], "good-cpu-lists": ["my-cpu-1"],
        "good-board-slots": ["my-board-1"], "comment-rows": ["p-1"], "store-field": ["p-1"]}

# name -> argv after `--lang L --db DB` (the docs' examples that print what a part or a build is)
COMMANDS: dict[str, list[str]] = {
    "parts-list-gpu": ["parts", "list", "--category", "gpu"],
    "parts-list-json": ["parts", "list", "--json"],
    "parts-show": ["parts", "show", "nvidia-rtx-4090"],
    "parts-show-json": ["parts", "show", "supermicro-h13ssl-n", "--json"],
    "parts-show-unknown": ["parts", "show", "no-such-part"],
    "parts-template": ["parts", "template", "motherboard", "--out", "{dir}/t.csv", "--json"],
    "presets-json": ["presets", "--json"],
    "suggest": ["suggest", "--budget", "20000", "--workload", "resnet50", "--json"],
    "suggest-bad": ["suggest", "--budget", "20000", "--workload", "resnet50", "--batch-size", "0"],
}


def _normalise(text: str, folder: Path) -> str:
    return (text.replace(str(folder), "{dir}").replace(datetime.date.today().isoformat(), "{today}"))


def _record(name: str, capsys: pytest.CaptureFixture[str], db: Path, folder: Path, lang: str, argv: list[str]) -> str:
    code, out, err = run(capsys, "--lang", lang, "--db", str(db), *argv)
    shown = " ".join(a.replace(str(folder), "{dir}") for a in argv)
    return _normalise(f"$ configurator --lang {lang} {shown}\nexit {code}\n--- stdout\n{out}--- stderr\n{err}",
                      folder)


def _compare(name: str, got: str) -> None:
    path = GOLDEN / f"{name}.txt"
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"{path} is missing: run with GOLDEN_UPDATE=1 to record it")
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8")
        return
    want = path.read_text(encoding="utf-8")
    assert got == want, f"the output of {name} changed (tests/golden/{name}.txt)"


@pytest.fixture
def folder(tmp_path: Path, seeded_db: Path) -> Path:
    return tmp_path


@pytest.mark.parametrize("name", sorted(BUILDS) + sorted(RAW_BUILDS))
def test_check_build_files(name: str, capsys: pytest.CaptureFixture[str], seeded_db: Path, folder: Path) -> None:
    path = folder / f"{name}.json"
    if name in RAW_BUILDS:
        path.write_bytes(RAW_BUILDS[name])
    else:
        path.write_text(json.dumps(BUILDS[name], ensure_ascii=False), encoding="utf-8")
    got = "".join(_record(name, capsys, seeded_db, folder, lang, ["check", str(path), *extra])
                  for lang, extra in (("en", []), ("en", ["--json"]), ("zh_CN", [])))
    _compare(f"check-{name}", got)


@pytest.mark.parametrize("name", sorted(CSVS))
def test_import_csvs(name: str, capsys: pytest.CaptureFixture[str], seeded_db: Path, folder: Path,
                     seeded_template: Path) -> None:
    path = folder / "parts.csv"
    text = CSVS[name]
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    got = ""
    for lang, extra in (("en", ["--json"]), ("zh_CN", [])):
        shutil.copyfile(seeded_template, seeded_db)  # each import into the database as it was
        got += _record(name, capsys, seeded_db, folder, lang, ["parts", "import", str(path), *extra])
    for pid in SHOW.get(name, ()):  # the records the import made
        got += _record(name, capsys, seeded_db, folder, "en", ["parts", "show", pid, "--json"])
    _compare(f"import-{name}", got)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_commands(name: str, capsys: pytest.CaptureFixture[str], seeded_db: Path, folder: Path) -> None:
    argv = [a.replace("{dir}", str(folder)) for a in COMMANDS[name]]
    got = _record(name, capsys, seeded_db, folder, "en", argv)
    if name == "parts-template":
        got += "--- t.csv\n" + (folder / "t.csv").read_text(encoding="utf-8-sig")
    _compare(name, got)
