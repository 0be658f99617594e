"""Autograd-aware torch functions that run on hipdnn plans: layer_norm, conv2d and
scaled_dot_product_attention.

Each function builds its graphs once per combination of shapes, dtype, device and parameters and
keeps the built plans in a cache; later calls only execute. Tensors cross through DLPack without
copies (non-contiguous inputs are made contiguous first).
"""

import torch

from . import _hipdnn as _core

_handles = {}
_plans = {}


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
    _handles.clear()


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


def _conv_fprop(x, w, settings):
    def make_graph(graph):
        image = graph.tensor(name="x", dim=list(x.shape), data_type=x.dtype)
        weight = graph.tensor(name="w", dim=list(w.shape), data_type=w.dtype)
        y = graph.conv_fprop(image=image, weight=weight, **settings)
        y.set_output(True)
        return {"x": image, "w": weight, "y": y}

    key = ("conv_fprop", x.dtype, x.device, tuple(x.shape), tuple(w.shape), repr(settings))
    plan = _plan(key, x.dtype, x.device, make_graph)
    y = torch.empty(plan[1]["y"].dim, dtype=x.dtype, device=x.device)
    _run(plan, {"x": x, "w": w, "y": y})
    return y


def _conv_dgrad(dy, w, x_shape, settings):
    def make_graph(graph):
        loss = graph.tensor(name="dy", dim=list(dy.shape), data_type=dy.dtype)
        weight = graph.tensor(name="w", dim=list(w.shape), data_type=w.dtype)
        dx = graph.conv_dgrad(loss=loss, filter=weight, **settings)
        dx.set_dim(list(x_shape)).set_output(True)
        return {"dy": loss, "w": weight, "dx": dx}

    key = ("conv_dgrad", dy.dtype, dy.device, tuple(dy.shape), tuple(w.shape), tuple(x_shape), repr(settings))
    dx = torch.empty(x_shape, dtype=dy.dtype, device=dy.device)
    _run(_plan(key, dy.dtype, dy.device, make_graph), {"dy": dy, "w": w, "dx": dx})
    return dx


def _conv_wgrad(dy, x, w_shape, settings):
    def make_graph(graph):
        loss = graph.tensor(name="dy", dim=list(dy.shape), data_type=dy.dtype)
        image = graph.tensor(name="x", dim=list(x.shape), data_type=x.dtype)
        dw = graph.conv_wgrad(image=image, loss=loss, **settings)
        dw.set_dim(list(w_shape)).set_output(True)
        return {"dy": loss, "x": image, "dw": dw}

    key = ("conv_wgrad", dy.dtype, dy.device, tuple(dy.shape), tuple(x.shape), tuple(w_shape), repr(settings))
    dw = torch.empty(w_shape, dtype=dy.dtype, device=dy.device)
    _run(_plan(key, dy.dtype, dy.device, make_graph), {"dy": dy, "x": x, "dw": dw})
    return dw


class _Conv2d(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias, settings):
        x, weight = x.contiguous(), weight.contiguous()
        y = _conv_fprop(x, weight, settings)
        if bias is not None:
            y += bias.view(1, -1, 1, 1)
        ctx.save_for_backward(x, weight)
        ctx.settings = settings
        ctx.has_bias = bias is not None
        return y

    @staticmethod
    def backward(ctx, dy):
        x, weight = ctx.saved_tensors
        dy = dy.contiguous()
        dx = _conv_dgrad(dy, weight, x.shape, ctx.settings) if ctx.needs_input_grad[0] else None
        dw = _conv_wgrad(dy, x, weight.shape, ctx.settings) if ctx.needs_input_grad[1] else None
        dbias = dy.sum((0, 2, 3)) if ctx.has_bias and ctx.needs_input_grad[2] else None
        return dx, dw, dbias, None


def _pair(value):
    return (value, value) if isinstance(value, int) else tuple(value)


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1):
    """torch.nn.functional.conv2d (groups=1, NCHW), forward and backward on hipdnn plans."""
    settings = _conv_settings(_pair(padding), _pair(stride), _pair(dilation))
    return _Conv2d.apply(x, weight, bias, settings)


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
