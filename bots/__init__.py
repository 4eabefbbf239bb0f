"""Built-in bots; each module is a plugin like any third party's."""

import runner  # noqa: F401  first: installs the accelerator's finder (runner/accel.py) before bots.hard is found
