"""The PyTorch peers of CUDA_NORM_ENGINE on the same GPU, eager (cuDNN / ATen kernels) and
torch.compile (Triton, compiled for each shape: dynamic=False), for the problems of
norm_peers.batch: layer norm and RMS norm over the last dim of bf16 rows (their backward too:
RMS norm eager through autograd, layer norm eager through ATen's layer norm backward from the
saved statistics, torch.compile of the explicit formulas), batch norm inference and training
(alone and + relu) and backward of a bf16 NHWC activation, and a plain copy (the bandwidth
ceiling). Bytes count each activation-sized tensor once (x and y; dy, x and dx for backward), as
hipdnn-driver counts non-virtual tensors (the affine parameters, their gradients and the
statistics are < 0.1%). Prints BENCH lines (torch_peers.py).
"""

import torch
import torch.nn.functional as F

from torch_peers import median_ms, report

ROWS = [(16384, 4096), (65536, 1024)]
BN_SHAPE = (64, 256, 56, 56)
EPSILON = 1e-5


def layernorm(x, w, b):
    return F.layer_norm(x, (x.shape[-1],), w, b, EPSILON)


def rmsnorm(x, w):
    return F.rms_norm(x, (x.shape[-1],), w, EPSILON)


def rmsnorm_backward(dy, x, w, inv_rms):
    """dx and dscale of y = x * inv_rms * w, from the saved inv_rms, in fp32."""
    xf = x.float()
    g = dy.float() * w
    dot = (g * xf).mean(-1, keepdim=True)
    dx = (inv_rms * (g - xf * inv_rms * inv_rms * dot)).to(x.dtype)
    dw = (dy.float() * xf * inv_rms).sum(0)
    return dx, dw


def rmsnorm_backward_peers(rows, cols, dtype):
    x = torch.randn(rows, cols, device="cuda", dtype=dtype, requires_grad=True)
    w = torch.randn(cols, device="cuda", dtype=torch.float32, requires_grad=True)
    dy = torch.randn(rows, cols, device="cuda", dtype=dtype)
    three = 3 * x.numel() * x.element_size()
    name = f"rmsnorm_backward_{rows}x{cols}"
    y = F.rms_norm(x, (cols,), w.to(dtype), EPSILON)
    report("pytorch_eager", name, "BFLOAT16",
           median_ms(lambda: torch.autograd.grad(y, (x, w), dy, retain_graph=True)), three)
    inv_rms = torch.rsqrt(x.detach().float().pow(2).mean(-1, keepdim=True) + EPSILON)
    compiled = torch.compile(rmsnorm_backward, dynamic=False)
    report("torch_compile", name, "BFLOAT16",
           median_ms(lambda: compiled(dy, x.detach(), w.detach(), inv_rms)), three)


def layernorm_backward(dy, x, w, mean, inv_variance):
    """dx, dscale and dbias of y = (x - mean) * inv_variance * w + b, from the saved statistics,
    in fp32."""
    xhat = (x.float() - mean) * inv_variance
    g = dy.float() * w
    dx = (inv_variance * (g - g.mean(-1, keepdim=True) - xhat * (g * xhat).mean(-1, keepdim=True))).to(x.dtype)
    return dx, (dy.float() * xhat).sum(0), dy.float().sum(0)


def layernorm_backward_peers(rows, cols, dtype):
    x = torch.randn(rows, cols, device="cuda", dtype=dtype)
    w = torch.randn(cols, device="cuda", dtype=torch.float32)
    b = torch.randn(cols, device="cuda", dtype=torch.float32)
    dy = torch.randn(rows, cols, device="cuda", dtype=dtype)
    three = 3 * x.numel() * x.element_size()
    name = f"layernorm_backward_{rows}x{cols}"
    xf = x.float()
    mean = xf.mean(-1, keepdim=True)
    inv_variance = torch.rsqrt(xf.var(-1, unbiased=False, keepdim=True) + EPSILON)
    # ATen's kernel takes the weight in x's dtype, as F.layer_norm's autograd saves it.
    w_io, b_io = w.to(dtype), b.to(dtype)
    report("pytorch_eager", name, "BFLOAT16",
           median_ms(lambda: torch.ops.aten.native_layer_norm_backward(
               dy, x, (cols,), mean, inv_variance, w_io, b_io, [True, True, True])), three)
    compiled = torch.compile(layernorm_backward, dynamic=False)
    report("torch_compile", name, "BFLOAT16",
           median_ms(lambda: compiled(dy, x, w, mean, inv_variance)), three)


def bn_inference(x, mean, var, w, b):
    return F.batch_norm(x, mean, var, w, b, False, 0.1, EPSILON)


def bn_training(x, mean, var, w, b):
    return F.batch_norm(x, mean, var, w, b, True, 0.1, EPSILON)


def bn_training_relu(x, mean, var, w, b):
    return torch.relu(bn_training(x, mean, var, w, b))


def bn_inference_relu(x, mean, var, w, b):
    return torch.relu(bn_inference(x, mean, var, w, b))


def bn_backward(dy, x, w, mean, invstd):
    return torch.ops.aten.native_batch_norm_backward(dy, x, w, None, None, mean, invstd, True, EPSILON,
                                                     [True, True, True])


def both(name, fn, args, bytes_moved):
    report("pytorch_eager", name, "BFLOAT16", median_ms(lambda: fn(*args)), bytes_moved)
    compiled = torch.compile(fn, dynamic=False)
    report("torch_compile", name, "BFLOAT16", median_ms(lambda: compiled(*args)), bytes_moved)


def main():
    dtype = torch.bfloat16
    for rows, cols in ROWS:
        x = torch.randn(rows, cols, device="cuda", dtype=dtype)
        w = torch.randn(cols, device="cuda", dtype=dtype)
        b = torch.randn(cols, device="cuda", dtype=dtype)
        two = 2 * x.numel() * x.element_size()
        both(f"layernorm_{rows}x{cols}", layernorm, (x, w, b), two)
        both(f"rmsnorm_{rows}x{cols}", rmsnorm, (x, w), two)
        rmsnorm_backward_peers(rows, cols, dtype)
        layernorm_backward_peers(rows, cols, dtype)
    x = torch.randn(BN_SHAPE, device="cuda", dtype=dtype).to(memory_format=torch.channels_last)
    channels = BN_SHAPE[1]
    params = [torch.randn(channels, device="cuda") for _ in range(2)]
    mean = torch.zeros(channels, device="cuda")
    var = torch.ones(channels, device="cuda")
    two = 2 * x.numel() * x.element_size()
    shape = "x".join(str(d) for d in BN_SHAPE)
    for name, fn in [("bn_inference", bn_inference), ("bn_inference_relu", bn_inference_relu),
                     ("bn_training", bn_training), ("bn_training_relu", bn_training_relu)]:
        both(f"{name}_nhwc_{shape}", fn, (x, mean, var, *params), two)
    dy = torch.randn_like(x)
    invstd = torch.rand(channels, device="cuda") + 0.5
    both(f"bn_backward_nhwc_{shape}", bn_backward, (dy, x, params[0], mean, invstd), 3 * x.numel() * x.element_size())
    out = torch.empty_like(x)
    report("copy", f"copy_{shape}", "BFLOAT16", median_ms(lambda: out.copy_(x)), two)


if __name__ == "__main__":
    main()
