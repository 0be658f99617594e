"""Graphs built from NumPy arrays, run on the CPU reference engine, compared with NumPy math."""

import numpy as np
import pytest

import hipdnn
from reference import conv2d, softmax_attention


def test_conv_bias_relu(handle, rng):
    x = rng.standard_normal((2, 3, 7, 6), dtype=np.float32)
    w = rng.standard_normal((4, 3, 3, 3), dtype=np.float32)
    b = rng.standard_normal((1, 4, 1, 1), dtype=np.float32)
    g = hipdnn.Graph(
        io_data_type=np.float32,
        intermediate_data_type=np.float32,
        compute_data_type=hipdnn.data_type.FLOAT,
        name="conv_bias_relu",
    )
    X, W, B = g.tensor_like(x, "x"), g.tensor_like(w, "w"), g.tensor_like(b, "b")
    conv = g.conv_fprop(image=X, weight=W, padding=[1, 1], stride=[2, 1], dilation=[1, 1])
    Y = g.relu(input=g.add(a=conv, b=B))
    Y.set_output(True)
    g.build(handle)

    expected = np.maximum(conv2d(x, w, (1, 1), (2, 1)) + b, 0)
    assert Y.dim == list(expected.shape)
    y = np.full(expected.shape, np.nan, dtype=np.float32)
    g.execute({X: x, W: w, B: b, Y: y}, handle=handle)
    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-4)


def test_conv_dgrad_and_wgrad_match_the_adjoints_of_fprop(handle, rng):
    x = rng.standard_normal((1, 2, 5, 5), dtype=np.float32)
    w = rng.standard_normal((3, 2, 3, 3), dtype=np.float32)
    dy = rng.standard_normal((1, 3, 5, 5), dtype=np.float32)
    g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32)
    DY, W, X = g.tensor_like(dy, "dy"), g.tensor_like(w, "w"), g.tensor_like(x, "x")
    DX = g.conv_dgrad(loss=DY, filter=W, padding=[1, 1], stride=[1, 1], dilation=[1, 1])
    DX.set_dim(list(x.shape)).set_output(True)
    DW = g.conv_wgrad(image=X, loss=DY, padding=[1, 1], stride=[1, 1], dilation=[1, 1])
    DW.set_dim(list(w.shape)).set_output(True)
    g.build(handle)
    dx = np.zeros_like(x)
    dw = np.zeros_like(w)
    g.execute({DY: dy, W: w, X: x, DX: dx, DW: dw}, handle=handle)
    # <conv(x, w), dy> is linear in x and in w: its gradients are dx and dw.
    inner = np.sum(conv2d(x, w, (1, 1), (1, 1)) * dy)
    np.testing.assert_allclose(np.sum(dx * x), inner, rtol=1e-4)
    np.testing.assert_allclose(np.sum(dw * w), inner, rtol=1e-4)
    # One element by finite difference of the linear map.
    bump = np.zeros_like(x)
    bump[0, 1, 2, 3] = 1
    np.testing.assert_allclose(dx[0, 1, 2, 3], np.sum(conv2d(bump, w, (1, 1), (1, 1)) * dy), rtol=1e-4, atol=1e-5)


def test_batched_matmul_with_broadcast(handle, rng):
    a = rng.standard_normal((3, 4, 5), dtype=np.float32)
    b = rng.standard_normal((1, 5, 2), dtype=np.float32)
    g = hipdnn.Graph(io_data_type=hipdnn.data_type.FLOAT, compute_data_type=hipdnn.data_type.FLOAT)
    A, B = g.tensor_like(a, "a"), g.tensor_like(b, "b")
    C = g.matmul(A=A, B=B)
    C.set_output(True)
    g.build(handle)
    c = np.zeros((3, 4, 2), dtype=np.float32)
    g.execute({A: a, B: b, C: c}, handle=handle)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "op, numpy_op",
    [
        ("mul", np.multiply),
        ("sub", np.subtract),
        ("max", np.maximum),
        ("div", np.divide),
    ],
)
def test_binary_pointwise_with_broadcast(handle, rng, op, numpy_op):
    a = rng.uniform(0.5, 2.0, (2, 3, 4)).astype(np.float32)
    b = rng.uniform(0.5, 2.0, (1, 3, 1)).astype(np.float32)
    g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32)
    A, B = g.tensor_like(a), g.tensor_like(b)
    C = getattr(g, op)(A, B)
    C.set_output(True)
    g.build(handle)
    c = np.zeros_like(a)
    g.execute({A: a, B: b, C: c}, handle=handle)
    np.testing.assert_allclose(c, numpy_op(a, b), rtol=1e-6)


