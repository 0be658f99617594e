#!/usr/bin/python3
"""Generate the golden data of the CPU references (test_sdk/golden/) with PyTorch.

The expected outputs come from PyTorch (float64 for everything but the fp32 bottleneck), an
implementation independent of test_sdk/src/references, from inputs that are exactly
representable in the case's data type.

Needs PyTorch (>= 1.13) and NumPy for /usr/bin/python3:
    sudo apt-get install python3-torch        (Debian; CPU only)
    or: python3 -m pip install torch numpy

Usage:
    /usr/bin/python3 scripts/generate_golden_data.py [--output test_sdk/golden]
                                                     [--skip-bottleneck] [--only sdpa ...]

Each case is golden/<op>/<case>/ with case.json:
    {"op", "case", "dtype", "layout", "params": {...},
     "tensors": [{"name", "dtype", "dims", "strides", "file", "role": "input"|"output"}]}
and one raw little-endian file per tensor in memory order (strides in elements; fp16 and
bf16 as their 16-bit patterns). The run is deterministic (fixed seeds): regenerating gives
identical files.
"""

import argparse
import json
import math
import shutil
import sys
from pathlib import Path

try:
    import numpy as np
    import torch
    import torch.nn.functional as F
except ImportError:
    sys.exit("PyTorch and NumPy are required: sudo apt-get install python3-torch "
             "(or python3 -m pip install torch numpy), then run with /usr/bin/python3")

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}

# Memory order of the dims (outermost first) for each layout name.
LAYOUTS = {
    "NCL": [0, 1, 2], "NLC": [0, 2, 1],
    "NCHW": [0, 1, 2, 3], "NHWC": [0, 2, 3, 1],
    "NCDHW": [0, 1, 2, 3, 4], "NDHWC": [0, 2, 3, 4, 1],
}
CHANNELS_FIRST = {3: "NCL", 4: "NCHW", 5: "NCDHW"}
CHANNELS_LAST = {3: "NLC", 4: "NHWC", 5: "NDHWC"}


class Case:
    """Collects the tensors of one case and writes them with their manifest."""

    def __init__(self, root, op, name, dtype, layout, params):
        self.dir = root / op / name
        self.manifest = {"op": op, "case": name, "dtype": dtype, "layout": layout,
                         "params": params, "tensors": []}

    def add(self, name, tensor, dtype, role, order=None):
        tensor = tensor.detach()
        dims = list(tensor.shape)
        order = order if order is not None else list(range(len(dims)))
        strides = [0] * len(dims)
        step = 1
        for dim in reversed(order):
            strides[dim] = step
            step *= max(dims[dim], 1)
        memory = tensor.permute(order).contiguous()
        if dtype == "int32":
            data = memory.to(torch.int32).numpy().astype("<i4").tobytes()
        elif dtype == "fp32":
            data = memory.to(torch.float32).numpy().astype("<f4").tobytes()
        else:
            data = memory.to(DTYPES[dtype]).view(torch.int16).numpy().astype("<i2").tobytes()
        file = name + ".bin"
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / file).write_bytes(data)
        self.manifest["tensors"].append({"name": name, "dtype": dtype, "dims": dims,
                                         "strides": strides, "file": file, "role": role})

    def write(self):
        (self.dir / "case.json").write_text(json.dumps(self.manifest, separators=(",", ":")) + "\n")


class Inputs:
    """Seeded random inputs that are exact in fp16 and bf16: small multiples of 1/16."""

    def __init__(self, seed):
        self.generator = torch.Generator().manual_seed(seed)

    def uniform(self, shape, low=-2.0, high=2.0, dtype="fp32"):
        steps = torch.randint(int(low * 16), int(high * 16) + 1, shape, generator=self.generator)
        values = steps.double() / 16.0
        # Representable in the dtype by construction; rounding through it documents that.
        return values.to(DTYPES[dtype]).double()

    def positive(self, shape, low=0.25, high=2.0, dtype="fp32"):
        return self.uniform(shape, low, high, dtype)

    def nonzero(self, shape, dtype="fp32"):
        values = self.uniform(shape, 0.25, 2.0, dtype)
        signs = torch.randint(0, 2, shape, generator=self.generator).double() * 2 - 1
        return values * signs


def rounded(tensor, dtype):
    """A float64 result rounded to the case's dtype (what a perfect engine would store)."""
    return tensor.to(DTYPES[dtype]).double()


# --------------------------------------------------------------------------------------------
# Convolution

CONV_CONFIGS = [
    # name, x dims, w dims, pre, post, stride, dilation, mode
    ("2d_basic", [2, 4, 6, 6], [6, 4, 3, 3], [1, 1], [1, 1], [1, 1], [1, 1], "CROSS_CORRELATION"),
    ("2d_grouped_strided_dilated", [2, 6, 7, 8], [4, 3, 3, 2], [2, 0], [1, 2], [2, 1], [1, 2],
     "CROSS_CORRELATION"),
    ("2d_depthwise_convolution_mode", [1, 3, 5, 5], [3, 1, 3, 3], [1, 0], [0, 1], [1, 2], [1, 1],
     "CONVOLUTION"),
    ("1d_grouped", [2, 4, 9], [6, 2, 3], [2], [1], [2], [1], "CROSS_CORRELATION"),
    ("3d", [1, 4, 4, 5, 5], [4, 4, 2, 3, 3], [1, 1, 0], [0, 1, 1], [1, 2, 1], [1, 1, 2],
     "CROSS_CORRELATION"),
]


