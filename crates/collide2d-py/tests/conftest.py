import numpy as np
import pytest


@pytest.fixture
def rng():
    """A seeded generator: every random case is reproducible."""
    return np.random.default_rng(20261127)
