"""How a figure is written for people: a number, a value with its interval, a change with its interval."""

from __future__ import annotations

from .figures import Compared


def number(value: float | None) -> str:
    if value is None:
        return ""
    if abs(value) >= 100:
        return f"{value:.0f}"
    return f"{value:.3g}" if abs(value) < 1 else f"{value:.2f}".rstrip("0").rstrip(".")


def shown(value: float, low: float, high: float) -> str:
    return f"{number(value)} [{number(low)}, {number(high)}]"


def change(compared: Compared) -> str:
    """`+23% [18%, 28%] *`: the relative change where it has one, else the difference; `*` where it excludes 0."""
    d = compared.difference
    mark = " *" if d.significant else ""
    if d.relative is not None and d.relative_low is not None:
        return f"{d.relative * 100:+.0f}% [{d.relative_low * 100:+.0f}%, {d.relative_high * 100:+.0f}%]{mark}"
    return f"{d.value:+.3g} [{d.low:+.3g}, {d.high:+.3g}]{mark}"


def quantile_change(compared: Compared | None, i: int) -> str:
    """The `i`-th quantile's change against the first column, `+2 [+1, +3] *`, or '' where it has none."""
    spans = compared.quantile_differences if compared is not None else None
    if not spans:
        return ""
    value, low, high = spans[i]
    mark = " *" if low > 0 or high < 0 else ""
    return f"{value:+.3g} [{low:+.3g}, {high:+.3g}]{mark}"
