"""The docs site's generated reference pages: every command of the CLI and every key of the ruleset files.

The site's build (docs/hooks.py, `hooks:` in mkdocs.yml) writes `reference/cli.md` from the Typer app's command
tree and `reference/ruleset-keys.md` from runner/rules/ruleset.schema.json each time it runs, so neither page can
fall behind the code; tests/test_docs_site.py checks that each names every command, option and key.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Iterator

import typer.main

from runner.cli.app import app

CLI_INTRO = """# CLI reference

Generated from the command line's own definitions (runner/cli/) each time the site is built: every command
of `maumau`, its usage, what it does and each option with its default. `maumau COMMAND --help` prints the
same. What the commands are for, with examples: [Commands and common options](commands.md).
"""

KEYS_INTRO = """# Ruleset keys

Generated from the JSON Schema of ruleset files (runner/rules/ruleset.schema.json, also printed by
`maumau rulesets schema`) each time the site is built: every key with its type, its default and what it
means. A key of a mapping is written dotted (`match.limit`), as `--set` takes it; `powers.SELECTOR.KEY`
is a key of one card's power. How the keys combine, and the tables of what each is for:
[Rulesets](rulesets.md); a house rule written with each key: [the cookbook](../house-rules.md).
"""


def commands() -> Iterator[tuple[str, Any, Any]]:
    """Each command of the `maumau` tree, depth first in its own order: (full name, command, click context)."""
    root = typer.main.get_command(app)
    context_type = type(root.make_context("maumau", [], resilient_parsing=True))

    def walk(command, name: str, parent) -> Iterator[tuple[str, Any, Any]]:
        context = context_type(command, info_name=name.rsplit(" ", 1)[-1], parent=parent)
        yield name, command, context
        for sub_name, sub in getattr(command, "commands", {}).items():
            if not sub.hidden:
                yield from walk(sub, f"{name} {sub_name}", context)

    yield from walk(root, "maumau", None)


def cli_markdown() -> str:
    """The CLI reference page: per command its usage, its help and its options."""
    out = [CLI_INTRO]
    for name, command, context in commands():
        out.append(f"\n## `{name}`\n\n```\n{command.get_usage(context)}\n```\n")
        if command.help:
            out.append(f"\n{command.help.strip()}\n")
        params = [param for param in command.params if not getattr(param, "hidden", False)]
        arguments = [param for param in params if param.param_type_name == "argument"]
        options = [param for param in params if param.param_type_name != "argument"]
        for heading, group in (("Arguments", arguments), ("Options", options)):
            records = [record for param in group if (record := param.get_help_record(context)) is not None]
            if records:
                out.append(f"\n{heading}:\n\n")
                out.extend(f"- `{opts}`{': ' + help_text if help_text else ''}\n" for opts, help_text in records)
    return "".join(out)


def schema() -> dict:
    """The JSON Schema of ruleset files, as shipped with the package."""
    return json.loads(resources.files("runner.rules").joinpath("ruleset.schema.json").read_text())


def _resolve(node: dict, defs: dict) -> dict:
    """`node` with a `$ref` (or an `allOf` of one) followed, its own keys (a default, say) kept over the target's."""
    while True:
        if "$ref" in node:
            target = defs[node["$ref"].rsplit("/", 1)[1]]
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        elif len(node.get("allOf", ())) == 1:
            node = {**node["allOf"][0], **{k: v for k, v in node.items() if k != "allOf"}}
        else:
            return node


def _type(node: dict, defs: dict) -> str:
    """A key's type in words: `integer`, `"a" | "b"`, `list of string`, `mapping of integer`, ..."""
    node = _resolve(node, defs)
    if "enum" in node:
        return " | ".join(json.dumps(value) for value in node["enum"])
    if "const" in node:
        return json.dumps(node["const"])
    if "anyOf" in node:
        return " | ".join(_type(option, defs) for option in node["anyOf"])
    kind = node.get("type", "any")
    if kind == "array":
        return f"list of {_type(node.get('items', {}), defs)}"
    if kind == "object" and "properties" not in node and isinstance(node.get("additionalProperties"), dict):
        return f"mapping of {_type(node['additionalProperties'], defs)}"
    if kind == "object" and "title" in node and "properties" in node:
        return f"mapping ({node['title']})"
    return " | ".join(kind) if isinstance(kind, list) else kind


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def key_rows(node: dict, defs: dict, prefix: str, inherited: Any = None) -> Iterator[tuple[str, str, str, str]]:
    """(dotted key, type, default, description) for each leaf key under `node`, nested mappings walked into."""
    for name, sub in node.get("properties", {}).items():
        key = f"{prefix}{name}"
        resolved = _resolve(sub, defs)
        default = resolved["default"] if "default" in resolved else (inherited or {}).get(name, _MISSING)
        if default is _MISSING and name in node.get("required", ()):
            default = _REQUIRED
        if "properties" in resolved:  # a mapping of fixed keys (deal, match, announcements.mau, ...)
            yield from key_rows(resolved, defs, key + ".", default if isinstance(default, dict) else None)
            continue
        value = resolved.get("additionalProperties")
        if isinstance(value, dict) and "properties" in _resolve(value, defs):  # powers: a Power per selector
            yield key, _type(sub, defs), _default(default), resolved.get("description", "")
            yield from key_rows(_resolve(value, defs), defs, key + ".SELECTOR.")
            continue
        yield key, _type(sub, defs), _default(default), resolved.get("description", "")


_MISSING, _REQUIRED = object(), object()


def _default(value: Any) -> str:
    """A default as JSON; none (an optional key without one) or required, in words."""
    if value is _REQUIRED:
        return "(required)"
    return "(none)" if value is _MISSING else f"`{json.dumps(value)}`"


def keys_markdown() -> str:
    """The ruleset-key page: a table per top-level key (its mapping's keys as rows)."""
    document = schema()
    defs = document.get("$defs", {})
    out = [KEYS_INTRO]
    for name, sub in document["properties"].items():
        resolved = _resolve(sub, defs)
        out.append(f"\n## `{name}`\n\n")
        if resolved.get("description") and "properties" in resolved:
            out.append(f"{_cell(resolved['description'])}\n\n")
        out.append("| key | type | default | description |\n| --- | --- | --- | --- |\n")
        top = {"properties": {name: sub}, "required": document.get("required", [])}
        for key, kind, default, description in key_rows(top, defs, ""):
            out.append(f"| `{key}` | {_cell(kind)} | {_cell(default)} | {_cell(description)} |\n")
    return "".join(out)
