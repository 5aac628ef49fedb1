"""LayerNorm shape inference: ``out`` has the input's shape and dtype; meanOut and
rstdOut are [A1..Ai, 1..1] (one 1 per normalised axis) in the input's dtype (CANN doc)."""
from __future__ import annotations


def stats_shape(input_shape: tuple[int, ...], normalized_shape) -> tuple[int, ...]:
    """[A1..Ai, 1..1] for input [A1..Ai, R1..Rj] and normalizedShape [R1..Rj]."""
    j = len(normalized_shape)
    return tuple(input_shape[:len(input_shape) - j]) + (1,) * j


def infer_shape(input_shape: tuple[int, ...], input_dtype, normalized_shape):
    """[(out shape, out dtype)] = [(input shape, input dtype)] (the required output)."""
    return [(tuple(input_shape), input_dtype)]
