"""Warnings from our own package are errors in the tests (pyproject's filterwarnings); others are not."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import pytest


def _warner(module: str, category: type[Warning]) -> Callable[[], None]:
    """A function defined in ``module``, as code of that module would be: warnings are attributed to the
    module whose frame calls ``warnings.warn`` (its globals' ``__name__``)."""
    namespace: dict[str, object] = {"__name__": module, "warnings": warnings, "category": category}
    exec("def warn():\n    warnings.warn('probe', category)\n", namespace)
    return namespace["warn"]  # type: ignore[return-value]


@pytest.mark.parametrize("category", [UserWarning, DeprecationWarning, RuntimeWarning])
@pytest.mark.parametrize("module", ["configurator", "configurator.core.engine", "configurator.ui.main_window"])
def test_a_warning_raised_in_configurator_code_is_an_error(module: str, category: type[Warning]) -> None:
    with pytest.raises(category, match="probe"):
        _warner(module, category)()


@pytest.mark.parametrize("module", ["numpy.somewhere", "configurator_plugin"])
def test_a_warning_from_elsewhere_stays_a_warning(module: str) -> None:
    with warnings.catch_warnings(record=True) as caught:  # keeps the filters (pytest.warns would not)
        _warner(module, UserWarning)()
    assert [str(w.message) for w in caught] == ["probe"]
