"""Opening the database and seeding it are two steps: ``open_store`` opens and migrates, the app's and the
command line's start hand it :func:`configurator.store.seed.seed_store` (the shipped catalogue and
measurements). So the database module imports neither the catalogue nor the measurements: the store has no
import cycle."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from sqlalchemy import func, select

from configurator.core.catalogue import load_catalogue
from configurator.store.database import open_store
from configurator.store.repository import PartsRepository
from configurator.store.seed import seed_store
from configurator.store.tables import MeasurementRow, PartRow

STORE = Path(__file__).resolve().parents[2] / "configurator" / "store"


def _counts(path: Path) -> tuple[int, int]:
    store = open_store(path)
    try:
        with store.session() as s:
            return (s.scalar(select(func.count()).select_from(PartRow)) or 0,
                    s.scalar(select(func.count()).select_from(MeasurementRow)) or 0)
    finally:
        store.close()


def test_open_store_only_opens_and_the_start_seeds(db_path: Path) -> None:
    store = open_store(db_path)  # a new database: the schema, nothing shipped in it
    assert (store.catalogue_changes, store.measurement_changes) == ({}, {})
    store.close()
    assert _counts(db_path) == (0, 0)
    store = open_store(db_path, seed=seed_store)  # as the app's and the CLI's start open it
    try:
        assert store.catalogue_changes["added"] == len(load_catalogue())
        assert store.measurement_changes["shipped"] > 0
    finally:
        store.close()
    parts, measurements = _counts(db_path)
    assert (parts, measurements > 0) == (len(load_catalogue()), True)


def test_a_price_the_user_edited_is_kept_when_the_start_seeds_again(seeded_db: Path) -> None:
    store = open_store(seeded_db, seed=seed_store)
    try:
        repo = PartsRepository(store)
        part = next(iter(load_catalogue()))
        repo.set_price(part.id, part.price_cny + 123)
    finally:
        store.close()
    again = open_store(seeded_db, seed=seed_store)
    try:
        assert again.catalogue_changes == {}  # the shipped files did not change: not even read
        assert PartsRepository(again).get(part.id).price_cny == part.price_cny + 123  # type: ignore[union-attr]
    finally:
        again.close()


def test_opening_the_database_imports_no_seeding(tmp_path: Path) -> None:
    script = ("import sys; from pathlib import Path; from configurator.store.database import open_store; "
              "open_store(Path(sys.argv[1])).close(); "
              "import json; print(json.dumps(sorted(m for m in sys.modules if m.startswith('configurator.store.'))))")
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path / "new.db")], capture_output=True, text=True,
                         check=True, cwd=STORE.parents[1]).stdout
    loaded = set(json.loads(out))
    assert "configurator.store.database" in loaded
    assert not loaded & {"configurator.store.catalogue", "configurator.store.measurements", "configurator.store.seed"}


def _runtime_imports(path: Path) -> set[str]:
    """The configurator.store modules ``path`` imports when it runs (imports inside functions included, those
    under ``if TYPE_CHECKING:`` left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree)
                   if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                   for n in ast.walk(node)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            base = node.module if not node.level else f"configurator.store.{node.module}"
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {m.rsplit(".", 1)[-1] for m in found if m.startswith("configurator.store.")
            and (STORE / f"{m.rsplit('.', 1)[-1]}.py").is_file()}


def test_the_store_has_no_import_cycle() -> None:
    graph = {p.stem: _runtime_imports(p) - {p.stem} for p in STORE.glob("*.py")}
    assert graph["database"] <= {"tables", "migrate"}, graph["database"]

    def cycle_from(start: str, here: str, seen: tuple[str, ...]) -> tuple[str, ...] | None:
        for nxt in sorted(graph.get(here, ())):
            if nxt == start:
                return (*seen, nxt)
            if nxt not in seen:
                found = cycle_from(start, nxt, (*seen, nxt))
                if found:
                    return found
        return None

    cycles = [c for m in sorted(graph) if (c := cycle_from(m, m, (m,)))]
    assert not cycles, " ; ".join(" → ".join(c) for c in cycles)
