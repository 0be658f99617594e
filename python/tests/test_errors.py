"""Bad input raises hipdnn.Error with the status and a message naming what is wrong."""

import numpy as np
import pytest

import hipdnn


def matmul_graph(handle, build=True):
    g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32, name="mm")
    A = g.tensor(name="A", dim=[1, 2, 3], data_type=np.float32)
    B = g.tensor(name="B", dim=[1, 3, 4], data_type=np.float32)
    C = g.matmul(A, B)
    C.set_output(True)
    if build:
        g.build(handle)
    return g, A, B, C


def arrays():
    return (np.ones((1, 2, 3), np.float32), np.ones((1, 3, 4), np.float32), np.zeros((1, 2, 4), np.float32))


def test_wrong_dtype_names_the_tensor_and_both_types(handle):
    g, A, B, C = matmul_graph(handle)
    a, b, c = arrays()
    with pytest.raises(hipdnn.Error) as caught:
        g.execute({A: a.astype(np.float16), B: b, C: c})
    assert caught.value.status == "INVALID_VALUE"
    assert "'A'" in caught.value.message and "FLOAT" in caught.value.message and "HALF" in caught.value.message


def test_wrong_shape(handle):
    g, A, B, C = matmul_graph(handle)
    a, b, c = arrays()
    with pytest.raises(hipdnn.Error, match=r"'B'.*dims \(1, 3, 4\).*shape \(1, 4, 3\)"):
        g.execute({A: a, B: np.ones((1, 4, 3), np.float32), C: c})


def test_wrong_strides(handle):
    g, A, B, C = matmul_graph(handle)
    a, _, c = arrays()
    transposed = np.ones((1, 4, 3), np.float32).transpose(0, 2, 1)
    with pytest.raises(hipdnn.Error, match=r"'B'.*strides \(12, 4, 1\).*strides \(12, 1, 3\)"):
        g.execute({A: a, B: transposed, C: c})


def test_not_an_array(handle):
    g, A, B, C = matmul_graph(handle)
    a, b, _ = arrays()
    with pytest.raises(hipdnn.Error, match="no DLPack array"):
        g.execute({A: a, B: b, C: [0.0] * 8})


def test_unbound_tensor_is_a_backend_error(handle):
    g, A, B, C = matmul_graph(handle)
    a, b, _ = arrays()
    with pytest.raises(hipdnn.Error) as caught:
        g.execute({A: a, B: b})
    assert caught.value.status == "HIPDNN_BACKEND_ERROR"
    assert str(C.uid) in caught.value.message


def test_unknown_uid(handle):
    g, A, B, C = matmul_graph(handle)
    a, b, c = arrays()
    with pytest.raises(hipdnn.Error, match="no tensor with uid 99"):
        g.execute({A: a, B: b, 99: c})


def test_plans_before_the_operation_graph(handle):
    g, *_ = matmul_graph(handle, build=False)
    with pytest.raises(hipdnn.Error) as caught:
        g.create_execution_plans()
    assert caught.value.status == "INVALID_STATE"
    with pytest.raises(hipdnn.Error) as caught:
        g.get_workspace_size()
    assert caught.value.status == "INVALID_STATE"


def test_execute_before_build(handle):
    g, A, B, C = matmul_graph(handle, build=False)
    g.validate()
    a, b, c = arrays()
    with pytest.raises(hipdnn.Error) as caught:
        g.execute({A: a, B: b, C: c}, handle=handle)
    assert caught.value.status == "INVALID_STATE"


def test_build_without_a_handle():
    g, *_ = matmul_graph(None, build=False)
    with pytest.raises(hipdnn.Error, match="needs a handle"):
        g.build()


def test_invalid_graph_fails_validation(handle):
    g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32)
    A = g.tensor(name="A", dim=[1, 2, 3], data_type=np.float32)
    B = g.tensor(name="B", dim=[1, 5, 4], data_type=np.float32)
    g.matmul(A, B).set_output(True)
    with pytest.raises(hipdnn.Error) as caught:
        g.validate()
    assert caught.value.status == "INVALID_VALUE"


def test_closed_handle():
    cpu = hipdnn.Handle("cpu")
    g, A, B, C = matmul_graph(cpu)
    cpu.close()
    assert cpu.closed
    a, b, c = arrays()
    with pytest.raises(hipdnn.Error, match="closed") as caught:
        g.execute({A: a, B: b, C: c})
    assert caught.value.status == "INVALID_STATE"
    with pytest.raises(hipdnn.Error, match="closed"):
        cpu.plugin_paths()


