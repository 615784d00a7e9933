"""Figures not confirmed by a vendor source (issue 29): the ``unverified`` field, its check in
db/catalogue/check.py, ``parts show``, and the sentence a rule finding resting on one ends with."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest
from planner_kit import Kit

from configurator.cli.entry import main
from configurator.core.i18n import Message
from configurator.core.parts import Case, part_from_dict, part_to_dict
from configurator.core.rules.shared import Ctx, check_vendor, unverified_figures
from configurator.store.catalogue import load_catalogue

ROOT = Path(__file__).resolve().parents[2]
SENTENCE = "check the vendor's figure"
BIG = "fractal-design-define-7-xl"  # the kit's standard case
CATALOGUE = {p.id: p for p in load_catalogue()}


def _check_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalogue_check", ROOT / "db" / "catalogue" / "check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK = _check_module()


def _case(**changes: object) -> dict[str, object]:
    row = part_to_dict(CATALOGUE[BIG])
    for key in ("custom", "user_edited"):
        row.pop(key)
    return {**row, **changes}


# -- the field ---------------------------------------------------------------------------------------------


def test_unverified_defaults_to_empty_and_round_trips() -> None:
    row = _case()
    row.pop("unverified")
    part = part_from_dict(row, "case")
    assert isinstance(part, Case) and part.unverified == []
    marked = part_from_dict(_case(unverified=["max_gpu_length_mm"]), "case")
    assert part_to_dict(marked)["unverified"] == ["max_gpu_length_mm"]


# -- db/catalogue/check.py ---------------------------------------------------------------------------------


def test_check_names_a_field_the_part_does_not_have() -> None:
    errors = CHECK.unverified_errors(_case(unverified=["max_gpu_length_mm", "height_mm", "id"]), "case")
    assert errors == ["unverified[1]: 'height_mm' is not a field of a case",
                      "unverified[2]: 'id' is not a field of a case"]
    assert CHECK.unverified_errors(_case(unverified=["bays_35", "bays_35"]), "case") == [
        "unverified: 'bays_35' listed twice"]
    assert CHECK.unverified_errors(_case(unverified=["bays_35", "psu_mounts"]), "case") == []


def test_check_wants_recalled_figures_listed() -> None:
    doubtful = _case(unverified=[], notes="GPU 450 mm recalled from the spec sheet.")
    assert CHECK.unverified_errors(doubtful, "case") == [
        "notes say 'recalled': list the figures in unverified, or cite the source"]
    assert CHECK.unverified_errors({**doubtful, "unverified": ["max_gpu_length_mm"]}, "case") == []


def test_check_file_fails_on_a_bad_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "case.toml"
    f.write_text('category = "case"\n\n[[part]]\nid = "x-case"\nname = "X"\nbrand = "X"\nprice_cny = 1\n'
                 'price_date = "2026-11"\nsource = "https://example.com/x-case"\nform_factor = "Mid tower"\n'
                 'max_gpu_length_mm = 300\nexpansion_slots = 7\nboard_form_factors = ["ATX"]\n'
                 'unverified = ["max_gpu_lenght_mm"]\n', encoding="utf-8")
    assert CHECK.check_file(f) == 1
    assert "x-case: unverified[0]: 'max_gpu_lenght_mm' is not a field of a case" in capsys.readouterr().out


def test_the_catalogue_passes_its_check(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted((ROOT / "db" / "catalogue").glob("*.toml"))
    assert sum(CHECK.check_file(f) for f in files) == 0, capsys.readouterr().out


def test_fit_files_mark_their_recalled_figures() -> None:
    """Every case, cooler and supply carries its unconfirmed fit figures (none was read in a vendor source
    for most of them); a case's GPU length is the figure COMP-4 rests on."""
    for part in CATALOGUE.values():
        if part.category == "case":
            assert "max_gpu_length_mm" in part.unverified, part.id
        if part.category == "psu":
            assert {"pcie_8pin", "eps_8pin"} <= set(part.unverified), part.id
        if part.category == "cooler":
            assert part.unverified, part.id
    assert "expansion_slots" not in CATALOGUE[BIG].unverified  # read in hardwareluxx.de's review


