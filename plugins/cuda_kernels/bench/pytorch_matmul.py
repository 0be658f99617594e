"""PyTorch's matmuls on the problems of matmul_peers.batch, timed as the driver times them
(device events, medians after a warm-up): fp32 strict (TF32 off, as CUBLASLT_ENGINE's default),
fp32 with TF32, bf16 and fp16 (cuBLAS), and bf16 with a bias + relu epilogue (eager, then
torch.compile, which fuses the epilogue). Inputs are uniform in [-1, 1], as the driver's are (a
tensor-core matmul's clock under its power limit depends on the data). One BENCH line per result,
with TFLOP/s.

    /opt/torch/.venv/bin/python plugins/cuda_kernels/bench/pytorch_matmul.py
"""

import torch

from torch_peers import median_ms

PROBLEMS = [
    # (batch, m, n, k, dtype, epilogue)
    (1, 4096, 4096, 4096, torch.float32, None),
    (1, 8192, 8192, 8192, torch.bfloat16, None),
    (1, 8192, 8192, 8192, torch.float16, None),
    (16, 1024, 1024, 1024, torch.bfloat16, None),
    (1, 8192, 8192, 8192, torch.bfloat16, "bias,relu"),
]


def report(impl, batch, m, n, k, dtype, ms):
    tflops = 2.0 * batch * m * n * k / ms / 1e9
    print(f"BENCH impl={impl} problem=matmul_b{batch}_m{m}_n{n}_k{k} dtype={str(dtype).split('.')[-1]} "
          f"ms={ms:.4f} tflops={tflops:.1f}", flush=True)


def uniform(*shape, dtype):
    return (torch.rand(*shape, device="cuda", dtype=torch.float32) * 2 - 1).to(dtype)


def main():
    for batch, m, n, k, dtype, epilogue in PROBLEMS:
        a = uniform(batch, m, k, dtype=dtype)
        b = uniform(batch, k, n, dtype=dtype)
        if epilogue is None:
            if dtype == torch.float32:
                for tf32 in (False, True):
                    torch.backends.cuda.matmul.allow_tf32 = tf32
                    report("torch_tf32" if tf32 else "torch_strict", batch, m, n, k, dtype,
                           median_ms(lambda: torch.matmul(a, b)))
                torch.backends.cuda.matmul.allow_tf32 = False
            else:
                report("torch", batch, m, n, k, dtype, median_ms(lambda: torch.matmul(a, b)))
            continue
        bias = uniform(n, dtype=dtype)

        def fused(a, b, bias):
            return torch.relu(torch.matmul(a, b) + bias)

        report("torch", batch, m, n, k, dtype, median_ms(lambda: fused(a, b, bias)))
        compiled = torch.compile(fused)
        report("torch_compile", batch, m, n, k, dtype, median_ms(lambda: compiled(a, b, bias)))


if __name__ == "__main__":
    main()
