"""Every text a command prints is in the reader's language: in Chinese (``--lang zh_CN``) no English word
outside names, IDs, units and values the user types; in English no Chinese character outside names and
the guides' section references. (The commands' ``--help``: tests/test_cli_help_language.py.)

What is rendered: ``check`` (text and ``--json``'s messages) of the guides' tiers, each with a training
and an inference workload (Llama 3.1 8B LoRA, Llama 3.1 70B int4 on llama.cpp, ResNet-50 AMP), a
GPU-only build and a two-node cluster; ``suggest``; ``presets``; ``measurements list``; ``parts show``
of a GPU, a CPU, a case, a power supply, a cooler, a drive, a board and a memory kit; ``cloud-prices``;
``report`` of a monitor recording; the PDF build sheet (``export-pdf``, read back with ``pdftotext``).

What may stay as written, and why:

- names: the catalogue's part names and the spec values that are names (brand, architecture, socket,
  chipset, memory and VRAM type, interface, efficiency rating, board and PSU form factors, slot
  names), the model catalogue's titles, the cloud table's providers and instances, the measurement
  table's software and source as published, the cluster networks' names and the standards they cite,
  build names (the user's, or the guides' tier names);
- a catalogue part's notes (``parts show``): the sources' own words, kept as written;
- IDs and what the user types: rule IDs (FIT-1), part and model IDs, option values (``lora``,
  ``llama.cpp``, ``adamw``), paths, URLs, text in backticks;
- units and technical abbreviations in :data:`ALLOWED` (each one a unit, a file format or a name
  a Chinese reader uses as is: GiB, TFLOPS, PCIe, CUDA, DataLoader ...);
- in English: the guides' section references ("G 三.1", "M 结语"), which point into the Chinese guides,
  and the guides' own words where a finding quotes them (“…”).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import subprocess
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from configurator.cli import help as cli_help
from configurator.cli.entry import main
from configurator.core.catalogue import load_catalogue
from configurator.core.cloud import BILLING, load_cloud_prices
from configurator.core.estimate.cluster import INTERCONNECTS
from configurator.core.findings import CONFIDENCE_LABELS, ESTIMATE_LABELS, SOURCE_WORDS
from configurator.core.measurements import load as load_measurements
from configurator.core.model_specs import KNOWN_MODELS
from configurator.core.numbers import UNIT_WORDS, VALUE_WORDS
from configurator.core.parts import CATEGORIES, FIELD_LABELS, VALUE_LABELS
from configurator.core.presets import TIERS
from configurator.core.software import ARCH_TABLE
from configurator.i18n import translator_for
from tests.monitor.test_monitor_report import busy_gpu, host, record

# What may stay Latin in Chinese output. Units and their abbreviations; file formats; names of things a
# Chinese reader names in English (libraries, standards, hardware units); and the words of value labels
# that are names (Tensor Core). Each is lower-cased; a word in it may appear anywhere.
ALLOWED = {
    # units
    "gib", "mib", "gb", "mb", "tb", "kb", "w", "kw", "kwh", "kj", "mm", "ghz", "mhz", "mt", "ms", "µs", "tflops",
    "tops", "flops", "iops", "cny", "gbe", "token", "img",
    # file formats and protocols
    "json", "csv", "pdf", "url", "https", "tcp", "rdma",
    # hardware, buses and connectors
    "gpu", "gpus", "cpu", "cpus", "pcie", "nvlink", "nvswitch", "sxm", "oam", "nvme", "sata", "ssd", "hdd", "ram",
    "vram", "ecc", "rdimm", "udimm", "tdp", "psu", "atx", "eps", "tensor", "core", "cores", "dram", "fma", "gen",
    "infiniband", "oculink", "slimsas", "mcio", "linux",
    # libraries, tools and techniques a Chinese reader names in English
    "cuda", "cudnn", "nccl", "nvml", "rocm", "dali", "pytorch", "torch", "autograd", "autocast", "dataloader",
    "worker", "transformer", "logits", "gemm", "lora", "qlora", "fsdp", "ddp", "zero", "ngc", "eager", "conda",
    "pip", "benchmark", "amp", "sdpa", "adamw", "sgd", "awq", "gptq", "prefill", "iowait", "rank", "llm", "ai", "id",
    # product lines the guides name (the tiers' lists: "Ryzen 5 5600X", "Xeon Platinum 8380", "GTX 1650 Super")
    "ryzen", "threadripper", "pro", "xeon", "platinum", "super", "geforce", "configurator",
    # authors a source names ("common practice (d2l, Dettmers)")
    "dettmers",
    *CATEGORIES,
}

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
# The guides' own words, quoted (a quote may hold a quote: “建议采用“SSD+HDD”分级存储方案”)
QUOTED = re.compile(r"“(?:[^“”]|“[^“”]*”)*”")
# The guides' section references: "G 三.1", "M 1.1", "G 三.2, 六.1", "M 结语", "M 四"
GUIDE_REF = re.compile(r"(?:\b[GM] )?(?:[一二三四五六七八九十]+(?:\.\d+)*|结语)")

# Models the guides name that the model catalogue does not hold.
GUIDE_MODELS = ("GPT-2 Medium", "GPT-2 Small")

TIER_WORKLOADS = {
    "llama-lora": {"model": "llama-3.1-8b", "task": "train", "precision": "bf16", "finetune": "lora"},
    "llama-70b-int4": {"model": "llama-3.1-70b", "task": "infer", "precision": "int4", "runtime": "llama.cpp"},
    "resnet50-amp": {"model": "resnet50", "task": "train", "precision": "amp"},
}
SHOWN_PARTS = ("nvidia-rtx-4090", "amd-ryzen-5-5600x", "corsair-4000d-airflow", "phanteks-enthoo-pro-2-server-edition",
               "seasonic-focus-gx-550", "deepcool-ak400", "samsung-970-evo-plus-1tb", "gigabyte-b550-aorus-pro",
               "corsair-vengeance-lpx-32gb-2x16gb-ddr4-3200", "nvidia-a100-80gb-sxm")


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def names() -> list[str]:
    """The texts that are names, longest first (so a longer name goes before a name inside it)."""
    found: set[str] = set()
    name_fields = ("name", "brand", "architecture", "architectures", "socket", "chipset", "memory_type",
                   "memory_types", "vram_type", "interface", "efficiency", "board_form_factors", "psu_form_factors",
                   "cpu_sockets", "gfx_target")
    for part in load_catalogue():
        for key in name_fields:
            value = getattr(part, key, None)
            found.update(value if isinstance(value, list) else [value] if isinstance(value, str) else [])
        for slot in [*getattr(part, "pcie_slots", []), *getattr(part, "m2_slots", [])]:
            found.add(slot.name)
    found.update(spec.title for spec in KNOWN_MODELS.values())
    found.update(KNOWN_MODELS)  # and the IDs the user types (resnet50)
    found.update(GUIDE_MODELS)
    for price in load_cloud_prices():
        found.update((price.provider, price.instance, f"{price.provider} {price.instance}"))
    for m in load_measurements():  # the software and the source as published (`measurements list` shows them)
        found.update(t for t in (m.runtime, m.framework, m.source_ref,
                                 " ".join(x for x in (m.framework, m.framework_version) if x)) if t)
        if m.source_url:
            found.add(m.source_url.split("/blob/")[0].removeprefix("https://github.com/"))
    for net in INTERCONNECTS.values():
        found.update((net.name, net.source))
    found.update(t.name for t in TIERS)  # the tiers' build names, the guides' own words
    return sorted({normalised(n) for n in found if n and len(n) > 1}, key=len, reverse=True)


def normalised(text: str) -> str:
    """One line of text as a reader sees it: ligatures undone (pdftotext's "ﬁ"), lines broken by a layout
    joined (a word broken at a hyphen, a Chinese line inside a phrase), runs of white space one space."""
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"([-/])\n", r"\1", text)
    text = re.sub(rf"(?<={CJK.pattern})\n(?={CJK.pattern})", "", text)
    return re.sub(r"\s+", " ", text)


def without_names(text: str, known: Iterable[str]) -> str:
    """The text, normalised, without URLs (a name may be part of one) and the names in ``known``."""
    text = re.sub(r"https?://\S+", " ", normalised(text))
    for name in known:
        if name in text:
            text = text.replace(name, " ")
    return text


def english_words(text: str) -> set[str]:
    """The English words of a Chinese text that are none of: an ID, a path, a URL, a value in backticks or
    quotes, an abbreviation in capitals, a word in ALLOWED."""
    text = GUIDE_REF.sub(" ", QUOTED.sub(" ", text))
    text = re.sub(r"https?://\S+|`[^`]*`|\"[^\"]*\"", " ", text)
    text = re.sub(r"(?<![\w/])/[\w.-]+(?:/[\w.-]+)*|\b[\w-]+(?:/[\w.-]+)*/[\w-]+\.[a-z]+\b", " ", text)  # paths
    text = re.sub(r"\b\w+(?:[-_.:]\w+)+\b", " ", text)  # identifiers: resnet50, llama-3.1-8b, PCIEX16_1, FIT-1
    text = re.sub(r"\b[A-Z][A-Z0-9]+s?\b", " ", text)  # abbreviations (GPU, CPU, TDP, GPUs)
    # words: not glued to a number before them ("4K", "3975WX"); a single letter is a variable or a size (n, x)
    words = {w.lower() for w in re.findall(r"(?<![\w.])[A-Za-z][A-Za-z0-9_]+", text)}
    words |= {"s"} if re.search(r"\d s\b", text) else set()  # seconds: 秒 ("58 s" in Chinese is English)
    return {w for w in words if w not in ALLOWED and not re.fullmatch(r"[a-z]{1,3}\d+\w*", w)}


def chinese_left(text: str) -> list[str]:
    """The Chinese of an English text outside the guides' quotes and section references, each with the
    text around it."""
    text = GUIDE_REF.sub(" ", QUOTED.sub(" ", normalised(text)))
    return sorted({text[max(m.start() - 30, 0):m.end() + 30].strip() for m in re.finditer(rf"{CJK.pattern}+", text)})


def part_notes_removed(text: str) -> str:
    """``parts show`` without the part's notes (the sources' own words): the indented lines after the
    notes' heading, up to the next blank line."""
    out: list[str] = []
    in_notes = False
    for line in text.splitlines():
        if line.rstrip().endswith(("备注:", "Notes:")):
            in_notes = True
            continue
        if in_notes and line.startswith("  "):
            continue
        in_notes = False
        out.append(line)
    return "\n".join(out)