def test_unary_chain_and_generic_pointwise(handle, rng):
    x = rng.standard_normal((4, 8), dtype=np.float32)
    g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32)
    X = g.tensor_like(x, "x")
    S = g.sigmoid(X)
    T = g.pointwise(hipdnn.pointwise_mode.TANH_FWD, S)
    L = g.relu(X, negative_slope=0.1)
    for tensor in (S, T, L):
        tensor.set_output(True)
    g.build(handle)
    s, t, leaky = (np.zeros_like(x) for _ in range(3))
    g.execute({X: x, S: s, T: t, L: leaky}, handle=handle)
    expected_sigmoid = 1 / (1 + np.exp(-x))
    np.testing.assert_allclose(s, expected_sigmoid, rtol=1e-5)
    np.testing.assert_allclose(t, np.tanh(expected_sigmoid), rtol=1e-5)
    np.testing.assert_allclose(leaky, np.where(x > 0, x, 0.1 * x), rtol=1e-6)


def test_layernorm_training_writes_statistics(handle, rng):
    x = rng.standard_normal((4, 3, 5), dtype=np.float32)
    scale = rng.standard_normal((1, 3, 5), dtype=np.float32)
    bias = rng.standard_normal((1, 3, 5), dtype=np.float32)
    epsilon = 1e-5
    g = hipdnn.Graph(io_data_type=np.float32, intermediate_data_type=np.float32, compute_data_type=np.float32)
    X, S, B = g.tensor_like(x, "x"), g.tensor_like(scale, "scale"), g.tensor_like(bias, "bias")
    Y, MEAN, INV_VAR = g.layernorm(
        input=X, scale=S, bias=B, epsilon=epsilon, norm_forward_phase=hipdnn.norm_forward_phase.TRAINING
    )
    for tensor in (Y, MEAN, INV_VAR):
        tensor.set_output(True)
    g.build(handle)
    y = np.zeros_like(x)
    mean = np.zeros((4, 1, 1), np.float32)
    inv_var = np.zeros((4, 1, 1), np.float32)
    g.execute({X: x, S: scale, B: bias, Y: y, MEAN: mean, INV_VAR: inv_var}, handle=handle)

    expected_mean = x.mean(axis=(1, 2), keepdims=True)
    expected_inv_var = 1 / np.sqrt(x.var(axis=(1, 2), keepdims=True) + epsilon)
    np.testing.assert_allclose(mean, expected_mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(inv_var, expected_inv_var, rtol=1e-4)
    np.testing.assert_allclose(y, (x - expected_mean) * expected_inv_var * scale + bias, rtol=1e-4, atol=1e-5)


def test_layernorm_inference_has_no_statistics(handle, rng):
    g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32)
    X = g.tensor(name="x", dim=[2, 6], data_type=np.float32)
    S = g.tensor(name="s", dim=[1, 6], data_type=np.float32)
    B = g.tensor(name="b", dim=[1, 6], data_type=np.float32)
    Y, MEAN, INV_VAR = g.layernorm(X, S, B, epsilon=1e-5)
    assert MEAN is None and INV_VAR is None
    Y.set_output(True)
    g.build(handle)


