"""The JSON Schema of ruleset files, generated from the model (shipped as runner/rules/ruleset.schema.json)."""

from __future__ import annotations

import json
from pathlib import Path

from runner.game.ruleset import Ruleset

SHIPPED = Path(__file__).with_name("ruleset.schema.json")


def json_schema() -> dict:
    """The JSON Schema editors use for ruleset files, generated from the model."""
    schema = Ruleset.model_json_schema()
    schema["properties"]["extends"] = {
        "type": "string",
        "description": "Name or relative path of the ruleset this file changes; its keys are merged over it.",
    }
    schema["title"] = "maumau ruleset"
    return schema


def schema_text() -> str:
    return json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"