def conv_forward(x, w, pre, post, stride, dilation, mode):
    spatial = len(pre)
    if mode == "CONVOLUTION":
        w = w.flip(list(range(2, 2 + spatial)))
    pad = []
    for d in reversed(range(spatial)):  # F.pad takes the last dim first
        pad += [pre[d], post[d]]
    x = F.pad(x, pad)
    groups = x.shape[1] // w.shape[1]
    conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[spatial]
    return conv(x, w, stride=stride, dilation=dilation, groups=groups)


def generate_convolution(root, inputs):
    for name, x_dims, w_dims, pre, post, stride, dilation, mode in CONV_CONFIGS:
        rank = len(x_dims)
        for dtype in DTYPES:
            for layout_name in (CHANNELS_FIRST[rank], CHANNELS_LAST[rank]):
                order = LAYOUTS[layout_name]
                x = inputs.uniform(x_dims, dtype=dtype).requires_grad_()
                w = inputs.uniform(w_dims, -1.0, 1.0, dtype=dtype).requires_grad_()
                y = conv_forward(x, w, pre, post, stride, dilation, mode)
                dy = inputs.uniform(list(y.shape), dtype=dtype)
                y.backward(dy)
                params = {"pre_padding": pre, "post_padding": post, "stride": stride,
                          "dilation": dilation, "conv_mode": mode}
                case_name = f"{name}_{dtype}_{layout_name}"
                # Weights share the activation layout (KCRS or KRSC).
                for op, tensors in (
                        ("conv_fprop", [("x", x, "input"), ("w", w, "input"),
                                        ("y", rounded(y, dtype), "output")]),
                        ("conv_dgrad", [("dy", dy, "input"), ("w", w, "input"),
                                        ("dx", rounded(x.grad, dtype), "output")]),
                        ("conv_wgrad", [("x", x, "input"), ("dy", dy, "input"),
                                        ("dw", rounded(w.grad, dtype), "output")])):
                    case = Case(root, op, case_name, dtype, layout_name, params)
                    for tensor_name, tensor, role in tensors:
                        case.add(tensor_name, tensor, dtype, role, order)
                    case.write()


# --------------------------------------------------------------------------------------------
# Batch norm (per-channel tensors are fp32 whatever x's dtype)

def per_channel(values, rank):
    return values.reshape([1, -1] + [1] * (rank - 2))


def generate_batchnorm(root, inputs):
    epsilon, momentum = 1e-5, 0.1
    for x_dims in ([2, 3, 4, 5], [2, 3, 2, 3, 2]):
        rank = len(x_dims)
        channels = x_dims[1]
        for dtype in DTYPES:
            for layout_name in (CHANNELS_FIRST[rank], CHANNELS_LAST[rank]):
                order = LAYOUTS[layout_name]
                suffix = f"{rank - 2}d_{dtype}_{layout_name}"
                x = inputs.uniform(x_dims, dtype=dtype)
                scale = inputs.uniform([channels], 0.5, 1.5)
                bias = inputs.uniform([channels], -1.0, 1.0)
                mean = inputs.uniform([channels], -0.5, 0.5)
                variance = inputs.positive([channels], 0.25, 2.0)
                inv_variance = (1.0 / torch.sqrt(variance + epsilon)).float().double()

                def add_per_channel(case, name, values, role):
                    case.add(name, per_channel(values, rank), "fp32", role)

                # Inference from inv_variance (the definition; PyTorch takes a variance).
                y = F.batch_norm(x, mean, 1.0 / inv_variance ** 2, scale, bias, False, 0.0, 0.0)
                case = Case(root, "batchnorm_inference", suffix, dtype, layout_name, {})
                case.add("x", x, dtype, "input", order)
                for name, values in (("mean", mean), ("inv_variance", inv_variance),
                                     ("scale", scale), ("bias", bias)):
                    add_per_channel(case, name, values, "input")
                case.add("y", rounded(y, dtype), dtype, "output", order)
                case.write()

                y = F.batch_norm(x, mean, variance, scale, bias, False, 0.0, epsilon)
                case = Case(root, "batchnorm_inference_variance", suffix, dtype, layout_name,
                            {"epsilon": epsilon})
                case.add("x", x, dtype, "input", order)
                for name, values in (("mean", mean), ("variance", variance), ("scale", scale),
                                     ("bias", bias)):
                    add_per_channel(case, name, values, "input")
                case.add("y", rounded(y, dtype), dtype, "output", order)
                case.write()

                running_mean = mean.clone()
                running_variance = variance.clone()
                y = F.batch_norm(x, running_mean, running_variance, scale, bias, True, momentum,
                                 epsilon)
                reduce_dims = [0] + list(range(2, rank))
                batch_mean = x.mean(dim=reduce_dims)
                batch_inv_variance = 1.0 / torch.sqrt(
                    x.var(dim=reduce_dims, unbiased=False) + epsilon)
                case = Case(root, "batchnorm_training", suffix, dtype, layout_name,
                            {"epsilon": epsilon, "momentum": momentum})
                case.add("x", x, dtype, "input", order)
                for name, values, role in (
                        ("scale", scale, "input"), ("bias", bias, "input"),
                        ("prev_running_mean", mean, "input"),
                        ("prev_running_variance", variance, "input"),
                        ("mean", batch_mean, "output"), ("inv_variance", batch_inv_variance, "output"),
                        ("next_running_mean", running_mean, "output"),
                        ("next_running_variance", running_variance, "output")):
                    add_per_channel(case, name, values, role)
                case.add("y", rounded(y, dtype), dtype, "output", order)
                case.write()

                x_grad = x.clone().requires_grad_()
                scale_grad = scale.clone().requires_grad_()
                bias_grad = bias.clone().requires_grad_()
                y = F.batch_norm(x_grad, None, None, scale_grad, bias_grad, True, 0.0, epsilon)
                dy = inputs.uniform(x_dims, dtype=dtype)
                y.backward(dy)
                for saved in (True, False):
                    case = Case(root, "batchnorm_backward",
                                ("saved_stats_" if saved else "recomputed_stats_") + suffix,
                                dtype, layout_name, {} if saved else {"epsilon": epsilon})
                    case.add("dy", dy, dtype, "input", order)
                    case.add("x", x, dtype, "input", order)
                    add_per_channel(case, "scale", scale, "input")
                    if saved:
                        add_per_channel(case, "mean", batch_mean, "input")
                        add_per_channel(case, "inv_variance", batch_inv_variance, "input")
                    case.add("dx", rounded(x_grad.grad, dtype), dtype, "output", order)
                    add_per_channel(case, "dscale", scale_grad.grad, "output")
                    add_per_channel(case, "dbias", bias_grad.grad, "output")
                    case.write()


