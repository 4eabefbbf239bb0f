"""The README's screenshots of `maumau serve`: the table mid-game and the replay viewer (docs/table.png, replay.png).

    python docs/screenshots.py            # needs the test extra (Playwright) and Debian's chromium

A live server on a free port plays a seeded game of elimination against medium bots and shows a
stored strafpunten tournament; headless chromium takes the pictures.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from runner.tournament.driver import conduct  # noqa: E402
from runner.tournament.settings import plan  # noqa: E402
from runner.web.host import Games  # noqa: E402
from runner.web.server import running  # noqa: E402
from support.browser import chromium  # noqa: E402  (tests/support/browser.py: the system chromium, headless)

SIZE = {"width": 1280, "height": 960}
MOVES_BEFORE_THE_PICTURE = 4


def table_picture(browser, site: str, out: Path) -> None:
    page = browser.new_page(viewport=SIZE)
    page.goto(site + "/")
    page.get_by_test_id("ruleset").select_option("elimination")
    page.get_by_test_id("level").select_option("medium")
    page.get_by_test_id("players").fill("4")
    page.get_by_test_id("new-game").click()
    page.wait_for_url("**/play/*")
    for _ in range(MOVES_BEFORE_THE_PICTURE):
        page.locator("[data-testid=move]:enabled").first.wait_for(timeout=60_000)
        page.locator("[data-testid=move]:enabled").first.click()
    page.locator("[data-testid=move]:enabled").first.wait_for(timeout=60_000)
    page.screenshot(path=str(out), full_page=True)
    page.close()


def replay_picture(browser, site: str, out: Path) -> None:
    page = browser.new_page(viewport=SIZE)
    page.goto(site + "/replay?t=season&m=t0-d0-r0")
    page.get_by_test_id("next").click()
    page.get_by_test_id("next-round").click()  # the second deal
    for _ in range(9):
        page.get_by_test_id("next").click()
    page.screenshot(path=str(out), full_page=True)
    page.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder)
        settings = plan("strafpunten", ["easy", "medium", "hard"], deals=1, seed=4)
        conduct(settings, results / "season", False, backend="serial", quiet=True)
        with running(results, games=Games(seeds=lambda: 17)) as site, chromium() as browser:
            table_picture(browser, site, ROOT / "docs" / "table.png")
            replay_picture(browser, site, ROOT / "docs" / "replay.png")
    print("wrote docs/table.png and docs/replay.png")


if __name__ == "__main__":
    main()
