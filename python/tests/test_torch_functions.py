"""hipdnn.torch against torch, forward and backward, on the CPU and (where torch sees one) on a
CUDA device; the references are torch's own functions in float64 on the CPU. Skipped without torch."""

import pytest

from tolerances import attention_tolerance, fixed_tolerance, reduction_tolerance
from torch_cases import DEVICES, assert_close, needs_cuda, reference, torch

import hipdnn.torch as hipdnn_torch  # noqa: E402

F = torch.nn.functional


def test_layer_norm_forward_and_backward_match_torch():
    torch.manual_seed(0)
    x = torch.randn(3, 4, 6, dtype=torch.float32, requires_grad=True)
    weight = torch.randn(4, 6, requires_grad=True)
    bias = torch.randn(4, 6, requires_grad=True)
    dy = torch.randn(3, 4, 6)

    y = hipdnn_torch.layer_norm(x, (4, 6), weight, bias, eps=1e-5)
    grads = torch.autograd.grad(y, (x, weight, bias), dy)
    expected = torch.nn.functional.layer_norm(x, (4, 6), weight, bias, eps=1e-5)
    expected_grads = torch.autograd.grad(expected, (x, weight, bias), dy)

    torch.testing.assert_close(y, expected, rtol=1e-4, atol=1e-5)
    for grad, expected_grad in zip(grads, expected_grads):
        torch.testing.assert_close(grad, expected_grad, rtol=1e-4, atol=1e-4)


def test_layer_norm_rejects_mismatched_shapes():
    with pytest.raises(ValueError, match="disagree"):
        hipdnn_torch.layer_norm(torch.randn(2, 5), (4,), torch.ones(4), torch.zeros(4))


def conv_tolerances(x, weight, y_or_dy, dtype):
    """The test SDK's reduction tolerances of a convolution's output and gradients: y sums C*R*S
    products of x and weight, dx K*R*S of dy and weight, dw and dbias N*P*Q of dy and x (or dy)."""
    n, c = x.shape[:2]
    k, _, r, s = weight.shape
    spatial = y_or_dy.shape[2] * y_or_dy.shape[3]
    largest = {name: float(t.detach().abs().max()) for name, t in (("x", x), ("w", weight), ("dy", y_or_dy))}
    return {
        "y": reduction_tolerance("ConvolutionFwd", dtype, c * r * s, largest["x"] * largest["w"]),
        "dx": reduction_tolerance("ConvolutionBwd", dtype, k * r * s, largest["dy"] * largest["w"]),
        "dw": reduction_tolerance("ConvolutionWrw", dtype, n * spatial, largest["dy"] * largest["x"]),
        "dbias": reduction_tolerance("Pointwise", dtype, n * spatial, largest["dy"]),
    }


@pytest.mark.parametrize("stride, padding, dilation", [(1, 1, 1), (2, 0, 1), (1, 2, 2)])
@pytest.mark.parametrize("device", DEVICES)
def test_conv2d_forward_and_backward_match_torch(device, stride, padding, dilation):
    torch.manual_seed(1)
    x = torch.randn(2, 3, 9, 8, device=device, requires_grad=True)
    weight = torch.randn(4, 3, 3, 3, device=device, requires_grad=True)
    bias = torch.randn(4, device=device, requires_grad=True)
    inputs = (x, weight, bias)
    references = [reference(t) for t in inputs]

    y = hipdnn_torch.conv2d(x, weight, bias, stride=stride, padding=padding, dilation=dilation)
    expected = F.conv2d(*references, stride=stride, padding=padding, dilation=dilation)
    assert_close(y, expected, conv_tolerances(x, weight, expected, torch.float32)["y"], "y")

    dy = torch.randn(expected.shape, device=device)
    grads = torch.autograd.grad(y, inputs, dy)
    expected_grads = torch.autograd.grad(expected, references, dy.double().cpu())
    tolerances = conv_tolerances(x, weight, dy, torch.float32)
    for name, grad, expected_grad in zip(("dx", "dw", "dbias"), grads, expected_grads):
        assert_close(grad, expected_grad, tolerances[name], name)