def _builds(tmp: Path, tiers: list[dict[str, Any]]) -> Iterator[tuple[str, Path]]:
    assert {t["id"] for t in tiers} >= {"TIER-entry", "TIER-pro", "TIER-enterprise"}
    for tier in tiers:
        for key, workload in TIER_WORKLOADS.items():
            path = tmp / f"{tier['id']}-{key}.json"
            path.write_text(json.dumps({**tier["build"], "workload": workload}), encoding="utf-8")
            yield f"{tier['id']} {key}", path
    gpu_only = tmp / "gpu-only.json"
    gpu_only.write_text(json.dumps({"format": "configurator.build/1", "name": "RTX 4090",
                                    "parts": [{"id": "nvidia-rtx-4090"}]}), encoding="utf-8")
    yield "gpu only", gpu_only
    pro = next(t for t in tiers if t["id"] == "TIER-pro")
    cluster = tmp / "cluster.json"
    cluster.write_text(json.dumps({**pro["build"], "workload": TIER_WORKLOADS["llama-lora"],
                                   "cluster": {"nodes": 2, "interconnect": "25gbe"}}), encoding="utf-8")
    yield "cluster", cluster


# The builds whose `check --json` is read too (its messages are the text's, rendered by the same code).
JSON_CHECKED = ("TIER-entry llama-lora", "TIER-pro llama-70b-int4", "TIER-enterprise resnet50-amp", "cluster")


