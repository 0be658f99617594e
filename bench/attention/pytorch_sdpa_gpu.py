"""PyTorch's SDPA backends on the GPU over the driver's attention batch file, timed as
hipdnn-driver times (CUDA events around each call after a warm-up, the median), one BENCH line
per problem and backend.

    python pytorch_sdpa_gpu.py [BATCH_FILE]   (default: tools/driver/tests/data/sdpa_llm.batch)
    python pytorch_sdpa_gpu.py --driver build/release/bin/hipdnn-driver [--rounds 2] [BATCH_FILE]

With --driver, each problem is timed side by side: hipdnn-driver (CUDNN_ENGINE, --run performance,
one process per problem and round) and PyTorch's fastest backend for that problem (all backends
in the first round, the fastest of them afterwards), the order of the two sides alternating from
round to round. A PAIR line per problem gives both medians and the median of the per-round ratios
torch / hipdnn (> 1: hipdnn faster); the last lines give their geometric mean and minimum by
direction.

Forward runs without autograd (PyTorch's inference graph, as the driver's forward has no
statistics); backward times torch.autograd.grad of the forward's output alone. Grouped heads use
enable_gqa; a backend that refuses it is also timed on K and V expanded to every query head
beforehand (outside the timing), marked expanded=1. Flops as the driver counts them:
2 * B * H * Sq * Skv * (D + Dv), half with a causal mask, times 2.5 for backward.
"""

import argparse
import math
import os
import re
import statistics
import subprocess

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

WARMUP = 3
REPEATS = 10
BACKENDS = {
    "CUDNN_ATTENTION": SDPBackend.CUDNN_ATTENTION,
    "FLASH_ATTENTION": SDPBackend.FLASH_ATTENTION,
    "EFFICIENT_ATTENTION": SDPBackend.EFFICIENT_ATTENTION,
}
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16}


def parse(line):
    words = line.split()
    assert words[0] == "sdpa", line
    spec = {"dir": "fwd", "b": 1, "heads": 1, "kv-heads": None, "seq-q": 1, "seq-kv": None, "head-dim": 64,
            "layout": "bhsd", "dtype": "bf16", "causal": False}
    i = 1
    while i < len(words):
        key = words[i].lstrip("-")
        if key == "causal":
            spec["causal"] = True
            i += 1
            continue
        spec[key] = words[i + 1]
        i += 2
    for key in ("b", "heads", "seq-q", "head-dim"):
        spec[key] = int(spec[key])
    spec["kv-heads"] = int(spec["kv-heads"] or spec["heads"])
    spec["seq-kv"] = int(spec["seq-kv"] or spec["seq-q"])
    return spec


def operand(spec, heads, seq, requires_grad):
    dtype = DTYPES[spec["dtype"]]
    if spec["layout"] == "bshd":
        data = torch.randn(spec["b"], seq, heads, spec["head-dim"], device="cuda", dtype=dtype).transpose(1, 2)
    else:
        data = torch.randn(spec["b"], heads, seq, spec["head-dim"], device="cuda", dtype=dtype)
    return data.detach().requires_grad_(requires_grad)


def median_ms(fn):
    for _ in range(WARMUP):
        fn()
    times = []
    for _ in range(REPEATS):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def time_backend(spec, backend, expanded):
    backward = spec["dir"] == "bwd"
    q = operand(spec, spec["heads"], spec["seq-q"], backward)
    k = operand(spec, spec["kv-heads"], spec["seq-kv"], backward)
    v = operand(spec, spec["kv-heads"], spec["seq-kv"], backward)
    grouped = spec["kv-heads"] != spec["heads"]
    if grouped and expanded:
        group = spec["heads"] // spec["kv-heads"]
        k = k.detach().repeat_interleave(group, dim=1).requires_grad_(backward)
        v = v.detach().repeat_interleave(group, dim=1).requires_grad_(backward)
    options = {"is_causal": spec["causal"], "enable_gqa": grouped and not expanded}
    with sdpa_kernel([backend]):
        if not backward:
            with torch.no_grad():
                return median_ms(lambda: F.scaled_dot_product_attention(q, k, v, **options))
        out = F.scaled_dot_product_attention(q, k, v, **options)
        grad = torch.randn_like(out)
        return median_ms(lambda: torch.autograd.grad(out, (q, k, v), grad, retain_graph=True))


