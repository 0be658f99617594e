"""The peers of hipdnn_cuda_kernels_bench on the same GPU: y = relu(1.5 * x + b) with PyTorch eager
and torch.compile, and a plain copy (the bandwidth ceiling), timed like the C++ bench (median of
CUDA-event-timed batches after a warm-up, torch_peers.py). Prints
  BENCH impl=<peer> problem=<name> dtype=<t> ms=<median> gbps=<bytes read and written per second>
with the same problem names, so the two logs line up.
"""

import torch

from torch_peers import median_ms, report

SHAPE = (64, 256, 56, 56)
DTYPES = {"BFLOAT16": torch.bfloat16, "HALF": torch.float16, "FLOAT": torch.float32}


def scale_add_relu(x, b):
    return torch.relu(1.5 * x + b)


def main():
    name = "relu_scale_add_" + "x".join(str(d) for d in SHAPE)
    compiled = torch.compile(scale_add_relu)
    for dtype_name, dtype in DTYPES.items():
        x = torch.randn(SHAPE, device="cuda", dtype=dtype)
        b = torch.randn(SHAPE, device="cuda", dtype=dtype)
        out = torch.empty_like(x)
        three_tensors = 3 * x.numel() * x.element_size()
        report("pytorch_eager", name, dtype_name, median_ms(lambda: scale_add_relu(x, b)), three_tensors)
        report("torch_compile", name, dtype_name, median_ms(lambda: compiled(x, b)), three_tensors)
        report("copy", "copy_" + "x".join(str(d) for d in SHAPE), dtype_name, median_ms(lambda: out.copy_(x)),
               2 * x.numel() * x.element_size())


if __name__ == "__main__":
    main()
