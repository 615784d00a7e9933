"""Validate catalogue TOML files: python db/catalogue/check.py [FILE ...].

Besides each part's own validation: every name in a part's ``unverified`` list must be one of its
category's spec fields (not id, category or a store field), listed once; and a part whose notes still call
a figure recalled or unverified must list the figure in ``unverified``.
"""

import re
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from configurator.core.parts import PART_TYPES, STORE_FIELDS, PartValidationError, part_from_dict, spec_field_names

NOT_FIGURES = {"id", "category", "unverified", *STORE_FIELDS}
# Words in notes that say a figure was not read in a source.
DOUBT = re.compile(r"\b(recalled|unverified|verify)\b", re.IGNORECASE)


def unverified_errors(row: dict, category: str) -> list[str]:
    """What is wrong with a catalogue row's ``unverified`` list (its type is checked by part_from_dict)."""
    names = row.get("unverified", [])
    if not isinstance(names, list) or category not in PART_TYPES:
        return []
    fields = set(spec_field_names(category)) - NOT_FIGURES
    errors = [f"unverified[{i}]: {n!r} is not a field of a {category}"
              for i, n in enumerate(names) if isinstance(n, str) and n not in fields]
    errors += [f"unverified: {n!r} listed twice" for n in sorted({n for n in names if names.count(n) > 1})]
    notes = row.get("notes") or ""
    if not names and isinstance(notes, str) and (m := DOUBT.search(notes)):
        errors.append(f"notes say {m.group(0)!r}: list the figures in unverified, or cite the source")
    return errors


def check_file(f: Path) -> int:
    data = tomllib.loads(f.read_text(encoding="utf-8"))
    cat = data.get("category")
    ids = set()
    bad = 0
    for i, row in enumerate(data.get("part", [])):
        problems = unverified_errors(row, cat)
        try:
            p = part_from_dict(row, cat)
        except PartValidationError as e:
            problems = [err.render() for err in e.errors] + problems
        else:
            if p.id in ids:
                problems.append(f"duplicate id {p.id}")
            ids.add(p.id)
        for problem in problems:
            print(f"{f.name} part[{i}] {row.get('id')}: {problem}")
        bad += bool(problems)
    print(f"{f.name}: {len(ids)} valid parts ({cat})")
    return bad


if __name__ == "__main__":
    files = [Path(a) for a in sys.argv[1:]] or sorted(Path(__file__).parent.glob("*.toml"))
    sys.exit(1 if sum(check_file(f) for f in files) else 0)
