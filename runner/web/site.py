"""`maumau report DIR --out SITE/`: a tournament as a folder of static files, opened from disk or any static host.

The pages are the server's own (static/watch.html as the site's index.html, static/replay.html),
their scripts and stylesheet copied beside them; what the server's JSON API would answer is
written once as scripts (data/tournament.js, one data/matches/ID.js per match) that the pages
load with <script> tags, which a browser runs from file:// where it would refuse a fetch. Nothing
is fetched from elsewhere. A running tournament is written as far as it has come.
"""

from __future__ import annotations

import json
import re
import shutil
from datetime import datetime, timezone
from pathlib import Path

import yaml

from runner.errors import MaumauError
from runner.tournament.settings import Settings
from runner.tournament.store import DB_NAME, Store

from .host import Refused
from .watch import Results

STATIC = Path(__file__).parent / "static"
COPIED = ("app.css", "common.js", "watch.js", "replay.js")
HERE = "."  # the tournament's name in Results when DIR is the tournament itself
SAFE_ID = re.compile(r"[A-Za-z0-9._-]{1,120}")


def write_site(directory: Path, out: Path) -> dict:
    """Write the site of the tournament in `directory` into `out`; what was written, counted."""
    if not (directory / DB_NAME).is_file():
        raise MaumauError(f"{directory} is not a tournament's results directory (no {DB_NAME} in it)")
    if out.exists() and not out.is_dir():
        raise MaumauError(f"--out {out} is a file; give a folder for the site")
    if out.resolve() == directory.resolve() or out.resolve() in directory.resolve().parents:
        raise MaumauError(f"--out {out} would hold the results directory; give a folder of its own for the site")
    results = Results(directory)
    try:
        standings = results.standings(HERE)
        history = results.history(HERE)
        listed = results.matches(HERE, None, False, False, 0, 10**9)["matches"]
    except Refused as exc:
        raise MaumauError(str(exc)) from None
    settings = read_settings(directory)
    (out / "data" / "matches").mkdir(parents=True, exist_ok=True)
    (out / "static").mkdir(exist_ok=True)
    for match in listed:
        match["file"] = file_id(match["match"])
        try:
            replay = results.match(HERE, match["match"])
        except Refused as exc:
            raise MaumauError(str(exc)) from None
        write_script(out / "data" / "matches" / f"{match['file']}.js", "maumauReplay({});", replay)
    data = {
        "name": directory.resolve().name, "standings": {**standings, "name": directory.resolve().name},
        "history": history, "matches": listed,
        "rules": {"name": settings.ruleset_name, "words": ruleset_words(settings.ruleset),
                  "yaml": yaml.safe_dump(settings.ruleset, sort_keys=False, allow_unicode=True)},
        "written": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }
    write_script(out / "data" / "tournament.js", "window.maumauTournament = {};", data)
    for name in COPIED:
        shutil.copyfile(STATIC / name, out / "static" / name)
    (out / "index.html").write_text(site_page("watch.html", "data/tournament.js"), encoding="utf-8")
    (out / "replay.html").write_text(site_page("replay.html", "data/tournament.js"), encoding="utf-8")
    return {"matches": len(listed), "finished": standings["finished"], "planned": standings["planned"]}


def read_settings(directory: Path) -> Settings:
    store = Store.open(directory)
    try:
        return Settings.from_config(store.config())
    finally:
        store.close()


def file_id(match_id: str) -> str:
    """The match's file name: its id where that is a plain name (ids look like t0-d3-r1), else a safe stand-in."""
    return match_id if SAFE_ID.fullmatch(match_id) and not match_id.startswith(".") else match_id.encode().hex()[:200]


