"""Cloud GPU rental prices (BUD-3): the shipped, dated and sourced table (db/cloud_prices.toml) and
the user's overrides on top of it. Pure: the store keeps the overrides and hands them over."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.paths import DB_DIR

CLOUD_PRICES_FILE = DB_DIR / "cloud_prices.toml"
MAX_CNY_PER_GPU_HOUR = 10_000.0  # far above any rental (an 8-GPU H100 server is about ¥400/h)
# Below a fen per GPU and hour is no price (prices are shown to the fen); 1e-320, a subnormal, was stored.
MIN_CNY_PER_GPU_HOUR = 0.01
# The table's USD rows are converted at its ``usd_cny``: a rate outside this is a typo, not an exchange rate.
USD_CNY_RANGE = (1.0, 100.0)


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
    gpus_per_instance: int = 1  # the price is the instance's hourly price ÷ this
    region: str = ""  # "" where the provider has one price
    billing: str = ""  # one of BILLING, "" where the table does not say


# How a price is billed, as people read it ("cloud").
BILLING: dict[str, str] = {
    "on_demand": QT_TRANSLATE_NOOP("cloud", "on demand"),
    "spot": QT_TRANSLATE_NOOP("cloud", "spot"),
    "reserved": QT_TRANSLATE_NOOP("cloud", "reserved"),
}
_PER_CARD = QT_TRANSLATE_NOOP("cloud", "per card")
_PER_SHARE = QT_TRANSLATE_NOOP("cloud", "the instance's price ÷ {n}")
_AND = QT_TRANSLATE_NOOP("cloud", "{label}, {more}")


def price_label(p: CloudPrice) -> Message:
    """What a price is for, built from its fields in the reader's language: "AutoDL RTX 3090 24 GB, per card,
    on demand", "AWS p4d.24xlarge (8x A100 40 GB SXM), the instance's price ÷ 8, us-east-1, on demand" (the
    provider, instance and region as the provider names them)."""
    label = Message("cloud", "{provider} {instance}", {"provider": p.provider, "instance": p.instance})
    more: list[Message | str] = [Message("cloud", _PER_CARD) if p.gpus_per_instance == 1 else
                                 Message("cloud", _PER_SHARE, {"n": p.gpus_per_instance})]
    if p.region:
        more.append(p.region)
    if p.billing:
        more.append(Message("cloud", BILLING[p.billing]))
    for item in more:
        label = Message("cloud", _AND, {"label": label, "more": item})
    return label


class CloudPriceError(ValueError):
    """A price or a price table the app refuses; ``message`` is one line for the user (translatable)."""

    def __init__(self, message: Message | str):
        self.message = message if isinstance(message, Message) else Message("cloud", message, {})
        super().__init__(self.message.render())


_MSG_PRICE = QT_TRANSLATE_NOOP("cloud", "must be a number from {low} to {high:,.0f}, not {got}")


def _number(value: Any, low: float, high: float) -> float | None:
    """``value`` as a float when it is a finite number (not a bool) in [low, high], else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    f = float(value)
    return f if math.isfinite(f) and low <= f <= high else None


def _shown(value: Any) -> str:
    return repr(value)[:40]


