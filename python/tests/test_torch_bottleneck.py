"""A ResNet-50 bottleneck block run through hipdnn.torch with the weights of a torch.nn module,
against that module in float64 on the CPU: output, input gradient, every weight gradient and the
batch norms' running statistics, held to the test SDK's tolerances for the chain of operations.
Skipped without torch."""

import copy

import pytest

from tolerances import chain_tolerance, fixed_tolerance, reduction_tolerance
from torch_cases import assert_close, needs_cuda, torch

import hipdnn.torch as hipdnn_torch  # noqa: E402

nn = torch.nn


class Bottleneck(nn.Module):
    """torchvision's Bottleneck with a projection shortcut (stride 1): 1x1, 3x3, 1x1 convolutions,
    each followed by batch norm, ReLU after the first two and after the residual sum."""

    def __init__(self, in_channels, width, out_channels):
        super().__init__()
        self.stored = lambda t: t
        self.conv1 = nn.Conv2d(in_channels, width, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, out_channels, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(out_channels)
        self.downsample = nn.Sequential(nn.Conv2d(in_channels, out_channels, 1, bias=False),
                                        nn.BatchNorm2d(out_channels))

    def forward(self, x):
        s = self.stored
        out = torch.relu(s(self.bn1(s(self.conv1(x)))))
        out = torch.relu(s(self.bn2(s(self.conv2(out)))))
        out = s(self.bn3(s(self.conv3(out))))
        return torch.relu(s(out + s(self.downsample[1](s(self.downsample[0](x))))))


def hipdnn_bottleneck(block, x):
    """Bottleneck.forward with each convolution and batch norm on hipdnn plans."""
    def conv_bn(conv, bn, t):
        y = hipdnn_torch.conv2d(t, conv.weight, padding=conv.padding)
        return hipdnn_torch.batch_norm(y, bn.running_mean, bn.running_var, bn.weight, bn.bias, training=bn.training,
                                       momentum=bn.momentum, eps=bn.eps)

    out = torch.relu(conv_bn(block.conv1, block.bn1, x))
    out = torch.relu(conv_bn(block.conv2, block.bn2, out))
    out = conv_bn(block.conv3, block.bn3, out)
    return torch.relu(out + conv_bn(block.downsample[0], block.downsample[1], x))


def make_block(device, dtype):
    """The block with random batch-norm parameters and statistics; convolution weights in dtype,
    batch-norm parameters and statistics in float32 (torch's mixed precision)."""
    torch.manual_seed(5)
    block = Bottleneck(64, 64, 256)
    for module in block.modules():
        if isinstance(module, nn.BatchNorm2d):
            with torch.no_grad():
                module.weight.uniform_(0.5, 1.5)
                module.bias.normal_(0.0, 0.2)
                module.running_mean.normal_(0.0, 0.1)
                module.running_var.uniform_(0.5, 1.5)
    block.to(device)
    for module in block.modules():
        if isinstance(module, nn.Conv2d):
            module.to(dtype)
    return block.train()


def record_reductions(block):
    """For each convolution and batch norm of the block, as its passes run: the terms of its
    parameter gradients' sums (N*P*Q), the largest element of the other factor of those terms (the
    convolution's input, the batch norm's normalized input) and of its output's gradient."""
    records = {}
    for name, module in block.named_modules():
        if isinstance(module, (nn.Conv2d, nn.BatchNorm2d)):
            def forward_hook(module, inputs, output, name=name):
                factor, op = inputs[0].detach(), "ConvolutionWrw"
                if isinstance(module, nn.BatchNorm2d):
                    op = "BatchnormBackward"
                    mean = factor.mean((0, 2, 3), keepdim=True)
                    variance = factor.var((0, 2, 3), unbiased=False, keepdim=True)
                    factor = (factor - mean) * torch.rsqrt(variance + module.eps)
                records[name] = {"op": op, "terms": output.shape[0] * output.shape[2] * output.shape[3],
                                 "factor": float(factor.abs().max())}

            def backward_hook(module, grad_input, grad_output, name=name):
                records[name]["grad_output"] = float(grad_output[0].abs().max())

            module.register_forward_hook(forward_hook)
            module.register_full_backward_hook(backward_hook)
    return records


def parameter_gradient_tolerance(records, name, dtype):
    """The test SDK's bound for the sums of a parameter's gradient (None for the input's)."""
    module, _, parameter = name.rpartition(".")
    record = records.get(module)
    if record is None:
        return None
    if parameter == "bias":
        return reduction_tolerance("BatchnormBackward", dtype, record["terms"], record["grad_output"])
    return reduction_tolerance(record["op"], dtype, record["terms"], record["factor"] * record["grad_output"])


def widest(*tolerances):
    return max(t[0] for t in tolerances), max(t[1] for t in tolerances)


FORWARD_OPS = ("ConvolutionFwd", "BatchnormTraining", "Pointwise")
BACKWARD_OPS = FORWARD_OPS + ("ConvolutionBwd", "ConvolutionWrw", "BatchnormBackward")


@pytest.mark.parametrize("device, dtype, memory_format", [
    pytest.param("cpu", torch.float32, torch.contiguous_format, id="cpu-float32-nchw"),
    pytest.param("cuda", torch.float32, torch.contiguous_format, marks=needs_cuda, id="cuda-float32-nchw"),
    pytest.param("cuda", torch.float16, torch.channels_last, marks=needs_cuda, id="cuda-float16-nhwc"),
    pytest.param("cuda", torch.bfloat16, torch.channels_last, marks=needs_cuda, id="cuda-bfloat16-nhwc"),
])
def test_bottleneck_training_step_matches_the_torch_module(device, dtype, memory_format):
    block = make_block(device, dtype)
    # The reference is the module in float64 rounding each tensor the block stores (every op's
    # output, and in the backward pass every gradient) to the tested type, as the block's own
    # storage does; without that, ReLU masks flipped by rounding near zero dominate the low-precision
    # gradients.
    expected_block = copy.deepcopy(block).double().cpu()
    expected_block.stored = lambda t: t.to(dtype).to(torch.float64)
    reductions = record_reductions(expected_block)
    x = torch.randn(2, 64, 14, 14, device=device).to(dtype).contiguous(memory_format=memory_format)
    x.requires_grad_()
    expected_x = x.detach().double().cpu().requires_grad_()

    y = hipdnn_bottleneck(block, x)
    expected = expected_block(expected_x)
    assert y.dtype == dtype
    assert_close(y, expected, chain_tolerance(FORWARD_OPS, dtype), "y")
    for (name, buffer), (_, expected_buffer) in zip(block.named_buffers(), expected_block.named_buffers()):
        if "running" in name:
            assert_close(buffer, expected_buffer, fixed_tolerance("BatchnormTraining", torch.float32), name)

    dy = torch.randn(expected.shape, device=device).to(dtype)
    names, parameters = zip(*block.named_parameters())
    grads = torch.autograd.grad(y, (x, *parameters), dy)
    expected_grads = torch.autograd.grad(expected, (expected_x, *expected_block.parameters()), dy.double().cpu())
    assert len(grads) == 1 + 12  # dx, four convolution weights, four batch norms' weight and bias
    for name, grad, expected_grad in zip(("x", *names), grads, expected_grads):
        tolerance = chain_tolerance(BACKWARD_OPS, dtype)
        # A parameter's gradient is also held to the test SDK's bound for its sums.
        bound = parameter_gradient_tolerance(reductions, name, dtype)
        if bound is not None:
            tolerance = widest(tolerance, bound)
        assert_close(grad, expected_grad, tolerance, f"d{name}")