CONV_BIAS_RELU_CASES = [
    pytest.param("cpu", torch.float32, torch.contiguous_format, id="cpu-float32-nchw"),
    pytest.param("cpu", torch.float32, torch.channels_last, id="cpu-float32-nhwc"),
    pytest.param("cuda", torch.float32, torch.contiguous_format, marks=needs_cuda, id="cuda-float32-nchw"),
    pytest.param("cuda", torch.float16, torch.contiguous_format, marks=needs_cuda, id="cuda-float16-nchw"),
    pytest.param("cuda", torch.float16, torch.channels_last, marks=needs_cuda, id="cuda-float16-nhwc"),
]


@pytest.mark.parametrize("device, dtype, memory_format", CONV_BIAS_RELU_CASES)
def test_conv2d_bias_relu_fused_matches_torch(device, dtype, memory_format):
    torch.manual_seed(3)
    x = torch.randn(2, 16, 8, 8, device=device, dtype=dtype).contiguous(memory_format=memory_format)
    weight = torch.randn(32, 16, 3, 3, device=device, dtype=dtype).contiguous(memory_format=memory_format)
    bias = torch.randn(32, device=device, dtype=dtype)
    inputs = [t.requires_grad_() for t in (x, weight, bias)]
    references = [reference(t) for t in inputs]

    y = hipdnn_torch.conv2d(x, weight, bias, padding=1, activation="relu")
    expected = F.relu(F.conv2d(*references, padding=1))
    assert y.dtype == dtype and y.is_contiguous(memory_format=memory_format)
    assert_close(y, expected, conv_tolerances(x, weight, expected, dtype)["y"], "y")
    assert (y == 0).any() and (y > 0).any()

    dy = torch.randn(expected.shape, device=device, dtype=dtype)
    grads = torch.autograd.grad(y, inputs, dy)
    expected_grads = torch.autograd.grad(expected, references, dy.double().cpu())
    tolerances = conv_tolerances(x, weight, dy, dtype)
    for name, grad, expected_grad in zip(("dx", "dw", "dbias"), grads, expected_grads):
        assert_close(grad, expected_grad, tolerances[name], name)


class _EveryFusedGraphDeclined(set):
    """hipdnn.torch's record of declined fused graphs, claiming every conv graph with an epilogue."""

    def __contains__(self, key):
        return key[0] == "conv_fprop"


def test_conv2d_runs_the_epilogue_as_its_own_plan_where_the_fused_graph_is_declined(monkeypatch):
    monkeypatch.setattr(hipdnn_torch, "_unfused", _EveryFusedGraphDeclined())
    hipdnn_torch.clear_cache()
    torch.manual_seed(6)
    x, weight, bias = torch.randn(2, 16, 8, 8), torch.randn(32, 16, 3, 3), torch.randn(32)
    y = hipdnn_torch.conv2d(x, weight, bias, padding=1, activation="relu")
    assert sorted(key[0] for key in hipdnn_torch._plans) == ["conv_fprop", "epilogue"]
    expected = F.relu(F.conv2d(reference(x), reference(weight), reference(bias), padding=1))
    assert_close(y, expected, conv_tolerances(x, weight, expected, torch.float32)["y"], "y")


def test_conv2d_rejects_an_unknown_activation():
    with pytest.raises(ValueError, match="activation 'gelu'"):
        hipdnn_torch.conv2d(torch.randn(1, 2, 5, 5), torch.randn(3, 2, 3, 3), activation="gelu")


def test_plans_are_cached_per_shape():
    hipdnn_torch.clear_cache()
    x, weight = torch.randn(1, 2, 5, 5), torch.randn(3, 2, 3, 3)
    hipdnn_torch.conv2d(x, weight, padding=1)
    hipdnn_torch.conv2d(torch.randn(1, 2, 5, 5), weight, padding=1)
    assert len(hipdnn_torch._plans) == 1
    hipdnn_torch.conv2d(torch.randn(2, 2, 5, 5), weight, padding=1)
    assert len(hipdnn_torch._plans) == 2


