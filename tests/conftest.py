import random

import pytest

from runner.plugins import registry


@pytest.fixture(scope="session")
def reg():
    return registry()


@pytest.fixture
def rng():
    return random.Random(1234)
