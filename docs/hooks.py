"""The site's build hook (mkdocs.yml, `hooks:`): adds the generated reference pages, written from the code itself.

reference/cli.md comes from the Typer app's command tree and reference/ruleset-keys.md from the JSON Schema of
ruleset files (runner/cli/reference.py), made anew at every build, so neither can fall behind the code.
"""

from __future__ import annotations

from mkdocs.structure.files import File, Files

from runner.cli.reference import cli_markdown, keys_markdown

GENERATED = {"reference/cli.md": cli_markdown, "reference/ruleset-keys.md": keys_markdown}


def on_files(files: Files, config) -> Files:
    for uri, make in GENERATED.items():
        files.append(File.generated(config, uri, content=make()))
    return files
