"""Filling translated templates: the one way (core.i18n.fill) and Message.render's fallback."""

from __future__ import annotations

from configurator.core.i18n import Message, fill


def test_fill_names_each_placeholder() -> None:
    assert fill("Wrote {n} parts to {path}.", n=3, path="/tmp/a.csv") == "Wrote 3 parts to /tmp/a.csv."


def test_a_value_with_braces_is_not_filled_again() -> None:
    # str.replace chains filled "{path}" inside an earlier value; format does not
    assert fill("{name}: {path}", name="{path}", path="x") == "{path}: x"


def test_a_broken_template_is_shown_not_raised() -> None:
    assert fill("missing {other}", n=1) == "missing {other}"
    assert fill("unbalanced {", n=1) == "unbalanced {"


def test_message_falls_back_to_english_when_the_translation_is_broken() -> None:
    msg = Message("ctx", "{n} GPUs", {"n": 2})
    assert msg.render(lambda _c, _t: "{m} 张 GPU") == "2 GPUs"
    assert msg.render(lambda _c, _t: "{n} 张 GPU") == "2 张 GPU"
    assert Message("ctx", "{n} GPUs and {x}", {"n": 2}).render() == "{n} GPUs and {x}"
