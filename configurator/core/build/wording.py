"""How the build file's reader words a problem: :class:`Checked` collects the schema's verdicts on a file
(core/schema_build.py) and words each as the build file's messages say it, with the path of its field; a
value shown in a message is bounded and escaped (:func:`short_repr`); a name may not hold a character that
prints as something else (:func:`refused_character`)."""

from __future__ import annotations

import math
import typing
import unicodedata
from collections.abc import Mapping
from typing import Any

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import FieldError
from configurator.core.schema import Problem, Schema, SchemaError, bounds_of, path_of


def message(template: str, **params: Any) -> Message:
    """A build-file message (context "build") with its parameters."""
    return Message("build", template, params)


_POSITIVE_INT = QT_TRANSLATE_NOOP("build", "must be a positive integer")
_POSITIVE_NUMBER = QT_TRANSLATE_NOOP("build", "must be a number greater than 0")
_AT_MOST = QT_TRANSLATE_NOOP("build", "must be at most {high:,}")
_TOO_LONG = QT_TRANSLATE_NOOP("build", "must be at most {high} characters, not {n:,}")
_BAD_CHAR = QT_TRANSLATE_NOOP("build", "must not contain {char} (character {pos}): control, "
                                       "bidirectional-override and unpaired surrogate characters are not allowed")
_NONNEG_NUMBER = QT_TRANSLATE_NOOP("build", "must be a number, zero or more")
_BOOL = QT_TRANSLATE_NOOP("build", "must be true or false")
_TEXT = QT_TRANSLATE_NOOP("build", "must be text")
_OBJECT = QT_TRANSLATE_NOOP("build", "must be an object")
_UNKNOWN_KEY = QT_TRANSLATE_NOOP("build", "unknown key (allowed: {allowed})")
_CHOICE = QT_TRANSLATE_NOOP("build", "must be one of {choices}, not {got!r}")
REQUIRED = QT_TRANSLATE_NOOP("build", "is required")

_BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
_REFUSED_CATEGORIES = ("Cc", "Cs", "Zl", "Zp")  # controls (NUL, newline, escape …), lone surrogates, line breaks


def refused_character(text: str) -> tuple[int, str] | None:
    """The first character a name may not hold (position, character): a control character, an unpaired
    surrogate, a line or paragraph separator, or a bidirectional embedding, override or isolate
    (U+202A–U+202E, U+2066–U+2069), which could make a name print as something else."""
    for i, ch in enumerate(text):
        if ch in _BIDI_CONTROLS or unicodedata.category(ch) in _REFUSED_CATEGORIES:
            return i, ch
    return None


def short_repr(value: Any, width: int = 40) -> str:
    """A bounded, escaped rendering of any input value for a message: never the whole of a long text,
    never a raw control or bidi character (repr escapes them), never a 5,000-digit number."""
    if isinstance(value, str):
        return repr(value[:width]) + ("…" if len(value) > width else "")
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        if -10**width < value < 10**width:
            return repr(value)
        return f"{'-' if value < 0 else ''}≈1e{int(math.log10(abs(value)))}"  # log10 takes any int
    if isinstance(value, list):
        return "[…]"
    if isinstance(value, Mapping):
        return "{…}"
    return type(value).__name__


class Shown:
    """A value in a message template (``{got!r}``): its repr is :func:`short_repr`."""

    def __init__(self, value: Any):
        self.value = value

    def __repr__(self) -> str:
        return short_repr(self.value)

    def __str__(self) -> str:
        return short_repr(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shown) and short_repr(other.value) == short_repr(self.value)

    def __hash__(self) -> int:
        return hash(short_repr(self.value))


def _key_path(path: str, key: Any) -> str:
    """The path of a key in an object; a key that is not a plain name is shown escaped and shortened."""
    if isinstance(key, str) and 0 < len(key) <= 40 and all(c.isascii() and (c.isalnum() or c in "_-") for c in key):
        return f"{path}.{key}" if path else key
    return f"{path}[{short_repr(key)}]"


