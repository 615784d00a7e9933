"""Installing translators in the running application and switching language live."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QLibraryInfo, QLocale, QSettings, QTranslator

from configurator.i18n import LANGUAGES, normalise, qm_path

SETTINGS_KEY = "ui/language"


_TRANSLATED: dict[tuple[str, str], str] = {}  # emptied whenever the translators change


def translate(context: str, text: str) -> str:
    """``QCoreApplication.translate``, remembered: the monitor asks for the same few dozen texts
    every second, and each call crosses into Qt and back."""
    key = (context, text)
    done = _TRANSLATED.get(key)
    if done is None:
        if len(_TRANSLATED) > 10_000:  # a caller passing texts that are not the catalogue's
            _TRANSLATED.clear()
        done = _TRANSLATED[key] = QCoreApplication.translate(context, text)
    return done


def system_ui_language() -> str:
    name = QLocale.system().name()  # e.g. "zh_CN", "en_US"
    return normalise(name) or "en"


class LanguageManager:
    """Owns the installed translators; ``switch`` sends LanguageChange to every widget."""

    def __init__(self, settings: QSettings):
        self.settings = settings
        self._translators: list[QTranslator] = []
        self.current = "en"

    def initial(self, requested: str | None) -> str:
        lang = normalise(requested) or normalise(str(self.settings.value(SETTINGS_KEY, "") or ""))
        return lang or system_ui_language()

    def install(self, lang: str) -> bool:
        app = QCoreApplication.instance()
        assert app is not None
        for t in self._translators:
            app.removeTranslator(t)
        self._translators.clear()
        _TRANSLATED.clear()
        self.current = lang if lang in LANGUAGES else "en"
        if self.current == "en":
            return True
        ours = QTranslator()
        if not ours.load(qm_path(self.current)):
            self.current = "en"
            return False
        qt = QTranslator()
        if qt.load(f"qtbase_{self.current}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
            app.installTranslator(qt)
            self._translators.append(qt)
        app.installTranslator(ours)
        self._translators.append(ours)
        _TRANSLATED.clear()  # again: a text asked for while the translators were being swapped
        return True

    def switch(self, lang: str) -> None:
        self.install(lang)
        self.settings.setValue(SETTINGS_KEY, self.current)
        # Deliver LanguageChange now, so every widget is retranslated before this returns.
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
