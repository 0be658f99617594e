"""torch tensors through DLPack, and the GPU path; skipped where torch or a CUDA device is missing."""

import numpy as np
import pytest

import hipdnn

from torch_cases import needs_cuda, torch


def matmul_graph(data_type):
    g = hipdnn.Graph(io_data_type=data_type, intermediate_data_type=torch.float32, compute_data_type=torch.float32)
    A = g.tensor(name="a", dim=[2, 8, 16], data_type=data_type)
    B = g.tensor(name="b", dim=[2, 16, 4], data_type=data_type)
    C = g.matmul(A, B)
    C.set_output(True)
    return g, A, B, C


def test_cpu_torch_tensors_are_used_in_place(handle):
    g, A, B, C = matmul_graph(torch.float32)
    g.build(handle)
    a, b = torch.randn(2, 8, 16), torch.randn(2, 16, 4)
    c = torch.zeros(2, 8, 4)
    g.execute({A: a, B: b, C: c})
    torch.testing.assert_close(c, a @ b, rtol=1e-5, atol=1e-5)


def test_cpu_torch_tensors_that_require_grad_are_read(handle):
    # Tensor.__dlpack__ refuses them; execute reads their data as cudnn-frontend's data_ptr() does.
    g, A, B, C = matmul_graph(torch.float32)
    g.build(handle)
    a, b = torch.randn(2, 8, 16, requires_grad=True), torch.randn(2, 16, 4)
    c = torch.zeros(2, 8, 4)
    g.execute({A: a, B: b, C: c})
    torch.testing.assert_close(c, a.detach() @ b, rtol=1e-5, atol=1e-5)


def test_a_lazily_negated_torch_view_is_refused(handle):
    # Its memory holds the values before negation: reading it through DLPack would be silently wrong.
    g, A, B, C = matmul_graph(torch.float32)
    g.build(handle)
    negated = torch.randn(2, 8, 16)._neg_view()
    assert negated.is_neg()
    with pytest.raises(hipdnn.Error, match="negative bit set"):
        g.execute({A: negated, B: torch.randn(2, 16, 4), C: torch.zeros(2, 8, 4)})


def test_cpu_handle_refuses_a_cuda_tensor(handle):
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device visible to torch")
    g, A, B, C = matmul_graph(torch.float32)
    g.build(handle)
    with pytest.raises(hipdnn.Error, match="the handle is on the CPU"):
        g.execute({A: torch.randn(2, 8, 16, device="cuda"), B: torch.randn(2, 16, 4), C: torch.zeros(2, 8, 4)})


@needs_cuda
# fp32 is strict on the GPU (CUBLASLT_ENGINE without TF32): it must match to fp32 rounding.
@pytest.mark.parametrize("data_type", [torch.float32, torch.float16, torch.bfloat16])
def test_gpu_matmul_on_torch_current_stream(data_type):
    gpu = hipdnn.Handle("gpu")
    g, A, B, C = matmul_graph(data_type)
    g.build(gpu)
    a = torch.randn(2, 8, 16, device="cuda", dtype=data_type)
    b = torch.randn(2, 16, 4, device="cuda", dtype=data_type)
    c = torch.zeros(2, 8, 4, device="cuda", dtype=data_type)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        g.execute({A: a, B: b, C: c}, handle=gpu)
    stream.synchronize()
    tolerance = {torch.float32: 1e-5, torch.float16: 1e-2, torch.bfloat16: 4e-2}[data_type]
    expected = (a.double() @ b.double()).float()
    torch.testing.assert_close(c.float(), expected, rtol=tolerance, atol=tolerance)


@needs_cuda
def test_gpu_handle_refuses_a_host_array():
    gpu = hipdnn.Handle("gpu")
    g, A, B, C = matmul_graph(torch.float16)
    g.build(gpu)
    with pytest.raises(hipdnn.Error, match="the handle is on gpu:0"):
        g.execute({A: np.zeros((2, 8, 16), np.float16), B: torch.randn(2, 16, 4, device="cuda").half(),
                   C: torch.zeros(2, 8, 4, device="cuda").half()})