# --------------------------------------------------------------------------------------------
# Pointwise: in_1 is (1, C, 1, 1) so every binary case also covers broadcasting.

def swish(x, beta):
    return x * torch.sigmoid(beta * x)


UNARY = {
    "ABS": (torch.abs, "uniform"), "CEIL": (torch.ceil, "uniform"), "COS": (torch.cos, "uniform"),
    "ERF": (torch.erf, "uniform"), "EXP": (torch.exp, "uniform"), "FLOOR": (torch.floor, "uniform"),
    "IDENTITY": (lambda x: x, "uniform"), "LOG": (torch.log, "positive"),
    "LOGICAL_NOT": (lambda x: torch.logical_not(x).double(), "sparse"),
    "NEG": (torch.neg, "uniform"), "RECIPROCAL": (torch.reciprocal, "nonzero"),
    "RSQRT": (torch.rsqrt, "positive"), "SIN": (torch.sin, "uniform"),
    "SQRT": (torch.sqrt, "positive"), "TAN": (torch.tan, "uniform"),
}
# Activations: forward function and parameters; *_BWD is its autograd derivative.
ACTIVATIONS = {
    "RELU": (F.relu, {}),
    "SIGMOID": (torch.sigmoid, {}),
    "TANH": (torch.tanh, {}),
    "ELU": (lambda x: F.elu(x, alpha=0.5), {"elu_alpha": 0.5}),
    "GELU": (F.gelu, {}),
    "GELU_APPROX_TANH": (lambda x: F.gelu(x, approximate="tanh"), {}),
    "SOFTPLUS": (lambda x: F.softplus(x, beta=2.0), {"softplus_beta": 2.0}),
    "SWISH": (lambda x: swish(x, 1.5), {"swish_beta": 1.5}),
}
BINARY = {
    "ADD": (torch.add, "uniform"), "SUB": (torch.sub, "uniform"), "MUL": (torch.mul, "uniform"),
    "DIV": (torch.div, "nonzero"), "MAX_OP": (torch.maximum, "uniform"),
    "MIN_OP": (torch.minimum, "uniform"), "POW": (torch.pow, "positive_base"),
    "MOD": (torch.fmod, "nonzero"), "ADD_SQUARE": (lambda a, b: a + b * b, "uniform"),
    "CMP_EQ": (lambda a, b: torch.eq(a, b).double(), "sparse"),
    "CMP_NEQ": (lambda a, b: torch.ne(a, b).double(), "sparse"),
    "CMP_GT": (lambda a, b: torch.gt(a, b).double(), "sparse"),
    "CMP_GE": (lambda a, b: torch.ge(a, b).double(), "sparse"),
    "CMP_LT": (lambda a, b: torch.lt(a, b).double(), "sparse"),
    "CMP_LE": (lambda a, b: torch.le(a, b).double(), "sparse"),
    "LOGICAL_AND": (lambda a, b: torch.logical_and(a, b).double(), "sparse"),
    "LOGICAL_OR": (lambda a, b: torch.logical_or(a, b).double(), "sparse"),
}


def pointwise_input(inputs, kind, shape, dtype, second=False):
    if kind == "positive" or (kind == "positive_base" and not second):
        return inputs.positive(shape, dtype=dtype)
    if kind == "nonzero" and second:
        return inputs.nonzero(shape, dtype=dtype)
    if kind == "nonzero":
        return inputs.uniform(shape, dtype=dtype)
    if kind == "positive_base":
        return inputs.uniform(shape, -1.5, 1.5, dtype=dtype)
    if kind == "sparse":  # few distinct values so that equality and zeros occur
        return torch.randint(-1, 2, shape, generator=inputs.generator).double()
    return inputs.uniform(shape, dtype=dtype)


