"""The game itself, no I/O: cards, actions, the Ruleset model, the View, the Bot base class, log events, the engine."""
