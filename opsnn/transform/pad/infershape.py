"""Pad shape inference: pure, no status codes.

CANN's ``pad`` / ``padding`` arrays list (begin, end) pairs from the LAST axis
backwards: ``[last_begin, last_end, second_last_begin, ...]``; axes not covered are
not padded."""
from __future__ import annotations


def per_axis(pad, rank: int) -> list[tuple[int, int]]:
    """(begin, end) for every axis, outermost first."""
    pairs = [(0, 0)] * rank
    for i in range(len(pad) // 2):
        pairs[rank - 1 - i] = (int(pad[2 * i]), int(pad[2 * i + 1]))
    return pairs


def padded_shape(shape, pad) -> tuple[int, ...]:
    """``shape`` with every axis grown by its begin + end (negative: cropped)."""
    return tuple(int(d) + b + e for d, (b, e) in zip(shape, per_axis(pad, len(shape))))


def infer_shape(self_shape, self_dtype, pad):
    """[(out shape, self dtype)]."""
    return [(padded_shape(self_shape, pad), self_dtype)]