def flops(spec):
    work = 2.0 * spec["b"] * spec["heads"] * spec["seq-q"] * spec["seq-kv"] * 2 * spec["head-dim"]
    if spec["causal"]:
        work *= 0.5
    return work * (2.5 if spec["dir"] == "bwd" else 1.0)


def fastest_backend(spec, line):
    """(ms, backend label) of PyTorch's fastest backend for the problem, printing a BENCH line per backend."""
    best = None
    for name, backend in BACKENDS.items():
        for expanded in (False, True):
            if expanded and spec["kv-heads"] == spec["heads"]:
                break
            try:
                ms = time_backend(spec, backend, expanded)
            except RuntimeError as error:
                reason = str(error).splitlines()[0][:120]
                print(f"BENCH problem=\"{line}\" backend={name} expanded={int(expanded)} refused=\"{reason}\"",
                      flush=True)
                torch.cuda.empty_cache()
                continue
            print(f"BENCH problem=\"{line}\" backend={name} expanded={int(expanded)} ms={ms:.4f} "
                  f"tflops={flops(spec) / ms / 1e9:.1f}", flush=True)
            torch.cuda.empty_cache()
            if best is None or ms < best[0]:
                best = (ms, (name, expanded))
            break
    return best


DRIVER_MEDIAN = re.compile(r"median\s+([\d.]+)\s*ms")


def driver_ms(driver, line):
    command = [driver, "--engine", "CUDNN_ENGINE", "--run", "performance", "--warmup", str(WARMUP), "--iters",
               str(REPEATS)] + line.split()
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    found = DRIVER_MEDIAN.search(result.stdout)
    if result.returncode != 0 or not found:
        raise RuntimeError(f"hipdnn-driver exit {result.returncode}: {(result.stdout + result.stderr)[-300:]}")
    return float(found.group(1))


def side_by_side(driver, rounds, lines):
    ratios_by_direction = {}
    for line in lines:
        spec = parse(line)
        ours, theirs, ratios, choice = [], [], [], None
        for round_index in range(rounds):
            sides = ["hipdnn", "torch"] if round_index % 2 == 0 else ["torch", "hipdnn"]
            for side in sides:
                if side == "hipdnn":
                    ours.append(driver_ms(driver, line))
                elif choice is None:
                    ms, choice = fastest_backend(spec, line)
                    theirs.append(ms)
                else:
                    theirs.append(time_backend(spec, BACKENDS[choice[0]], choice[1]))
            ratios.append(theirs[-1] / ours[-1])
        ratio = statistics.median(ratios)
        ratios_by_direction.setdefault(spec["dir"], []).append(ratio)
        print(f"PAIR problem=\"{line}\" hipdnn_ms={statistics.median(ours):.4f} "
              f"torch_ms={statistics.median(theirs):.4f} torch_backend={choice[0]}{'+expanded' if choice[1] else ''} "
              f"hipdnn_tflops={flops(spec) / statistics.median(ours) / 1e9:.1f} ratio={ratio:.3f} "
              f"rounds={' '.join(f'{r:.3f}' for r in ratios)}", flush=True)
    for direction, ratios in sorted(ratios_by_direction.items()):
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"SUMMARY dir={direction} problems={len(ratios)} geomean={geomean:.3f} min={min(ratios):.3f}", flush=True)


def main():
    default = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "driver", "tests", "data", "sdpa_llm.batch")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("batch", nargs="?", default=default)
    parser.add_argument("--driver", help="hipdnn-driver to time side by side with PyTorch")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    print(f"# torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, {torch.cuda.get_device_name()}",
          flush=True)
    lines = [line for line in (raw.split("#", 1)[0].strip() for raw in open(args.batch)) if line]
    if args.driver:
        side_by_side(args.driver, args.rounds, lines)
        return
    for line in lines:
        fastest_backend(parse(line), line)


if __name__ == "__main__":
    main()
