"""Deal files: a tournament's deals written out (every hand, the upcards and the stock of every round), and read back.

A deal file is JSON lines, gzip if its name ends in `.gz`: a header
`{"type": "deals", "version": 1, "ruleset": NAME, "players": K, "seed": S, "deals": N}`, then one
line per deal, `{"type": "deal", "deal": I, "match": ID, "seed": S, "rounds": [ROUND, ...]}`,
where each ROUND is written as the `round_start` event of a game log writes it (`round`,
`dealer`, `hands`, `upcards`, `stock`, top first), so a round can be copied out of any log. A
round is played as its deck: the cards in the order they came off the top (the hands, one card
at a time clockwise from left of the dealer, then the upcards, then the stock), so a file
serves any table size and any ruleset of the same deck.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from runner.errors import MaumauError
from runner.game.cards import RANKS, make_deck
from runner.game.ruleset import Ruleset
from runner.logs import codec

from .integrity import ResultsCorrupt, sha256

VERSION = 1
MAX_FILE_BYTES = codec.MAX_LOG_BYTES  # a deal file is read whole, like a log


@dataclass(frozen=True)
class Deal:
    """One deal of a deal file: its rounds' decks, each the cards top first in one space-separated string."""

    index: int
    decks: tuple[str, ...]


def deck_of(round_start: dict) -> list[str]:
    """The deck of a dealt round, top first: the hands card by card in dealing order, the upcards, the stock."""
    hands, dealer = round_start["hands"], round_start["dealer"]
    seats = [seat for seat, hand in enumerate(hands) if hand]
    order = [s for s in seats if s > dealer] + [s for s in seats if s <= dealer]  # clockwise from left of the dealer
    size = len(hands[order[0]]) if order else 0
    dealt = [hands[seat][i] for i in range(size) for seat in order]
    return dealt + list(round_start["upcards"]) + list(round_start["stock"])


def deck_text(ranks: tuple[str, ...], copies: int) -> str:
    """`32 cards (7-A, one copy)`: a deck in words."""
    positions = [RANKS.index(r) for r in ranks]
    contiguous = bool(positions) and positions == list(range(positions[0], positions[0] + len(positions)))
    span = f"{ranks[0]}-{ranks[-1]}" if contiguous else " ".join(ranks)
    return f"{len(ranks) * 4 * copies} cards ({span}, {'one copy' if copies == 1 else f'{copies} copies'})"


def described(cards: list[str]) -> tuple[tuple[str, ...], int]:
    """The ranks and the number of copies of a full deck, as far as `cards` show them."""
    ranks = tuple(r for r in RANKS if any(card[:-1] == r for card in cards))
    return ranks, max(1, round(len(cards) / (4 * len(ranks)))) if ranks else 0


# ---------------------------------------------------------------- writing


def write_deals(path: Path, header: dict, deals: list[dict]) -> None:
    """Write a deal file: the header, then one line per deal (the log codec's JSON lines, gzip if `.gz`)."""
    lines = [{"type": "deals", "version": VERSION, **header, "deals": len(deals)}] + [
        {"type": "deal", **d} for d in deals
    ]
    data = codec.compress(lines) if path.suffix == ".gz" else codec.encode(lines)
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise MaumauError(f"cannot write the deal file {path}: {exc.strerror}") from None


def rounds_of(events: list[dict]) -> list[dict]:
    """The rounds dealt in a game log, each as its deal file entry (round_start less what the deal does not fix)."""
    keep = ("round", "dealer", "hands", "upcards", "stock")
    return [{key: event[key] for key in keep} for event in events if event["type"] == "round_start"]


# ---------------------------------------------------------------- reading


def read_deals(path: Path) -> tuple[dict, list[Deal]]:
    """The header and the deals of a deal file, checked: every round a full deck, dealt as a log deals it."""
    where = str(path)
    if not path.exists():
        raise MaumauError(f"no deal file {path}; write one with `maumau deals DIR --out {path}`")
    lines = codec.decode(codec.read_file(path, MAX_FILE_BYTES), where)
    if not lines or lines[0].get("type") != "deals":
        raise MaumauError(f'{where}: not a deal file (its first line must be {{"type": "deals", ...}})')
    header = lines[0]
    if header.get("version") != VERSION:
        raise MaumauError(f"{where}: deal file version {header.get('version')!r:.20}, this maumau reads {VERSION}")
    deals = [_deal(where, number, line) for number, line in enumerate(lines[1:], 2)]
    if not deals:
        raise MaumauError(f"{where}: holds no deals")
    return header, deals


