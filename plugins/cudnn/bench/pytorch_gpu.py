#!/usr/bin/env python3
"""Times the problems of hipdnn_cudnn_bench with PyTorch (cuDNN / cuBLAS) on the GPU and prints
the same line format, so that one GPU run shows both side by side:
  BENCH impl=pytorch problem=<name> dtype=<t> layout=NHWC op=<op> ms=<median> tflops=<x>
torch.backends.cudnn.benchmark = True, channels_last tensors, CUDA events, warm-up, median of
repeats of batches (the same counts as the C++ program)."""
import torch
import torch.nn.functional as F

WARMUP, REPEATS, BATCH = 10, 15, 10
N = 32
LAYERS = [  # name, C, K, H=W, R=S, stride (ResNet-50, torchvision v1.5)
    ("conv1_7x7", 3, 64, 224, 7, 2), ("l1_1x1_64_64", 64, 64, 56, 1, 1),
    ("l1_3x3_64", 64, 64, 56, 3, 1), ("l1_1x1_64_256", 64, 256, 56, 1, 1),
    ("l1_1x1_256_64", 256, 64, 56, 1, 1), ("l2_3x3_128_s2", 128, 128, 56, 3, 2),
    ("l2_3x3_128", 128, 128, 28, 3, 1), ("l2_1x1_128_512", 128, 512, 28, 1, 1),
    ("l2_1x1_512_128", 512, 128, 28, 1, 1), ("l2_ds_256_512_s2", 256, 512, 56, 1, 2),
    ("l3_3x3_256", 256, 256, 14, 3, 1), ("l3_1x1_256_1024", 256, 1024, 14, 1, 1),
    ("l3_1x1_1024_256", 1024, 256, 14, 1, 1), ("l4_3x3_512", 512, 512, 7, 3, 1),
    ("l4_1x1_512_2048", 512, 2048, 7, 1, 1), ("l4_1x1_2048_512", 2048, 512, 7, 1, 1),
]


def median_ms(fn):
    for _ in range(WARMUP):
        fn()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples = []
    for _ in range(REPEATS):
        start.record()
        for _ in range(BATCH):
            fn()
        stop.record()
        stop.synchronize()
        samples.append(start.elapsed_time(stop) / BATCH)
    samples.sort()
    return samples[len(samples) // 2]


def report(problem, dtype, op, ms, flops):
    name = "fp32" if dtype == torch.float32 else "bf16"
    print(f"BENCH impl=pytorch problem={problem} dtype={name} layout=NHWC op={op} ms={ms:.4f} "
          f"tflops={flops / (ms * 1e9):.2f}", flush=True)


def conv_problem(name, c, k, hw, rs, stride, dtype, op, n=N, bias_relu=False):
    pad = rs // 2
    out = (hw + 2 * pad - rs) // stride + 1
    cl = torch.channels_last
    x = torch.randn(n, c, hw, hw, device="cuda", dtype=dtype).to(memory_format=cl)
    w = torch.randn(k, c, rs, rs, device="cuda", dtype=dtype).to(memory_format=cl)
    dy = torch.randn(n, k, out, out, device="cuda", dtype=dtype).to(memory_format=cl)
    b = torch.randn(k, device="cuda", dtype=dtype)
    flops = 2.0 * n * k * out * out * c * rs * rs
    if op == "fprop":
        fn = (lambda: F.relu(F.conv2d(x, w, b, stride, pad))) if bias_relu else (lambda: F.conv2d(x, w, None, stride, pad))
    else:
        mask = [op == "dgrad", op == "wgrad", False]
        fn = lambda: torch.ops.aten.convolution_backward(dy, x, w, None, [stride] * 2, [pad] * 2, [1, 1], False,
                                                         [0, 0], 1, mask)
    return median_ms(fn), flops


def main():
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    print(f"# torch {torch.__version__} cuDNN {torch.backends.cudnn.version()} {torch.cuda.get_device_name()}")
    with torch.no_grad():
        ms, flops = conv_problem("small_3x3_64_n1", 64, 64, 56, 3, 1, torch.bfloat16, "fprop", n=1)
        report("small_3x3_64_n1", torch.bfloat16, "fprop", ms, flops)
        for dtype in (torch.bfloat16, torch.float32):
            for name, c, k, hw, rs, stride in LAYERS:
                for op in ("fprop", "dgrad", "wgrad"):
                    if op == "dgrad" and c == 3:
                        continue
                    ms, flops = conv_problem(name, c, k, hw, rs, stride, dtype, op)
                    report(name, dtype, op, ms, flops)
            ms, flops = conv_problem("l1_3x3_64", 64, 64, 56, 3, 1, dtype, "fprop", bias_relu=True)
            report("conv_bias_relu_3x3_64", dtype, "fprop_bias_relu", ms, flops)
            x = torch.randn(N, 256, 56, 56, device="cuda", dtype=dtype).to(memory_format=torch.channels_last)
            scale = torch.ones(256, device="cuda")
            bias = torch.zeros(256, device="cuda")
            report("bn_train_256_56", dtype, "batchnorm_training",
                   median_ms(lambda: F.batch_norm(x, None, None, scale, bias, True, 0.1, 1e-5)), 0.0)
            m = 4096
            a = torch.randn(m, m, device="cuda", dtype=dtype)
            bm = torch.randn(m, m, device="cuda", dtype=dtype)
            vb = torch.randn(m, device="cuda", dtype=dtype)
            report("matmul_4096", dtype, "matmul", median_ms(lambda: a @ bm), 2.0 * m ** 3)
            report("matmul_bias_relu_4096", dtype, "matmul_bias_relu",
                   median_ms(lambda: F.relu(torch.addmm(vb, a, bm))), 2.0 * m ** 3)


if __name__ == "__main__":
    main()