def generate_pointwise(root, inputs):
    shape = [2, 3, 2, 4]
    broadcast_shape = [1, 3, 1, 1]
    for dtype in DTYPES:
        for layout_name in ("NCHW", "NHWC"):
            order = LAYOUTS[layout_name]

            def emit(case_name, mode, params, tensors):
                case = Case(root, "pointwise", f"{case_name}_{dtype}_{layout_name}", dtype,
                            layout_name, dict(params, mode=mode))
                for name, tensor, role in tensors:
                    case.add(name, tensor, dtype, role, order)
                case.write()

            for mode, (function, kind) in UNARY.items():
                x = pointwise_input(inputs, kind, shape, dtype)
                emit(mode.lower(), mode, {}, [("in_0", x, "input"),
                                             ("out_0", rounded(function(x), dtype), "output")])
            for name, (function, params) in ACTIVATIONS.items():
                x = inputs.uniform(shape, dtype=dtype).requires_grad_()
                y = function(x)
                dy = inputs.uniform(shape, dtype=dtype)
                y.backward(dy)
                emit(name.lower() + "_fwd", name + "_FWD", params,
                     [("in_0", x, "input"), ("out_0", rounded(y, dtype), "output")])
                emit(name.lower() + "_bwd", name + "_BWD", params,
                     [("in_0", dy, "input"), ("in_1", x, "input"),
                      ("out_0", rounded(x.grad, dtype), "output")])
            # Leaky ReLU capped at 1.53125: lower clip 0, slope 0.125. The cap is no multiple of
            # 1/16, so no input sits on it (frameworks differ on the derivative there).
            x = inputs.uniform(shape, dtype=dtype).requires_grad_()
            y = torch.clamp(F.leaky_relu(x, 0.125), max=1.53125)
            dy = inputs.uniform(shape, dtype=dtype)
            y.backward(dy)
            clip = {"relu_lower_clip": 0.0, "relu_upper_clip": 1.53125, "relu_lower_clip_slope": 0.125}
            emit("relu_fwd_clipped", "RELU_FWD", clip,
                 [("in_0", x, "input"), ("out_0", rounded(y, dtype), "output")])
            emit("relu_bwd_clipped", "RELU_BWD", clip,
                 [("in_0", dy, "input"), ("in_1", x, "input"),
                  ("out_0", rounded(x.grad, dtype), "output")])
            for mode, (function, kind) in BINARY.items():
                a = pointwise_input(inputs, kind, shape, dtype)
                b = pointwise_input(inputs, kind, broadcast_shape, dtype, second=True)
                emit(mode.lower(), mode, {}, [("in_0", a, "input"), ("in_1", b, "input"),
                                             ("out_0", rounded(function(a, b), dtype), "output")])
            a = inputs.uniform(shape, dtype=dtype)
            b = inputs.uniform(broadcast_shape, dtype=dtype)
            mask = pointwise_input(inputs, "sparse", shape, dtype)
            emit("binary_select", "BINARY_SELECT", {},
                 [("in_0", a, "input"), ("in_1", b, "input"), ("in_2", mask, "input"),
                  ("out_0", rounded(torch.where(mask != 0, a, b.expand(shape)), dtype), "output")])
            index = torch.arange(shape[2]).double().reshape(1, 1, -1, 1).expand(shape)
            emit("gen_index_axis2", "GEN_INDEX", {"axis": 2},
                 [("in_0", inputs.uniform(shape, dtype=dtype), "input"),
                  ("out_0", index, "output")])


# --------------------------------------------------------------------------------------------
# Matmul, reduction, norms (row-major)

def generate_matmul(root, inputs):
    configs = [("2d", [5, 7], [7, 6], False), ("batched_broadcast", [2, 3, 4, 9], [2, 1, 9, 5], False),
               ("b_column_major", [3, 4, 16], [1, 16, 5], True)]
    for name, a_dims, b_dims, b_transposed in configs:
        for dtype in DTYPES:
            a = inputs.uniform(a_dims, -1.0, 1.0, dtype=dtype)
            b = inputs.uniform(b_dims, -1.0, 1.0, dtype=dtype)
            c = torch.matmul(a, b)
            case = Case(root, "matmul", f"{name}_{dtype}", dtype,
                        "row_major" if not b_transposed else "b_column_major", {})
            case.add("a", a, dtype, "input")
            b_order = list(range(len(b_dims)))
            if b_transposed:
                b_order[-2], b_order[-1] = b_order[-1], b_order[-2]
            case.add("b", b, dtype, "input", b_order)
            case.add("c", rounded(c, dtype), dtype, "output")
            case.write()


def generate_reduction(root, inputs):
    functions = {
        "ADD": lambda x, d: x.sum(dim=d, keepdim=True),
        "MUL": lambda x, d: x.prod(dim=d[0], keepdim=True) if len(d) == 1 else None,
        "MIN_OP": lambda x, d: x.amin(dim=d, keepdim=True),
        "MAX_OP": lambda x, d: x.amax(dim=d, keepdim=True),
        "AMAX": lambda x, d: x.abs().amax(dim=d, keepdim=True),
        "AVG": lambda x, d: x.mean(dim=d, keepdim=True),
        "NORM1": lambda x, d: x.abs().sum(dim=d, keepdim=True),
        "NORM2": lambda x, d: torch.sqrt((x * x).sum(dim=d, keepdim=True)),
        "MUL_NO_ZEROS": lambda x, d: torch.where(x == 0, torch.ones_like(x), x).prod(
            dim=d[0], keepdim=True) if len(d) == 1 else None,
    }
    shape = [2, 3, 4, 5]
    for mode, function in functions.items():
        for dims_name, dims in (("last", [3]), ("channels", [0, 2, 3]), ("all", [0, 1, 2, 3])):
            if mode in ("MUL", "MUL_NO_ZEROS") and len(dims) != 1:
                continue  # products of many values leave the fp16 range
            for dtype in DTYPES:
                if mode == "MUL_NO_ZEROS":
                    x = torch.randint(-2, 3, shape, generator=inputs.generator).double() / 2
                else:
                    x = inputs.uniform(shape, dtype=dtype)
                out = function(x, dims)
                case = Case(root, "reduction", f"{mode.lower()}_{dims_name}_{dtype}", dtype,
                            "row_major", {"mode": mode})
                case.add("in", x, dtype, "input")
                case.add("out", rounded(out, dtype), dtype, "output")
                case.write()