def _deal(where: str, number: int, line: dict) -> Deal:
    at = f"{where}, line {number}"
    rounds = line.get("rounds")
    if line.get("type") != "deal" or not isinstance(rounds, list) or not rounds:
        raise MaumauError(f'{at}: expected {{"type": "deal", "rounds": [...]}} with at least one round')
    decks = []
    for r, entry in enumerate(rounds, 1):
        try:
            cards = deck_of(entry)
        except (KeyError, TypeError, IndexError, AttributeError):
            raise MaumauError(f"{at}, round {r}: a round needs `dealer`, `hands`, `upcards` and `stock` "
                              "as a game log's round_start has them") from None
        bad = next((c for c in cards if not _is_card(c)), None)
        if bad is not None:
            raise MaumauError(f"{at}, round {r}: {bad!r:.20} is not a card (rank 2-10 J Q K A, then suit C D H S)")
        sizes = {len(hand) for hand in entry["hands"] if hand}
        if len(sizes) > 1:
            raise MaumauError(f"{at}, round {r}: the hands hold different numbers of cards ({sorted(sizes)})")
        decks.append(" ".join(cards))
    return Deal(number - 2, tuple(decks))


def _is_card(text: object) -> bool:
    return isinstance(text, str) and len(text) in (2, 3) and text[:-1] in RANKS and text[-1] in "CDHS"


def check_deck(where: str, deals: list[Deal], ruleset: Ruleset, players: int) -> None:
    """Refuse deals whose deck is not the one `ruleset` shuffles at tables of `players`."""
    copies = ruleset.deck.copies_for(players)
    expected = Counter(card.text for card in make_deck(ruleset.deck.ranks, copies))
    for deal in deals:
        for r, deck in enumerate(deal.decks, 1):
            cards = deck.split()
            if Counter(cards) != expected:
                ranks_copies = described(cards)
                same_kind = ranks_copies == (tuple(ruleset.deck.ranks), copies)
                whole = sum(expected.values())
                problem = (f"holds {deck_text(*ranks_copies)}" if not same_kind else
                           "is not a whole deck (a card missing, another twice)" if len(cards) == whole else
                           f"is not a whole deck ({len(cards)} cards, not {whole})")
                raise MaumauError(
                    f"{where}: deal {deal.index} round {r} {problem}; ruleset {ruleset.name!r} deals "
                    f"{deck_text(tuple(ruleset.deck.ranks), copies)} at tables of {players}: use a deal file "
                    "written from a tournament with this deck"
                )


# ---------------------------------------------------------------- a tournament's copy


def copy_name(data: bytes) -> str:
    """The name of the copy of a deal file kept in a results directory."""
    return "deals.jsonl.gz" if data[:2] == b"\x1f\x8b" else "deals.jsonl"


def keep_copy(directory: Path, source: Path, expected_sha256: str) -> None:
    """Copy the deal file a tournament plays into its results directory, so that it resumes without the original."""
    if not source.is_file():
        raise MaumauError(f"{directory} has no copy of the deal file its tournament plays, and {source} is gone; "
                          "give the deal file back at that path")
    data = codec.read_file(source, MAX_FILE_BYTES)
    if sha256(data) != expected_sha256:
        raise MaumauError(f"{source} changed while the tournament started; run it again")
    try:
        (directory / copy_name(data)).write_bytes(data)
    except OSError as exc:
        raise MaumauError(f"cannot copy the deal file into {directory}: {exc.strerror}") from None


def load_book(directory: Path, expected_sha256: str) -> list[Deal]:
    """The deals of the copy kept in `directory`, checked against the digest its tournament's config holds."""
    for name in ("deals.jsonl.gz", "deals.jsonl"):
        path = directory / name
        if path.is_file():
            if sha256(codec.read_file(path, MAX_FILE_BYTES)) != expected_sha256:
                raise ResultsCorrupt(f"{path} was changed after the tournament started; the results cannot be "
                                     "trusted: run the tournament again, or restore the directory from a copy")
            return read_deals(path)[1]
    raise ResultsCorrupt(f"{directory} lacks the copy of the deal file its tournament plays (deals.jsonl.gz); "
                         "restore the directory from a copy")


def deal_book(settings, directory: Path) -> list[Deal] | None:
    """The deals a tournament plays from its deal file (None: it shuffles its own), copied into `directory` first."""
    if settings.deals_file is None:
        return None
    if not any((directory / name).is_file() for name in ("deals.jsonl.gz", "deals.jsonl")):
        keep_copy(directory, Path(settings.deals_file), settings.deals_sha256)
    return load_book(directory, settings.deals_sha256)