def test_bad_device_string():
    with pytest.raises(hipdnn.Error, match="'tpu'"):
        hipdnn.Handle("tpu")


def test_unknown_data_type():
    with pytest.raises(hipdnn.Error, match="complex64"):
        hipdnn.Graph(io_data_type=np.complex64)


def test_error_is_an_exception_with_status_and_message(handle):
    g, *_ = matmul_graph(handle, build=False)
    try:
        g.create_execution_plans()
    except Exception as error:  # noqa: BLE001 - the test is that it is an Exception
        assert isinstance(error, hipdnn.Error)
        assert str(error) == f"{error.status}: {error.message}"
    else:
        pytest.fail("create_execution_plans before build_operation_graph did not raise")


def test_read_only_arrays_back_inputs_but_not_outputs(handle):
    g, A, B, C = matmul_graph(handle)
    a, b, c = arrays()
    a.flags.writeable = False
    b.flags.writeable = False
    g.execute({A: a, B: b, C: c})
    np.testing.assert_allclose(c, np.full((1, 2, 4), 3.0))
    c.flags.writeable = False
    with pytest.raises(hipdnn.Error, match="'matmul_0::C' may be written"):
        g.execute({A: a, B: b, C: c})


def test_inconsistent_strides_are_refused(handle):
    g, A, B, C = matmul_graph(handle)
    a, b, c = arrays()
    B.set_stride([12, 4])
    with pytest.raises(hipdnn.Error, match="'B'.*dims \\(1, 3, 4\\) but strides \\(12, 4\\)"):
        g.execute({A: a, B: b, C: c})


def test_gpu_handle_for_a_missing_device_is_an_error():
    with pytest.raises(hipdnn.Error, match="gpu:999") as caught:
        hipdnn.Handle("gpu:999")
    assert caught.value.status.startswith("HIPDNN_STATUS_")


def test_scalar_arguments_must_be_numbers_or_tensors():
    g = hipdnn.Graph(io_data_type=np.float32, compute_data_type=np.float32)
    X = g.tensor(name="x", dim=[2, 4], data_type=np.float32)
    S = g.tensor(name="s", dim=[1, 4], data_type=np.float32)
    with pytest.raises(hipdnn.Error, match="epsilon must be a number or a Tensor, not 'small'"):
        g.layernorm(X, S, S, epsilon="small")
    with pytest.raises(hipdnn.Error, match="attn_scale"):
        g.sdpa(X, X, X, attn_scale=[0.5])
    with pytest.raises(hipdnn.Error, match="dropout must be"):
        g.sdpa(X, X, X, dropout=0.1)


def test_missing_optional_inputs_are_reported_by_validation(handle):
    g = hipdnn.Graph(io_data_type=np.float32, intermediate_data_type=np.float32, compute_data_type=np.float32)
    X = g.tensor(name="x", dim=[2, 3, 4, 4], data_type=np.float32)
    C = g.tensor(name="c", dim=[1, 3, 1, 1], data_type=np.float32)
    outputs = g.batchnorm(X, C, C, 1e-5, in_running_mean=C)
    outputs[0].set_output(True)
    with pytest.raises(hipdnn.Error, match="PREV_RUNNING_VARIANCE is not set") as caught:
        g.build(handle)
    assert caught.value.status == "ATTRIBUTE_NOT_SET"


def test_cpu_handle_refuses_a_communicator(handle):
    with pytest.raises(hipdnn.Error) as caught:
        handle.set_communicator(0)
    assert caught.value.status == "HIPDNN_STATUS_BAD_PARAM"
    assert "bound to device cpu" in caught.value.message and "GPU handle" in caught.value.message


def test_communicators_need_gpu_handles(handle):
    with pytest.raises(hipdnn.Error, match="count is 0") as caught:
        hipdnn.create_communicators([])
    assert caught.value.status == "HIPDNN_STATUS_BAD_PARAM"
    with pytest.raises(hipdnn.Error, match=r"handles\[0\] is bound to device cpu"):
        hipdnn.create_communicators([handle])
    with pytest.raises(hipdnn.Error, match="a handle is None"):
        hipdnn.create_communicators([None])
