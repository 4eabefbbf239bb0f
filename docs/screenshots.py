"""The README's screenshots of `maumau serve` and `maumau report`: the table on a phone and on a desktop, the replay
viewer and a published report (docs/table-phone.png, table.png, replay.png, report.png).

    python docs/screenshots.py            # needs the test extra (Playwright) and Debian's chromium

A live server on a free port plays a seeded game of elimination against medium bots, tapping the cards as a person
would, and shows a stored strafpunten tournament; `maumau report` writes that tournament as a site, opened from
disk. Headless chromium takes the pictures.
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
from runner.web.site import write_site  # noqa: E402
from support.browser import ASKED, INSTANT, chromium, start_game, tap_first_asked  # noqa: E402  (tests/support/browser.py)

PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
MOVES_BEFORE_THE_PICTURE = 4


def table_picture(browser, site: str, size: dict, out: Path) -> None:
    context = browser.new_context(viewport=size, device_scale_factor=2 if size is PHONE else 1)
    context.add_init_script(INSTANT)
    page = context.new_page()
    start_game(page, site, "elimination", 4, level="medium")
    for _ in range(MOVES_BEFORE_THE_PICTURE):
        page.locator(", ".join(ASKED)).first.wait_for(timeout=60_000)
        tap_first_asked(page)
    page.locator(", ".join(ASKED)).first.wait_for(timeout=60_000)
    page.wait_for_timeout(300)
    page.screenshot(path=str(out))
    context.close()


def replay_picture(browser, site: str, out: Path) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(site + "/replay?t=season&m=t0-d0-r0")
    page.get_by_test_id("speed").select_option("0")
    page.get_by_test_id("next").click()
    page.get_by_test_id("next-round").click()  # the second deal
    for _ in range(9):
        page.get_by_test_id("next").click()
    page.screenshot(path=str(out))
    page.close()


def report_picture(browser, site: Path, out: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1400})
    page.goto((site / "index.html").as_uri())
    page.get_by_test_id("standing").first.wait_for()
    page.screenshot(path=str(out))
    page.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "results"
        settings = plan("strafpunten", ["easy", "medium", "medium", "hard"], deals=3, seed=4, table_size=2)
        conduct(settings, results / "season", False, backend="serial", quiet=True)
        write_site(results / "season", Path(folder) / "site")
        with running(results, games=Games(seeds=lambda: 17)) as site, chromium() as browser:
            table_picture(browser, site, PHONE, ROOT / "docs" / "table-phone.png")
            table_picture(browser, site, DESKTOP, ROOT / "docs" / "table.png")
            replay_picture(browser, site, ROOT / "docs" / "replay.png")
            report_picture(browser, Path(folder) / "site", ROOT / "docs" / "report.png")
    print("wrote docs/table-phone.png, docs/table.png, docs/replay.png and docs/report.png")


if __name__ == "__main__":
    main()
