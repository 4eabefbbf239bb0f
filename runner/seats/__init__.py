"""How a seat is filled: a bot in-process or in a process of its own, an `exec:` program, or a person."""