BATCH_NORM_CASES = [
    pytest.param("cpu", torch.float32, torch.contiguous_format, id="cpu-float32-nchw"),
    pytest.param("cpu", torch.float32, torch.channels_last, id="cpu-float32-nhwc"),
    pytest.param("cuda", torch.float32, torch.contiguous_format, marks=needs_cuda, id="cuda-float32-nchw"),
    pytest.param("cuda", torch.float16, torch.channels_last, marks=needs_cuda, id="cuda-float16-nhwc"),
    pytest.param("cuda", torch.bfloat16, torch.channels_last, marks=needs_cuda, id="cuda-bfloat16-nhwc"),
]


def batch_norm_inputs(device, dtype, memory_format):
    torch.manual_seed(4)
    x = (torch.randn(4, 16, 6, 6, device=device) * 2 + 0.5).to(dtype).contiguous(memory_format=memory_format)
    # Per-channel parameters and statistics stay float32, as with torch's mixed precision.
    weight = torch.rand(16, device=device) + 0.5
    bias = torch.randn(16, device=device)
    running_mean = torch.randn(16, device=device) * 0.1
    running_var = torch.rand(16, device=device) + 0.5
    return x.requires_grad_(), weight.requires_grad_(), bias.requires_grad_(), running_mean, running_var


@pytest.mark.parametrize("device, dtype, memory_format", BATCH_NORM_CASES)
def test_batch_norm_training_matches_torch(device, dtype, memory_format):
    x, weight, bias, running_mean, running_var = batch_norm_inputs(device, dtype, memory_format)
    references = [reference(t) for t in (x, weight, bias)]
    expected_mean, expected_var = reference(running_mean), reference(running_var)

    y = hipdnn_torch.batch_norm(x, running_mean, running_var, weight, bias, training=True, momentum=0.1, eps=1e-5)
    expected = F.batch_norm(references[0], expected_mean, expected_var, references[1], references[2],
                            training=True, momentum=0.1, eps=1e-5)
    assert y.dtype == dtype and y.is_contiguous(memory_format=memory_format)
    assert_close(y, expected, fixed_tolerance("BatchnormTraining", dtype), "y")
    # The running variance is updated with the unbiased batch variance, as torch does.
    assert_close(running_mean, expected_mean, fixed_tolerance("BatchnormTraining", torch.float32), "running_mean")
    assert_close(running_var, expected_var, fixed_tolerance("BatchnormTraining", torch.float32), "running_var")

    dy = torch.randn(expected.shape, device=device).to(dtype)
    grads = torch.autograd.grad(y, (x, weight, bias), dy)
    expected_grads = torch.autograd.grad(expected, references, dy.double().cpu())
    for name, grad, expected_grad in zip(("dx", "dweight", "dbias"), grads, expected_grads):
        # dweight and dbias sum N*H*W = 144 terms.
        tolerance = fixed_tolerance("BatchnormBackward", grad.dtype) if name == "dx" else reduction_tolerance(
            "BatchnormBackward", torch.float32, 144, 4.0 * 6.0)
        assert_close(grad, expected_grad, tolerance, name)


@pytest.mark.parametrize("device, dtype, memory_format", BATCH_NORM_CASES)
def test_batch_norm_inference_matches_torch(device, dtype, memory_format):
    x, weight, bias, running_mean, running_var = batch_norm_inputs(device, dtype, memory_format)
    references = [reference(t) for t in (x, weight, bias)]
    mean_before, var_before = running_mean.clone(), running_var.clone()

    y = hipdnn_torch.batch_norm(x, running_mean, running_var, weight, bias, training=False, eps=1e-5)
    expected = F.batch_norm(references[0], reference(running_mean), reference(running_var), references[1],
                            references[2], training=False, eps=1e-5)
    assert_close(y, expected, fixed_tolerance("BatchnormInference", dtype), "y")
    assert torch.equal(running_mean, mean_before) and torch.equal(running_var, var_before)

    dy = torch.randn(expected.shape, device=device).to(dtype)
    grads = torch.autograd.grad(y, (x, weight, bias), dy)
    expected_grads = torch.autograd.grad(expected, references, dy.double().cpu())
    for name, grad, expected_grad in zip(("dx", "dweight", "dbias"), grads, expected_grads):
        tolerance = fixed_tolerance("Pointwise", grad.dtype) if name == "dx" else reduction_tolerance(
            "Pointwise", torch.float32, 144, 4.0 * 6.0)
        assert_close(grad, expected_grad, tolerance, name)


