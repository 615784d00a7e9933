"""Validate catalogue TOML files: python db/catalogue/check.py [FILE ...]."""

import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from configurator.core.parts import PartValidationError, part_from_dict

files = [Path(a) for a in sys.argv[1:]] or sorted(Path(__file__).parent.glob("*.toml"))
bad = 0
for f in files:
    data = tomllib.loads(f.read_text(encoding="utf-8"))
    cat = data.get("category")
    ids = set()
    for i, row in enumerate(data.get("part", [])):
        try:
            p = part_from_dict(row, cat)
        except PartValidationError as e:
            bad += 1
            for err in e.errors:
                print(f"{f.name} part[{i}] {row.get('id')}: {err.render()}")
            continue
        if p.id in ids:
            bad += 1
            print(f"{f.name}: duplicate id {p.id}")
        ids.add(p.id)
    print(f"{f.name}: {len(ids)} valid parts ({cat})")
sys.exit(1 if bad else 0)