def test_rmsnorm(handle, rng):
    x = rng.standard_normal((3, 8), dtype=np.float32)
    scale = rng.standard_normal((1, 8), dtype=np.float32)
    g = hipdnn.Graph(io_data_type=np.float32, intermediate_data_type=np.float32, compute_data_type=np.float32)
    X, S = g.tensor_like(x), g.tensor_like(scale)
    Y, INV_RMS = g.rmsnorm(input=X, scale=S, epsilon=1e-6, norm_forward_phase=hipdnn.norm_forward_phase.TRAINING)
    Y.set_output(True)
    INV_RMS.set_output(True)
    g.build(handle)
    y = np.zeros_like(x)
    inv_rms = np.zeros((3, 1), np.float32)
    g.execute({X: x, S: scale, Y: y, INV_RMS: inv_rms}, handle=handle)
    expected_inv_rms = 1 / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(inv_rms, expected_inv_rms, rtol=1e-5)
    np.testing.assert_allclose(y, x * expected_inv_rms * scale, rtol=1e-5, atol=1e-6)


def test_layernorm_backward(handle, rng):
    x = rng.standard_normal((4, 3, 5), dtype=np.float32)
    dy = rng.standard_normal((4, 3, 5), dtype=np.float32)
    scale = rng.standard_normal((1, 3, 5), dtype=np.float32)
    mean = x.mean(axis=(1, 2), keepdims=True)
    inv_var = (1 / np.sqrt(x.var(axis=(1, 2), keepdims=True) + 1e-5)).astype(np.float32)
    g = hipdnn.Graph(io_data_type=np.float32, intermediate_data_type=np.float32, compute_data_type=np.float32)
    DY, X, S = g.tensor_like(dy, "dy"), g.tensor_like(x, "x"), g.tensor_like(scale, "scale")
    MEAN, INV_VAR = g.tensor_like(mean, "mean"), g.tensor_like(inv_var, "inv_var")
    DX, DSCALE, DBIAS = g.layernorm_backward(grad=DY, input=X, scale=S, mean=MEAN, inv_variance=INV_VAR)
    for tensor in (DX, DSCALE, DBIAS):
        tensor.set_output(True)
    g.build(handle)
    dx = np.zeros_like(x)
    dscale = np.zeros_like(scale)
    dbias = np.zeros_like(scale)
    g.execute({DY: dy, X: x, S: scale, MEAN: mean, INV_VAR: inv_var, DX: dx, DSCALE: dscale, DBIAS: dbias},
              handle=handle)

    xhat = (x - mean) * inv_var
    gs = dy * scale
    expected_dx = inv_var * (gs - gs.mean(axis=(1, 2), keepdims=True)
                             - xhat * (gs * xhat).mean(axis=(1, 2), keepdims=True))
    np.testing.assert_allclose(dx, expected_dx, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dscale, (dy * xhat).sum(axis=0, keepdims=True), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dbias, dy.sum(axis=0, keepdims=True), rtol=1e-5, atol=1e-6)


def test_batchnorm_inference(handle, rng):
    x = rng.standard_normal((2, 3, 4, 4), dtype=np.float32)
    channel = lambda: rng.uniform(0.5, 1.5, (1, 3, 1, 1)).astype(np.float32)  # noqa: E731
    mean, inv_var, scale, bias = channel(), channel(), channel(), channel()
    g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32)
    X, M, V, S, B = (g.tensor_like(a) for a in (x, mean, inv_var, scale, bias))
    Y = g.batchnorm_inference(input=X, mean=M, inv_variance=V, scale=S, bias=B)
    Y.set_output(True)
    g.build(handle)
    y = np.zeros_like(x)
    g.execute({X: x, M: mean, V: inv_var, S: scale, B: bias, Y: y}, handle=handle)
    np.testing.assert_allclose(y, (x - mean) * inv_var * scale + bias, rtol=1e-5, atol=1e-6)


