"""Host time of one hipdnn.Graph.execute of a built 2x3 add graph, to set beside the C++ frontend's
execute of the same graph (bench/frontend/execute_add.cpp, hipdnn_bench_frontend_execute, CPU
handle). Prints the device, the engine that ran and the median of REPEATS timings of CALLS
executes each, in microseconds per execute.

    python python/bench/execute_overhead.py [--device cpu|gpu|gpu:N]

On a GPU handle the arrays and the workspace are torch CUDA tensors; execute only enqueues the
plan on torch's current stream, so the time is the host's, as on the CPU (the add kernel is
shorter than one call, so the queue never fills).
"""

import argparse
import statistics
import timeit

import numpy as np

import hipdnn

CALLS = 20000
REPEATS = 5


def arrays_for(device):
    """The inputs, the output and a zeroed factory for the workspace, on the handle's device."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.ones((2, 3), np.float32)
    if device == "cpu":
        return x, y, np.zeros((2, 3), np.float32), lambda size: np.zeros(size, np.uint8), lambda: None
    try:
        import torch
    except ImportError:
        raise SystemExit(f"--device {device} needs torch with CUDA for the device arrays")
    if not torch.cuda.is_available():
        raise SystemExit(f"--device {device}: torch sees no CUDA device")
    cuda = torch.device("cuda", int(device.partition(":")[2] or 0))
    return (torch.from_numpy(x).to(cuda), torch.from_numpy(y).to(cuda), torch.zeros(2, 3, device=cuda),
            lambda size: torch.zeros(size, dtype=torch.uint8, device=cuda), lambda: torch.cuda.synchronize(cuda))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cpu", help="the handle's device: cpu (default), gpu or gpu:N")
    device = parser.parse_args().device
    with hipdnn.Handle(device) as handle:
        g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32, name="add")
        a = g.tensor(name="a", dim=[2, 3], data_type=np.float32)
        b = g.tensor(name="b", dim=[2, 3], data_type=np.float32)
        c = g.add(a, b)
        c.set_output(True).set_name("c")
        g.build(handle)
        x, y, z, make_workspace, synchronize = arrays_for(device)
        workspace = make_workspace(max(g.get_workspace_size(), 1))
        pack = {a: x, b: y, c: z}
        g.execute(pack, workspace, handle=handle)
        synchronize()
        result = z.cpu().numpy() if hasattr(z, "cpu") else z
        assert np.array_equal(result, np.arange(6, dtype=np.float32).reshape(2, 3) + 1), result
        times = []
        for _ in range(REPEATS):
            times.append(timeit.timeit(lambda: g.execute(pack, workspace, handle=handle), number=CALLS))
            synchronize()
        per_call = [t / CALLS * 1e6 for t in times]
        print(f"BENCH execute_add device={handle.device} engine={g.get_plan_name()} "
              f"median_us={statistics.median(per_call):.2f} min_us={min(per_call):.2f}")


if __name__ == "__main__":
    main()