def load_cloud_prices(path: Path | None = None) -> list[CloudPrice]:
    """The price table (the shipped db/cloud_prices.toml, which a user may edit). Anything the app cannot use
    (TOML that does not parse, a missing or mistyped field, a price that is no price: 0, 1e-320, 1e9, NaN)
    raises :class:`CloudPriceError` with one line naming the file, the row and the field."""
    def bad(where: str, problem: Message) -> CloudPriceError:
        return CloudPriceError(Message("cloud", QT_TRANSLATE_NOOP("cloud", "{file} {where}: {problem}"),
                                       {"file": str(path), "where": where, "problem": problem}))

    path = CLOUD_PRICES_FILE if path is None else path
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CloudPriceError(Message("cloud", QT_TRANSLATE_NOOP("cloud", "{file} cannot be read: {error}"),
                                      {"file": str(path), "error": str(exc).splitlines()[0] if str(exc) else
                                       type(exc).__name__})) from None
    raw_rate = data.get("usd_cny", 7.2)
    rate = _number(raw_rate, *USD_CNY_RANGE)
    if rate is None:
        raise bad("usd_cny", Message("cloud", QT_TRANSLATE_NOOP(
            "cloud", "must be a number of CNY per USD from {low:g} to {high:g}, not {got}"),
            {"low": USD_CNY_RANGE[0], "high": USD_CNY_RANGE[1], "got": _shown(raw_rate)}))
    rows = data.get("price", [])
    if not isinstance(rows, list):
        raise bad("price", Message("cloud", QT_TRANSLATE_NOOP("cloud", "must be a list of [[price]] tables")))
    out: list[CloudPrice] = []
    for i, row in enumerate(rows):
        where = f"price[{i}]"
        if not isinstance(row, dict):
            raise bad(where, Message("cloud", QT_TRANSLATE_NOOP("cloud", "must be a [[price]] table")))
        for key in ("gpu_class", "provider", "instance", "date", "source"):
            if not isinstance(row.get(key), str) or not row[key].strip():
                raise bad(f"{where}.{key}", Message("cloud", QT_TRANSLATE_NOOP("cloud", "must be a non-empty text")))
        gpus = row.get("gpus")
        if not isinstance(gpus, list) or not all(isinstance(g, str) and g for g in gpus):
            raise bad(f"{where}.gpus", Message("cloud", QT_TRANSLATE_NOOP("cloud", "must be a list of GPU ids")))
        key = "cny_per_gpu_hour" if "cny_per_gpu_hour" in row else "usd_per_gpu_hour"
        given = row.get(key)
        scale = 1.0 if key == "cny_per_gpu_hour" else rate
        cny = _number(given, 0.0, math.inf)
        cny = None if cny is None else _number(round(cny * scale, 2), MIN_CNY_PER_GPU_HOUR, MAX_CNY_PER_GPU_HOUR)
        if cny is None:
            raise bad(f"{where}.{key}", Message("cloud", _MSG_PRICE, {
                "low": MIN_CNY_PER_GPU_HOUR if scale == 1.0 else f"{MIN_CNY_PER_GPU_HOUR / scale:.4f}",
                "high": MAX_CNY_PER_GPU_HOUR / scale, "got": _shown(given)}))
        per = row.get("gpus_per_instance", 1)
        if isinstance(per, bool) or not isinstance(per, int) or not 1 <= per <= 64:
            raise bad(f"{where}.gpus_per_instance", Message("cloud", QT_TRANSLATE_NOOP(
                "cloud", "must be a whole number of GPUs from 1 to 64, not {got}"), {"got": _shown(per)}))
        region = row.get("region", "")
        if not isinstance(region, str):
            raise bad(f"{where}.region", Message("cloud", QT_TRANSLATE_NOOP("cloud", "must be a text")))
        billing = row.get("billing", "")
        if billing != "" and billing not in BILLING:
            raise bad(f"{where}.billing", Message("cloud", QT_TRANSLATE_NOOP(
                "cloud", "must be one of {choices}, not {got}"),
                {"choices": ", ".join(BILLING), "got": _shown(billing)}))
        out.append(CloudPrice(row["gpu_class"], tuple(gpus), row["provider"], row["instance"], cny, row["date"],
                              row["source"], gpus_per_instance=per, region=region.strip(), billing=billing))
    return out


def check_override(value: Any) -> float:
    """A user's price per GPU and hour: a finite number from MIN_CNY_PER_GPU_HOUR to MAX_CNY_PER_GPU_HOUR
    (1e-320 is a number above 0, and no price)."""
    price = _number(value, MIN_CNY_PER_GPU_HOUR, MAX_CNY_PER_GPU_HOUR)
    if price is None:
        raise CloudPriceError(Message("cloud", _MSG_PRICE, {
            "low": MIN_CNY_PER_GPU_HOUR, "high": MAX_CNY_PER_GPU_HOUR, "got": _shown(value)}))
    return price


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