def test_batchnorm_training_with_running_statistics_and_backward(handle, rng):
    x = rng.standard_normal((4, 2, 3, 3), dtype=np.float32)
    scale = rng.uniform(0.5, 1.5, (1, 2, 1, 1)).astype(np.float32)
    bias = rng.standard_normal((1, 2, 1, 1), dtype=np.float32)
    running_mean = np.zeros((1, 2, 1, 1), np.float32)
    running_var = np.ones((1, 2, 1, 1), np.float32)
    epsilon, momentum = 1e-5, 0.1
    g = hipdnn.Graph(io_data_type=np.float32, intermediate_data_type=np.float32, compute_data_type=np.float32)
    X, S, B = g.tensor_like(x, "x"), g.tensor_like(scale, "scale"), g.tensor_like(bias, "bias")
    RM, RV = g.tensor_like(running_mean, "rm"), g.tensor_like(running_var, "rv")
    Y, MEAN, INV_VAR, NEXT_RM, NEXT_RV = g.batchnorm(
        input=X, scale=S, bias=B, epsilon=epsilon, in_running_mean=RM, in_running_var=RV, momentum=momentum
    )
    for tensor in (Y, MEAN, INV_VAR, NEXT_RM, NEXT_RV):
        tensor.set_output(True)
    g.build(handle)
    y = np.zeros_like(x)
    stats = {name: np.zeros((1, 2, 1, 1), np.float32) for name in ("mean", "inv_var", "rm", "rv")}
    g.execute(
        {X: x, S: scale, B: bias, RM: running_mean, RV: running_var, Y: y, MEAN: stats["mean"],
         INV_VAR: stats["inv_var"], NEXT_RM: stats["rm"], NEXT_RV: stats["rv"]},
        handle=handle,
    )
    batch_mean = x.mean(axis=(0, 2, 3), keepdims=True)
    batch_var = x.var(axis=(0, 2, 3), keepdims=True)
    count = x.size // 2
    np.testing.assert_allclose(stats["mean"], batch_mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(stats["inv_var"], 1 / np.sqrt(batch_var + epsilon), rtol=1e-4)
    np.testing.assert_allclose(y, (x - batch_mean) / np.sqrt(batch_var + epsilon) * scale + bias, rtol=1e-4,
                               atol=1e-5)
    np.testing.assert_allclose(stats["rm"], momentum * batch_mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(stats["rv"], (1 - momentum) + momentum * batch_var * count / (count - 1),
                               rtol=1e-4)

    dy = rng.standard_normal(x.shape, dtype=np.float32)
    back = hipdnn.Graph(io_data_type=np.float32, intermediate_data_type=np.float32, compute_data_type=np.float32)
    DYt, Xt, St = back.tensor_like(dy), back.tensor_like(x), back.tensor_like(scale)
    Mt, Vt = back.tensor_like(stats["mean"]), back.tensor_like(stats["inv_var"])
    DX, DSCALE, DBIAS = back.batchnorm_backward(grad=DYt, input=Xt, scale=St, mean=Mt, inv_variance=Vt)
    for tensor in (DX, DSCALE, DBIAS):
        tensor.set_output(True)
    back.build(handle)
    dx, dscale, dbias = np.zeros_like(x), np.zeros_like(scale), np.zeros_like(bias)
    back.execute({DYt: dy, Xt: x, St: scale, Mt: stats["mean"], Vt: stats["inv_var"], DX: dx, DSCALE: dscale,
                  DBIAS: dbias}, handle=handle)
    x_hat = (x - batch_mean) * stats["inv_var"]
    np.testing.assert_allclose(dbias, dy.sum(axis=(0, 2, 3), keepdims=True), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dscale, (dy * x_hat).sum(axis=(0, 2, 3), keepdims=True), rtol=1e-4, atol=1e-5)
    expected_dx = scale * stats["inv_var"] / count * (count * dy - dy.sum(axis=(0, 2, 3), keepdims=True)
                                                      - x_hat * (dy * x_hat).sum(axis=(0, 2, 3), keepdims=True))
    np.testing.assert_allclose(dx, expected_dx, rtol=1e-3, atol=1e-4)


def test_reduction_sums_the_dims_of_extent_one(handle, rng):
    x = rng.standard_normal((3, 4, 5), dtype=np.float32)
    g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32)
    X = g.tensor_like(x)
    Y = g.reduction(input=X, mode=hipdnn.reduction_mode.ADD)
    Y.set_dim([3, 1, 5]).set_output(True)
    g.build(handle)
    y = np.zeros((3, 1, 5), np.float32)
    g.execute({X: x, Y: y}, handle=handle)
    np.testing.assert_allclose(y, x.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-6)


def test_max_pooling(handle, rng):
    x = rng.standard_normal((1, 2, 4, 4), dtype=np.float32)
    g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32)
    X = g.tensor_like(x)
    Y, INDEX = g.resample(input=X, mode=hipdnn.resample_mode.MAXPOOL, window=[2, 2], stride=[2, 2],
                          pre_padding=[0, 0], post_padding=[0, 0])
    assert INDEX is None
    Y.set_output(True)
    g.build(handle)
    y = np.zeros((1, 2, 2, 2), np.float32)
    g.execute({X: x, Y: y}, handle=handle)
    np.testing.assert_array_equal(y, x.reshape(1, 2, 2, 2, 2, 2).max(axis=(3, 5)))


