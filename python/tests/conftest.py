import numpy as np
import pytest

import hipdnn


@pytest.fixture
def handle():
    with hipdnn.Handle("cpu") as cpu_handle:
        yield cpu_handle


@pytest.fixture
def rng():
    return np.random.default_rng(1234)
