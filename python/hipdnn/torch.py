"""Autograd-aware torch functions that run on hipdnn plans: layer_norm, batch_norm, conv2d and
scaled_dot_product_attention.

Each function builds its graphs once per combination of shapes, dtype, device and parameters and
keeps the built plans in a cache; later calls only execute. Tensors cross through DLPack without
copies (non-contiguous inputs are made contiguous first).
"""

import atexit

import torch

from . import _hipdnn as _core

_handles = {}
_plans = {}
# Keys of fused graphs no engine took; their parts run as separate plans.
_unfused = set()


def _handle(device):
    key = "cpu" if device.type == "cpu" else f"gpu:{device.index or 0}"
    if key not in _handles:
        _handles[key] = _core.Handle(key)
    return _handles[key]


def _plan(key, dtype, device, make_graph):
    """The built graph for `key`: (graph, tensors) where make_graph(graph) returned the tensors."""
    if key not in _plans:
        graph = _core.Graph(io_data_type=dtype, intermediate_data_type=torch.float32, compute_data_type=torch.float32)
        tensors = make_graph(graph)
        graph.build(_handle(device))
        _plans[key] = (graph, tensors)
    return _plans[key]


def _run(plan, arrays):
    graph, tensors = plan
    graph.execute({tensors[name]: array for name, array in arrays.items()})


def clear_cache():
    """Drops every cached plan and handle."""
    _plans.clear()
    _unfused.clear()
    _handles.clear()


# The plans and handles go before the interpreter tears the extension down.
atexit.register(clear_cache)


class _LayerNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, normalized_shape, weight, bias, eps):
        rows = x.numel() // weight.numel()
        features = weight.numel()
        flat = x.contiguous().view(rows, features)

        def make_graph(graph):
            tensors = {
                "x": graph.tensor(name="x", dim=[rows, features], data_type=x.dtype),
                "scale": graph.tensor(name="scale", dim=[1, features], data_type=x.dtype),
                "bias": graph.tensor(name="bias", dim=[1, features], data_type=x.dtype),
            }
            y, mean, inv_variance = graph.layernorm(
                tensors["x"], tensors["scale"], tensors["bias"], epsilon=eps,
                norm_forward_phase=_core.norm_forward_phase.TRAINING,
            )
            for name, tensor in (("y", y), ("mean", mean), ("inv_variance", inv_variance)):
                tensor.set_output(True)
                tensors[name] = tensor
            mean.set_data_type(torch.float32)
            inv_variance.set_data_type(torch.float32)
            return tensors

        key = ("layer_norm", x.dtype, x.device, rows, features, float(eps))
        y = torch.empty_like(flat)
        mean = torch.empty(rows, 1, dtype=torch.float32, device=x.device)
        inv_variance = torch.empty(rows, 1, dtype=torch.float32, device=x.device)
        _run(
            _plan(key, x.dtype, x.device, make_graph),
            {"x": flat, "scale": weight.contiguous().view(1, features), "bias": bias.contiguous().view(1, features),
             "y": y, "mean": mean, "inv_variance": inv_variance},
        )
        ctx.save_for_backward(flat, weight, mean, inv_variance)
        ctx.input_shape = x.shape
        return y.view(x.shape)

    @staticmethod
    def backward(ctx, dy):
        flat, weight, mean, inv_variance = ctx.saved_tensors
        dy = dy.contiguous().view_as(flat).float()
        x_hat = (flat.float() - mean) * inv_variance
        dscale = (dy * x_hat).sum(0)
        dbias = dy.sum(0)
        g = dy * weight.float().view(1, -1)
        features = flat.shape[1]
        dx = inv_variance / features * (features * g - g.sum(1, keepdim=True) - x_hat * (g * x_hat).sum(1, keepdim=True))
        return (dx.to(flat.dtype).view(ctx.input_shape), None, dscale.to(weight.dtype).view(weight.shape),
                dbias.to(weight.dtype).view(weight.shape), None)


def layer_norm(x, normalized_shape, weight, bias, eps=1e-5):
    """torch.nn.functional.layer_norm over the trailing `normalized_shape` dims (weight and bias given)."""
    if tuple(weight.shape) != tuple(normalized_shape) or tuple(x.shape[-len(normalized_shape):]) != tuple(
            normalized_shape):
        raise ValueError(f"layer_norm: x {tuple(x.shape)}, weight {tuple(weight.shape)} and normalized_shape "
                         f"{tuple(normalized_shape)} disagree")
    return _LayerNorm.apply(x, tuple(normalized_shape), weight, bias, eps)


