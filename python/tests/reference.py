"""NumPy versions of the operations, written out plainly, that the tests compare against."""

import numpy as np


def conv2d(x, w, padding, stride, dilation=(1, 1)):
    """Cross-correlation of NCHW x with KCRS w, as deep-learning libraries define convolution."""
    n, c, h, width = x.shape
    k, _, r, s = w.shape
    padded = np.pad(x, ((0, 0), (0, 0), (padding[0], padding[0]), (padding[1], padding[1])))
    out_h = (h + 2 * padding[0] - dilation[0] * (r - 1) - 1) // stride[0] + 1
    out_w = (width + 2 * padding[1] - dilation[1] * (s - 1) - 1) // stride[1] + 1
    y = np.zeros((n, k, out_h, out_w), dtype=np.float64)
    for i in range(r):
        for j in range(s):
            rows = slice(i * dilation[0], i * dilation[0] + stride[0] * out_h, stride[0])
            cols = slice(j * dilation[1], j * dilation[1] + stride[1] * out_w, stride[1])
            patch = padded[:, :, rows, cols]  # n, c, out_h, out_w
            y += np.einsum("nchw,kc->nkhw", patch, w[:, :, i, j])
    return y


def softmax_attention(q, k, v, scale, causal=False):
    scores = np.einsum("bhqd,bhkd->bhqk", q.astype(np.float64), k.astype(np.float64)) * scale
    if causal:
        sq, skv = scores.shape[-2:]
        mask = np.arange(skv)[None, :] > np.arange(sq)[:, None]
        scores = np.where(mask, -np.inf, scores)
    row_max = scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores - row_max)
    total = weights.sum(axis=-1, keepdims=True)
    out = np.einsum("bhqk,bhkd->bhqd", weights / total, v.astype(np.float64))
    log_sum_exp = row_max + np.log(total)
    return out, log_sum_exp
