"""Errors a user sees: each names where, what was expected, and the fix."""

from __future__ import annotations


class MaumauError(Exception):
    """A problem with the user's input; the CLI prints it as one `Error: ...` line."""

    def lines(self) -> list[str]:
        """What the CLI prints, one `Error: ...` line each."""
        return [str(self)]


class RulesetError(MaumauError):
    """A ruleset that cannot be used: names the file, the key path, the problem and a hint."""

    def __init__(self, source: str, key: str | None, problem: str, hint: str = ""):
        self.source, self.key, self.problem, self.hint = source, key, problem, hint
        where = f"{source}: {key}" if key else source
        text = f"{where}: {problem}"
        if hint:
            text += f" (hint: {hint})"
        super().__init__(text)


class RulesetErrors(RulesetError):
    """Every problem found in a ruleset at once (a RulesetError about the first, for callers that want one)."""

    def __init__(self, errors: list[RulesetError]):
        first = errors[0]
        super().__init__(first.source, first.key, first.problem, first.hint)
        self.errors = list(errors)
        self.args = ("\n".join(str(error) for error in errors),)

    def lines(self) -> list[str]:
        return [str(error) for error in self.errors]


def combined(errors: list[RulesetError]) -> RulesetError:
    """One error for `errors`: itself if there is only one."""
    return errors[0] if len(errors) == 1 else RulesetErrors(errors)


class PluginError(MaumauError):
    """A plugin that registered something wrong, or twice."""


class UnknownName(MaumauError):
    """A bot or ruleset name that is not registered."""


class InvalidSetting(MaumauError):
    """A setting given a value it cannot take: `text` names each setting as {0}, {1}, ... in `settings`.

    Raised by the layers below the CLI with the settings' own names (`deals`, `move_time`); the
    CLI shows its option names instead (`--deals`, `--move-time`) through `named`.
    """

    def __init__(self, text: str, *settings: str):
        self.text, self.settings = text, settings
        super().__init__(self.named(settings))

    def named(self, names) -> str:
        """The message with the settings called `names` (one per setting, in order)."""
        message = self.text
        for index, name in enumerate(names):
            message = message.replace(f"{{{index}}}", name)
        return message


def exception_text(exc: BaseException) -> str:
    """`Type: message` of an exception raised by a bot or plugin, at most 300 characters (its own __str__ may fail)."""
    name = type(exc).__name__
    try:
        message = str(exc)
    except Exception:  # an exception whose own __str__ fails
        message = ""
    return (f"{name}: {message}" if message else name)[:300]


class UserInterrupt(KeyboardInterrupt):
    """The person at the terminal stopped the run from inside it (the human seat typed q): let through like Ctrl-C."""


class _Interrupt:
    by_user = False  # set by the CLI's SIGINT handler (runner/cli/app.py) in the process the terminal signals
    reported = False  # the run said what the interruption left and how to go on: the CLI adds nothing


def note_user_interrupt() -> None:
    """Record that the person at the terminal pressed Ctrl-C (called by the CLI's SIGINT handler)."""
    _Interrupt.by_user = True


def note_interrupt_reported() -> None:
    """Record that the interrupted run has told the user how to continue (runner/tournament/driver.py)."""
    _Interrupt.reported = True


def interrupt_reported() -> bool:
    """Whether the interrupted run said how to continue; asked once a run, so it is forgotten here."""
    reported, _Interrupt.reported = _Interrupt.reported, False
    return reported


def raised_by_user(exc: BaseException) -> bool:
    """True for the KeyboardInterrupt of the user's Ctrl-C; False for one a bot or plugin raised itself (its fault).

    Only a process whose SIGINT handler ran has seen a Ctrl-C: a pool worker ignores SIGINT, so
    every KeyboardInterrupt there comes from code it runs.
    """
    return isinstance(exc, UserInterrupt) or (isinstance(exc, KeyboardInterrupt) and _Interrupt.by_user)


def install_hint(extra: str) -> str:
    """The command that installs maumau's optional `extra`. maumau is not published on PyPI, so not
    `pip install 'maumau[web]'`: from the clone this runner runs from (an editable install), else its packages."""
    import re
    import shlex
    from importlib import metadata
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    if (root / "pyproject.toml").is_file() and (root / "runner").is_dir():
        return f"pip install -e {shlex.quote(f'{root}[{extra}]')}"
    try:
        requires = metadata.requires("maumau") or []
    except metadata.PackageNotFoundError:
        requires = []
    wanted = [r.split(";")[0].strip() for r in requires if re.search(rf"""extra\s*==\s*["']{extra}["']""", r)]
    return "pip install " + " ".join(shlex.quote(r) for r in wanted) if wanted else f"pip install -e '.[{extra}]'"

