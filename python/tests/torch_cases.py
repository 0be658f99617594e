"""What the hipdnn.torch tests share: the devices they run on, the float64 reference copies and
the comparison. Importing it skips the importing module where torch is missing."""

import pytest

torch = pytest.importorskip("torch")

needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device visible to torch")
DEVICES = [pytest.param("cpu"), pytest.param("cuda", marks=needs_cuda)]


def reference(t):
    """A float64 CPU leaf copy of t, requiring grad as t does: the reference computation's input."""
    return t.detach().double().cpu().requires_grad_(t.requires_grad)


def assert_close(actual, expected, tolerance, what):
    absolute, relative = tolerance
    torch.testing.assert_close(actual.detach().double().cpu(), expected.detach().double(), atol=absolute,
                               rtol=relative, msg=lambda message: f"{what}: {message}")