def _conv_settings(padding, stride, dilation):
    return {"padding": list(padding), "stride": list(stride), "dilation": list(dilation)}


def _memory_format(t):
    """torch.channels_last for a 4-d tensor stored NHWC (and not also NCHW-contiguous), else NCHW."""
    if t.dim() == 4 and not t.is_contiguous() and t.is_contiguous(memory_format=torch.channels_last):
        return torch.channels_last
    return torch.contiguous_format


def _dense(t, memory_format):
    return t.contiguous(memory_format=memory_format)


def _graph_tensor(graph, name, t):
    """A graph input with the dims, strides and type of the torch tensor t."""
    return graph.tensor(name=name, dim=list(t.shape), stride=list(t.stride()), data_type=t.dtype)


def _channel_view(t, memory_format):
    """A per-channel (C,) tensor as the (1, C, 1, 1) graph tensor beside an NCHW one."""
    return t.reshape(1, -1, 1, 1).contiguous(memory_format=memory_format)


def _lay_out(tensor, like):
    """Gives the graph tensor the dims and strides of the torch tensor `like`."""
    return tensor.set_dim(list(like.shape)).set_stride(list(like.stride()))


def _outputs(tensors, named_outputs, arrays):
    """Marks each (name, graph tensor) an output laid out and typed as arrays[name]."""
    for name, tensor in named_outputs:
        _lay_out(tensor, arrays[name]).set_output(True).set_data_type(arrays[name].dtype)
        tensors[name] = tensor


def _layout_key(*tensors):
    return tuple((tuple(t.shape), t.stride()) for t in tensors)


def _conv_output_shape(x_shape, w_shape, settings):
    spatial = [
        (size + 2 * pad - dil * (taps - 1) - 1) // step + 1
        for size, taps, pad, step, dil in zip(x_shape[2:], w_shape[2:], settings["padding"], settings["stride"],
                                              settings["dilation"])
    ]
    return (x_shape[0], w_shape[0], *spatial)


_ACTIVATIONS = (None, "relu")


def _pointwise_epilogue(graph, value, bias, activation, like):
    """value [+ bias] [relu], each step laid out as `like` (the output): fused after the conv."""
    if bias is not None:
        value = _lay_out(graph.add(a=value, b=bias), like)
    if activation == "relu":
        value = graph.relu(input=value)
    return value


def _conv_fprop(x, w, bias, activation, settings):
    """conv [+ bias] [relu] as one graph. Where no engine takes that graph, the convolution runs
    as its own plan and the epilogue as a second, pointwise one."""
    fused = bias is not None or activation is not None
    key = ("conv_fprop", x.dtype, x.device, _layout_key(x, w), bias is not None, activation, repr(settings))
    y = torch.empty(_conv_output_shape(x.shape, w.shape, settings), dtype=x.dtype, device=x.device).contiguous(
        memory_format=_memory_format(x))
    channel = _channel_view(bias, _memory_format(x)) if bias is not None else None
    arrays = {"x": x, "w": w, "y": y}
    if channel is not None:
        arrays["bias"] = channel

    def make_graph(graph):
        tensors = {name: _graph_tensor(graph, name, arrays[name]) for name in ("x", "w", "bias") if name in arrays}
        conv = _lay_out(graph.conv_fprop(image=tensors["x"], weight=tensors["w"], **settings), y)
        _outputs(tensors, [("y", _pointwise_epilogue(graph, conv, tensors.get("bias"), activation, y))], arrays)
        return tensors

    if not (fused and key in _unfused):
        try:
            plan = _plan(key, x.dtype, x.device, make_graph)
        except _core.Error as error:
            if not fused or error.status != "GRAPH_NOT_SUPPORTED":
                raise
            _unfused.add(key)
        else:
            _run(plan, arrays)
            return y
    return _epilogue(_conv_fprop(x, w, None, None, settings), channel, activation)


