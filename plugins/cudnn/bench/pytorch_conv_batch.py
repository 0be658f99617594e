#!/usr/bin/env python3
"""Times the conv lines of a hipdnn-driver batch file with PyTorch on the GPU and, given the
driver's --csv of the same batch, prints one row per problem with both medians and the ratio
pytorch_ms / hipdnn_ms (>= 1: hipdnn as fast or faster), then a summary per data type.

PyTorch runs as users tune it: torch.backends.cudnn.benchmark = True, TF32 off, channels_last
tensors. Timing follows the driver's: warm-up runs, then one CUDA event pair per run, all recorded
before any is read, and the median.

  python3 pytorch_conv_batch.py resnet50_conv.batch --driver-csv ours.csv [--iters 20]
"""
import argparse
import csv
import math
import shlex

import torch

# ConvSpec's defaults (tools/driver/src/conv/ConvSpec.hpp): a flag the command line omits has them.
DEFAULTS = {"-n": 1, "-c": 64, "-H": 56, "-W": 56, "-k": 64, "-y": 3, "-x": 3, "-p": 0, "-q": 0,
            "-u": 1, "-v": 1, "--mode": "fprop", "--dtype": "fp32", "--layout": "NCHW"}
DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}


def conv_key(words):
    """The problem a conv command line describes, with the defaults filled in."""
    spec = dict(DEFAULTS)
    start = words.index("conv") + 1
    index = start
    while index < len(words):
        flag = words[index]
        if flag in spec and index + 1 < len(words):
            value = words[index + 1]
            spec[flag] = value if isinstance(DEFAULTS[flag], str) else int(value)
            index += 2
        else:
            index += 1
    return tuple(sorted(spec.items()))


def batch_problems(path):
    problems = []
    with open(path) as handle:
        for line in handle:
            words = shlex.split(line, comments=True)
            if words and words[0] == "conv":
                problems.append(conv_key(words))
    return problems


def driver_medians(path):
    medians = {}
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            words = shlex.split(row["command"])
            if "conv" in words and row["median_ms"]:
                medians[conv_key(words)] = (float(row["median_ms"]), row["engine"])
    return medians


def median_ms(fn, warmup, iters):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(iters)]
    for start, stop in events:
        start.record()
        fn()
        stop.record()
    events[-1][1].synchronize()
    samples = sorted(start.elapsed_time(stop) for start, stop in events)
    middle = len(samples) // 2
    return samples[middle] if len(samples) % 2 else 0.5 * (samples[middle - 1] + samples[middle])


def pytorch_ms(key, warmup, iters):
    spec = dict(key)
    dtype = DTYPES[spec["--dtype"]]
    n, c, h, w, k = spec["-n"], spec["-c"], spec["-H"], spec["-W"], spec["-k"]
    stride, pad = (spec["-u"], spec["-v"]), (spec["-p"], spec["-q"])
    memory = torch.channels_last if spec["--layout"] == "NHWC" else torch.contiguous_format
    x = torch.randn(n, c, h, w, device="cuda", dtype=dtype).to(memory_format=memory)
    weight = torch.randn(k, c, spec["-y"], spec["-x"], device="cuda", dtype=dtype).to(memory_format=memory)
    with torch.no_grad():
        y = torch.nn.functional.conv2d(x, weight, None, stride, pad)
    dy = torch.randn_like(y).to(memory_format=memory)
    mode = spec["--mode"]
    if mode == "fprop":
        fn = lambda: torch.nn.functional.conv2d(x, weight, None, stride, pad)
    else:
        mask = [mode == "dgrad", mode == "wgrad", False]
        fn = lambda: torch.ops.aten.convolution_backward(dy, x, weight, None, list(stride), list(pad), [1, 1],
                                                         False, [0, 0], 1, mask)
    with torch.no_grad():
        return median_ms(fn, warmup, iters)


def label(key):
    spec = dict(key)
    return (f"{spec['-c']}->{spec['-k']} {spec['-H']}x{spec['-W']} {spec['-y']}x{spec['-x']} "
            f"s{spec['-u']}"), spec["--dtype"], spec["--mode"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("batch")
    parser.add_argument("--driver-csv", action="append", default=[])
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--iters", type=int, default=20)
    args = parser.parse_args()
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    ours = {}
    for path in args.driver_csv:
        ours.update(driver_medians(path))
    print(f"# torch {torch.__version__} cuDNN {torch.backends.cudnn.version()} {torch.cuda.get_device_name()}")
    print("| layer | dtype | mode | hipdnn engine | hipdnn ms | pytorch ms | pytorch/hipdnn |")
    print("|---|---|---|---|---|---|---|")
    ratios = {}
    for key in batch_problems(args.batch):
        theirs = pytorch_ms(key, args.warmup, args.iters)
        layer, dtype, mode = label(key)
        mine, engine = ours.get(key, (None, "-"))
        ratio = theirs / mine if mine else None
        if ratio is not None:
            ratios.setdefault(dtype, []).append((ratio, f"{layer} {mode}"))
        shown = f"{mine:.4f}" if mine else "n/a"
        print(f"| {layer} | {dtype} | {mode} | {engine} | {shown} | {theirs:.4f} | "
              f"{f'{ratio:.3f}' if ratio is not None else 'n/a'} |", flush=True)
    for dtype, values in sorted(ratios.items()):
        geomean = math.exp(sum(math.log(ratio) for ratio, _ in values) / len(values))
        worst = min(values)
        at_least = sum(1 for ratio, _ in values if ratio >= 0.97)
        print(f"SUMMARY dtype={dtype} layers={len(values)} geomean={geomean:.3f} at_least_0.97={at_least} "
              f"worst={worst[0]:.3f} ({worst[1]})")


if __name__ == "__main__":
    main()
