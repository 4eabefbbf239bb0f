"""Errors a user sees: each names where, what was expected, and the fix."""

from __future__ import annotations


class MaumauError(Exception):
    """A problem with the user's input; the CLI prints it as one `Error: ...` line."""


class RulesetError(MaumauError):
    """A ruleset that cannot be used: names the file, the key path, the problem and a hint."""

    def __init__(self, source: str, key: str | None, problem: str, hint: str = ""):
        self.source, self.key, self.problem, self.hint = source, key, problem, hint
        where = f"{source}: {key}" if key else source
        text = f"{where}: {problem}"
        if hint:
            text += f" (hint: {hint})"
        super().__init__(text)


class PluginError(MaumauError):
    """A plugin that registered something wrong, or twice."""


class UnknownName(MaumauError):
    """A bot or ruleset name that is not registered."""
