import os

import numpy as np
import pytest

import hipdnn

REFERENCE_PLUGIN = os.path.join(hipdnn.default_plugin_dir, "libcpu_reference.so")

# The results are compared with NumPy on the CPU reference engine, whatever other plugins the build
# tree has: handles of this session load that plugin only (tests that want every plugin say so).
hipdnn.set_plugin_paths([REFERENCE_PLUGIN], "absolute")


@pytest.fixture
def handle():
    with hipdnn.Handle("cpu") as cpu_handle:
        yield cpu_handle


@pytest.fixture
def rng():
    return np.random.default_rng(1234)
