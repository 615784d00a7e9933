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


def _rtx3090(prices):  # type: ignore[no-untyped-def]
    return next(p for p in prices if p.gpu_class == "rtx-3090")


def test_override_survives_reopening_and_a_catalogue_sync(store: Store, db_path: Path) -> None:
    shipped = _rtx3090(load_cloud_prices())
    set_price(store, "rtx-3090", 2.75)
    store.close()
    again = open_store(db_path)
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
    assert exc.value.code == 2 and "at most" in capsys.readouterr().err
