"""The table of `maumau serve` played as a person plays it, in Debian's chromium at a phone's size and a desktop's:
cards tapped, the stock tapped, several cards chosen then played, a wish picked, a penalty answered, the keyboard only.

Skipped only where chromium is absent and MAUMAU_REQUIRE_BROWSER is not set (as tests/test_web_browser.py).
The animations are set to instant (the speed the person sets is kept in localStorage), so no test waits on them.
"""

from __future__ import annotations

import itertools
import os
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from support.browser import CHROMIUM, INSTANT, chromium, start_game

if not CHROMIUM and not os.environ.get("MAUMAU_REQUIRE_BROWSER"):
    pytest.skip("no chromium on this machine (apt-get install -y chromium); "
                "with MAUMAU_REQUIRE_BROWSER=1 this fails instead", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402  (after the skip: only where a browser is)

from runner.web.host import Games  # noqa: E402
from runner.web.server import running  # noqa: E402

PATIENCE_MS = 60_000
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
MAKAO = Path(__file__).parent.parent / "rulesets" / "gallery" / "makao.yaml"
# What the table may ask of the person next: a card, the stock, a picker, a button, the next round, or the result.
NEXT = ("#picker:not(.hidden) button, #hand button.playable:enabled, #stock.playable:enabled, #actions button:enabled, "
        "[data-testid=next-round]:visible, [data-testid=result]:visible")


@pytest.fixture(scope="module")
def site():
    with running(None, games=Games(seeds=itertools.count(1).__next__)) as address:
        yield address


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


@contextmanager
def table(browser, site: str, size: dict, ruleset: str | None, players: int, house: Path | None = None):
    """A page at `size` with a new game started; no script error on it by the end."""
    context = browser.new_context(viewport=size, has_touch=size is PHONE)
    context.add_init_script(INSTANT)
    try:
        page = context.new_page()
        page.set_default_timeout(PATIENCE_MS)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        start_game(page, site, ruleset, players, house=house)
        yield page
        assert not errors, errors
    finally:
        context.close()


def fits_the_screen(page) -> None:
    """Nothing scrolls sideways; the hand, the stock and the moves are on the screen without scrolling."""
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"the page is {width} px wide on a {inner} px screen"
    height = page.evaluate("window.innerHeight")
    for selector in ("#hand", "#stock", "#actions", "#top"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height + 1, (selector, box, height)
    for node in page.locator("#hand button.playable:enabled, #stock:enabled, #actions button").all():
        box = node.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box  # a finger's touch target


def tap(node, phone: bool) -> None:
    node.tap() if phone else node.click()


def my_turn(page) -> str:
    """Wait until the table asks something; which it is: pick, card, stock, action, next, over."""
    page.locator(NEXT).first.wait_for()
    if page.get_by_test_id("result").is_visible():
        return "over"
    if page.locator("[data-testid=next-round]:visible").count():
        return "next"
    if page.locator("#picker:not(.hidden) button").count():
        return "pick"
    if page.locator("#hand button.playable:enabled").count():
        return "card"
    if page.locator("#stock.playable:enabled").count():
        return "stock"
    return "action"


def next_round(page, phone: bool) -> None:
    tap(page.get_by_test_id("next-round"), phone)
    expect(page.get_by_test_id("next-round")).to_have_count(0)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_whole_match_played_by_tapping_cards_and_the_stock(browser, site, size):
    phone = size is PHONE
    with table(browser, site, size, "strafpunten", 3) as page:
        deadline, turns, called, bubbles = time.monotonic() + 900, 0, [], 0
        while True:
            assert time.monotonic() < deadline, "the match did not end"
            step = my_turn(page)
            if step == "over":
                break
            if step == "next":
                next_round(page, phone)
                continue
            if turns % 5 == 0:
                fits_the_screen(page)
            turns += 1
            bubbles += page.locator("#seats .bubble.call").count()  # a bot's "Mau!" at its seat
            if step == "pick":
                tap(page.locator("#picker .pick").first, phone)
            elif step == "card":
                note = page.get_by_test_id("call-note")
                word = note.get_attribute("data-call") if note.count() else None  # the call the ruleset wants
                tap(page.locator("#hand button.playable:enabled").first, phone)
                if page.get_by_test_id("play-chosen").count():  # chosen as the first of several: play it alone
                    tap(page.get_by_test_id("play-chosen"), phone)
                if word is not None:  # made with the card, and shown as made
                    expect(page.get_by_test_id("since")).to_contain_text(f'saying "{word}"')
                    called.append(word)
            elif step == "stock":
                tap(page.get_by_test_id("stock"), phone)
            else:
                tap(page.locator("#actions button:enabled").first, phone)
        expect(page.get_by_test_id("winner")).to_be_visible()
        assert turns > 3 and called and bubbles  # strafpunten wants "mau" at the last card but one


def test_several_cards_a_wish_and_a_penalty_on_a_phone(browser, site):
    """Makao (rulesets/gallery/makao.yaml): several cards of a rank, a Jack wishes a rank, an Ace names a suit, 2s and
    3s make the next player draw. The person chooses several cards where it can, plays wild cards first, and
    answers each penalty by tapping a card or the stock; until each of the three has happened."""
    seen: dict[str, object] = {}
    with table(browser, site, PHONE, None, 2, house=MAKAO) as page:
        deadline = time.monotonic() + 900
        while not {"several", "wish", "penalty"} <= seen.keys():
            assert time.monotonic() < deadline, f"not everything happened: {seen}"
            step = my_turn(page)
            assert step != "over", f"the match ended first: {seen}"
            if step == "next":
                next_round(page, True)
                continue
            fits_the_screen(page)
            if step == "pick":
                pick = page.locator("#picker .pick").first
                wished = pick.get_attribute("data-suit") or pick.get_attribute("data-rank")
                pick.tap()
                seen["wish"] = wished
                continue
            if page.locator("#pending:not(.hidden)").count() and "penalty" not in seen:
                owed = page.get_by_test_id("pending").inner_text()
                cards = page.locator("#hand button.playable:enabled")
                if cards.count():
                    cards.first.tap()
                    if page.get_by_test_id("play-chosen").count():
                        page.get_by_test_id("play-chosen").tap()
                else:
                    page.get_by_test_id("stock").tap()
                seen["penalty"] = owed
                continue
            if step == "card":
                raised = page.locator("#hand button.playable:enabled")
                texts = [node.get_attribute("data-card") for node in raised.all()]
                wild = [card for card in texts if card[:-1] in ("J", "A")]
                raised.nth(texts.index(wild[0]) if wild else 0).tap()
                more = page.locator("#hand button.playable:enabled:not(.chosen)")
                if page.get_by_test_id("play-chosen").count() and more.count():
                    first = page.locator("#hand button.chosen").get_attribute("data-card")
                    second = more.first.get_attribute("data-card")
                    more.first.tap()
                    expect(page.locator("#hand button.chosen")).to_have_count(2)
                    page.get_by_test_id("play-chosen").tap()
                    if page.locator("#picker:not(.hidden)").count():
                        continue
                    expect(page.get_by_test_id("since")).to_contain_text(f"you played {first} {second}")
                    seen["several"] = (first, second)
                elif page.get_by_test_id("play-chosen").count():
                    page.get_by_test_id("play-chosen").tap()
            elif step == "stock":
                page.get_by_test_id("stock").tap()
            else:
                page.locator("#actions button:enabled").first.tap()


def test_a_whole_match_played_with_the_keyboard_only(browser, site):
    with table(browser, site, DESKTOP, "strafpunten", 2) as page:
        page.locator("#hand .card").first.wait_for()
        page.keyboard.press("ArrowRight")  # the keyboard takes over: the first thing that may be done has the focus
        deadline, moved = time.monotonic() + 900, 0
        while True:
            assert time.monotonic() < deadline, "the match did not end"
            step = my_turn(page)
            if step == "over":
                break
            if step != "next":
                page.wait_for_function("document.activeElement.matches('#picker button, #hand button:enabled, "
                                       "#stock:enabled, #actions button')")
            several = page.locator("#hand button:enabled, #stock:enabled, #actions button").count() > 1
            if step == "card" and several and moved % 3 == 2:  # now and then another than the first
                before = page.evaluate("document.activeElement.outerHTML")
                page.keyboard.press("ArrowRight")
                assert page.evaluate("document.activeElement.outerHTML") != before
            if step == "next":
                page.wait_for_function("document.activeElement.dataset.testid === 'next-round'")
            page.keyboard.press("Enter")
            moved += 1
            if step == "next":
                expect(page.get_by_test_id("next-round")).to_have_count(0)
        expect(page.get_by_test_id("winner")).to_be_visible()


def test_cards_have_names_for_screen_readers_and_suits_by_symbol(browser, site):
    with table(browser, site, PHONE, "standard", 2) as page:
        page.locator("#hand .card").first.wait_for()
        labels = page.locator("#hand .card").evaluate_all(
            "all => all.map((c) => [c.dataset.card, c.getAttribute('aria-label'), "
            "c.querySelector('.pip').textContent])")
        names = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
        pips = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
        for card, label, pip in labels:
            rank = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}.get(card[:-1], card[:-1])
            assert label.startswith(f"{rank} of {names[card[-1]]}"), label
            assert pip == pips[card[-1]]
        assert page.get_by_test_id("stock").get_attribute("aria-label").startswith("stock, ")
        assert page.get_by_test_id("direction").get_attribute("aria-label").startswith("play goes ")


def test_the_invitation_opens_over_the_table_without_sideways_scrolling(browser, site):
    with table(browser, site, PHONE, "elimination", 3) as page:
        page.locator("#hand .card").first.wait_for()
        page.get_by_test_id("invite").tap()
        expect(page.get_by_test_id("invite-link")).to_be_visible()
        assert page.get_by_test_id("invite-link").inner_text().startswith(site + "/join/")
        fits_the_screen(page)  # the link wraps, over the table: the hand and the moves stay where they were