def generate_norms(root, inputs):
    epsilon = 1e-5
    shape = [3, 4, 2, 5]
    for dtype in DTYPES:
        for scale_name, scale_shape in (("full", [1, 4, 2, 5]), ("per_channel", [1, 4, 1, 1])):
            x = inputs.uniform(shape, dtype=dtype)
            scale = inputs.uniform(scale_shape, 0.5, 1.5)
            bias = inputs.uniform(scale_shape, -1.0, 1.0)
            normalized = F.layer_norm(x, shape[1:], None, None, epsilon)
            y = normalized * scale + bias
            rows = x.reshape(shape[0], -1)
            mean = rows.mean(dim=1).reshape(shape[0], 1, 1, 1)
            inv_variance = (1.0 / torch.sqrt(rows.var(dim=1, unbiased=False) + epsilon)).reshape(
                shape[0], 1, 1, 1)
            for phase in ("inference", "training"):
                case = Case(root, "layernorm", f"{phase}_{scale_name}_{dtype}", dtype, "row_major",
                            {"epsilon": epsilon, "phase": phase})
                case.add("x", x, dtype, "input")
                case.add("scale", scale, "fp32", "input")
                case.add("bias", bias, "fp32", "input")
                case.add("y", rounded(y, dtype), dtype, "output")
                if phase == "training":
                    case.add("mean", mean, "fp32", "output")
                    case.add("inv_variance", inv_variance, "fp32", "output")
                case.write()

            # RMS norm by formula in float64; backward by autograd of that formula.
            x_grad = x.clone().requires_grad_()
            scale_grad = scale.clone().requires_grad_()
            bias_grad = bias.clone().requires_grad_()
            inv_rms = 1.0 / torch.sqrt((x_grad * x_grad).mean(dim=[1, 2, 3], keepdim=True) + epsilon)
            for with_bias in (False, True):
                y = x_grad * inv_rms * scale_grad + (bias_grad if with_bias else 0.0)
                for phase in ("inference", "training"):
                    case = Case(root, "rmsnorm",
                                f"{phase}_{'bias_' if with_bias else ''}{scale_name}_{dtype}",
                                dtype, "row_major", {"epsilon": epsilon, "phase": phase})
                    case.add("x", x, dtype, "input")
                    case.add("scale", scale, "fp32", "input")
                    if with_bias:
                        case.add("bias", bias, "fp32", "input")
                    case.add("y", rounded(y, dtype), dtype, "output")
                    if phase == "training":
                        case.add("inv_rms", inv_rms, "fp32", "output")
                    case.write()
                dy = inputs.uniform(shape, dtype=dtype)
                x_grad.grad = scale_grad.grad = bias_grad.grad = None
                # inv_rms is an input of the backward op, so its dependence on x is part of the
                # gradient: differentiate the whole forward formula.
                y.backward(dy, retain_graph=True)
                case = Case(root, "rmsnorm_backward",
                            f"{'bias_' if with_bias else ''}{scale_name}_{dtype}", dtype,
                            "row_major", {})
                case.add("dy", dy, dtype, "input")
                case.add("x", x, dtype, "input")
                case.add("scale", scale, "fp32", "input")
                case.add("inv_rms", inv_rms.float().double(), "fp32", "input")
                case.add("dx", rounded(x_grad.grad, dtype), dtype, "output")
                case.add("dscale", scale_grad.grad, "fp32", "output")
                if with_bias:
                    case.add("dbias", bias_grad.grad, "fp32", "output")
                case.write()


def generate_layernorm_backward(root, inputs):
    """Layer norm backward by autograd of F.layer_norm (with scale and bias applied after it, so
    broadcast scales reduce as the op's dscale does); the statistics are inputs, from the forward
    pass in float64."""
    epsilon = 1e-5
    configs = (("full", [3, 4, 2, 5], [1, 4, 2, 5]), ("per_channel", [3, 4, 2, 5], [1, 4, 1, 1]),
               ("2d", [6, 40], [1, 40]))
    for dtype in DTYPES:
        for name, shape, scale_shape in configs:
            x = inputs.uniform(shape, dtype=dtype).requires_grad_()
            scale = inputs.uniform(scale_shape, 0.5, 1.5).requires_grad_()
            bias = inputs.uniform(scale_shape, -1.0, 1.0).requires_grad_()
            dy = inputs.uniform(shape, dtype=dtype)
            y = F.layer_norm(x, shape[1:], None, None, epsilon) * scale + bias
            y.backward(dy)
            rows = x.detach().reshape(shape[0], -1)
            statistics_shape = [shape[0]] + [1] * (len(shape) - 1)
            mean = rows.mean(dim=1).reshape(statistics_shape)
            inv_variance = (1.0 / torch.sqrt(rows.var(dim=1, unbiased=False) + epsilon)).reshape(
                statistics_shape)
            case = Case(root, "layernorm_backward", f"{name}_{dtype}", dtype, "row_major",
                        {"epsilon": epsilon})
            case.add("dy", dy, dtype, "input")
            case.add("x", x, dtype, "input")
            case.add("scale", scale, "fp32", "input")
            case.add("mean", mean, "fp32", "input")
            case.add("inv_variance", inv_variance, "fp32", "input")
            case.add("dx", rounded(x.grad, dtype), dtype, "output")
            case.add("dscale", scale.grad, "fp32", "output")
            case.add("dbias", bias.grad, "fp32", "output")
            case.write()


