"""The test SDK's tolerance rules (test_sdk/src/Tolerances.cpp), for comparing with torch.

fixed_tolerance is that table (absolute, relative) per operation and data type; reduction_tolerance
widens the absolute part by the accumulation bound of a reduction of term_count terms;
attention_tolerance widens both parts by sqrt(reduction length / 128). A chain of operations is
held to the widest tolerance of the operations it runs (chain_tolerance).
"""

import math

FLOAT, HALF, BFLOAT16 = "float32", "float16", "bfloat16"


def _same(value):
    return (value, value)


# operation: {data type: (absolute, relative)}, as in Tolerances.cpp's rowFor.
FIXED = {
    "BatchnormInference": {FLOAT: _same(2e-4), HALF: _same(5e-4), BFLOAT16: _same(5e-3)},
    "BatchnormTraining": {FLOAT: _same(4e-3), HALF: _same(4e-3), BFLOAT16: _same(8e-3)},
    "BatchnormBackward": {FLOAT: _same(2e-3), HALF: _same(4e-4), BFLOAT16: _same(3e-3)},
    "ConvolutionFwd": {FLOAT: (1e-5, 1e-5), HALF: (1e-1, 1e-2), BFLOAT16: (1e-1, 2e-2)},
    "ConvolutionBwd": {FLOAT: _same(8.5e-6), HALF: _same(2e-2), BFLOAT16: _same(2e-2)},
    "ConvolutionWrw": {FLOAT: _same(2e-4), HALF: _same(2e-1), BFLOAT16: _same(2e-1)},
    "Pointwise": {FLOAT: _same(1e-5), HALF: _same(1e-3), BFLOAT16: _same(1e-2)},
    "Sdpa": {FLOAT: _same(2e-5), HALF: _same(5e-3), BFLOAT16: _same(3e-2)},
    "SdpaBackward": {FLOAT: _same(1e-4), HALF: _same(2e-2), BFLOAT16: _same(6e-2)},
}

UNIT_ROUNDOFF = {FLOAT: 2.0 ** -24, HALF: 2.0 ** -11, BFLOAT16: 2.0 ** -8}


def type_name(dtype):
    """'float32', 'float16' or 'bfloat16' for a torch dtype (or that name)."""
    return str(dtype).replace("torch.", "")


def fixed_tolerance(op, dtype):
    return FIXED[op][type_name(dtype)]


def accumulation_gamma(term_count, unit_roundoff):
    ku = max(term_count, 1) * unit_roundoff
    return ku / (1.0 - ku) if ku < 0.01 else 6.0 * math.sqrt(term_count) * unit_roundoff


def reduction_tolerance(op, output_dtype, term_count, max_abs_term, compute_dtype=FLOAT):
    absolute, relative = fixed_tolerance(op, output_dtype)
    sum_abs_terms = term_count * max_abs_term
    bound = (accumulation_gamma(term_count, UNIT_ROUNDOFF[type_name(compute_dtype)]) * sum_abs_terms
             + UNIT_ROUNDOFF[type_name(output_dtype)] * sum_abs_terms)
    return max(absolute, bound), relative


def attention_tolerance(op, dtype, reduction_length):
    absolute, relative = fixed_tolerance(op, dtype)
    widening = math.sqrt(max(1.0, reduction_length / 128.0))
    return absolute * widening, relative * widening


def chain_tolerance(ops, dtype):
    tolerances = [fixed_tolerance(op, dtype) for op in ops]
    return max(t[0] for t in tolerances), max(t[1] for t in tolerances)
