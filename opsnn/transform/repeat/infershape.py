"""Repeat shape inference: pure, no status codes (torch.Tensor.repeat rule: ``repeats``
may be longer than self's rank; self is then viewed with leading size-1 axes)."""
from __future__ import annotations


def repeated_shape(shape, repeats) -> tuple[int, ...]:
    """``shape`` left-padded with 1s to len(repeats), each axis times its repeat."""
    shape = (1,) * (len(repeats) - len(shape)) + tuple(shape)
    return tuple(int(d) * int(r) for d, r in zip(shape, repeats))


def infer_shape(self_shape, self_dtype, repeats):
    """[(out shape, self dtype)]."""
    return [(repeated_shape(self_shape, repeats), self_dtype)]
