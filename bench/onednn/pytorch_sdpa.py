#!/usr/bin/env python3
"""hipdnn's ONEDNN_ENGINE attention against PyTorch's CPU F.scaled_dot_product_attention.

Needs a PyTorch 2.x wheel (Debian's 1.13 has no fused SDPA), e.g. in a venv outside the repo:
    python3 -m venv /work/venv-torchcpu && /work/venv-torchcpu/bin/pip install torch
then
    /work/venv-torchcpu/bin/python bench/onednn/pytorch_sdpa.py --driver build/cpu-only/bin/hipdnn-driver
    /work/venv-torchcpu/bin/python bench/onednn/pytorch_sdpa.py --torch-only      # PyTorch side alone

For every problem and round the two sides run back to back as a pair (hipdnn-driver --run
performance with --iters RUNS --warmup WARMUP, then torch in this process with the same counts and
the median of its runs), alternating which side goes first from round to round so that a shared
machine's drifts hit both alike. Per problem it prints the median over rounds of each side's
median and the median of the per-round ratios torch/hipdnn (> 1: hipdnn faster).

Problems: B 1, H 8, D 64 and 128, S 512 .. 4096, fwd and bwd, fp32 and bf16, causal and not;
GQA 8:1 (H 8, KV heads 1). "bwd" is the backward pass alone on both sides (torch: autograd.grad of
the SDPA output with the graph kept, so the forward is not re-timed). Threads: torch.set_num_threads
(OMP_NUM_THREADS or the CPU count), the count oneDNN's OpenMP runtime uses.
"""
import argparse
import itertools
import os
import re
import statistics
import subprocess
import sys
import time

import torch
import torch.nn.functional as F

MEDIAN = re.compile(r"median\s+([\d.]+)\s*ms")


def problems(args):
    """(label, driver flags, torch shape) for the selected grid."""
    out = []
    for dim, seq, dtype, direction, causal in itertools.product(
            args.dims, args.seqs, args.dtypes, args.dirs, [False, True] if args.causal == "both" else
            [args.causal == "on"]):
        out.append(dict(b=1, h=8, kv=8, s=seq, d=dim, dtype=dtype, dir=direction, causal=causal))
    if args.gqa:
        for dtype, direction, causal in itertools.product(args.dtypes, args.dirs, [False, True]):
            out.append(dict(b=1, h=8, kv=1, s=1024, d=64, dtype=dtype, dir=direction, causal=causal))
    return out


def label(p):
    kv = f"_kv{p['kv']}" if p["kv"] != p["h"] else ""
    causal = "_causal" if p["causal"] else ""
    return f"sdpa_{p['dir']}_{p['dtype']}_b{p['b']}_h{p['h']}{kv}_s{p['s']}_d{p['d']}{causal}"


def driver_command(driver, p, runs, warmup):
    command = [driver, "--device", "cpu", "--engine", "ONEDNN_ENGINE", "--run", "performance",
               "--iters", str(runs), "--warmup", str(warmup), "sdpa", "-b", str(p["b"]), "--heads", str(p["h"]),
               "--seq-q", str(p["s"]), "--head-dim", str(p["d"]), "--dtype", p["dtype"], "--dir", p["dir"]]
    if p["kv"] != p["h"]:
        command += ["--kv-heads", str(p["kv"])]
    if p["causal"]:
        command.append("--causal")
    return command