def render(lang: str, tmp: Path, db: Path, tiers: list[dict[str, Any]]) -> dict[str, str]:
    """Every output named in the module's docstring, in ``lang``: {what: text}. ``tiers``: `presets --json`."""
    texts: dict[str, str] = {}
    g = ("--lang", lang, "--db", str(db))

    def cmd(what: str, *argv: str, codes: tuple[int, ...] = (0,)) -> str:
        code, out, err = _cli(*g, *argv)
        assert code in codes, (what, code, err)
        texts[what] = out
        return out

    for what, path in _builds(tmp, tiers):
        cmd(f"check {what}", "check", str(path), codes=(0, 1))
        if what not in JSON_CHECKED:
            continue
        doc = json.loads(cmd(f"check --json {what}", "check", str(path), "--json", codes=(0, 1)))
        texts[f"check --json {what}"] = "\n".join(
            [f["message"] for f in doc["findings"]]
            + [t for e in doc["estimates"] for t in (e["how"], (e["calibration"] or {}).get("how", ""))])
    cmd("suggest", "suggest", "--budget", "30000")
    cmd("presets", "presets")
    cmd("measurements list", "measurements", "list")
    for part in SHOWN_PARTS:
        texts[f"parts show {part}"] = part_notes_removed(cmd(f"parts show {part}", "parts", "show", part))
    cmd("cloud-prices", "cloud-prices")
    recording = tmp / "run.csv"
    if not recording.exists():
        record(recording, 40, busy_gpu(throttle=0x20), host(workers_cpu=99.0))
    cmd("report", "report", str(recording))
    pdf = tmp / f"sheet-{lang}.pdf"
    cmd("export-pdf", "export-pdf", str(tmp / "TIER-pro-llama-lora.json"), str(pdf))
    texts["export-pdf"] = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True,
                                         check=True).stdout
    return texts


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory, seeded_template: Path) -> Iterator[dict[str, dict[str, str]]]:
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext not found: sudo apt-get install poppler-utils (the README's system packages)")
    tmp = tmp_path_factory.mktemp("language")
    db = tmp / "configurator.db"
    shutil.copyfile(seeded_template, db)
    code, out, err = _cli("--db", str(db), "presets", "--json")
    assert code == 0, err
    tiers = json.loads(out)
    try:
        yield {lang: render(lang, tmp, db, tiers) for lang in ("zh_CN", "en")}
    finally:
        cli_help._language["translate"] = None


def test_chinese_output_has_no_english_words_but_names(rendered: dict[str, dict[str, str]]) -> None:
    known = names()
    texts = rendered["zh_CN"]
    assert len(texts) > 30 and all(CJK.search(t) for t in texts.values())
    leftovers = {what: words for what, text in texts.items() if (words := english_words(without_names(text, known)))}
    assert not leftovers, "\n".join(f"{what}: {sorted(words)}" for what, words in leftovers.items())


def test_chinese_output_doubles_no_particle(rendered: dict[str, dict[str, str]]) -> None:
    """A translated phrase put into a template that already has the particle ("适配器的" + "的环形")."""
    doubled = {what: m.group(0) for what, text in rendered["zh_CN"].items()
               if (m := re.search(r".{0,12}(?:的的|了了|，，|。。|：：)", text))}
    assert not doubled, doubled


def test_every_label_of_a_value_unit_source_or_estimate_is_chinese() -> None:
    """The tables the outputs draw words from, each entry translated: catalogue values, units, confidence
    words, estimate labels, rule sources, cloud billing, CUD-1's architectures and PyTorch builds."""
    translate = translator_for("zh_CN")
    assert translate is not None
    tables = {"parts": [t for table in VALUE_LABELS.values() for t in table.values()]
              + [label for label, _unit in FIELD_LABELS.values()],
              "units": list(UNIT_WORDS.values()), "numbers": list(VALUE_WORDS.values()),
              "estimates": [*ESTIMATE_LABELS.values(), *CONFIDENCE_LABELS.values()],
              "sources": list(SOURCE_WORDS.values()), "cloud": list(BILLING.values()),
              "software": [t for row in ARCH_TABLE for t in (row.architecture, row.pytorch)]}
    known = names()
    untranslated = {f"{context}: {text}": words for context, texts in tables.items() for text in texts
                    if (words := english_words(without_names(translate(context, text), known)))}
    assert not untranslated, untranslated


def test_english_output_has_no_chinese_but_names(rendered: dict[str, dict[str, str]]) -> None:
    known = names()
    leftovers = {what: lines for what, text in rendered["en"].items()
                 if (lines := chinese_left(without_names(text, known)))}
    assert not leftovers, "\n".join(f"{what}: {lines}" for what, lines in leftovers.items())


@pytest.mark.parametrize(("text", "words"), [
    ("估算峰值功耗 395 W，按 vendor specs", {"vendor", "specs"}),
    ("NVIDIA GeForce RTX 3090：Full tower，air", {"full", "tower", "air"}),
    ("[FIT-1 · 第一性原理] 每卡 51.8 GiB（`lora`，llama-3.1-8b，PCIEX16_1）", set()),
    ("吞吐量 1,353 tokens/s（可信度 low），见 docs/rules.md 与 /tmp/run.csv", {"low", "tokens"}),
    ("MON-1: 58 s；n × η^log2(n) × t；1.2 GB/s、25 µs", {"s"}),
])
def test_the_word_filter(text: str, words: set[str]) -> None:
    assert english_words(without_names(text, ["NVIDIA GeForce RTX 3090"])) == words


def test_the_guides_references_may_stay_in_english() -> None:
    assert chinese_left("[BUD-1 · G 五.3, M 结语] Total ¥5,950.\n[RAM-4 · G 三.2, 六.1] Fits.") == []
    assert chinese_left("Case: Full tower\nCooling: 风冷") == ["Case: Full tower Cooling: 风冷"]