# -- parts show ----------------------------------------------------------------------------------------------


def test_parts_show_json_and_text_say_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "c.db")
    assert main(["--db", db, "parts", "show", "corsair-7000d-airflow", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "max_gpu_length_mm" in doc["unverified"] and "psu_mounts" in doc["unverified"]
    assert main(["--db", db, "parts", "show", "corsair-7000d-airflow"]) == 0
    text = capsys.readouterr().out
    row = next(line for line in text.splitlines() if line.lstrip().startswith("Maximum GPU length"))
    assert "450" in row and "(unverified)" in row
    assert SENTENCE in text.lower()
    assert main(["--db", db, "parts", "show", "nvidia-rtx-4090", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unverified"] == []


# -- findings ------------------------------------------------------------------------------------------------


def test_the_helper_appends_the_sentence_only_for_unverified_figures() -> None:
    case = CATALOGUE[BIG]
    ctx = Ctx(r=None, power=None, placement=None, vram=None, ram=None)  # type: ignore[arg-type]
    ctx.add("FIT-X", "error", "vendor specs", "{case} is too small.", {"a": 1},
            rests_on=[(case, "max_gpu_length_mm"), (None, "bays_35"), (case, "max_gpu_length_mm")], case="C")
    ctx.add("FIT-X", "error", "vendor specs", "{case} is too small.", {"a": 1},
            rests_on=[(case, "expansion_slots")], case="C")
    doubtful, sure = ctx.findings
    assert doubtful.numbers == {"a": 1, "unverified": [f"{BIG}.max_gpu_length_mm"]}
    text = doubtful.message.render()
    assert text.startswith("C is too small. ") and text.endswith(SENTENCE + ".")
    assert "Fractal Design Define 7 XL's Maximum GPU length" in text
    assert sure.numbers == {"a": 1} and sure.message.render() == "C is too small."
    assert unverified_figures([(case, "height_mm")]) == []
    two = check_vendor(doubtful.message, [(case, "bays_35"), (case, "bays_25")]).render()
    assert "Maximum GPU length" in two and '3.5" drive bays; ' in two


def test_translated_sentence_keeps_the_finding() -> None:
    zh = {"{finding} This rests on a figure not verified against a vendor source ({figures}): check the "
          "vendor's figure.": "{finding}此结论依据的数据未经厂商资料核实（{figures}）：请查对厂商数据。",
          "{part}'s {field}": "{part}的{field}", "Maximum GPU length": "最大显卡长度"}
    msg = check_vendor(Message("rules", "太小。"), [(CATALOGUE[BIG], "max_gpu_length_mm")])
    out = msg.render(lambda _ctx, s: zh.get(s, s))
    assert out == "太小。此结论依据的数据未经厂商资料核实（Fractal Design Define 7 XL的最大显卡长度）：请查对厂商数据。"


def test_a_rule_finding_resting_on_an_unverified_figure_says_so(kit: Kit) -> None:
    """COMP-4 (card longer than the case takes) rests on the case's max_gpu_length_mm; FIT-6 on the cooler's
    height and the case's cooler limit. Marked: the sentence; confirmed: none."""
    kit.tweak(BIG, max_gpu_length_mm=250)
    parts = kit.standard()
    comp4 = [f for f in kit.check(*parts).findings if f.rule == "COMP-4" and "gpu_length_mm" in f.numbers]
    assert comp4 and SENTENCE in comp4[0].message.render()
    assert comp4[0].numbers["unverified"] == [f"{BIG}.max_gpu_length_mm"]
    kit.tweak(BIG, unverified=[])
    comp4 = [f for f in kit.check(*parts).findings if f.rule == "COMP-4" and "gpu_length_mm" in f.numbers]
    assert comp4 and SENTENCE not in comp4[0].message.render() and "unverified" not in comp4[0].numbers


def test_no_sentence_where_the_finding_rests_on_nothing_doubtful(kit: Kit) -> None:
    report = kit.check(*kit.standard())
    for f in report.findings:
        assert (SENTENCE in f.message.render()) == ("unverified" in f.numbers), f.rule


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
