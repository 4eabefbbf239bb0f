"""The docs site's generated reference (runner/cli/reference.py, written by docs/hooks.py at every build): the CLI
page names every command and each of its options, the ruleset-key page every key of the JSON Schema with its default,
every page of docs/ is in the site's navigation (mkdocs.yml), so that none is built but unreachable, and the
README's links into the repository (it is the front door to those pages) lead to files that exist."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from runner.cli.reference import cli_markdown, commands, key_rows, keys_markdown, schema

ROOT = Path(__file__).resolve().parent.parent


def test_the_cli_page_names_every_command_and_option():
    page = cli_markdown()
    names = [name for name, _, _ in commands()]
    assert {"maumau play", "maumau tournament", "maumau rulesets check", "maumau serve"} <= set(names)
    for name, command, _ in commands():
        section = page.split(f"\n## `{name}`\n", 1)[1].split("\n## `", 1)[0]
        assert f"Usage: {name}" in section
        for param in command.params:
            for opt in getattr(param, "opts", ()):
                if opt.startswith("-"):
                    assert re.search(rf"`[^`]*{re.escape(opt)}\b", section), (name, opt)


def test_the_ruleset_key_page_names_every_key_with_its_type_and_default():
    page = keys_markdown()
    document = schema()
    rows = list(key_rows(document, document["$defs"], ""))
    keys = {key for key, _, _, _ in rows}
    assert {"hand_size", "match.limit", "deal.next_dealer", "announcements.mau.penalty", "powers.SELECTOR.draw",
            "powers.SELECTOR.wish", "multiple.chain_max", "jump_in"} <= keys
    for key, kind, default, description in rows:
        assert f"| `{key}` |" in page
    assert "| `hand_size` | integer | `5` |" in page
    assert "| `name` | string | (required) |" in page


def test_every_page_of_the_docs_is_in_the_navigation():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text().replace("!!python", "#"))

    def pages(node) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, dict):
            return [page for value in node.values() for page in pages(value)]
        return [page for item in node for page in pages(item)]

    listed = set(pages(config["nav"]))
    written = {str(path.relative_to(ROOT / "docs")) for path in (ROOT / "docs").rglob("*.md")}
    assert written | {"reference/cli.md", "reference/ruleset-keys.md"} == listed


def test_the_readmes_links_lead_to_files_of_the_repository():
    readme = (ROOT / "README.md").read_text()
    targets = [target.split("#", 1)[0] for target in re.findall(r"\]\(([^)]+)\)", readme)
               if not target.startswith(("http://", "https://", "#"))]
    assert "docs/tutorials/getting-started.md" in targets and "docs/bots.md" in targets
    assert [target for target in targets if not (ROOT / target).exists()] == []