def hipdnn_ms(driver, p, runs, warmup):
    result = subprocess.run(driver_command(driver, p, runs, warmup), capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{label(p)}: driver failed:\n{result.stdout}\n{result.stderr}")
    match = MEDIAN.search(result.stdout)
    if not match:
        raise RuntimeError(f"{label(p)}: no median in the driver's output:\n{result.stdout}")
    return float(match[1])


def torch_ms(p, runs, warmup):
    dtype = torch.bfloat16 if p["dtype"] == "bf16" else torch.float32
    grad = p["dir"] == "bwd"
    gen = torch.Generator().manual_seed(1)
    q = torch.randn(p["b"], p["h"], p["s"], p["d"], generator=gen).to(dtype).requires_grad_(grad)
    k = torch.randn(p["b"], p["kv"], p["s"], p["d"], generator=gen).to(dtype).requires_grad_(grad)
    v = torch.randn(p["b"], p["kv"], p["s"], p["d"], generator=gen).to(dtype).requires_grad_(grad)
    gqa = {"enable_gqa": True} if p["kv"] != p["h"] else {}
    times = []
    if grad:
        out = F.scaled_dot_product_attention(q, k, v, is_causal=p["causal"], **gqa)
        d_out = torch.randn(out.shape, generator=gen).to(dtype)
        body = lambda: torch.autograd.grad(out, (q, k, v), d_out, retain_graph=True)  # noqa: E731
    else:
        def body():
            with torch.no_grad():
                F.scaled_dot_product_attention(q, k, v, is_causal=p["causal"], **gqa)
    for _ in range(warmup):
        body()
    for _ in range(runs):
        start = time.perf_counter()
        body()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def flops(p):
    # Q Kᵀ and P V: 2 · 2 · B · H · S² · D (backward: 5 matmuls, 2.5×); causal halves it.
    f = 4.0 * p["b"] * p["h"] * p["s"] * p["s"] * p["d"] * (2.5 if p["dir"] == "bwd" else 1.0)
    return f / 2 if p["causal"] else f


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--driver", help="hipdnn-driver binary (omit with --torch-only)")
    parser.add_argument("--torch-only", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--seqs", type=int, nargs="+", default=[512, 1024, 2048, 4096])
    parser.add_argument("--dims", type=int, nargs="+", default=[64, 128])
    parser.add_argument("--dtypes", nargs="+", default=["fp32", "bf16"])
    parser.add_argument("--dirs", nargs="+", default=["fwd", "bwd"])
    parser.add_argument("--causal", choices=["off", "on", "both"], default="both")
    parser.add_argument("--no-gqa", dest="gqa", action="store_false")
    args = parser.parse_args()
    if not args.torch_only and not args.driver:
        parser.error("--driver is required unless --torch-only")
    threads = int(os.environ.get("OMP_NUM_THREADS", os.cpu_count()))
    torch.set_num_threads(threads)
    print(f"# torch {torch.__version__}, threads {torch.get_num_threads()}, "
          f"rounds {args.rounds}, runs {args.runs}, warmup {args.warmup}", flush=True)
    print(f"{'problem':<48} {'hipdnn_ms':>10} {'torch_ms':>10} {'torch/hipdnn':>12} {'hipdnn GFLOP/s':>14}",
          flush=True)
    ratios = []
    for p in problems(args):
        ours, theirs, paired = [], [], []
        for round_index in range(args.rounds):
            if args.torch_only:
                theirs.append(torch_ms(p, args.runs, args.warmup))
                continue
            sides = [lambda: hipdnn_ms(args.driver, p, args.runs, args.warmup),
                     lambda: torch_ms(p, args.runs, args.warmup)]
            first_ours = round_index % 2 == 0
            a = sides[0 if first_ours else 1]()
            b = sides[1 if first_ours else 0]()
            mine, other = (a, b) if first_ours else (b, a)
            ours.append(mine)
            theirs.append(other)
            paired.append(other / mine)
        t = statistics.median(theirs)
        if args.torch_only:
            print(f"{label(p):<48} {'-':>10} {t:10.3f}", flush=True)
            continue
        h = statistics.median(ours)
        r = statistics.median(paired)
        ratios.append(r)
        print(f"{label(p):<48} {h:10.3f} {t:10.3f} {r:11.2f}x {flops(p) / (h * 1e6):14.1f}", flush=True)
    if ratios:
        geo = statistics.geometric_mean(ratios)
        print(f"# geometric mean torch/hipdnn {geo:.2f}x over {len(ratios)} problems; "
              f"below 1.0x: {sum(r < 1.0 for r in ratios)}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
