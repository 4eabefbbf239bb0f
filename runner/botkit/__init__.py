"""Tools for bot writers: the engine as a simulator, `check-bot` and `new-bot`."""
