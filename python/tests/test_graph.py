"""The lifecycle steps, serialization, engine listing and data type conversion."""

import glob
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import hipdnn
from conftest import PINNED_PLUGINS, REFERENCE_PLUGIN


def add_graph(name="add"):
    g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32, name=name)
    A = g.tensor(name="a", dim=[2, 3], data_type=np.float32)
    B = g.tensor(name="b", dim=[2, 3], data_type=np.float32)
    C = g.add(A, B)
    C.set_output(True).set_name("c")
    return g, A, B, C


def test_step_wise_build_and_execute_by_uid(handle, rng):
    g, A, B, C = add_graph()
    g.validate()
    g.build_operation_graph(handle)
    g.create_execution_plans([hipdnn.heur_mode.FALLBACK])
    g.check_support(handle)
    g.build_plans(hipdnn.build_plan_policy.HEURISTICS_CHOICE)
    assert g.get_execution_plan_count() >= 1
    assert g.get_plan_name() == "CPU_REFERENCE_ENGINE"
    a, b = rng.standard_normal((2, 2, 3), dtype=np.float32)
    c = np.zeros_like(a)
    workspace = np.zeros(max(g.get_workspace_size(), 1), np.uint8)
    g.execute({A.uid: a, B.uid: b, C.uid: c}, workspace, handle=handle)
    np.testing.assert_allclose(c, a + b)


def test_explicit_engine_and_knobs(handle):
    g, *_ = add_graph()
    g.build_operation_graph(handle)
    knobs = g.get_knobs_for_engine("CPU_REFERENCE_ENGINE")
    assert all({"id", "description", "default", "deprecated"} <= set(knob) for knob in knobs)
    g.create_execution_plan("CPU_REFERENCE_ENGINE", {})
    g.check_support()
    g.build_plans()
    assert g.get_plan_name() == "CPU_REFERENCE_ENGINE"
    with pytest.raises(hipdnn.Error):
        g.create_execution_plan("NO_SUCH_ENGINE")


@pytest.mark.parametrize("json", [False, True])
def test_serialize_round_trip(handle, rng, json):
    g, *_ = add_graph("round_trip")
    data = g.serialize(json=json)
    assert isinstance(data, str if json else bytes) and len(data) > 0
    restored = hipdnn.Graph()
    restored.deserialize(data, handle=handle)
    assert restored.key() == g.key()
    restored.create_execution_plans()
    restored.check_support()
    restored.build_plans()
    tensors = restored.tensors()
    assert {"a", "b", "c"} <= set(tensors)
    assert tensors["c"].dim == [2, 3]
    a, b = rng.standard_normal((2, 2, 3), dtype=np.float32)
    c = np.zeros_like(a)
    restored.execute({tensors["a"]: a, tensors["b"].uid: b, tensors["c"]: c})
    np.testing.assert_allclose(c, a + b)


def test_deserialize_garbage_raises(handle):
    with pytest.raises(hipdnn.Error):
        hipdnn.Graph().deserialize(b"not a graph", handle=handle)


def test_engines_and_plugins(handle):
    names = [engine.name for engine in hipdnn.engines(handle)]
    assert "CPU_REFERENCE_ENGINE" in names
    paths = handle.plugin_paths()
    assert any(path.endswith("libcpu_reference.so") for path in paths)
    reference = next(engine for engine in hipdnn.engines(handle) if engine.name == "CPU_REFERENCE_ENGINE")
    assert reference.plugin_path in paths and reference.id != 0


def test_declined_engines_give_reasons(handle):
    # The CPU reference accumulates in FLOAT or DOUBLE only.
    g = hipdnn.Graph(io_data_type=np.int8, intermediate_data_type=np.int32, compute_data_type=np.int32, name="int")
    A = g.tensor(name="a", dim=[1, 2, 3], data_type=np.int8)
    B = g.tensor(name="b", dim=[1, 3, 3], data_type=np.int8)
    g.matmul(A, B).set_output(True)
    with pytest.raises(hipdnn.Error) as caught:
        g.build(handle)
    assert caught.value.status == "GRAPH_NOT_SUPPORTED"
    declined = {engine.engine_name: engine for engine in g.get_declined_engines()}
    assert declined["CPU_REFERENCE_ENGINE"].plugin_name == "cpu_reference"
    assert "INT32" in declined["CPU_REFERENCE_ENGINE"].reason
    assert declined["CPU_REFERENCE_ENGINE"].reason in caught.value.message


@pytest.mark.parametrize(
    "dtype, expected",
    [
        (np.float32, hipdnn.data_type.FLOAT),
        (np.dtype("float16"), hipdnn.data_type.HALF),
        ("bfloat16", hipdnn.data_type.BFLOAT16),
        (np.int64, hipdnn.data_type.INT64),
        (np.uint8, hipdnn.data_type.UINT8),
        (hipdnn.data_type.DOUBLE, hipdnn.data_type.DOUBLE),
    ],
)
def test_data_type_conversion(dtype, expected):
    assert hipdnn.to_data_type(dtype) == expected


