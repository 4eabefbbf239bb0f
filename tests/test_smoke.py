"""Every built-in ruleset plays a match to its end from the CLI entry point's code path."""

from runner.table.match import Match
from runner.table.play import make_bot_factory


def test_every_builtin_ruleset_plays_a_match(reg):
    for name in reg.rulesets:
        ruleset = reg.load_ruleset(name)
        result = Match(ruleset, ["random"] * ruleset.players.min, 5, make_bot_factory(reg)).run()
        assert result.winners, name
        assert sorted(result.ranking) == list(range(ruleset.players.min))


def test_shipped_schema_is_generated_from_the_model():
    from pathlib import Path

    from runner.rules import schema_text

    shipped = Path(__file__).parent.parent / "runner" / "rules" / "ruleset.schema.json"
    assert shipped.read_text() == schema_text()
