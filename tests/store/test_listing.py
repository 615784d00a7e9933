"""`parts list` reads only the fields it shows; what it lists is what the part records say."""

from __future__ import annotations

import json

from configurator.core.parts import CATEGORIES, SUMMARY_FIELDS
from configurator.store.database import Store
from configurator.store.listing import iter_listed
from configurator.store.repository import PartsRepository, Unreadable


def test_listed_values_are_the_records_values(store: Store, repo: PartsRepository) -> None:
    for cat in CATEGORIES:
        fields = SUMMARY_FIELDS[cat]
        expected = [(p.id, p.name, p.custom, p.user_edited, p.price_cny, tuple(getattr(p, f) for f in fields))
                    for p in repo.list_parts(cat)]
        got = [(x.id, x.name, x.custom, x.user_edited, x.price_cny, x.values)
               for x in iter_listed(store, cat, fields, batch=7)]
        assert got == expected and got, cat


def test_rows_the_record_would_not_take_go_the_records_way(store: Store, repo: PartsRepository) -> None:
    """An old spelling is read as the record reads it; damaged or invalid rows are named, the rest listed."""
    with store.engine.begin() as con:
        text = con.exec_driver_sql("SELECT specs FROM parts WHERE id = 'fractal-design-define-7-xl'").scalar_one()
        specs = json.loads(text)
        specs["psu_form_factor"] = specs.pop("psu_form_factors")[0]  # an earlier version's spelling
        con.exec_driver_sql("UPDATE parts SET specs = ? WHERE id = 'fractal-design-define-7-xl'", (json.dumps(specs),))
        con.exec_driver_sql("UPDATE parts SET specs = '{broken' WHERE id = 'corsair-4000d-airflow'")
        con.exec_driver_sql("UPDATE parts SET specs = ? WHERE id = 'lian-li-o11-dynamic-evo'",
                            (json.dumps({"form_factor": "ATX"}),))
    unreadable: list[Unreadable] = []
    fields = SUMMARY_FIELDS["case"]
    listed = {x.id: x.values for x in iter_listed(store, "case", fields, unreadable)}
    assert sorted(u.id for u in unreadable) == ["corsair-4000d-airflow", "lian-li-o11-dynamic-evo"]
    part = repo.get("fractal-design-define-7-xl")
    assert part is not None and listed["fractal-design-define-7-xl"] == tuple(getattr(part, f) for f in fields)
    assert set(listed) == {p.id for p in repo.list_parts("case")}
