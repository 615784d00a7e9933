"""A part row that cannot be decoded is named and skipped; the rest list fine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from configurator.store.database import Store
from configurator.store.repository import PartsRepository, Unreadable


def damage(store: Store, part_id: str, specs_text: str) -> None:
    with store.engine.begin() as con:
        con.exec_driver_sql("UPDATE parts SET specs = ? WHERE id = ?", (specs_text, part_id))


def test_a_bad_json_row_names_the_part_and_the_rest_list_fine(store: Store, repo: PartsRepository) -> None:
    before = repo.list_parts()
    with store.engine.connect() as con:
        text = con.exec_driver_sql("SELECT specs FROM parts WHERE id = 'nvidia-rtx-3090'").scalar_one()
    broken = text.replace(":", "\x01", 1)  # one byte overwritten: no longer JSON
    damage(store, "nvidia-rtx-3090", broken)
    damage(store, "amd-ryzen-9-5950x", json.dumps({"cores": "many"}))  # JSON, but fails validation
    unreadable: list[Unreadable] = []
    parts = repo.list_parts(unreadable=unreadable)
    assert sorted(u.id for u in unreadable) == ["amd-ryzen-9-5950x", "nvidia-rtx-3090"]
    assert {p.id for p in parts} == {p.id for p in before} - {"nvidia-rtx-3090", "amd-ryzen-9-5950x"}
    assert repo.get("nvidia-rtx-3090") is None and repo.get("nvidia-rtx-4090") is not None
    assert repo.damaged_ids() == ["nvidia-rtx-3090"]


def test_cli_lists_the_rest_and_names_the_unreadable(store: Store, db_path: Path) -> None:
    damage(store, "nvidia-rtx-3090", "{not json")
    store.close()
    env = {**os.environ, "CONFIGURATOR_DB": str(db_path)}
    for extra in ([], ["--json"]):
        proc = subprocess.run([sys.executable, "-m", "configurator", "--lang", "en", "parts", "list", *extra],
                              capture_output=True, text=True, env=env)
        assert proc.returncode == 0, proc.stderr
        # Named once: the damaged entry, found at open; not again as a part that could not be read.
        assert len(proc.stderr.splitlines()) == 1 and "1 damaged entries" in proc.stderr
        assert proc.stderr.count("nvidia-rtx-3090") == 1
        if extra:
            ids = {p["id"] for p in json.loads(proc.stdout)}
        else:
            ids = {line.split()[0] for line in proc.stdout.splitlines() if line[:1].isalpha() and " " in line}
        assert "nvidia-rtx-4090" in ids and "nvidia-rtx-3090" not in ids
