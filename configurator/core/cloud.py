"""Cloud GPU rental prices (BUD-3): the shipped, dated and sourced table (db/cloud_prices.toml) and
the user's overrides on top of it. Pure: the store keeps the overrides and hands them over."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from configurator.paths import DB_DIR

CLOUD_PRICES_FILE = DB_DIR / "cloud_prices.toml"
MAX_CNY_PER_GPU_HOUR = 10_000.0  # far above any rental (an 8-GPU H100 server is about ¥400/h)


@dataclass(frozen=True)
class CloudPrice:
    gpu_class: str
    gpus: tuple[str, ...]  # catalogue GPU ids this price stands for
    provider: str
    instance: str
    cny_per_gpu_hour: float
    date: str
    source: str
    user_edited: bool = False


class CloudPriceError(ValueError):
    pass


def load_cloud_prices(path: Path = CLOUD_PRICES_FILE) -> list[CloudPrice]:
    """The shipped table; a bad row is a packaging bug and raises."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    rate = float(data.get("usd_cny", 7.2))
    out: list[CloudPrice] = []
    for i, row in enumerate(data.get("price", [])):
        try:
            cny = float(row["cny_per_gpu_hour"]) if "cny_per_gpu_hour" in row else float(row["usd_per_gpu_hour"]) * rate
            out.append(CloudPrice(str(row["gpu_class"]), tuple(row["gpus"]), str(row["provider"]),
                                  str(row["instance"]), round(cny, 2), str(row["date"]), str(row["source"])))
        except (KeyError, TypeError, ValueError) as exc:
            raise CloudPriceError(f"{path.name} price[{i}]: {exc!r}") from None
    return out


def check_override(value: Any) -> float:
    """A user's price per GPU and hour: a finite number above 0 and at most MAX_CNY_PER_GPU_HOUR."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 < value <= MAX_CNY_PER_GPU_HOUR:
        raise CloudPriceError(f"must be a number above 0 and at most {MAX_CNY_PER_GPU_HOUR:,.0f}")
    return float(value)


def with_overrides(shipped: Iterable[CloudPrice], overrides: Mapping[str, tuple[float, str]]) -> list[CloudPrice]:
    """``overrides``: gpu_class → (¥ per GPU and hour, date the user set it)."""
    out = []
    for p in shipped:
        if p.gpu_class in overrides:
            cny, date = overrides[p.gpu_class]
            p = replace(p, cny_per_gpu_hour=cny, date=date, user_edited=True)
        out.append(p)
    return out


def price_for(gpu_id: str, prices: Sequence[CloudPrice]) -> CloudPrice | None:
    return next((p for p in prices if gpu_id in p.gpus), None)
