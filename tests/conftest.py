import random
from fnmatch import fnmatch

import pytest

from runner.plugins import registry

# The slow tier: `pytest -m "not slow"` leaves it out (the rules, the engine and the unit tests, in minutes);
# .ci/run runs everything. The rule is here, by family, so that a new test file of a slow family is slow
# without anyone marking it (README, "Testing"). A test is slow when
# - its file's name is of a slow family (SLOW_MODULES): a real browser, the bubblewrap sandbox, Dask clusters,
#   bots in processes of their own (exec:, --isolate, containment, memory and CPU caps, exits), the bench
#   scripts, pip installs;
# - or it uses a fixture of SLOW_FIXTURES (a browser page, a Dask cluster, isolated bot processes, wherever the
#   test is), or its module imports from a helper of SLOW_HELPERS (tests/support/browser.py: a real browser);
# - or it is marked slow itself (`@pytest.mark.slow`, or `pytestmark = pytest.mark.slow` for a module), or by a
#   helper of tests/support/ that marks it (support.terminal.needs_tmux: a real terminal). So are the long
#   differential runs (tests/test_accelerator.py's whole corpus, tests/test_random_games.py's cookbook streams),
#   which .ci/run runs under each CPython, and single tests of a quick file that start a tournament process.
SLOW_MODULES = (
    "test_web_browser*", "test_sandbox*", "test_dask*", "test_containment*", "test_plugin_containment*",
    "test_isolation*", "test_external*", "test_bot_exits*", "test_bot_memory*", "test_cpu_time*",
    "test_fault_tournament*", "test_trusted_output*", "test_bench*", "test_new_bot*",
)
SLOW_FIXTURES = {"browser", "page", "cluster", "isolated"}
SLOW_HELPERS = {"support.browser"}


def imports_a_slow_helper(module) -> bool:
    """Whether `module` holds a name imported from a module of SLOW_HELPERS (or one of those modules itself)."""
    for value in vars(module).values():
        name = getattr(value, "__module__", None) or getattr(value, "__name__", None)
        if isinstance(name, str) and name in SLOW_HELPERS:
            return True
    return False


def is_slow(item: pytest.Item) -> bool:
    """Whether `item` is in the slow tier by the rule above (its own mark aside)."""
    module = getattr(item, "module", None)
    return (any(fnmatch(item.path.name, family) for family in SLOW_MODULES)
            or not SLOW_FIXTURES.isdisjoint(getattr(item, "fixturenames", ()))
            or (module is not None and imports_a_slow_helper(module)))


def pytest_collection_modifyitems(config, items):
    for item in items:
        if is_slow(item):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def reg():
    return registry()


@pytest.fixture
def rng():
    return random.Random(1234)
