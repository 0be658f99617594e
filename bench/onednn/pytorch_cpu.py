#!/usr/bin/python3
"""PyTorch CPU timings for the onednn benchmark problems, same shapes and output format as
onednn_direct: conv2d (channels_last), conv2d + add + relu (unfused, as eager PyTorch runs it),
matmul. Run with Debian's torch:  /usr/bin/python3 bench/onednn/pytorch_cpu.py [runs] [warmup]
Threads: torch.set_num_threads(OMP_NUM_THREADS or the CPU count), like oneDNN's OpenMP runtime.
"""
import os
import statistics
import sys
import time

import torch

RESNET_CONVS = [  # (n, c, h, w, k, r, stride), as BenchProblems.hpp
    (4, 64, 56, 56, 64, 3, 1), (4, 64, 56, 56, 256, 1, 1), (4, 256, 56, 56, 64, 1, 1),
    (4, 128, 28, 28, 128, 3, 1), (4, 256, 14, 14, 256, 3, 1), (4, 512, 7, 7, 512, 3, 1),
    (4, 128, 56, 56, 128, 3, 2), (4, 256, 28, 28, 256, 3, 2), (4, 512, 14, 14, 512, 3, 2),
    (4, 256, 56, 56, 512, 1, 2),
]
MATMULS = [(1024, 1024, 1024), (4, 1000, 2048)]  # (m, n, k)


def median_ms(body, warmup, runs):
    for _ in range(warmup):
        body()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        body()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def print_line(problem, implementation, ms, flops):
    print(f"{problem:<48} {implementation:<22} median_ms={ms:9.3f}  GFLOP/s={flops / (ms * 1e6):8.1f}", flush=True)


def conv_name(prefix, n, c, h, w, k, r, s):
    return f"{prefix}_nhwc_n{n}_{h}x{w}_c{c}_k{k}_{r}x{r}_s{s}"


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    threads = int(os.environ.get("OMP_NUM_THREADS", os.cpu_count()))
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    with torch.no_grad():
        for fused, (n, c, h, w, k, r, s) in [(False, p) for p in RESNET_CONVS] + [(True, p) for p in RESNET_CONVS]:
            x = torch.randn(n, c, h, w).to(memory_format=torch.channels_last)
            weight = torch.randn(k, c, r, r).to(memory_format=torch.channels_last)
            bias = torch.randn(1, k, 1, 1)
            p = r // 2
            oh, ow = (h + 2 * p - r) // s + 1, (w + 2 * p - r) // s + 1
            flops = 2.0 * n * k * oh * ow * c * r * r
            if fused:
                ms = median_ms(lambda: torch.relu(torch.conv2d(x, weight, None, s, p) + bias), warmup, runs)
                print_line(conv_name("conv_bias_relu", n, c, h, w, k, r, s), "pytorch_conv_add_relu", ms, flops)
            else:
                ms = median_ms(lambda: torch.conv2d(x, weight, None, s, p), warmup, runs)
                print_line(conv_name("conv", n, c, h, w, k, r, s), "pytorch", ms, flops)
        for (m, n, k) in MATMULS:
            a, b = torch.randn(m, k), torch.randn(k, n)
            ms = median_ms(lambda: torch.matmul(a, b), warmup, runs)
            print_line(f"matmul_m{m}_n{n}_k{k}", "pytorch", ms, 2.0 * m * n * k)
    print(f"# torch {torch.__version__}, threads {torch.get_num_threads()}, "
          f"mkldnn {torch.backends.mkldnn.is_available()}", flush=True)


if __name__ == "__main__":
    main()
