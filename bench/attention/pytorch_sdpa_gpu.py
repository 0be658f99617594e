"""PyTorch's SDPA backends on the GPU over the driver's attention batch file, timed as
hipdnn-driver times (CUDA events around each call after a warm-up, the median), one BENCH line
per problem and backend.

    python pytorch_sdpa_gpu.py [BATCH_FILE]   (default: tools/driver/tests/data/sdpa_llm.batch)

Forward runs without autograd (PyTorch's inference graph, as the driver's forward has no
statistics); backward times torch.autograd.grad of the forward's output alone. Grouped heads use
enable_gqa; a backend that refuses it is also timed on K and V expanded to every query head
beforehand (outside the timing), marked expanded=1. Flops as the driver counts them:
2 * B * H * Sq * Skv * (D + Dv), half with a causal mask, times 2.5 for backward.
"""

import os
import statistics
import sys

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


def main():
    default = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "driver", "tests", "data", "sdpa_llm.batch")
    path = sys.argv[1] if len(sys.argv) > 1 else default
    print(f"# torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, {torch.cuda.get_device_name()}",
          flush=True)
    for raw in open(path):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        spec = parse(line)
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
                break


if __name__ == "__main__":
    main()
