"""maumau serve in a real headless browser: Debian's chromium driven by Playwright, against a live server.

Skipped only where chromium is absent and MAUMAU_REQUIRE_BROWSER is not set; .ci/run sets it,
so that CI fails rather than skips. Playwright's own browser download is not used: the system
browser is its executable.
"""

from __future__ import annotations

import itertools
import os
import re
import time
from pathlib import Path

import pytest

from runner.logs import codec
from runner.table.play import play_match
from runner.tournament.driver import conduct
from runner.tournament.settings import plan
from support.browser import CHROMIUM, INSTANT, chromium, start_game

if not CHROMIUM and not os.environ.get("MAUMAU_REQUIRE_BROWSER"):
    pytest.skip("no chromium on this machine (apt-get install -y chromium); "
                "with MAUMAU_REQUIRE_BROWSER=1 this fails instead", allow_module_level=True)
assert CHROMIUM, "MAUMAU_REQUIRE_BROWSER is set but there is no chromium: apt-get install -y chromium"

from playwright.sync_api import expect  # noqa: E402  (after the skip: only where a browser is)

from runner.web.host import Games  # noqa: E402
from runner.web.server import running  # noqa: E402

PATIENCE_MS = 60_000  # for one step of the game to show; a whole match is many steps
NEXT = ("#picker:not(.hidden) button, #hand button.playable:enabled, #stock.playable:enabled, #actions button:enabled, "
        "[data-testid=next-round]:visible, [data-testid=result]:visible")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A results folder with a finished tournament and a `maumau play --log` file."""
    folder = tmp_path_factory.mktemp("browser-results")
    settings = plan("strafpunten", ["easy", "medium"], deals=1, seed=9)
    conduct(settings, folder / "duel", False, backend="serial", quiet=True)
    _, events = play_match("standard", ["easy", "medium"], 6, {}, with_log=True)
    codec.write_log(folder / "played.jsonl", events)
    return folder


@pytest.fixture(scope="module")
def site(results):
    with running(results, games=Games(seeds=itertools.count(1).__next__)) as address:  # the same games every run
        yield address


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_init_script(INSTANT)
    opened = context.new_page()
    opened.set_default_timeout(PATIENCE_MS)
    yield opened
    context.close()


def take_turn(page, start_rounds: bool = True) -> str:
    """Do what the table asks next, with one click: a move (a card rather than a draw), the next round (unless not
    `start_rounds`), or nothing once the match is over. Returns which it was: move, next, between or over."""
    page.locator(NEXT).first.wait_for()
    if page.get_by_test_id("result").is_visible():
        return "over"
    next_round = page.locator("[data-testid=next-round]:visible")
    if next_round.count():
        if not start_rounds:
            return "between"
        next_round.click()
        expect(page.get_by_test_id("next-round")).to_have_count(0)  # asked: the button goes once the server knows
        return "next"
    if page.locator("#picker:not(.hidden) button").count():
        page.locator("#picker button").first.click()
    elif page.locator("#hand button.playable:enabled").count():  # a card rather than a draw
        page.locator("#hand button.playable:enabled").first.click()
        if page.get_by_test_id("play-chosen").count():
            page.get_by_test_id("play-chosen").click()
    elif page.locator("#stock.playable:enabled").count():
        page.get_by_test_id("stock").click()
    else:
        page.locator("#actions button:enabled").first.click()
    return "move"


def play_match_in(page, limit_s: float = 600, start_rounds: bool = True) -> str:
    """Take turns until the match is over (or, unless `start_rounds`, until the first round is); the last step."""
    deadline = time.monotonic() + limit_s
    while True:
        assert time.monotonic() < deadline, "the match did not end"
        step = take_turn(page, start_rounds)
        if step in ("over", "between"):
            return step


def test_a_whole_match_against_bots_in_the_browser(page, site):
    start_game(page, site, "strafpunten", 2)
    expect(page.get_by_test_id("hand").locator(".card").first).to_be_visible()
    expect(page.get_by_test_id("top").locator(".card")).to_have_count(1)
    expect(page.get_by_test_id("suit")).to_contain_text("suit to follow")
    expect(page.get_by_test_id("seat-1")).to_contain_text("easy#1")
    assert play_match_in(page) == "over"
    expect(page.get_by_test_id("result")).to_contain_text("The match is over")
    winner = page.get_by_test_id("winner").inner_text()
    assert winner == "You win!" or winner.startswith("Winner: easy#1")
    rows = page.get_by_test_id("scores").locator("tr")
    assert rows.count() == 3  # the header, you, the bot
    expect(page.get_by_test_id("report")).to_contain_text("hand left")  # the last round's end, with the result
    expect(page.get_by_test_id("since")).to_contain_text("the match is over")


def test_another_browser_joins_between_rounds_with_the_lowest_total(browser, site):
    first, second = browser.new_context(), browser.new_context()
    try:
        host, guest = first.new_page(), second.new_page()
        for tab in (host, guest):
            tab.set_default_timeout(PATIENCE_MS)
        start_game(host, site, "elimination", 3)
        assert play_match_in(host, start_rounds=False) == "between"  # round 1 is over, the match is not
        invite = host.get_by_test_id("invite-link").get_attribute("href")
        totals = [int(host.get_by_test_id(f"score-{seat}").locator("td").last.inner_text()) for seat in range(3)]
        guest.goto(site + invite)
        guest.get_by_test_id("join").click()
        guest.wait_for_url("**/play/*")
        expect(guest.get_by_test_id("waiting")).to_contain_text("You join this match with the lowest total")
        host.get_by_test_id("next-round").click()
        expect(guest.get_by_test_id("hand").locator(".card").first).to_be_visible()
        expect(guest.get_by_test_id("score-3").locator("td").last).to_have_text(str(min(totals)))
        expect(host.get_by_test_id("score-3")).to_contain_text("human#3")
        host.once("dialog", lambda dialog: dialog.accept())
        host.get_by_test_id("leave").click()
        expect(host.get_by_test_id("waiting")).to_contain_text("You leave the match when this round ends")
    finally:
        first.close()
        second.close()


def test_a_stored_match_steps_by_in_the_replay_viewer_with_every_hand_face_up(page, site):
    page.goto(site + "/watch")
    page.get_by_test_id("tournaments").get_by_role("link", name="duel").click()
    expect(page.get_by_test_id("standings").get_by_test_id("standing")).to_have_count(2)
    expect(page.get_by_test_id("progress")).to_contain_text("finished")
    page.get_by_test_id("filter-bot").select_option("medium")
    page.get_by_test_id("filter-lost").check()
    lost = page.get_by_test_id("match").count()
    page.get_by_test_id("filter-lost").uncheck()
    expect(page.get_by_test_id("match")).to_have_count(2)
    assert lost <= 2
    page.get_by_test_id("match").first.get_by_role("link").click()
    page.wait_for_url("**/replay?*")
    expect(page.get_by_test_id("event")).to_contain_text("match t0-d0-r0")
    page.get_by_test_id("next").click()  # the deal: every hand face up
    expect(page.get_by_test_id("event")).to_contain_text("round 1")
    hands = [page.get_by_test_id(f"hand-{seat}").locator(".card").count() for seat in (0, 1)]
    assert hands == [5, 5]
    page.get_by_test_id("next").click()
    page.get_by_test_id("next-round").click()
    expect(page.get_by_test_id("counter")).to_contain_text("round 2")
    page.get_by_test_id("last").click()
    expect(page.get_by_test_id("event")).to_contain_text("match over")


def test_the_match_list_answered_for_filters_changed_since_is_not_shown(page, site):
    # the list's requests answer in any order: the one for `lost` is held until the list without it is shown
    held = []
    page.route(re.compile(r"/api/matches\?.*lost=1"), lambda route: held.append(route))
    page.goto(site + "/watch")
    page.get_by_test_id("tournaments").get_by_role("link", name="duel").click()
    page.get_by_test_id("filter-bot").select_option("medium")
    expect(page.get_by_test_id("match")).to_have_count(2)
    page.get_by_test_id("filter-lost").check()
    page.get_by_test_id("filter-lost").uncheck()
    expect(page.get_by_test_id("match")).to_have_count(2)
    assert len(held) == 1
    with page.expect_response(re.compile(r"/api/matches\?.*lost=1")) as late:
        held[0].continue_()
    late.value.finished()
    page.evaluate("() => new Promise((done) => setTimeout(() => setTimeout(done, 0), 0))")  # its handler has run
    expect(page.get_by_test_id("match")).to_have_count(2)
    expect(page.get_by_test_id("match").first).to_contain_text("t0-d0-r0")


def test_a_play_log_file_opens_in_the_same_viewer(page, site, results):
    page.goto(site + "/watch")
    page.get_by_test_id("logs").get_by_role("link", name="played.jsonl").click()
    expect(page.get_by_test_id("event")).to_contain_text("match play-6")
    page.goto(site + "/replay")
    page.get_by_test_id("log-file").set_input_files(str(results / "played.jsonl"))
    expect(page.get_by_test_id("title")).to_have_text("played.jsonl")
    page.get_by_test_id("last").click()
    expect(page.get_by_test_id("event")).to_contain_text("match over")


def test_house_rules_pasted_in_the_lobby_are_checked_and_set_the_players_range(page, site):
    page.goto(site + "/")
    page.get_by_test_id("ruleset").select_option("__house__")
    page.get_by_test_id("house-text").fill("extends: standard\nname: duel-only\nplayers: {min: 2, max: 3}\n")
    page.get_by_test_id("house-check").click()
    expect(page.get_by_test_id("house-result")).to_have_text("ok: duel-only, 2\u20133 players, limit")
    assert page.get_by_test_id("players").get_attribute("max") == "3"
    page.get_by_test_id("house-text").fill("extends: standard\nname: broken\nhand_size: 0\n")
    page.get_by_test_id("house-check").click()
    expect(page.get_by_test_id("house-result")).to_contain_text("Error: house-rules.yaml: hand_size: ")


DATA = Path(__file__).parent / "data"
HOUSE_SEED = 3  # the first game's seed on this test's own server: its first round offers a swap and a jump-in
BUTTONS = "all => all.map((b) => [b.dataset.kind, b.dataset.cards, b.lastChild.data])"  # a move: kind, cards, text
RARE_FIRST = ["swap", "give", "jump in", "several"]  # moves the house-rule test clicks first, where offered


def rare_kind(move: dict) -> str:
    """A move's kind, the house rules' plays told apart: a jump-in, a play of several cards."""
    if move["kind"] == "play" and move["text"].startswith("jump in with"):
        return "jump in"
    if move["kind"] == "play" and len(move["cards"]) > 1:
        return "several"
    return move["kind"]


def test_a_house_rule_file_uploaded_in_the_lobby_plays_with_every_move_the_engine_offers(browser):
    """Each step, the page's move buttons are the seat's legal moves as the server words them; the test clicks
    the rarer kinds first, so the house rules' decisions (hands swapped, cards given, several cards, jumping in)
    are taken through the page."""
    clicked: set[str] = set()
    context = browser.new_context()
    context.add_init_script(INSTANT)
    with running(games=Games(seeds=itertools.count(HOUSE_SEED).__next__)) as address:
        try:
            page = context.new_page()
            page.set_default_timeout(PATIENCE_MS)
            page.goto(address + "/")
            page.get_by_test_id("ruleset").select_option("__house__")
            page.get_by_test_id("house-file").set_input_files(str(DATA / "every-decision.yaml"))
            expect(page.get_by_test_id("house-result")).to_have_text("ok: every-decision, 2\u20138 players, limit")
            page.get_by_test_id("players").fill("3")
            page.get_by_test_id("new-game").click()
            page.wait_for_url("**/play/*")
            page.locator("#all-moves summary").click()  # every move as a list, beside the cards
            token = page.url.rsplit("/", 1)[1]
            deadline = time.monotonic() + 600
            while not page.get_by_test_id("next-round").is_visible():
                assert time.monotonic() < deadline, "the round did not end"
                page.locator("[data-testid=move]:enabled, [data-testid=next-round]:visible").first.wait_for()
                buttons = page.locator("[data-testid=move]:enabled")
                if not buttons.count():
                    continue
                offered = page.request.get(f"{address}/api/seats/{token}").json()["moves"]
                shown = buttons.evaluate_all(BUTTONS)
                assert shown == [[move["kind"], " ".join(move["cards"]), move["text"]] for move in offered]
                kinds = [rare_kind(move) for move in offered]
                choice = next((kinds.index(kind) for kind in RARE_FIRST if kind in kinds), 0)
                clicked.add(kinds[choice])
                buttons.nth(choice).click()
        finally:
            context.close()
    assert {"swap", "jump in"} <= clicked, clicked
