"""Language choice and translation outside widgets (the CLI).

English needs nothing. For Chinese the compiled Qt catalogue
(resources/translations/configurator_zh_CN.qm) is read through QTranslator,
imported only then, so an English command line never loads Qt.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable

from configurator.paths import TRANSLATIONS_DIR

LANGUAGES = {"en": "English", "zh_CN": "简体中文"}

Translate = Callable[[str, str], str]


def normalise(lang: str | None) -> str | None:
    if not lang:
        return None
    low = lang.replace("-", "_").lower()
    if low.startswith("zh"):
        return "zh_CN"
    if low.startswith(("en", "c", "posix")):
        return "en"
    return None


def system_language() -> str:
    """From the environment, like gettext: LANGUAGE, LC_ALL, LC_MESSAGES, LANG."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            lang = normalise(value.split(":")[0])
            if lang:
                return lang
    return "en"


def qm_path(lang: str) -> str:
    return str(TRANSLATIONS_DIR / f"configurator_{lang}.qm")


@functools.cache
def translator_for(lang: str) -> Translate | None:
    """A ``translate(context, text)`` function, or None for English (or if Qt is missing); one per language and
    process (the command line's help and its output share it: the catalogue is read once)."""
    if lang == "en":
        return None
    try:
        from PySide6.QtCore import QTranslator
    except ImportError:  # the bench worker's environment: no Qt, so English
        return None
    tr = QTranslator()
    if not tr.load(qm_path(lang)):
        return None

    def translate(context: str, text: str) -> str:
        return tr.translate(context, text) or text

    translate.translator = tr  # type: ignore[attr-defined]  # keep it alive
    return translate
