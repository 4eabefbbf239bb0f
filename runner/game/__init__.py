"""The game itself: cards, actions, the Ruleset model, the View, the Bot base class, log events and the engine; no I/O."""