def write_script(path: Path, form: str, value: dict) -> None:
    """`value` put into the script `form` at {}: JSON is JavaScript; `</` is escaped in case it is ever inlined."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    path.write_text(form.replace("{}", text) + "\n", encoding="utf-8")


def site_page(name: str, data: str) -> str:
    """A server page as a site page: files relative to it, its data script first, the links the site has."""
    html = (STATIC / name).read_text(encoding="utf-8")
    html = html.replace('href="/static/', 'href="static/').replace('src="/static/', 'src="static/')
    html = html.replace('<script src="static/common.js" defer></script>',
                        f'<script src="{data}" defer></script>\n  <script src="static/common.js" defer></script>')
    header = re.search(r"<header[^>]*>.*?</header>", html, re.S)
    if header is None:
        raise MaumauError(f"static/{name} has no header to replace (a bug)")
    site_header = ('<header class="bar">\n  <h1>maumau</h1><span id="title" data-testid="title"></span>'
                   '<span class="spacer"></span>\n  <a href="index.html">The tournament</a>\n</header>')
    return html[:header.start()] + site_header + html[header.end():]


# ---------------------------------------------------------------- the ruleset in words

WHEN_WORDS = {"stuck": "only when you cannot play", "any": "whenever you like"}
DRAWN_WORDS = {"play_or_keep": "a playable card drawn may be played or kept",
               "must_play": "a playable card drawn must be played", "keep": "the card drawn is kept",
               "go_on": "after drawing you may play on"}

def ruleset_words(rules: dict) -> list[str]:
    """The resolved ruleset (runner/tournament/settings.py's Settings.ruleset) in a few sentences of plain words: the
    deal, what each card with a power does, drawing, announcements, scoring and the match. The YAML beside it on the
    page is the whole of it."""
    words = []
    if rules.get("description"):
        words.append(rules["description"])
    players, deck = rules.get("players", {}), rules.get("deck", {})
    ranks = deck.get("ranks", [])
    copies = deck.get("copies", 1)
    deck_text = f"{len(ranks) * 4 * copies}-card deck ({ranks[0]} to {ranks[-1]})" if ranks else "deck"
    if copies > 1:
        deck_text += f", {copies} copies"
    if deck.get("jokers"):
        deck_text += f" with {deck['jokers']} jokers"
    words.append(f"{players.get('min', 2)} to {players.get('max', '?')} players; a {deck_text}; "
                 f"{rules.get('hand_size', '?')} cards each.")
    for rank, power in (rules.get("powers") or {}).items():
        said = power_words(power)
        if said:
            words.append(f"{rank}: {', '.join(said)}.")
    multiple = rules.get("multiple") or {}
    if multiple.get("same_rank") or multiple.get("chain") or multiple.get("runs", "none") != "none":
        same = " of the same rank" if multiple.get("same_rank") else ""
        words.append(f"Several cards may be played at once{same}.")
    drawing = rules.get("drawing") or {}
    when = WHEN_WORDS.get(drawing.get("when"), drawing.get("when"))
    kept = DRAWN_WORDS.get(drawing.get("drawn_card"), drawing.get("drawn_card"))
    if when:
        words.append(f"Draw {when}" + (f"; {kept}" if kept else "") + ".")
    calls = rules.get("announcements") or {}
    said = [f"\u201c{name}\u201d" + (f" (missed: {spec.get('penalty')} cards)" if spec.get("penalty") else "")
            for name, spec in calls.items() if isinstance(spec, dict) and spec.get("required")]
    if said:
        words.append(f"Say {' and '.join(said)} when it is due.")
    match = rules.get("match") or {}
    if match.get("format") == "limit":
        words.append(f"Rounds are played until a total reaches {match.get('limit')}; the fewest points wins.")
    elif match.get("format"):
        rounds = f", {match['rounds']} rounds" if match.get("rounds") else ""
        words.append(f"Match format: {match['format']}{rounds}.")
    points = rules.get("points") or {}
    special = {rank: value for rank, value in points.items() if str(value) != str(rank)}
    if special:
        words.append("Cards left in hand count their rank, but " +
                     ", ".join(f"{rank} {value}" for rank, value in special.items()) + ".")
    return words


def power_words(power: dict) -> list[str]:
    said = []
    if power.get("draw"):
        said.append(f"the next player draws {power['draw']}" + (" (it stacks)" if power.get("stack") else ""))
    if power.get("skip"):
        said.append("the next player misses a turn" if power["skip"] == 1 else f"skips {power['skip']} players")
    if power.get("reverse"):
        said.append("reverses the direction of play")
    if power.get("wild"):
        said.append("wild: wishes a rank" if power.get("wish") == "rank" else "wild: names the suit to follow")
    if power.get("play_again"):
        said.append("its player plays again")
    if power.get("others_draw"):
        said.append(f"every other player draws {power['others_draw']}")
    if power.get("swap_hands"):
        said.append("swaps hands")
    if power.get("give"):
        said.append(f"gives {power['give']} card(s) to the next player")
    if power.get("cancels"):
        said.append("cancels a penalty")
    return said
