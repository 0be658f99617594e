"""hipdnn.torch against torch.nn.functional, forward and backward; skipped without torch."""

import pytest

torch = pytest.importorskip("torch")

import hipdnn.torch as hipdnn_torch  # noqa: E402


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


@pytest.mark.parametrize("stride, padding, dilation", [(1, 1, 1), (2, 0, 1), (1, 2, 2)])
def test_conv2d_forward_and_backward_match_torch(stride, padding, dilation):
    torch.manual_seed(1)
    x = torch.randn(2, 3, 9, 8, requires_grad=True)
    weight = torch.randn(4, 3, 3, 3, requires_grad=True)
    bias = torch.randn(4, requires_grad=True)

    y = hipdnn_torch.conv2d(x, weight, bias, stride=stride, padding=padding, dilation=dilation)
    expected = torch.nn.functional.conv2d(x, weight, bias, stride=stride, padding=padding, dilation=dilation)
    torch.testing.assert_close(y, expected, rtol=1e-4, atol=1e-4)

    dy = torch.randn_like(expected)
    grads = torch.autograd.grad(y, (x, weight, bias), dy)
    expected_grads = torch.autograd.grad(expected, (x, weight, bias), dy)
    for grad, expected_grad in zip(grads, expected_grads):
        torch.testing.assert_close(grad, expected_grad, rtol=1e-4, atol=1e-4)


def test_plans_are_cached_per_shape():
    hipdnn_torch.clear_cache()
    x, weight = torch.randn(1, 2, 5, 5), torch.randn(3, 2, 3, 3)
    hipdnn_torch.conv2d(x, weight, padding=1)
    hipdnn_torch.conv2d(torch.randn(1, 2, 5, 5), weight, padding=1)
    assert len(hipdnn_torch._plans) == 1
    hipdnn_torch.conv2d(torch.randn(2, 2, 5, 5), weight, padding=1)
    assert len(hipdnn_torch._plans) == 2


def explicit_attention(q, k, v, scale, causal):
    scores = q @ k.transpose(-2, -1) * scale
    if causal:
        mask = torch.ones(scores.shape[-2:], dtype=torch.bool).triu(1)
        scores = scores.masked_fill(mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


@pytest.mark.parametrize("causal", [False, True])
def test_scaled_dot_product_attention_forward_and_backward_match_torch(causal):
    torch.manual_seed(2)
    q = torch.randn(2, 3, 5, 8, requires_grad=True)
    k = torch.randn(2, 3, 7, 8, requires_grad=True)
    v = torch.randn(2, 3, 7, 8, requires_grad=True)
    o = hipdnn_torch.scaled_dot_product_attention(q, k, v, is_causal=causal)
    expected = explicit_attention(q, k, v, 8 ** -0.5, causal)
    torch.testing.assert_close(o, expected, rtol=1e-4, atol=1e-5)

    d_o = torch.randn_like(o)
    grads = torch.autograd.grad(o, (q, k, v), d_o)
    expected_grads = torch.autograd.grad(expected, (q, k, v), d_o)
    for grad, expected_grad in zip(grads, expected_grads):
        torch.testing.assert_close(grad, expected_grad, rtol=1e-4, atol=1e-4)