# --------------------------------------------------------------------------------------------
# Pooling

POOL_CONFIGS = [
    # name, x dims, window, stride, pre, post
    ("2d_overlapping_padded", [2, 3, 7, 6], [3, 3], [2, 2], [1, 1], [1, 1]),
    ("2d_asymmetric_padding", [1, 2, 5, 6], [2, 3], [1, 2], [0, 1], [1, 0]),
    ("3d", [1, 2, 4, 5, 5], [2, 3, 3], [2, 1, 2], [1, 1, 1], [1, 1, 1]),
]


def window_positions(flat_index, x_dims, window, stride, pre):
    """PyTorch's flat index in the input plane -> flat index within the window."""
    spatial = len(window)
    in_spatial = x_dims[2:]
    out = torch.zeros_like(flat_index)
    remaining = flat_index.clone()
    coords = []
    for d in reversed(range(spatial)):
        coords.insert(0, remaining % in_spatial[d])
        remaining = remaining // in_spatial[d]
    out_shape = flat_index.shape[2:]
    for d in range(spatial):
        shape = [1] * len(flat_index.shape)
        shape[2 + d] = out_shape[d]
        start = (torch.arange(out_shape[d]) * stride[d] - pre[d]).reshape(shape)
        out = out * window[d] + (coords[d] - start)
    return out


def generate_pooling(root, inputs):
    for name, x_dims, window, stride, pre, post in POOL_CONFIGS:
        rank = len(x_dims)
        spatial = rank - 2
        pad = []
        for d in reversed(range(spatial)):
            pad += [pre[d], post[d]]
        max_pool = {2: F.max_pool2d, 3: F.max_pool3d}[spatial]
        avg_pool = {2: F.avg_pool2d, 3: F.avg_pool3d}[spatial]
        for dtype in DTYPES:
            for layout_name in (CHANNELS_FIRST[rank], CHANNELS_LAST[rank]):
                order = LAYOUTS[layout_name]
                x = inputs.uniform(x_dims, dtype=dtype)
                params = {"window": window, "stride": stride, "pre_padding": pre,
                          "post_padding": post}
                padded = F.pad(x, pad, value=-math.inf)
                y, flat = max_pool(padded, window, stride, return_indices=True)
                # Indices refer to the padded plane: shift them by the padding.
                padded_dims = list(padded.shape)
                index = window_positions(flat, padded_dims, window, stride, [0] * spatial)
                case = Case(root, "pooling", f"max_{name}_{dtype}_{layout_name}", dtype,
                            layout_name, dict(params, mode="MAXPOOL"))
                case.add("x", x, dtype, "input", order)
                case.add("y", rounded(y, dtype), dtype, "output", order)
                case.add("index", index, "int32", "output", order)
                case.write()

                zero_padded = F.pad(x, pad)
                include = avg_pool(zero_padded, window, stride)
                counts = avg_pool(F.pad(torch.ones_like(x), pad), window, stride)
                exclude = include / counts
                for mode, y in (("AVGPOOL_INCLUDE_PADDING", include),
                                ("AVGPOOL_EXCLUDE_PADDING", exclude)):
                    case = Case(root, "pooling", f"{mode.lower()}_{name}_{dtype}_{layout_name}",
                                dtype, layout_name, dict(params, mode=mode))
                    case.add("x", x, dtype, "input", order)
                    case.add("y", rounded(y, dtype), dtype, "output", order)
                    case.write()


# --------------------------------------------------------------------------------------------
# Scaled dot-product attention

# Memory order of (B, H, S, D) for each layout.
ATTENTION_LAYOUTS = {"BHSD": [0, 1, 2, 3], "BSHD": [0, 2, 1, 3]}

SDPA_CONFIGS = [
    # name, (B, Hq, Hk, Sq, Skv, D, Dv), options
    ("gqa", (2, 4, 2, 5, 7, 8, 8), {}),
    ("mqa_scaled", (1, 3, 1, 4, 6, 4, 6), {"scale": 0.5}),
    ("causal_top_left", (1, 2, 2, 6, 6, 8, 4), {"causal": True}),
    ("causal_bottom_right", (1, 2, 1, 3, 7, 4, 4), {"causal_bottom_right": True}),
    ("causal_bottom_right_sq_above_skv", (1, 2, 2, 7, 3, 4, 4), {"causal_bottom_right": True}),
    ("padding", (2, 2, 2, 5, 7, 4, 4), {"seq_len_q": [5, 2], "seq_len_kv": [7, 3]}),
    ("bias_broadcast", (2, 4, 2, 4, 5, 4, 4), {"bias_dims": [1, 4, 1, 5], "causal": True}),
    ("dropout", (1, 2, 1, 4, 6, 4, 4), {"dropout": (0.25, 1234, 5)}),
]

