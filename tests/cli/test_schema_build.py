"""The build file's declaration (core/schema_build.py, what `configurator schema build` prints) against the
reader (core/build.py's parse_build), on every build file of the golden tests: a file the reader takes, the
schema takes; a file the schema refuses, the reader refuses, at the same paths."""

from __future__ import annotations

import json

import pytest
from test_cli_golden import BUILDS

from configurator.core.build import MAX_QTY, BuildError, parse_build
from configurator.core.schema import SchemaError
from configurator.core.schema_build import BUILD_SCHEMA, build_json_schema
from configurator.store.catalogue import load_catalogue


@pytest.fixture(scope="module")
def catalogue() -> dict[str, object]:
    return {p.id: p for p in load_catalogue()}


@pytest.mark.parametrize("name", sorted(BUILDS))
def test_the_schema_and_the_reader_agree(name: str, catalogue: dict[str, object]) -> None:
    doc = json.loads(json.dumps(BUILDS[name]))  # as read from the file (10**309 stays an int)
    try:
        parse_build(doc, catalogue)  # type: ignore[arg-type]
        reader: set[str] | None = None
    except BuildError as exc:
        reader = {e.path for e in exc.errors}
    try:
        BUILD_SCHEMA.validate(doc)
    except SchemaError as exc:
        schema = {p.path for p in exc.problems}
        assert reader is not None, f"the schema refuses {name} ({schema}), the reader takes it"
        assert schema <= reader, (schema, reader)


def test_the_json_schema_names_every_key_with_its_bounds() -> None:
    doc = build_json_schema()
    assert doc["$id"] == "configurator.build/1" and doc["required"] == ["format", "parts"]
    part = doc["$defs"]["PartEntry"]
    assert part["properties"]["qty"] == {"default": 1, "exclusiveMinimum": 0, "maximum": MAX_QTY, "title": "Qty",
                                         "type": "integer"}
    assert doc["additionalProperties"] is False and part["additionalProperties"] is False
    assert doc["properties"]["parts"]["maxItems"] == 136