@pytest.mark.parametrize("causal", [False, True])
def test_sdpa_forward_matches_softmax_attention(handle, rng, causal):
    batch, heads, seq_q, seq_kv, head_dim = 2, 3, 5, 7, 4
    q = rng.standard_normal((batch, heads, seq_q, head_dim), dtype=np.float32)
    k = rng.standard_normal((batch, heads, seq_kv, head_dim), dtype=np.float32)
    v = rng.standard_normal((batch, heads, seq_kv, head_dim), dtype=np.float32)
    scale = 1 / np.sqrt(head_dim)
    g = hipdnn.Graph(io_data_type=np.float32, intermediate_data_type=np.float32, compute_data_type=np.float32)
    Q, K, V = g.tensor_like(q, "q"), g.tensor_like(k, "k"), g.tensor_like(v, "v")
    O, STATS = g.sdpa(q=Q, k=K, v=V, attn_scale=scale, generate_stats=True, use_causal_mask=causal)
    O.set_output(True)
    STATS.set_output(True)
    g.build(handle)
    o = np.zeros_like(q)
    stats = np.zeros((batch, heads, seq_q, 1), np.float32)
    g.execute({Q: q, K: k, V: v, O: o, STATS: stats}, handle=handle)
    expected_o, expected_stats = softmax_attention(q, k, v, scale, causal)
    np.testing.assert_allclose(o, expected_o, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(stats, expected_stats, rtol=1e-4, atol=1e-5)


def test_sdpa_backward_matches_finite_differences(handle, rng):
    shape = (1, 2, 3, 4)
    q, k, v = (rng.standard_normal(shape, dtype=np.float32) for _ in range(3))
    d_o = rng.standard_normal(shape, dtype=np.float32)
    scale = 0.5
    o, stats = softmax_attention(q, k, v, scale)
    g = hipdnn.Graph(io_data_type=np.float32, intermediate_data_type=np.float32, compute_data_type=np.float32)
    Q, K, V, O, DO = (g.tensor_like(a) for a in (q, k, v, o.astype(np.float32), d_o))
    STATS = g.tensor(name="stats", dim=[1, 2, 3, 1], data_type=np.float32)
    DQ, DK, DV = g.sdpa_backward(q=Q, k=K, v=V, o=O, dO=DO, stats=STATS, attn_scale=scale)
    for tensor in (DQ, DK, DV):
        tensor.set_output(True)
    g.build(handle)
    dq, dk, dv = (np.zeros(shape, np.float32) for _ in range(3))
    g.execute({Q: q, K: k, V: v, O: o.astype(np.float32), DO: d_o, STATS: stats.astype(np.float32), DQ: dq,
               DK: dk, DV: dv}, handle=handle)
    # dV is exact: softmax weights transposed times dO.
    scores = np.einsum("bhqd,bhkd->bhqk", q, k) * scale
    weights = np.exp(scores - stats)
    np.testing.assert_allclose(dv, np.einsum("bhqk,bhqd->bhkd", weights, d_o), rtol=1e-4, atol=1e-5)
    # dQ by central differences of <attention(q), dO>.
    step = 1e-3
    for index in [(0, 0, 0, 0), (0, 1, 2, 3)]:
        plus, minus = q.astype(np.float64), q.astype(np.float64)
        plus[index] += step
        minus[index] -= step
        numeric = (np.sum(softmax_attention(plus, k, v, scale)[0] * d_o)
                   - np.sum(softmax_attention(minus, k, v, scale)[0] * d_o)) / (2 * step)
        np.testing.assert_allclose(dq[index], numeric, rtol=1e-3, atol=1e-4)