MASK64 = (1 << 64) - 1


def dropout_uniform(seed, offset, index):
    """The dropout random number of attention element `index` (row-major in (B, Hq, Sq, Skv)):
    splitmix64's finalizer of seed + golden-ratio * (offset + index + 1), top 53 bits / 2^53."""
    x = (seed + 0x9E3779B97F4A7C15 * (offset + index + 1)) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    x ^= x >> 31
    return (x >> 11) / float(1 << 53)


def attention_forward(q, k, v, bias, options):
    """O and the log-sum-exp stats in float64. Rows that see no key have O = 0 and stats +inf."""
    batch, heads, seq_q, _ = q.shape
    seq_kv = k.shape[2]
    group = heads // k.shape[1]
    k = k.repeat_interleave(group, dim=1)
    v = v.repeat_interleave(group, dim=1)
    scale = options.get("scale", 1.0 / math.sqrt(q.shape[3]))
    scores = scale * torch.matmul(q, k.transpose(-1, -2))
    if bias is not None:
        scores = scores + bias
    rows = torch.tensor(options.get("seq_len_q", [seq_q] * batch)).reshape(batch, 1, 1, 1)
    columns = torch.tensor(options.get("seq_len_kv", [seq_kv] * batch)).reshape(batch, 1, 1, 1)
    i = torch.arange(seq_q).reshape(1, 1, seq_q, 1)
    j = torch.arange(seq_kv).reshape(1, 1, 1, seq_kv)
    visible = (i < rows) & (j < columns)
    if options.get("causal"):
        visible = visible & (j <= i)
    if options.get("causal_bottom_right"):
        visible = visible & (j <= i + columns - rows)
    visible = visible.expand(batch, heads, seq_q, seq_kv)
    row_sees_a_key = visible.any(dim=-1, keepdim=True)
    # Rows without a key get finite dummy scores so that neither softmax nor its gradient is NaN.
    safe = torch.where(row_sees_a_key, scores.masked_fill(~visible, -math.inf), torch.zeros_like(scores))
    weights = torch.softmax(safe, dim=-1) * row_sees_a_key
    stats = torch.where(row_sees_a_key, torch.logsumexp(safe, dim=-1, keepdim=True),
                        torch.full_like(weights[..., :1], math.inf))
    if "dropout" in options:
        probability, seed, offset = options["dropout"]
        keep = torch.tensor([0.0 if dropout_uniform(seed, offset, n) < probability else 1.0 / (1 - probability)
                             for n in range(batch * heads * seq_q * seq_kv)]).reshape(weights.shape)
        weights = weights * keep
    return torch.matmul(weights, v), stats.detach()


def attention_params(options):
    params = {key: options[key] for key in ("scale", "causal", "causal_bottom_right", "seq_len_q", "seq_len_kv")
              if key in options}
    if "dropout" in options:
        params["dropout_probability"], params["dropout_seed"], params["dropout_offset"] = options["dropout"]
    return params


def generate_sdpa(root, inputs):
    for name, (batch, heads, kv_heads, seq_q, seq_kv, head_dim, value_dim), options in SDPA_CONFIGS:
        for dtype in DTYPES:
            layout = "BSHD" if dtype == "fp16" else "BHSD"
            order = ATTENTION_LAYOUTS[layout]
            q = inputs.uniform([batch, heads, seq_q, head_dim], -1.0, 1.0, dtype).requires_grad_()
            k = inputs.uniform([batch, kv_heads, seq_kv, head_dim], -1.0, 1.0, dtype).requires_grad_()
            v = inputs.uniform([batch, kv_heads, seq_kv, value_dim], -1.0, 1.0, dtype).requires_grad_()
            bias = inputs.uniform(options["bias_dims"], -1.0, 1.0, "fp32") if "bias_dims" in options else None
            o, stats = attention_forward(q, k, v, bias, options)
            params = attention_params(options)

            case = Case(root, "sdpa", f"{name}_{dtype}", dtype, layout, params)
            for tensor_name, tensor in (("q", q), ("k", k), ("v", v)):
                case.add(tensor_name, tensor, dtype, "input", order)
            if bias is not None:
                case.add("bias", bias, "fp32", "input")
            case.add("o", rounded(o, dtype), dtype, "output", order)
            case.add("stats", stats, "fp32", "output")
            case.write()

            # The backward pass reads the stored (rounded) o and stats, as an engine would.
            d_o = inputs.uniform(list(o.shape), -1.0, 1.0, dtype)
            dq, dk, dv = torch.autograd.grad(o, (q, k, v), d_o)
            case = Case(root, "sdpa_backward", f"{name}_{dtype}", dtype, layout, params)
            for tensor_name, tensor in (("q", q), ("k", k), ("v", v), ("o", rounded(o, dtype)), ("do", d_o)):
                case.add(tensor_name, tensor, dtype, "input", order)
            case.add("stats", stats.float().double(), "fp32", "input")
            if bias is not None:
                case.add("bias", bias, "fp32", "input")
            for tensor_name, tensor in (("dq", dq), ("dk", dk), ("dv", dv)):
                case.add(tensor_name, rounded(tensor, dtype), dtype, "output", order)
            case.write()


# --------------------------------------------------------------------------------------------
# ResNet-50 bottleneck (fp32, computed in float64)

