#!/usr/bin/env python3
"""Joins the BENCH lines of hipdnn_cudnn_bench and pytorch_gpu.py (files given as arguments) and
prints one table row per problem: times and the ratio pytorch_ms / hipdnn_ms (>= 1: hipdnn is as
fast or faster)."""
import re
import sys

LINE = re.compile(r"BENCH impl=(\S+) problem=(\S+) dtype=(\S+) layout=\S+ op=(\S+) ms=([\d.]+)")


def read(paths):
    times = {}
    for path in paths:
        with open(path) as handle:
            for line in handle:
                match = LINE.search(line)
                if match:
                    impl, problem, dtype, op, ms = match.groups()
                    times.setdefault((problem, dtype, op), {})[impl] = float(ms)
    return times


def main():
    times = read(sys.argv[1:])
    print("| problem | dtype | op | hipdnn ms | pytorch ms | pytorch/hipdnn |")
    print("|---|---|---|---|---|---|")
    for (problem, dtype, op), row in sorted(times.items()):
        ours, theirs = row.get("hipdnn"), row.get("pytorch")
        ratio = f"{theirs / ours:.3f}" if ours and theirs else "n/a"
        fmt = lambda v: f"{v:.4f}" if v is not None else "n/a"
        print(f"| {problem} | {dtype} | {op} | {fmt(ours)} | {fmt(theirs)} | {ratio} |")


if __name__ == "__main__":
    main()
