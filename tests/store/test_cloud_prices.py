"""BUD-3's cloud prices: the user's price lives in the database, survives a catalogue upgrade and
reaches `configurator check`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from configurator.cli import main
from configurator.core.cloud import CloudPriceError, load_cloud_prices
from configurator.store.catalogue import sync_catalogue
from configurator.store.cloud_prices import cloud_prices, reset_price, set_price
from configurator.store.database import Store, open_store
from configurator.store.seed import seed_store


def _rtx3090(prices):  # type: ignore[no-untyped-def]
    return next(p for p in prices if p.gpu_class == "rtx-3090")


def test_override_survives_reopening_and_a_catalogue_sync(store: Store, db_path: Path) -> None:
    shipped = _rtx3090(load_cloud_prices())
    set_price(store, "rtx-3090", 2.75)
    store.close()
    again = open_store(db_path, seed=seed_store)
    try:
        sync_catalogue(again, force=True)
        mine = _rtx3090(cloud_prices(again))
        assert mine.cny_per_gpu_hour == 2.75 and mine.user_edited and mine.source == shipped.source
        assert reset_price(again, "rtx-3090") is True and reset_price(again, "rtx-3090") is False
        assert _rtx3090(cloud_prices(again)) == shipped
    finally:
        again.close()


def test_unknown_class_and_bad_price_are_refused(store: Store) -> None:
    with pytest.raises(CloudPriceError):
        set_price(store, "no-such-class", 1.0)
    with pytest.raises(CloudPriceError):
        set_price(store, "rtx-3090", 0)


def test_cli_sets_a_price_that_check_then_uses(capsys, db_path: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    build = tmp_path / "b.json"
    build.write_text(json.dumps({"format": "configurator.build/1", "parts": [{"id": "nvidia-rtx-3090", "qty": 2}]}))

    def rent() -> float:
        assert main(["--db", str(db_path), "check", str(build), "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        return next(f for f in doc["findings"] if f["rule"] == "BUD-3")["numbers"]["rent_cny_per_month"]

    before = rent()
    assert main(["--db", str(db_path), "cloud-prices", "set", "rtx-3090", str(_rtx3090(load_cloud_prices())
                                                                              .cny_per_gpu_hour * 2)]) == 0
    assert rent() == pytest.approx(before * 2, rel=0.01)
    assert main(["--db", str(db_path), "cloud-prices", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert next(p for p in listed if p["gpu_class"] == "rtx-3090")["user_edited"] is True
    with pytest.raises(SystemExit) as exc:
        main(["--db", str(db_path), "cloud-prices", "set", "rtx-3090", "nan"])
    assert exc.value.code == 2 and "from 0.01 to 10,000" in capsys.readouterr().err


# -- prices that are no price (#35) -----------------------------------------------------------------

@pytest.mark.parametrize("given", ["1e-320", "0.001", "0", "-3", "1e9", "inf", "nan"])
def test_cli_refuses_a_price_that_is_no_price_and_stores_nothing(capsys, db_path: Path, given: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as exc:
        main(["--db", str(db_path), "--lang", "en", "cloud-prices", "set", "rtx-3090", given])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("cny_per_gpu_hour: must be a number from 0.01 to 10,000") and "Traceback" not in err
    if db_path.exists():
        assert main(["--db", str(db_path), "cloud-prices", "--json"]) == 0
        assert not any(p["user_edited"] for p in json.loads(capsys.readouterr().out))


def test_a_subnormal_price_is_refused_by_the_store_too(store: Store) -> None:
    with pytest.raises(CloudPriceError):
        set_price(store, "rtx-3090", 1e-320)
    assert set_price(store, "rtx-3090", 0.01) is None and _rtx3090(cloud_prices(store)).cny_per_gpu_hour == 0.01


GOOD_ROW = """
[[price]]
gpu_class = "rtx-3090"
gpus = ["nvidia-rtx-3090"]
provider = "Example"
instance = "1x RTX 3090"
{price}
date = "2025-01"
source = "https://example.com/prices"
"""


@pytest.mark.parametrize(("text", "field"), [
    ("usd_cny = 7.2\n" + GOOD_ROW.format(price="usd_per_gpu_hour = 1e-320"), "price[0].usd_per_gpu_hour"),
    ("usd_cny = 7.2\n" + GOOD_ROW.format(price="cny_per_gpu_hour = 5e-324"), "price[0].cny_per_gpu_hour"),
    ("usd_cny = 7.2\n" + GOOD_ROW.format(price="cny_per_gpu_hour = 0"), "price[0].cny_per_gpu_hour"),
    ("usd_cny = 7.2\n" + GOOD_ROW.format(price="cny_per_gpu_hour = nan"), "price[0].cny_per_gpu_hour"),
    ("usd_cny = 7.2\n" + GOOD_ROW.format(price="usd_per_gpu_hour = inf"), "price[0].usd_per_gpu_hour"),
    ("usd_cny = 7.2\n" + GOOD_ROW.format(price="usd_per_gpu_hour = 1e300"), "price[0].usd_per_gpu_hour"),
    ("usd_cny = 7.2\n" + GOOD_ROW.format(price='cny_per_gpu_hour = "3"'), "price[0].cny_per_gpu_hour"),
    ("usd_cny = 7.2\n" + GOOD_ROW.format(price="usd_per_gpu_hour = true"), "price[0].usd_per_gpu_hour"),
    ("usd_cny = 7.2\n" + GOOD_ROW.format(price=""), "price[0].usd_per_gpu_hour"),
    ("usd_cny = 1e-320\n" + GOOD_ROW.format(price="usd_per_gpu_hour = 1"), "usd_cny"),
    ("usd_cny = 0\n" + GOOD_ROW.format(price="usd_per_gpu_hour = 1"), "usd_cny"),
    ("usd_cny = 7.2\n" + GOOD_ROW.format(price="cny_per_gpu_hour = 3").replace('gpu_class = "rtx-3090"', ""),
     "price[0].gpu_class"),
    ("usd_cny = 7.2\n" + GOOD_ROW.format(price="cny_per_gpu_hour = 3").replace('["nvidia-rtx-3090"]', '"x"'),
     "price[0].gpus"),
    ("usd_cny = 7.2\nprice = 3\n", "price"),
    ("usd_cny = = 7.2\n", "cannot be read"),
])
def test_a_price_table_holding_no_price_is_one_clear_line(tmp_path: Path, text: str, field: str) -> None:
    table = tmp_path / "cloud_prices.toml"
    table.write_text(text, encoding="utf-8")
    with pytest.raises(CloudPriceError) as info:
        load_cloud_prices(table)
    line = info.value.message.render()
    assert str(table) in line and field in line and "\n" not in line, line


def test_cli_names_a_bad_price_table_in_one_line(capsys, monkeypatch, db_path: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from configurator.core import cloud

    table = tmp_path / "cloud_prices.toml"
    table.write_text("usd_cny = 7.2\n" + GOOD_ROW.format(price="usd_per_gpu_hour = 1e-320"), encoding="utf-8")
    monkeypatch.setattr(cloud, "CLOUD_PRICES_FILE", table)
    with pytest.raises(SystemExit) as exc:
        main(["--db", str(db_path), "--lang", "en", "cloud-prices"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"cloud_prices: {table} price[0].usd_per_gpu_hour: must be a number from")


def test_the_shipped_table_is_unchanged_by_the_checks() -> None:
    prices = load_cloud_prices()
    assert len(prices) >= 5 and all(0.01 <= p.cny_per_gpu_hour <= 10_000 for p in prices)
