import glob
import os

import numpy as np
import pytest

import hipdnn

REFERENCE_PLUGIN = os.path.join(hipdnn.default_plugin_dir, "libcpu_reference.so")
GPU_PLUGINS = sorted(
    path
    for path in glob.glob(os.path.join(hipdnn.default_plugin_dir, "*.so"))
    if "cuda" in os.path.basename(path) or "cudnn" in os.path.basename(path)
)
PINNED_PLUGINS = [REFERENCE_PLUGIN, *GPU_PLUGINS]

# CPU results are compared with NumPy on the CPU reference engine, whatever other CPU plugins the
# build tree has: handles of this session load that plugin and the GPU plugins only.
hipdnn.set_plugin_paths(PINNED_PLUGINS, "absolute")


@pytest.fixture
def handle():
    with hipdnn.Handle("cpu") as cpu_handle:
        yield cpu_handle


@pytest.fixture
def rng():
    return np.random.default_rng(1234)
