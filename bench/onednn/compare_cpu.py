#!/usr/bin/python3
"""hipdnn's ONEDNN_ENGINE against oneDNN called directly and against PyTorch on the CPU.

Runs onednn_vs_hipdnn (hipdnn and direct oneDNN, interleaved pairs) and pytorch_cpu.py one after
the other for several rounds, so that slow drifts of a shared machine hit all three alike, then
prints one Markdown table: per problem the median over rounds of each side's median time, the
median over rounds of the paired direct/hipdnn ratio, and the median over rounds of the per-round
PyTorch/hipdnn ratio (> 1: hipdnn faster). Geometric means close each group of rows.

Usage: /usr/bin/python3 bench/onednn/compare_cpu.py BUILD_DIR [--rounds 5] [--runs 20] [--warmup 3]
"""
import argparse
import math
import pathlib
import re
import statistics
import subprocess
import sys
from collections import defaultdict

TIME_LINE = re.compile(r"^(\S+)\s+(\S+)\s+median_ms=\s*([\d.]+)")
RATIO_LINE = re.compile(r"^(\S+)\s+ratio direct/hipdnn=([\d.]+)")


def run_lines(command):
    result = subprocess.run(command, check=True, capture_output=True, text=True)
    return result.stdout.splitlines()


def parse_round(lines, times, ratios):
    """Adds this round's figures: times[problem][implementation] and ratios[problem]."""
    for line in lines:
        if match := RATIO_LINE.match(line):
            ratios[match[1]].append(float(match[2]))
        elif match := TIME_LINE.match(line):
            times[match[1]][match[2]].append(float(match[3]))


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", type=pathlib.Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args()
    here = pathlib.Path(__file__).resolve().parent
    stack = [str(args.build_dir / "bin" / "onednn_vs_hipdnn"), str(args.runs), str(args.warmup)]
    torch = [sys.executable, str(here / "pytorch_cpu.py"), str(args.runs), str(args.warmup)]

    times = defaultdict(lambda: defaultdict(list))
    ratios = defaultdict(list)
    torch_ratios = defaultdict(list)
    for round_index in range(args.rounds):
        round_times = defaultdict(lambda: defaultdict(list))
        parse_round(run_lines(stack), round_times, ratios)
        parse_round(run_lines(torch), round_times, ratios)
        for problem, by_implementation in round_times.items():
            for implementation, values in by_implementation.items():
                times[problem][implementation].extend(values)
            hipdnn = by_implementation.get("hipdnn_onednn_engine")
            pytorch = by_implementation.get("pytorch") or by_implementation.get("pytorch_conv_add_relu")
            if hipdnn and pytorch:
                torch_ratios[problem].append(pytorch[0] / hipdnn[0])
        print(f"# round {round_index + 1}/{args.rounds} done", file=sys.stderr, flush=True)

    print("| problem | hipdnn ms | oneDNN direct ms | PyTorch ms | direct/hipdnn | PyTorch/hipdnn |")
    print("|---|---:|---:|---:|---:|---:|")
    groups = {"conv_nhwc": "conv fprop", "conv_bias_relu": "conv + bias + ReLU", "matmul": "matmul"}
    for prefix, label in groups.items():
        group_direct, group_torch = [], []
        for problem in [p for p in times if p.startswith(prefix + "_")]:
            by_implementation = times[problem]
            pytorch = by_implementation.get("pytorch") or by_implementation.get("pytorch_conv_add_relu", [])
            direct_ratio = statistics.median(ratios[problem])
            torch_ratio = statistics.median(torch_ratios[problem])
            group_direct.append(direct_ratio)
            group_torch.append(torch_ratio)
            print(f"| {problem} | {statistics.median(by_implementation['hipdnn_onednn_engine']):.3f} "
                  f"| {statistics.median(by_implementation['onednn_direct']):.3f} "
                  f"| {statistics.median(pytorch):.3f} | {direct_ratio:.3f} | {torch_ratio:.2f} |")
        print(f"| **{label}: geometric mean** | | | | **{geomean(group_direct):.3f}** "
              f"| **{geomean(group_torch):.2f}** |")


if __name__ == "__main__":
    main()