def test_batch_norm_without_running_statistics_uses_the_batch():
    x, weight, bias, _, _ = batch_norm_inputs("cpu", torch.float32, torch.contiguous_format)
    y = hipdnn_torch.batch_norm(x, None, None, weight, bias, training=True)
    expected = F.batch_norm(reference(x), None, None, reference(weight), reference(bias), training=True)
    assert_close(y, expected, fixed_tolerance("BatchnormTraining", torch.float32), "y")


@pytest.mark.parametrize("arguments, message", [
    ({"x": torch.randn(4, 16)}, r"x must be \(N, C, H, W\), not \(4, 16\)"),
    ({"weight": torch.ones(8)}, r"weight has shape \(8,\), not \(16,\)"),
    ({"running_var": None}, "both running_mean and running_var or neither"),
    ({"running_mean": None, "running_var": None, "training": False}, "inference .* running_mean"),
    ({"momentum": None}, "momentum=None"),
])
def test_batch_norm_rejects_bad_arguments(arguments, message):
    call = dict(x=torch.randn(2, 16, 3, 3), running_mean=torch.zeros(16), running_var=torch.ones(16),
                weight=torch.ones(16), bias=torch.zeros(16), training=True, momentum=0.1)
    call.update(arguments)
    with pytest.raises(ValueError, match=message):
        hipdnn_torch.batch_norm(**call)


def reference_attention(q, k, v, causal):
    """torch's scaled_dot_product_attention (softmax written out on a torch without it), grouped
    key/value heads repeated for their query heads."""
    groups = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(groups, 1), v.repeat_interleave(groups, 1)
    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    scores = q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5
    if causal:
        scores = scores.masked_fill(torch.ones(scores.shape[-2:], dtype=torch.bool).triu(1), float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


ATTENTION_CASES = [
    pytest.param("cpu", torch.float32, (2, 3, 5, 8), (2, 3, 7, 8), id="cpu-float32"),
    pytest.param("cpu", torch.float32, (2, 4, 6, 8), (2, 2, 6, 8), id="cpu-float32-gqa"),
] + [
    pytest.param("cuda", dtype, (2, 4, 128, 64), (2, kv_heads, 128, 64), marks=needs_cuda,
                 id=f"cuda-{str(dtype)[6:]}-{'gqa' if kv_heads == 2 else 'mha'}")
    for dtype in (torch.bfloat16, torch.float16) for kv_heads in (4, 2)
]


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("device, dtype, q_shape, kv_shape", ATTENTION_CASES)
def test_scaled_dot_product_attention_forward_and_backward_match_torch(device, dtype, q_shape, kv_shape, causal):
    torch.manual_seed(2)
    q = torch.randn(q_shape, device=device, dtype=dtype, requires_grad=True)
    k = torch.randn(kv_shape, device=device, dtype=dtype, requires_grad=True)
    v = torch.randn(kv_shape, device=device, dtype=dtype, requires_grad=True)
    references = [reference(t) for t in (q, k, v)]
    o = hipdnn_torch.scaled_dot_product_attention(q, k, v, is_causal=causal)
    expected = reference_attention(*references, causal)
    assert_close(o, expected, attention_tolerance("Sdpa", dtype, kv_shape[2]), "o")

    d_o = torch.randn_like(o)
    grads = torch.autograd.grad(o, (q, k, v), d_o)
    expected_grads = torch.autograd.grad(expected, references, d_o.double().cpu())
    for name, grad, expected_grad in zip(("dq", "dk", "dv"), grads, expected_grads):
        assert_close(grad, expected_grad, attention_tolerance("SdpaBackward", dtype, kv_shape[2]), name)