def _epilogue(value, channel, activation):
    key = ("epilogue", value.dtype, value.device, _layout_key(value), channel is not None, activation)
    out = torch.empty_like(value)
    arrays = {"value": value, "out": out}
    if channel is not None:
        arrays["bias"] = channel

    def make_graph(graph):
        tensors = {name: _graph_tensor(graph, name, arrays[name]) for name in ("value", "bias") if name in arrays}
        _outputs(tensors, [("out", _pointwise_epilogue(graph, tensors["value"], tensors.get("bias"), activation,
                                                         out))], arrays)
        return tensors

    _run(_plan(key, value.dtype, value.device, make_graph), arrays)
    return out


def _conv_dgrad(dy, w, x_like, settings):
    arrays = {"dy": dy, "w": w, "dx": torch.empty_like(x_like)}

    def make_graph(graph):
        tensors = {name: _graph_tensor(graph, name, arrays[name]) for name in ("dy", "w")}
        _outputs(tensors, [("dx", graph.conv_dgrad(loss=tensors["dy"], filter=tensors["w"], **settings))], arrays)
        return tensors

    key = ("conv_dgrad", dy.dtype, dy.device, _layout_key(dy, w, arrays["dx"]), repr(settings))
    _run(_plan(key, dy.dtype, dy.device, make_graph), arrays)
    return arrays["dx"]


def _conv_wgrad(dy, x, w_like, settings):
    arrays = {"dy": dy, "x": x, "dw": torch.empty_like(w_like)}

    def make_graph(graph):
        tensors = {name: _graph_tensor(graph, name, arrays[name]) for name in ("dy", "x")}
        _outputs(tensors, [("dw", graph.conv_wgrad(image=tensors["x"], loss=tensors["dy"], **settings))], arrays)
        return tensors

    key = ("conv_wgrad", dy.dtype, dy.device, _layout_key(dy, x, arrays["dw"]), repr(settings))
    _run(_plan(key, dy.dtype, dy.device, make_graph), arrays)
    return arrays["dw"]


class _Conv2d(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias, settings, activation):
        memory_format = _memory_format(x)
        x, weight = _dense(x, memory_format), _dense(weight, memory_format)
        y = _conv_fprop(x, weight, bias, activation, settings)
        ctx.save_for_backward(x, weight, y if activation == "relu" else None)
        ctx.settings, ctx.memory_format = settings, memory_format
        ctx.bias_dtype = bias.dtype if bias is not None else None
        return y

    @staticmethod
    def backward(ctx, dy):
        x, weight, activated = ctx.saved_tensors
        dy = _dense(dy, ctx.memory_format)
        if activated is not None:
            # relu'(z) is 1 where the output is positive, which is where z is.
            dy = dy * (activated > 0)
        dx = _conv_dgrad(dy, weight, x, ctx.settings) if ctx.needs_input_grad[0] else None
        dw = _conv_wgrad(dy, x, weight, ctx.settings) if ctx.needs_input_grad[1] else None
        dbias = dy.sum((0, 2, 3), dtype=torch.float32).to(ctx.bias_dtype) if ctx.needs_input_grad[2] else None
        return dx, dw, dbias, None, None


def _pair(value):
    return (value, value) if isinstance(value, int) else tuple(value)


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, activation=None):
    """torch.nn.functional.conv2d (groups=1, NCHW dims, NCHW or channels_last storage), with the bias
    and activation ("relu" or None) fused into the convolution's graph; forward and backward on
    hipdnn plans."""
    if activation not in _ACTIVATIONS:
        raise ValueError(f"conv2d: activation {activation!r} is not one of {_ACTIVATIONS}")
    settings = _conv_settings(_pair(padding), _pair(stride), _pair(dilation))
    return _Conv2d.apply(x, weight, bias, settings, activation)


