"""Host time of one hipdnn.Graph.execute of a built 2x3 add graph on a CPU handle, to set beside
the C++ frontend's execute of the same graph (bench/frontend/execute_add.cpp,
hipdnn_bench_frontend_execute). Prints the engine that ran and the median of REPEATS timings of
CALLS executes each, in microseconds per execute.

    python python/bench/execute_overhead.py
"""

import statistics
import timeit

import numpy as np

import hipdnn

CALLS = 20000
REPEATS = 5


def main():
    with hipdnn.Handle("cpu") as handle:
        g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32, name="add")
        a = g.tensor(name="a", dim=[2, 3], data_type=np.float32)
        b = g.tensor(name="b", dim=[2, 3], data_type=np.float32)
        c = g.add(a, b)
        c.set_output(True).set_name("c")
        g.build(handle)
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        y = np.ones((2, 3), np.float32)
        z = np.zeros((2, 3), np.float32)
        workspace = np.zeros(max(g.get_workspace_size(), 1), np.uint8)
        pack = {a: x, b: y, c: z}
        g.execute(pack, workspace, handle=handle)
        assert np.array_equal(z, x + y)
        times = timeit.repeat(lambda: g.execute(pack, workspace, handle=handle), number=CALLS, repeat=REPEATS)
        per_call = [t / CALLS * 1e6 for t in times]
        print(f"BENCH execute_add engine={g.get_plan_name()} median_us={statistics.median(per_call):.2f} "
              f"min_us={min(per_call):.2f}")


if __name__ == "__main__":
    main()
