"""Suggest's candidates from the store: one record per distinct specification (the cheapest, or the
few cheapest GPUs), so a shop's many listings of one product are not all read; the pick is the same."""

from __future__ import annotations

from configurator.core.build import Workload
from configurator.core.suggest import prune, suggest
from configurator.store.database import Store
from configurator.store.repository import PartsRepository, Unreadable

COPIED = ("category, specs, price_date, source, user_edited, custom, catalogue_price_cny, catalogue_price_date, "
          "updated_at")


def _listings(store: Store, copies: int) -> None:
    """Every part listed ``copies`` more times under other names and ids: copy n costs ¥(37n − 60) more
    (copy 1 is ¥23 cheaper than the original)."""
    with store.engine.begin() as con:
        for n in range(1, copies + 1):
            con.exec_driver_sql(
                f"INSERT INTO parts (id, name, price_cny, {COPIED}) "
                f"SELECT id || '-shop{n}', name || ' #{n}', max(1, price_cny + {37 * n - 60}), {COPIED} "
                "FROM parts WHERE id NOT LIKE '%-shop%'")


def test_the_same_parts_survive_pruning_and_the_pick_is_the_same(store: Store, repo: PartsRepository) -> None:
    _listings(store, 6)
    every = {p.id: p for p in repo.list_parts()}
    candidates = {p.id: p for p in repo.cheapest_of_each_spec(4)}
    assert len(candidates) < len(every) / 3  # each GPU's 4 cheapest listings, one of everything else
    assert sorted(prune(every)) == sorted(prune(candidates))
    w = Workload(model="resnet50", task="train", precision="amp")
    assert [s.build for s in suggest(every, 20000, w)] == [s.build for s in suggest(candidates, 20000, w)]


def test_the_cheapest_listing_is_kept(store: Store, repo: PartsRepository) -> None:
    _listings(store, 2)  # copy 1 is ¥23 cheaper than the original, copy 2 ¥14 dearer
    kept = {p.id for p in repo.cheapest_of_each_spec(1)}
    assert "corsair-4000d-airflow-shop1" in kept
    assert "corsair-4000d-airflow" not in kept and "corsair-4000d-airflow-shop2" not in kept


def test_a_damaged_row_is_named_and_the_rest_are_read(store: Store, repo: PartsRepository) -> None:
    with store.engine.begin() as con:
        con.exec_driver_sql("UPDATE parts SET specs = '{broken' WHERE id = 'corsair-4000d-airflow'")
    unreadable: list[Unreadable] = []
    kept = {p.id for p in repo.cheapest_of_each_spec(4, unreadable)}
    assert [u.id for u in unreadable] == ["corsair-4000d-airflow"]
    assert "nvidia-rtx-3090" in kept and "corsair-4000d-airflow" not in kept