class _BatchNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, running_mean, running_var, weight, bias, training, momentum, eps):
        memory_format = _memory_format(x)
        x = _dense(x, memory_format)
        scale, shift = _channel_view(weight, memory_format), _channel_view(bias, memory_format)
        y = torch.empty_like(x)
        channels = (1, x.shape[1], 1, 1)
        arrays = {"x": x, "scale": scale, "bias": shift, "y": y}
        if training:
            mean = torch.empty(channels, dtype=torch.float32, device=x.device)
            inv_variance = torch.empty_like(mean)
            arrays.update(mean=mean, inv_variance=inv_variance)
            tracks_running = running_mean is not None
            if tracks_running:
                arrays.update(running_mean=_channel_view(running_mean, memory_format),
                              running_var=_channel_view(running_var, memory_format),
                              next_running_mean=torch.empty(channels, dtype=running_mean.dtype, device=x.device),
                              next_running_var=torch.empty(channels, dtype=running_var.dtype, device=x.device))

            def make_graph(graph):
                tensors = {name: _graph_tensor(graph, name, arrays[name])
                           for name in ("x", "scale", "bias", "running_mean", "running_var") if name in arrays}
                results = graph.batchnorm(tensors["x"], tensors["scale"], tensors["bias"], epsilon=eps,
                                          in_running_mean=tensors.get("running_mean"),
                                          in_running_var=tensors.get("running_var"), momentum=momentum)
                names = ("y", "mean", "inv_variance", "next_running_mean", "next_running_var")
                _outputs(tensors, [(name, t) for name, t in zip(names, results) if name in arrays], arrays)
                return tensors

            key = ("batch_norm", x.dtype, x.device, _layout_key(x, scale), weight.dtype, tracks_running,
                   running_mean.dtype if tracks_running else None, float(eps), float(momentum))
            _run(_plan(key, x.dtype, x.device, make_graph), arrays)
            if tracks_running:
                running_mean.copy_(arrays["next_running_mean"].view(-1))
                running_var.copy_(arrays["next_running_var"].view(-1))
        else:
            mean = running_mean.reshape(channels).float()
            inv_variance = torch.rsqrt(running_var.reshape(channels).float() + eps)
            arrays.update(mean=mean, inv_variance=inv_variance)

            def make_graph(graph):
                tensors = {name: _graph_tensor(graph, name, arrays[name])
                           for name in ("x", "mean", "inv_variance", "scale", "bias")}
                out = graph.batchnorm_inference(tensors["x"], tensors["mean"], tensors["inv_variance"],
                                                tensors["scale"], tensors["bias"])
                _outputs(tensors, [("y", out)], arrays)
                return tensors

            key = ("batch_norm_inference", x.dtype, x.device, _layout_key(x, scale), weight.dtype)
            _run(_plan(key, x.dtype, x.device, make_graph), arrays)
        ctx.save_for_backward(x, scale, mean, inv_variance)
        ctx.training, ctx.memory_format = training, memory_format
        return y

    @staticmethod
    def backward(ctx, dy):
        x, scale, mean, inv_variance = ctx.saved_tensors
        dy = _dense(dy, ctx.memory_format)
        if not ctx.training:
            # With fixed statistics the normalization is affine: its gradients are elementwise.
            dy32 = dy.float()
            dx = (dy32 * (scale.float() * inv_variance)).to(x.dtype)
            dscale = (dy32 * (x.float() - mean) * inv_variance).sum((0, 2, 3))
            return dx, None, None, dscale.to(scale.dtype), dy32.sum((0, 2, 3)).to(scale.dtype), None, None, None
        arrays = {"dy": dy, "x": x, "scale": scale, "mean": mean, "inv_variance": inv_variance,
                  "dx": torch.empty_like(x), "dscale": torch.empty_like(mean), "dbias": torch.empty_like(mean)}

        def make_graph(graph):
            tensors = {name: _graph_tensor(graph, name, arrays[name])
                       for name in ("dy", "x", "scale", "mean", "inv_variance")}
            grads = graph.batchnorm_backward(tensors["dy"], tensors["x"], tensors["scale"], mean=tensors["mean"],
                                             inv_variance=tensors["inv_variance"])
            names = ("dx", "dscale", "dbias")
            _outputs(tensors, list(zip(names, grads)), arrays)
            return tensors

        key = ("batch_norm_backward", x.dtype, x.device, _layout_key(x, scale), scale.dtype)
        _run(_plan(key, x.dtype, x.device, make_graph), arrays)
        return (arrays["dx"], None, None, arrays["dscale"].view(-1).to(scale.dtype),
                arrays["dbias"].view(-1).to(scale.dtype), None, None, None)


