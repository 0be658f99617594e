"""Timing shared by the PyTorch peer scripts: the median of CUDA-event-timed batches after a
warm-up, as the C++ bench and hipdnn-driver time, and one BENCH line per result."""

import statistics

import torch

WARMUP = 10
REPEATS = 15
BATCH = 20


def median_ms(fn):
    for _ in range(WARMUP):
        fn()
    times = []
    for _ in range(REPEATS):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(BATCH):
            fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / BATCH)
    return statistics.median(times)


def report(impl, name, dtype_name, ms, bytes_moved):
    print(f"BENCH impl={impl} problem={name} dtype={dtype_name} ms={ms:.4f} gbps={bytes_moved / ms / 1e6:.1f}",
          flush=True)
