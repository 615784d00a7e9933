"""The shipped parts catalogue's files (db/catalogue/*.toml), read into part records.

Pure: no database. The store seeds the database from it; the throughput fit reads the
vendor specs of the measured GPUs from it (so an estimate never depends on the user's
database or on which parts a caller passes).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from configurator.core.parts import AnyPart, PartValidationError, part_from_dict
from configurator.paths import CATALOGUE_DIR


class CatalogueError(ValueError):
    pass


def shipped_files(directory: Path = CATALOGUE_DIR) -> list[Path]:
    return sorted(directory.glob("*.toml"))


def load_catalogue(directory: Path = CATALOGUE_DIR, category: str | None = None) -> list[AnyPart]:
    """Parse and validate every shipped part (of one ``category``, from its file alone); a bad
    entry is a packaging bug and raises."""
    parts: list[AnyPart] = []
    seen: set[str] = set()
    problems: list[str] = []
    for f in shipped_files(directory) if category is None else [directory / f"{category}.toml"]:
        data = tomllib.loads(f.read_text(encoding="utf-8"))
        file_category = data.get("category")
        for i, row in enumerate(data.get("part", [])):
            try:
                part = part_from_dict(row, file_category)
            except PartValidationError as exc:
                problems.extend(f"{f.name} part[{i}]: {e.render()}" for e in exc.errors)
                continue
            if part.id in seen:
                problems.append(f"{f.name}: duplicate id {part.id}")
            seen.add(part.id)
            parts.append(part)
    if problems:
        raise CatalogueError("\n".join(problems))
    return parts
