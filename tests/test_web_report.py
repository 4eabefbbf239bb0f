"""The tournament page, the replays' seat names and the site of `maumau report`, in Debian's chromium: a stored
tournament watched on `maumau serve`, the game a person played replayed, and the site opened from file:// with no
server and nothing asked of the network. Skipped only where chromium is absent (as tests/test_web_browser.py)."""

from __future__ import annotations

import itertools
import os

import pytest

from runner.tournament.driver import conduct
from runner.tournament.settings import plan
from runner.web.site import write_site
from support.browser import ASKED, CHROMIUM, INSTANT, chromium, start_game, tap_first_asked

if not CHROMIUM and not os.environ.get("MAUMAU_REQUIRE_BROWSER"):
    pytest.skip("no chromium on this machine (apt-get install -y chromium); "
                "with MAUMAU_REQUIRE_BROWSER=1 this fails instead", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402  (after the skip: only where a browser is)

from runner.web.host import Games  # noqa: E402
from runner.web.server import running  # noqa: E402

PATIENCE_MS = 60_000
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("watched")
    conduct(plan("strafpunten", ["easy", "medium", "medium"], deals=1, seed=9, table_size=2), folder / "trio", False,
            backend="serial", quiet=True)
    return folder


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def page(browser, request):
    context = browser.new_context(viewport=request.param)
    context.add_init_script(INSTANT)
    opened = context.new_page()
    opened.set_default_timeout(PATIENCE_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    yield opened
    assert not errors, errors
    context.close()


def no_sideways_scroll(page) -> None:
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"the page is {width} px wide on a {inner} px screen"


def replay_names(page) -> list[str]:
    names = page.locator("[data-testid^=hand-] .name").all_inner_texts()
    return [name.split(" \u00b7 ")[0] for name in names]


def test_a_tournament_page_and_its_replays_name_the_seats_as_the_standings(page, results):
    with running(results) as site:
        page.goto(site + "/watch?t=trio")
        expect(page.get_by_test_id("standing")).to_have_count(3)
        entrants = set(page.get_by_test_id("standing").locator("td:nth-child(2)").all_inner_texts())
        assert entrants == {"easy", "medium#1", "medium#2"}
        expect(page.get_by_test_id("time-left")).to_have_text("finished")
        assert page.get_by_test_id("progress-bar").evaluate("bar => bar.value === bar.max")
        expect(page.get_by_test_id("chart").locator("[data-testid=chart-line]")).to_have_count(3)
        expect(page.get_by_test_id("cross-row")).to_have_count(3)
        no_sideways_scroll(page)
        row = page.get_by_test_id("match").filter(has_text="medium#1, medium#2").first
        seats = row.locator("td").nth(1).inner_text().split(", ")
        row.get_by_role("link").click()
        page.wait_for_url("**/replay?*")
        page.get_by_test_id("next").click()  # the deal: every hand, named
        assert replay_names(page) == seats
        page.get_by_test_id("play").click()  # autoplay, then stepping back and scrubbing
        expect(page.get_by_test_id("play")).to_have_text("play", timeout=PATIENCE_MS)
        expect(page.get_by_test_id("event")).to_contain_text("match over")
        page.get_by_test_id("prev").click()
        expect(page.get_by_test_id("event")).not_to_contain_text("match over")
        page.get_by_test_id("position").fill("3")
        expect(page.get_by_test_id("counter")).to_contain_text("event 4 of")
        no_sideways_scroll(page)


def test_the_game_a_person_played_replays_with_the_score_lists_names(browser):
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(INSTANT)
    try:
        with running(games=Games(seeds=itertools.count(5).__next__)) as site:
            page = context.new_page()
            page.set_default_timeout(PATIENCE_MS)
            start_game(page, site, "standard-single", 3)
            while not page.get_by_test_id("result").is_visible():
                page.locator(", ".join(ASKED + ("[data-testid=next-round]:visible", "[data-testid=result]:visible"))
                             ).first.wait_for()
                if page.locator("[data-testid=next-round]:visible").count():
                    page.get_by_test_id("next-round").click()
                else:
                    tap_first_asked(page)
            names = [page.get_by_test_id(f"score-{seat}").locator("td").first.inner_text() for seat in range(3)]
            assert names == ["you", "easy#1", "easy#2"]
            page.get_by_test_id("replay-link").click()
            page.wait_for_url("**/replay?*")
            page.get_by_test_id("next").click()
            assert replay_names(page) == names
    finally:
        context.close()


def test_the_published_site_opens_from_disk_with_its_replays(page, results, tmp_path):
    write_site(results / "trio", tmp_path / "site")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto((tmp_path / "site" / "index.html").as_uri())
    expect(page.get_by_test_id("standing")).to_have_count(3)
    expect(page.get_by_test_id("chart").locator("[data-testid=chart-line]")).to_have_count(3)
    expect(page.get_by_test_id("cross-row")).to_have_count(3)
    expect(page.get_by_test_id("rules")).to_contain_text("the next player draws 2")
    expect(page.get_by_test_id("match")).to_have_count(6)
    page.get_by_test_id("filter-bot").select_option("easy")
    expect(page.get_by_test_id("match")).to_have_count(4)
    no_sideways_scroll(page)
    row = page.get_by_test_id("match").first
    seats = row.locator("td").nth(1).inner_text().split(", ")
    row.get_by_role("link").click()
    page.wait_for_url("**/replay.html?m=*")
    expect(page.get_by_test_id("event")).to_contain_text("match t0-d0-r0")
    page.get_by_test_id("next").click()
    assert replay_names(page) == seats
    page.get_by_test_id("last").click()
    expect(page.get_by_test_id("event")).to_contain_text("match over")
    no_sideways_scroll(page)
    assert asked and all(url.startswith("file://") for url in asked), [u for u in asked if not u.startswith("file:")]
