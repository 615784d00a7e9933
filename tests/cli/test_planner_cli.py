"""check / suggest / presets on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_run import run


def write(tmp_path: Path, doc: object, name: str = "配置.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def test_check_exit_codes_and_json(capsys, db_path: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    good = write(tmp_path, {"format": "configurator.build/1", "budget_cny": 100000,
                            "parts": [{"id": "nvidia-rtx-3060-12gb"}, {"id": "amd-ryzen-5-5600x"}]})
    code, out, _ = run(capsys, "--db", str(db_path), "check", str(good), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["ok"] is True and doc["total_cny"] > 0 and doc["budget_cny"] == 100000
    assert {"rule", "severity", "source", "message", "numbers"} <= set(doc["findings"][0])
    bad = write(tmp_path, {"format": "configurator.build/1", "budget_cny": 1,
                           "parts": [{"id": "nvidia-rtx-3060-12gb"}]})
    code, out, _ = run(capsys, "--db", str(db_path), "check", str(bad), "--json")
    assert code == 1 and json.loads(out)["ok"] is False
    code, out, _err = run(capsys, "--db", str(db_path), "check", str(bad))
    assert code == 1 and "Errors (1)" in out and "[BUD-1 · G 五.3, M 结语]" in out


def test_check_unusable_input(capsys, db_path: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    broken = tmp_path / "broken.json"
    broken.write_text("{\"format\": ", encoding="utf-8")
    code, out, err = run(capsys, "--db", str(db_path), "check", str(broken), "--json")
    assert code == 2 and "not valid JSON" in err and json.loads(out)["ok"] is False
    wrong = write(tmp_path, {"format": "configurator.build/1", "parts": [{"id": "a"}, {"id": "b"},
                                                                          {"id": "nvidia-rtx-3090", "qty": 0}]})
    code, out, err = run(capsys, "--db", str(db_path), "check", str(wrong), "--json")
    paths = [e["path"] for e in json.loads(out)["errors"]]
    assert code == 2 and "parts[2].qty" in paths and "parts[0].id" in paths
    assert "parts[2].qty: must be a positive integer" in err
    code, _, err = run(capsys, "--db", str(db_path), "check", str(tmp_path / "missing.json"))
    assert code == 2 and "missing.json" in err


def test_suggest_and_presets(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--db", str(db_path), "suggest", "--budget", "12000", "--workload", "resnet50",
                       "--precision", "amp", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["suggestions"][0]["total_cny"] <= 12000
    assert doc["suggestions"][0]["build"]["format"] == "configurator.build/1"
    code, _, err = run(capsys, "--db", str(db_path), "suggest", "--budget", "12000", "--workload", "gpt5")
    assert code == 2 and "--workload" in err
    code, out, _ = run(capsys, "--db", str(db_path), "presets", "--json")
    tiers = json.loads(out)
    assert code == 0 and [t["id"] for t in tiers][:2] == ["TIER-entry", "TIER-pro"]
    assert all({"id", "source", "build", "filled"} <= set(t) for t in tiers)


def test_suggest_options_on_the_command_line(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The options reach Suggest, the answer says why, and bad options are one line each, exit 2."""
    code, out, _ = run(capsys, "--db", str(db_path), "suggest", "--budget", "30000", "--max-gpus", "1",
                       "--case", "full", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["goal"] == "fastest"
    best, *rest = doc["suggestions"]
    assert all(p.get("qty", 1) == 1 for s in doc["suggestions"] for p in s["build"]["parts"] if "nvidia" in p["id"])
    assert len(best["reasons"]) >= 3 and best["binding"].startswith("Binding:")
    assert all("¥" in s["trade"] for s in rest)
    code, out, _ = run(capsys, "--db", str(db_path), "suggest", "--target-throughput", "1500", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["goal"] == "cheapest" and doc["suggestions"][0]["score"] >= 1500
    code, out, _ = run(capsys, "--db", str(db_path), "suggest", "--budget", "20000", "--allow-used")
    assert code == 0 and "(used)" in out
    code, out, err = run(capsys, "--db", str(db_path), "suggest", "--budget", "20000", "--min-gpus", "3",
                         "--max-gpus", "2", "--case", "cube")
    assert code == 2 and "--min-gpus/--max-gpus" in err and "--case: unknown case size cube" in err
    assert "Traceback" not in err
    code, _, err = run(capsys, "--db", str(db_path), "suggest")
    assert code == 2 and "--budget" in err
    code, out, _ = run(capsys, "--db", str(db_path), "suggest", "--budget", "1000")
    assert code == 1 and "No build without errors fits ¥1,000" in out and "Even the cheapest" in out


@pytest.mark.full_env  # Chinese output or a PDF: PySide6
def test_export_pdf_is_in_the_language_asked_for(tmp_path: Path) -> None:
    """The sheet's translators were held by a temporary and collected at once: --lang zh_CN gave an
    English sheet."""
    import os
    import subprocess
    import sys

    from pypdf import PdfReader

    build = write(tmp_path, {"format": "configurator.build/1", "name": "两张 3090",
                             "parts": [{"id": "nvidia-rtx-3090", "qty": 2}],
                             "workload": {"model": "resnet50", "task": "train", "precision": "amp"}})
    env = {**os.environ, "CONFIGURATOR_DB": str(tmp_path / "c.db")}
    for lang, words in (("zh_CN", ("配置单", "部件", "吞吐量")), ("en", ("Buildsheet", "Parts", "Throughput"))):
        out = tmp_path / f"sheet-{lang}.pdf"
        proc = subprocess.run([sys.executable, "-m", "configurator", "--lang", lang, "export-pdf", str(build),
                               str(out)], capture_output=True, text=True, env=env, timeout=180)
        assert proc.returncode == 0, proc.stderr
        text = "".join("".join(page.extract_text().split()) for page in PdfReader(out).pages)
        assert all(w in text for w in words), (lang, text[:300])


def test_cli_suggest_and_the_dialog_share_their_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue "The first hour": the command line's suggest and the dialog give the same best build."""
    from configurator.core.catalogue import load_catalogue
    from configurator.core.suggest import DEFAULT_WORKLOAD, suggest

    code, out, err = run(capsys, "suggest", "--budget", "20000", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert (doc["workload"]["model"], doc["workload"]["task"], doc["workload"]["precision"]) == (
        DEFAULT_WORKLOAD.model, DEFAULT_WORKLOAD.task, DEFAULT_WORKLOAD.precision)
    best = suggest({p.id: p for p in load_catalogue()}, 20000, DEFAULT_WORKLOAD)[0]
    assert sorted(p["id"] for p in doc["suggestions"][0]["build"]["parts"]) == sorted(p.id for p in best.build.parts)


def test_suggest_contradictory_options_and_unknown_relaxed_rules_are_one_line_exit_2(  # type: ignore[no-untyped-def]
        capsys, db_path: Path) -> None:
    code, out, err = run(capsys, "--db", str(db_path), "suggest", "--budget", "20000", "--min-gpus", "3",
                         "--max-gpus", "1")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "contradict" in err
    code, out, err = run(capsys, "--db", str(db_path), "suggest", "--budget", "20000", "--relax", "BAL-3,BAL-9")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "BAL-9" in err and "--relax" in err
    code, out, err = run(capsys, "--db", str(db_path), "suggest", "--budget", "8000", "--relax", "bal-3", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["relaxed"] == ["BAL-3"] and doc["defaults"]["storage_need_gb"] > 300


def test_check_of_a_gpu_only_build_says_what_is_still_to_choose(capsys, db_path: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    gpu_only = write(tmp_path, {"format": "configurator.build/1", "parts": [{"id": "nvidia-rtx-4090"}]})
    code, out, _ = run(capsys, "--db", str(db_path), "check", str(gpu_only))
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == ("Still to choose: CPU, Motherboard, Memory, Storage, Power supply. The findings judge "
                        "only the parts chosen.")
    code, out, _ = run(capsys, "--db", str(db_path), "check", str(gpu_only), "--json")
    assert json.loads(out)["still_to_choose"] == ["cpu", "motherboard", "memory", "storage", "psu"]
    whole = write(tmp_path, {"format": "configurator.build/1", "parts": [
        {"id": "nvidia-rtx-3090"}, {"id": "amd-ryzen-9-7950x"}, {"id": "asus-proart-x670e-creator-wifi"},
        {"id": "corsair-vengeance-64gb-2x32gb-ddr5-6000"}, {"id": "samsung-990-pro-2tb"},
        {"id": "corsair-rm750e-2023"}]}, "whole.json")
    code, out, _ = run(capsys, "--db", str(db_path), "check", str(whole))
    assert code in (0, 1) and "Still to choose" not in out
    _code, out, _ = run(capsys, "--db", str(db_path), "check", str(whole), "--json")
    assert json.loads(out)["still_to_choose"] == []


def test_still_to_choose_is_in_the_readers_language() -> None:
    from configurator.core.verdict import still_to_choose

    words = {"CPU": "处理器", "Power supply": "电源", ", ": "、",
             "Still to choose: {missing}. The findings judge only the parts chosen.": "尚未选择：{missing}。"}
    assert still_to_choose(("cpu", "psu"), lambda _c, t: words.get(t, t)) == "尚未选择：处理器、电源。"
    assert still_to_choose(()) == ""


SERVE = ("suggest", "--workload", "llama-3.1-8b", "--request-rate", "5", "--prompt-tokens", "512",
         "--output-tokens", "256")


@pytest.mark.parametrize(("args", "option"), [
    (("--max-ttft-ms", "0"), "--max-ttft-ms: must be a positive number"),
    (("--max-ttft-ms", "-5"), "--max-ttft-ms: must be a positive number"),
    (("--max-tpot-ms", "nan"), "--max-tpot-ms: must be a positive number"),
])
def test_serving_bounds_that_are_not_positive_are_one_line_exit_2(  # type: ignore[no-untyped-def]
        capsys, db_path: Path, args: tuple[str, ...], option: str) -> None:
    code, out, err = run(capsys, "--db", str(db_path), *SERVE, *args)
    assert code == 2 and out == "" and err.strip().splitlines() == [err.strip()] and err.startswith(option)


def test_a_ttft_bound_on_a_workload_that_does_not_serve_is_one_line_exit_2(  # type: ignore[no-untyped-def]
        capsys, db_path: Path) -> None:
    code, out, err = run(capsys, "--db", str(db_path), "suggest", "--budget", "20000", "--workload", "gpt2",
                         "--task", "infer", "--max-ttft-ms", "200")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("--max-ttft-ms: applies to a serving workload at a request rate only")


def test_serving_suggest_judges_at_the_rate_and_says_what_the_best_reaches(  # type: ignore[no-untyped-def]
        capsys, db_path: Path) -> None:
    code, out, _ = run(capsys, "--db", str(db_path), *SERVE, "--max-ttft-ms", "200", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["goal"] == "cheapest" and doc["max_ttft_ms"] == 200
    best = doc["suggestions"][0]["serving"]
    assert best["request_rate"] == 5 and best["judged_on"] == "central" and best["ttft_ms"]["value"] <= 200
    assert best["capacity_requests_per_s"]["value"] > 5
    assert best["ttft_ms"]["low"] <= best["ttft_ms"]["value"] <= best["ttft_ms"]["high"]
    # a bound no build meets: one line saying what the best reaches, exit 1 (suggest's "none fits")
    code, out, _ = run(capsys, "--db", str(db_path), *SERVE, "--max-ttft-ms", "1")
    assert code == 1 and "serves 5 requests/s of this workload with a median time to first token of at most 1 ms" in out
    assert "the lowest median time to first token is ≈" in out


def test_suggest_keeps_a_stated_kv_cache_and_refuses_it_where_it_does_not_apply(  # type: ignore[no-untyped-def]
        capsys, db_path: Path) -> None:
    code, out, _ = run(capsys, "--db", str(db_path), *SERVE, "--kv-cache", "fp8", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["workload"]["kv_cache"] == "fp8"
    assert doc["suggestions"][0]["build"]["workload"]["kv_cache"] == "fp8"  # the build it writes keeps it
    code, out, err = run(capsys, "--db", str(db_path), "suggest", "--budget", "20000", "--workload", "resnet50",
                         "--kv-cache", "fp8")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and err.startswith("--kv-cache: ")


SERVE_BUILD = {"format": "configurator.build/1", "name": "serve", "parts": [{"id": "nvidia-rtx-4090", "qty": 1}],
               "workload": {"model": "llama-3.1-8b", "task": "serve", "precision": "bf16", "concurrency": 64,
                            "prompt_tokens": 512, "output_tokens": 256}}
SERVING_LINES = {"serving_max_concurrency": ("Most requests in flight", "requests"),
                 "serving_output_tokens_per_s": ("Output tokens/s", "tokens/s"),
                 "serving_requests_per_s": ("Requests/s", "requests/s"),
                 "serving_ttft_ms": ("Time to first token (TTFT)", "ms"),
                 "serving_tpot_ms": ("Time per output token (TPOT)", "ms")}


def test_check_text_of_a_serving_build_names_ttft_and_tpot_with_units_and_ranges(  # type: ignore[no-untyped-def]
        capsys, db_path: Path, tmp_path: Path) -> None:
    from configurator.core.numbers import range_text, value_text

    path = write(tmp_path, SERVE_BUILD)
    code, out, _ = run(capsys, "--db", str(db_path), "check", str(path), "--json")
    assert code == 0
    by_key = {e["key"]: e for e in json.loads(out)["estimates"]}
    code, text, _ = run(capsys, "--db", str(db_path), "check", str(path))
    assert code == 0
    assert "  Serving at 64 requests in flight, 512 prompt + 256 output tokens per request\n" in text
    for key, (label, unit) in SERVING_LINES.items():
        e = by_key[key]
        value = f"{e['value']:,.0f}" if unit == "requests" else value_text(e["value"])
        span = range_text(e["low"], e["high"], whole=unit == "requests")
        # "Time to first token (TTFT): 138 ms (likely 94–303 ms)  (medium confidence)"
        assert f"  {label}: {value} {unit} (likely {span} {unit})  (" in text, label
        assert key not in text  # a name, not the JSON key
    assert "Draw while serving: " in text and "Draw while training" not in text
    # the single-stream figures are not a server's under load
    for gone in ("Throughput, one GPU", "Prefill", "Throughput, all streams", "Largest batch", "CPU alone"):
        assert gone not in text, gone


@pytest.mark.full_env  # Chinese output or a PDF: PySide6
def test_check_text_of_a_serving_build_in_chinese(capsys, db_path: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """--lang zh_CN: the serving figures' names and units in Chinese. Their words are wrapped for translation in
    core (ESTIMATE_LABELS, UNIT_WORDS); the Chinese comes with the catalogue once the strings are in it."""
    from configurator.core.findings import ESTIMATE_LABELS
    from configurator.core.numbers import UNIT_WORDS
    from configurator.i18n import translator_for

    for key, (label, unit) in SERVING_LINES.items():
        assert ESTIMATE_LABELS[key] == label and (unit == "ms" or UNIT_WORDS[unit] == unit)
    translate = translator_for("zh_CN")
    if translate is None or translate("estimates", "Time to first token (TTFT)") == "Time to first token (TTFT)":
        pytest.skip("the serving estimates' names are not in the Chinese catalogue yet")
    path = write(tmp_path, SERVE_BUILD)
    code, text, _ = run(capsys, "--db", str(db_path), "--lang", "zh_CN", "check", str(path))
    assert code == 0
    for key, (label, unit) in SERVING_LINES.items():
        assert translate("estimates", label) in text and label not in text, key
        if unit != "ms":
            assert translate("units", unit) in text, unit
    assert "serving_" not in text and "(likely" not in text


def test_check_text_keeps_the_digits_of_a_figure_under_one_image_a_second(  # type: ignore[no-untyped-def]
        capsys, db_path: Path, tmp_path: Path) -> None:
    """FLUX.1-dev's ≈ 0.02 img/s: not "0.0 img/s" beside a range of 0.01–0.03."""
    doc = {"format": "configurator.build/1", "name": "flux", "parts": [{"id": "nvidia-a100-80gb-pcie", "qty": 1}],
           "workload": {"model": "flux1-dev", "task": "infer", "precision": "bf16"}}
    path = write(tmp_path, doc)
    code, text, _ = run(capsys, "--db", str(db_path), "check", str(path))
    assert code == 0
    line = next(s for s in text.splitlines() if s.startswith("  Throughput, whole build: "))
    figure = line.split(": ", 1)[1].split(" ", 1)[0]
    assert figure.startswith("0.0") and figure.strip("0.") and len(figure.strip("0.")) >= 2, line  # 0.0168
    assert "img/s (likely 0.0" in line