def batch_norm(x, running_mean, running_var, weight, bias, training=False, momentum=0.1, eps=1e-5):
    """torch.nn.functional.batch_norm over the channels (dim 1) of an (N, C, H, W) tensor, NCHW or
    channels_last. Training normalizes with the batch statistics, saves the mean and inverse
    standard deviation for the backward pass and, given running statistics, updates them in place
    (momentum, unbiased variance); otherwise the running statistics normalize."""
    if x.dim() != 4:
        raise ValueError(f"batch_norm: x must be (N, C, H, W), not {tuple(x.shape)}")
    channels = x.shape[1]
    for name, t in (("weight", weight), ("bias", bias), ("running_mean", running_mean), ("running_var", running_var)):
        if t is not None and tuple(t.shape) != (channels,):
            raise ValueError(f"batch_norm: {name} has shape {tuple(t.shape)}, not ({channels},) for x {tuple(x.shape)}")
    if weight is None or bias is None:
        raise ValueError("batch_norm: weight and bias are required")
    if (running_mean is None) != (running_var is None):
        raise ValueError("batch_norm: give both running_mean and running_var or neither")
    if not training and running_mean is None:
        raise ValueError("batch_norm: inference (training=False) normalizes with running_mean and running_var")
    if momentum is None:
        raise ValueError("batch_norm: momentum=None (a cumulative average) is not supported")
    return _BatchNorm.apply(x, running_mean, running_var, weight, bias, bool(training), float(momentum), float(eps))


def _sdpa_forward(q, k, v, scale, causal):
    def make_graph(graph):
        tensors = {name: graph.tensor(name=name, dim=list(t.shape), data_type=t.dtype)
                   for name, t in (("q", q), ("k", k), ("v", v))}
        o, stats = graph.sdpa(tensors["q"], tensors["k"], tensors["v"], attn_scale=scale, generate_stats=True,
                              use_causal_mask=causal)
        o.set_output(True)
        stats.set_output(True)
        tensors.update(o=o, stats=stats)
        return tensors

    key = ("sdpa", q.dtype, q.device, tuple(q.shape), tuple(k.shape), tuple(v.shape), scale, causal)
    plan = _plan(key, q.dtype, q.device, make_graph)
    o = torch.empty(plan[1]["o"].dim, dtype=q.dtype, device=q.device)
    stats = torch.empty(plan[1]["stats"].dim, dtype=torch.float32, device=q.device)
    _run(plan, {"q": q, "k": k, "v": v, "o": o, "stats": stats})
    return o, stats


def _sdpa_backward(q, k, v, o, d_o, stats, scale, causal):
    def make_graph(graph):
        tensors = {name: graph.tensor(name=name, dim=list(t.shape), data_type=t.dtype)
                   for name, t in (("q", q), ("k", k), ("v", v), ("o", o), ("d_o", d_o), ("stats", stats))}
        grads = graph.sdpa_backward(tensors["q"], tensors["k"], tensors["v"], tensors["o"], tensors["d_o"],
                                    tensors["stats"], attn_scale=scale, use_causal_mask=causal)
        for name, grad in zip(("dq", "dk", "dv"), grads):
            grad.set_output(True)
            tensors[name] = grad
        return tensors

    key = ("sdpa_backward", q.dtype, q.device, tuple(q.shape), tuple(k.shape), tuple(v.shape), scale, causal)
    dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
    _run(_plan(key, q.dtype, q.device, make_graph),
         {"q": q, "k": k, "v": v, "o": o, "d_o": d_o, "stats": stats, "dq": dq, "dk": dk, "dv": dv})
    return dq, dk, dv


class _ScaledDotProductAttention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, scale, causal):
        q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        o, stats = _sdpa_forward(q, k, v, scale, causal)
        ctx.save_for_backward(q, k, v, o, stats)
        ctx.scale, ctx.causal = scale, causal
        return o

    @staticmethod
    def backward(ctx, d_o):
        q, k, v, o, stats = ctx.saved_tensors
        dq, dk, dv = _sdpa_backward(q, k, v, o, d_o.contiguous(), stats, ctx.scale, ctx.causal)
        return dq, dk, dv, None, None


def scaled_dot_product_attention(q, k, v, is_causal=False, scale=None):
    """softmax(q k^T * scale [causal mask]) v for (B, H, S, D) tensors; scale defaults to 1/sqrt(D)."""
    scale = float(scale) if scale is not None else q.shape[-1] ** -0.5
    return _ScaledDotProductAttention.apply(q, k, v, scale, bool(is_causal))
