"""Built-in bots; each module is a plugin like any third party's."""