BOTTLENECK_README = """# ResNet-50 bottleneck golden case (fp32, NCHW, packed)

    t1 = relu(bn1(conv1(x)))        conv1: 1x1, 256 -> 64, no padding, stride 1
    t2 = relu(bn2(conv2(t1)))       conv2: 3x3, 64 -> 64, padding 1 (pre and post), stride 1
    t3 = bn3(conv3(t2))             conv3: 1x1, 64 -> 256, no padding, stride 1
    y  = relu(t3 + x)               residual add (pointwise ADD), then RELU_FWD

Convolutions are CROSS_CORRELATION with dilation 1 and no conv bias. bnK is batch norm
inference (BatchnormInferenceAttributes): y = scale * (x - mean) * inv_variance + bias with
per-channel tensors of dims (1, C, 1, 1). Tensors (fp32, row-major/NCHW, files as in case.json):
x (1, 256, 56, 56), w1 (64, 256, 1, 1), w2 (64, 64, 3, 3), w3 (256, 64, 1, 1),
bn{1,2,3}_{mean,inv_variance,scale,bias}, y (1, 256, 56, 56). Computed in float64 by PyTorch and
rounded to fp32; an fp32 engine matches within about 1e-4 relative (576-term sums).
"""


def generate_bottleneck(root, inputs):
    case = Case(root, "resnet50_bottleneck", "n1_56x56_fp32", "fp32", "NCHW",
                {"epsilon_free": True, "description": "see README.md"})
    generator = torch.Generator().manual_seed(50)

    def random(shape, scale):
        return ((torch.rand(shape, generator=generator, dtype=torch.float64) * 2 - 1) * scale
                ).float().double()

    x = random([1, 256, 56, 56], 1.0)
    tensors = [("x", x)]
    t = x
    for index, (w_shape, padding) in enumerate(
            (([64, 256, 1, 1], 0), ([64, 64, 3, 3], 1), ([256, 64, 1, 1], 0)), start=1):
        fan_in = w_shape[1] * w_shape[2] * w_shape[3]
        w = random(w_shape, math.sqrt(3.0 / fan_in))
        channels = w_shape[0]
        mean = random([channels], 0.2)
        inv_variance = (1.0 / torch.sqrt(torch.rand(channels, generator=generator,
                                                      dtype=torch.float64) + 0.5)).float().double()
        scale = (random([channels], 0.5) + 1.0).float().double()
        bias = random([channels], 0.2)
        t = F.conv2d(t, w, padding=padding)
        t = (t - per_channel(mean, 4)) * per_channel(inv_variance, 4) * per_channel(scale, 4) \
            + per_channel(bias, 4)
        if index < 3:
            t = F.relu(t)
        tensors += [(f"w{index}", w), (f"bn{index}_mean", per_channel(mean, 4)),
                    (f"bn{index}_inv_variance", per_channel(inv_variance, 4)),
                    (f"bn{index}_scale", per_channel(scale, 4)),
                    (f"bn{index}_bias", per_channel(bias, 4))]
    y = F.relu(t + x)
    for name, tensor in tensors:
        case.add(name, tensor, "fp32", "input")
    case.add("y", y, "fp32", "output")
    case.manifest["params"] = {}
    case.write()
    (case.dir / "README.md").write_text(BOTTLENECK_README)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_output = Path(__file__).resolve().parent.parent / "test_sdk" / "golden"
    parser.add_argument("--output", type=Path, default=default_output)
    parser.add_argument("--skip-bottleneck", action="store_true",
                        help="leave out the 6.7 MB ResNet-50 bottleneck case")
    parser.add_argument("--only", nargs="+", metavar="GENERATOR",
                        help="run only these generators (e.g. sdpa) and keep the other folders")
    arguments = parser.parse_args()
    torch.set_default_dtype(torch.float64)
    root = arguments.output
    # Each generator keeps its seed (its position here) whichever are run: append new ones.
    generators = {"convolution": generate_convolution, "batchnorm": generate_batchnorm,
                  "pointwise": generate_pointwise, "matmul": generate_matmul,
                  "reduction": generate_reduction, "norms": generate_norms,
                  "pooling": generate_pooling, "bottleneck": generate_bottleneck, "sdpa": generate_sdpa,
                  "layernorm_backward": generate_layernorm_backward}
    seeds = {name: seed for seed, name in enumerate(generators, start=1)}
    selected = arguments.only or [name for name in generators
                                  if not (arguments.skip_bottleneck and name == "bottleneck")]
    unknown = [name for name in selected if name not in generators]
    if unknown:
        sys.exit(f"unknown generator {unknown[0]}; the generators are {', '.join(generators)}")
    if arguments.only:
        # Only the op folders these generators write are replaced.
        scratch = root / ".scratch"
        shutil.rmtree(scratch, ignore_errors=True)
        for name in selected:
            generators[name](scratch, Inputs(seeds[name]))
        for folder in scratch.iterdir():
            shutil.rmtree(root / folder.name, ignore_errors=True)
            shutil.move(str(folder), str(root / folder.name))
        scratch.rmdir()
    else:
        for child in root.glob("*"):
            if child.is_dir():
                shutil.rmtree(child)
        for name in selected:
            generators[name](root, Inputs(seeds[name]))
    cases = len(list(root.glob("*/*/case.json")))
    size = sum(path.stat().st_size for path in root.rglob("*") if path.is_file())
    print(f"wrote {cases} cases, {size / 1e6:.2f} MB, to {root}")


if __name__ == "__main__":
    main()
