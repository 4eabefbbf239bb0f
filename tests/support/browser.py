"""Debian's chromium, headless, driven by Playwright: for the browser tests and docs/screenshots.py.

Playwright's own browser download does not work on this machine (no internet but the package
registries): the system browser is its executable.
"""

from __future__ import annotations

import shutil
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = shutil.which("chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]


@contextmanager
def chromium():
    """A launched headless chromium (Playwright's Browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


INSTANT = "localStorage.setItem('maumau-speed', '0')"  # the others' moves shown at once: no test waits on animations
# What the table may ask of the person next, in the order a player who taps the first thing would take them.
ASKED = ("#picker:not(.hidden) button", "#hand button.playable:enabled", "#stock.playable:enabled",
         "#actions button:enabled")


def start_game(page, site: str, ruleset: str | None, players: int, level: str = "easy",
               house: Path | None = None) -> None:
    """A new game from the lobby: a registered `ruleset`, or the house-rule file `house` uploaded."""
    from playwright.sync_api import expect

    page.goto(site + "/")
    if house is not None:
        page.get_by_test_id("ruleset").select_option("__house__")
        page.get_by_test_id("house-file").set_input_files(str(house))
        expect(page.get_by_test_id("house-result")).to_contain_text("ok: ")
    else:
        page.get_by_test_id("ruleset").select_option(ruleset)
    page.get_by_test_id("level").select_option(level)
    page.get_by_test_id("players").fill(str(players))
    expect(page.get_by_test_id("players-shown")).to_have_text(str(players))
    page.get_by_test_id("new-game").click()
    page.wait_for_url("**/play/*")


def tap_first_asked(page) -> None:
    """Do the first thing the table asks (a pick, a card, the stock, a button), as a person tapping would."""
    for selector in ASKED:
        if page.locator(selector).count():
            page.locator(selector).first.click()
            return
