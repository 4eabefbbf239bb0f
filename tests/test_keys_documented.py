"""Every key of the ruleset model is documented: described in the JSON Schema and named in the key tables of the
reference (docs/reference/rulesets.md; the README links there)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from runner.game.powers import Power
from runner.game.ruleset import Ruleset
from runner.rules.schema import json_schema

TABLES = (Path(__file__).resolve().parent.parent / "docs" / "reference" / "rulesets.md").read_text()
SCHEMA = json_schema()


def model_keys(model: type[BaseModel], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The dotted keys of a model, nested models walked into (a power's keys under `powers`)."""
    found = []
    for name, field in model.model_fields.items():
        if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel):
            found += model_keys(field.annotation, prefix + (name,))
        else:
            found.append(prefix + (name,))
    return found


KEYS = model_keys(Ruleset) + [("powers", name) for name in Power.model_fields]


def schema_node(node: dict) -> dict:
    """`node` with a `$ref` (or an `allOf` of one, or an `anyOf` with null) resolved."""
    while True:
        if "$ref" in node:
            node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[1]]
        elif len(node.get("allOf", ())) == 1:
            node = node["allOf"][0]
        else:
            return node


def schema_property(key: tuple[str, ...]) -> tuple[dict, dict]:
    """The schema of `key` and of the object holding it."""
    parent, node = SCHEMA, SCHEMA
    for name in key:
        if name in node.get("properties", {}):
            parent, node = node, node["properties"][name]
        else:  # a power: the value schema of the selector-keyed mapping
            parent, node = node, schema_node(node["additionalProperties"])["properties"][name]
        node = node if "description" in node else {**schema_node(node), **node}
    return parent, node


@pytest.mark.parametrize("key", KEYS, ids=".".join)
def test_every_model_key_is_described_in_the_json_schema(key):
    parent, node = schema_property(key)
    described = node.get("description") or key[-1] in parent.get("description", "")
    assert described, f"{'.'.join(key)} has no description in the JSON Schema (Field(description=...))"


# The reference's key tables (docs/reference/rulesets.md): a row names a key as `parent: {leaf, ...}`, `leaf`,
# or `parent.leaf`.
ROWS = [line for line in TABLES.splitlines() if line.startswith("| `") or line.startswith("| powers")]


@pytest.mark.parametrize("key", KEYS, ids=".".join)
def test_every_model_key_is_named_in_the_reference_key_tables(key):
    top, leaf = key[0], key[-1]
    named = [row for row in ROWS if re.search(rf"\b{re.escape(top)}\b", row.split("|")[1])
             and re.search(rf"(?<!\w){re.escape(leaf)}(?!\w)", row)]
    assert named, f"docs/reference/rulesets.md: no row of the key tables names {'.'.join(key)}"