def test_tensor_defaults_to_packed_strides():
    g = hipdnn.Graph()
    t = g.tensor(name="t", dim=[2, 3, 4], data_type=hipdnn.data_type.HALF)
    assert t.stride == [12, 4, 1] and t.data_type == hipdnn.data_type.HALF and t.uid is None
    like = g.tensor_like(np.zeros((5, 6), np.float64).T)
    assert like.dim == [6, 5] and like.stride == [1, 6] and like.data_type == hipdnn.data_type.DOUBLE


EVERY_PLUGIN_SCRIPT = """
import numpy as np, hipdnn
with hipdnn.Handle("cpu") as handle:
    g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32)
    a, b = g.tensor(name="a", dim=[2, 3], data_type=np.float32), g.tensor(name="b", dim=[2, 3], data_type=np.float32)
    c = g.mul(a, b)
    c.set_output(True)
    g.build(handle)
    x, y, z = np.arange(6, dtype=np.float32).reshape(2, 3), np.full((2, 3), 3, np.float32), np.zeros((2, 3), np.float32)
    g.execute({a: x, b: y, c: z})
    assert g.get_plan_name() in {engine.name for engine in hipdnn.engines(handle)}
    np.testing.assert_array_equal(z, x * y)
    print("\\n".join(handle.plugin_paths()))
"""


def test_default_plugin_directory_in_a_fresh_process():
    # A process of its own: the session's handles load the reference plugin only, and a process
    # that switches plugin sets after running oneDNN's engine has crashed in the next execution.
    result = subprocess.run([sys.executable, "-c", EVERY_PLUGIN_SCRIPT], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
    # Plugins that cannot load here (a GPU plugin without its libraries) are skipped by the backend.
    loaded = set(result.stdout.split())
    assert os.path.join(hipdnn.default_plugin_dir, "libcpu_reference.so") in loaded
    assert loaded <= set(glob.glob(os.path.join(hipdnn.default_plugin_dir, "*.so")))


def test_plugin_paths_replace_the_plugin_set(handle):
    paths = handle.plugin_paths()
    assert REFERENCE_PLUGIN in paths and set(paths) <= set(PINNED_PLUGINS)
    with pytest.raises(hipdnn.Error, match="'sideways'"):
        hipdnn.set_plugin_paths([], "sideways")


def test_default_handle_follows_hipdnn_device(monkeypatch):
    monkeypatch.setenv("HIPDNN_DEVICE", "cpu")
    with hipdnn.Handle() as chosen:
        assert chosen.device == "cpu"
        assert REFERENCE_PLUGIN in chosen.plugin_paths()


def test_cpu_handle_accepts_and_ignores_a_stream(handle, rng):
    handle.set_stream(0)
    g, A, B, C = add_graph()
    g.build(handle)
    a, b = rng.standard_normal((2, 2, 3), dtype=np.float32)
    c = np.zeros_like(a)
    g.execute({A: a, B: b, C: c})
    np.testing.assert_allclose(c, a + b)


def test_autotune_records_the_fastest_plan(monkeypatch, tmp_path, rng):
    # The tuning database is read at handle creation, from HIPDNN_CACHE_DIR.
    monkeypatch.setenv("HIPDNN_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("HIPDNN_DISABLE_CACHE", raising=False)
    with hipdnn.Handle("cpu") as cpu:
        g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32)
        a = g.tensor(name="a", dim=[1, 16, 8], data_type=np.float32)
        b = g.tensor(name="b", dim=[1, 8, 4], data_type=np.float32)
        c = g.matmul(a, b)
        c.set_output(True)
        g.build(cpu)
        x, y = rng.standard_normal((1, 16, 8), dtype=np.float32), rng.standard_normal((1, 8, 4), dtype=np.float32)
        out = np.zeros((1, 16, 4), dtype=np.float32)
        g.autotune({a: x, b: y, c: out}, handle=cpu)
        np.testing.assert_allclose(out, x @ y, rtol=1e-5, atol=1e-5)
        records = [json.loads(line) for line in (tmp_path / "tuning.jsonl").read_text().splitlines()]
        assert [record["engine"] for record in records] == ["CPU_REFERENCE_ENGINE"]
        assert records[0]["tool"] == "autotune" and records[0]["median_ms"] > 0
        out[:] = 0
        g.execute({a: x, b: y, c: out}, handle=cpu)
        np.testing.assert_allclose(out, x @ y, rtol=1e-5, atol=1e-5)


def test_autotune_before_build_raises(handle):
    g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32)
    a = g.tensor(name="a", dim=[1, 2, 2], data_type=np.float32)
    c = g.relu(input=a)
    c.set_output(True)
    with pytest.raises(hipdnn.Error):
        g.autotune({a: np.ones((1, 2, 2), np.float32), c: np.zeros((1, 2, 2), np.float32)}, handle=handle)
