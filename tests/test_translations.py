"""The Chinese translation is complete and its compiled .qm is current."""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from configurator.paths import TRANSLATIONS_DIR

ROOT = Path(__file__).resolve().parents[1]
TS = TRANSLATIONS_DIR / "configurator_zh_CN.ts"
QM = TRANSLATIONS_DIR / "configurator_zh_CN.qm"
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        found = shutil.which(name)
        if not found:
            pytest.fail(f"{name} not found: install PySide6-Essentials")
        return found
    return str(path)


def sources() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "configurator").rglob("*.py"))


def test_no_unfinished_or_empty_entries() -> None:
    tree = ET.parse(TS)
    bad = []
    for ctx in tree.getroot().iter("context"):
        name = ctx.findtext("name")
        for msg in ctx.iter("message"):
            tr = msg.find("translation")
            assert tr is not None
            if tr.get("type") in ("unfinished", "vanished", "obsolete") or not (tr.text or "").strip():
                bad.append(f"{name}: {msg.findtext('source')!r}")
    assert not bad, "untranslated zh_CN entries (run `make translations` and translate them):\n" + "\n".join(bad)


def test_ts_has_every_string_in_the_code(tmp_path: Path) -> None:
    copy = tmp_path / "check.ts"
    shutil.copy(TS, copy)
    argv = [tool("pyside6-lupdate"), "-no-obsolete", "-locations", "none", "-target-language", "zh_CN",
            *sources(), "-ts", str(copy)]
    subprocess.run(argv, cwd=ROOT, check=True, capture_output=True)
    assert copy.read_text(encoding="utf-8") == TS.read_text(encoding="utf-8"), (
        "resources/translations/configurator_zh_CN.ts is stale: run `make translations`")


def test_qm_is_compiled_from_the_ts(tmp_path: Path) -> None:
    out = tmp_path / "check.qm"
    subprocess.run([tool("pyside6-lrelease"), str(TS), "-qm", str(out)], check=True, capture_output=True)
    assert out.read_bytes() == QM.read_bytes(), "configurator_zh_CN.qm is stale: run `make translations`"


def test_translations_keep_the_placeholders() -> None:
    """A translation with other ``{name}`` placeholders than its source would be shown unfilled
    (``fill`` refuses to guess): every Chinese template names exactly the source's placeholders."""
    import string

    def names(text: str) -> set[str]:
        try:
            return {f for _, f, _, _ in string.Formatter().parse(text) if f}
        except ValueError:
            return {"<unbalanced braces>"}

    bad = []
    for ctx in ET.parse(TS).getroot().iter("context"):
        for msg in ctx.iter("message"):
            source, translation = msg.findtext("source") or "", msg.findtext("translation") or ""
            if names(source) != names(translation):
                bad.append(f"{ctx.findtext('name')}: {source!r} → {translation!r}")
    assert not bad, "translations whose placeholders differ from the source:\n" + "\n".join(bad)


def test_one_way_to_fill_a_template() -> None:
    """Texts are filled with ``core.i18n.fill`` (or ``Message.render``), not by chained
    ``str.replace("{name}", …)`` calls that silently leave a misspelt placeholder in the text."""
    import re

    chained = re.compile(r"""\.replace\(\s*["']\{\w+\}["']""")
    offenders = [f"{path}:{n}" for path in sources() for n, line in
                 enumerate((ROOT / path).read_text(encoding="utf-8").splitlines(), 1) if chained.search(line)]
    assert not offenders, "fill templates with configurator.core.i18n.fill:\n" + "\n".join(offenders)