class Checked:
    """A build file's problems in the order a user reads them. Whether a value has its key's type, bounds and
    choices, and which keys an object may have, is the schema's verdict (core/schema_build.py, the one
    declaration of the file); each method words the verdict on one field as the build file words it, where
    the reading of the file reaches that field, and the rules between keys add theirs with :meth:`err`."""

    def __init__(self) -> None:
        self.errors: list[FieldError] = []
        self._at: dict[str, list[Problem]] = {}
        self._unknown: set[tuple[str, str]] = set()

    def check(self, schema: Schema[Any], value: Any, prefix: str) -> None:
        """Validate ``value`` (found at ``prefix``) with ``schema``: its verdicts wait for the reading below."""
        try:
            schema.validate(value)
        except SchemaError as exc:
            for p in exc.problems:
                if p.kind == "unknown":
                    self._unknown.add((path_of(p.loc[:-1], prefix), str(p.loc[-1])))
                elif p.kind != "missing":  # a missing key: the reading says so where it needs it
                    self._at.setdefault(path_of(p.loc, prefix), []).append(p)

    def drop(self, path: str) -> None:
        """Forget the verdicts on a value read on its own (a workload's model: an id, or an object checked
        with its own schema)."""
        self._at = {k: v for k, v in self._at.items() if not (k == path or k.startswith((path + ".", path + "[")))}
        self._unknown = {u for u in self._unknown if not (u[0] == path or u[0].startswith(path + "."))}

    def _verdict(self, path: str) -> Problem | None:
        found = self._at.pop(path, None)
        return found[0] if found else None

    def err(self, path: str, template: str, **params: Any) -> None:
        self.errors.append(FieldError(path, message(template, **params)))

    def obj(self, value: Any, path: str, keys: tuple[str, ...]) -> Mapping[str, Any] | None:
        """An object: each key the declaration does not have (``keys``) named, in the file's order."""
        self._verdict(path)
        if not isinstance(value, Mapping):
            self.err(path, _OBJECT)
            return None
        for key in value:
            if (path, key) in self._unknown or not isinstance(key, str):
                self.err(_key_path(path, key), _UNKNOWN_KEY, allowed=", ".join(keys))
        return value

    def positive_int(self, value: Any, path: str, bounded: bool = True) -> int | None:
        """A whole number from 1 to its declared bound (``bounded`` False: the caller bounds it instead)."""
        problem = self._verdict(path)
        if problem is not None and problem.kind == "bound":
            if not bounded:
                return typing.cast(int, value)
            self.err(path, _AT_MOST, high=problem.expected)
            return None
        if problem is not None or value is None:
            self.err(path, _POSITIVE_INT)
            return None
        return typing.cast(int, value)

    def number(self, value: Any, path: str, positive: bool = False, over: str = _AT_MOST) -> float | None:
        """A finite number, zero or more (``positive``: above zero), up to its declared bound (``over``: the
        words for a number above it)."""
        problem = self._verdict(path)
        # 10**309: too large for a float, so a type problem; infinity is above a bound with its own words (hours)
        if problem is not None and (problem.kind == "bound" or (type(value) is int and value > 0) or (
                over is not _AT_MOST and value == math.inf)):
            bound = problem.expected if problem.kind == "bound" else (
                bounds_of(problem.owner).get(problem.field) if problem.owner is not None else None)
            self.err(path, over, high=bound)
            return None
        if problem is not None or value is None:
            self.err(path, _POSITIVE_NUMBER if positive else _NONNEG_NUMBER)
            return None
        return float(value)

    def boolean(self, value: Any, path: str) -> bool | None:
        if self._verdict(path) is not None or value is None:
            self.err(path, _BOOL)
            return None
        return typing.cast(bool, value)

    def choice(self, value: Any, path: str, choices: tuple[str, ...]) -> str | None:
        """One of the declared choices; ``choices``: those this workload may take (a training run's runtimes
        are fewer than the declaration's)."""
        if self._verdict(path) is not None or value is None or value not in choices:
            self.err(path, _CHOICE, choices=", ".join(choices), got=Shown(value))
            return None
        return typing.cast(str, value)

    def text(self, value: Any, path: str) -> str | None:
        """Text up to its declared length that prints as itself (see :func:`refused_character`)."""
        problem = self._verdict(path)
        if not isinstance(value, str):
            self.err(path, _TEXT)
            return None
        if problem is not None and problem.kind == "bound":
            self.err(path, _TOO_LONG, high=problem.expected, n=len(value))
            return None
        bad = refused_character(value)  # a lone surrogate the schema refuses as text is named here
        if bad is not None:
            self.err(path, _BAD_CHAR, char=f"U+{ord(bad[1]):04X}", pos=bad[0] + 1)
            return None
        if problem is not None:
            self.err(path, _TEXT)
            return None
        return value
