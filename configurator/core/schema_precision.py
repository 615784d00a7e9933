"""A quantity's display precision: how ``--json`` rounds it (configurator/cli/rounding.py). A record's field
declares it as ``Annotated`` metadata (core/schema.py's :func:`~configurator.core.schema.record` registers
it in :data:`DECLARED` by the field's name); the command line's rounding looks a key up there first.

Kept free of the schema library so that the command line's JSON output can use it without importing it."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Precision:
    """How a quantity is rounded for display: to ``decimals`` places, but keeping at least ``significant``
    significant figures (0.0193 TFLOPS stays 0.0193); ``integer``: to a whole number (an int)."""

    decimals: int = 0
    significant: int = 0
    integer: bool = False
    # |x| at or above it has the significant figures with ``decimals`` places alone (no log10 needed)
    _enough: float = dataclasses.field(init=False, repr=False, compare=False, default=0.0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_enough", 10.0 ** (self.significant - 1 - self.decimals) if self.significant else 0.0)

    def __call__(self, x: float) -> float | int:
        if self.integer:
            # NaN and infinity stay as they are: json.dumps(allow_nan=False) refuses them, a bug where
            # they were computed
            return round(x) if math.isfinite(x) else x
        if x >= self._enough or -x >= self._enough or x != x or x == 0:
            return round(x, self.decimals)  # round() keeps NaN and infinity
        places = max(self.decimals, self.significant - 1 - math.floor(math.log10(abs(x))))
        return round(x, places)


# The display precisions of the quantities (the records' fields declare theirs; cli/rounding.py uses the same
# for the documents nothing declares: the monitor's samples, the benchmarks' rows, the estimates).
WATTS = Precision(decimals=1)
SIZES = Precision(decimals=2)  # VRAM, RAM (GiB) and storage (decimal GB) sizes
CNY = Precision(integer=True)  # prices and costs, in yuan
TARIFF = Precision(decimals=2)  # yuan per kWh
# img/s, tokens/s, TFLOPS, GB/s …: 2 decimals, or 3 significant figures below 1 (0.0193 TFLOPS). Two
# decimals, not one: published measurements (72.79 img/s) and spec sheets (35.58 TFLOPS) give them.
THROUGHPUT = Precision(decimals=2, significant=3)
FRACTION = Precision(decimals=4)  # 0–1 shares, efficiencies, relative errors
COUNT = Precision(integer=True)  # parameters, samples, IOPS
MHZ = Precision(integer=True)  # clocks, memory speeds (MT/s)
GHZ = Precision(decimals=3)
MM = Precision(decimals=1)
MB = Precision(decimals=1)  # cache sizes (MB), MB/s
DECIMAL_1 = Precision(decimals=1)  # months, hours a day, slot widths

# Field name -> the precision the records declaring it give (a name two records declare differently is left
# out: its key's unit decides, as for any other key).
DECLARED: dict[str, Precision] = {}
_CONFLICTING: set[str] = set()


def declare(name: str, precision: Precision) -> None:
    if name in _CONFLICTING:
        return
    if DECLARED.setdefault(name, precision) != precision:
        del DECLARED[name]
        _CONFLICTING.add(name)
