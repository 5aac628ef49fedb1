"""opsnn/base/op._slot_layout (the per-slot byte ranges a launch reads and writes, with
its memoised :func:`_extent`) agrees with a numpy reference: the largest element offset
a strided view reaches, plus one, over every index of the view."""
from __future__ import annotations

import random

import numpy as np

from opsnn.base import op


def _reference_extent(shape, strides) -> int:
    if 0 in shape:
        return 0
    if not shape:
        return 1
    idx = np.indices(shape).reshape(len(shape), -1)
    return int((idx * np.array(strides, np.int64).reshape(-1, 1)).sum(axis=0).max()) + 1


def test_extent_matches_numpy_on_random_views():
    rng = random.Random(5)
    for _ in range(400):
        shape = tuple(rng.choice([0, 1, 1, 2, 3, 4]) for _ in range(rng.randint(0, 4)))
        strides = tuple(rng.randint(0, 7) for _ in shape)
        assert op._extent(shape, strides) == _reference_extent(shape, strides), (shape, strides)


class _T:
    def __init__(self, shape, strides, offset, dtype):
        self.view_shape, self.view_strides, self.view_offset = shape, strides, offset
        self.np_dtype = np.dtype(dtype)


class _Plan:
    n_inputs = 2


class _Ex:
    def __init__(self, slots):
        self.plan, self.slots, self.gm_layout = _Plan(), slots, None


def test_slot_layout_bytes():
    slots = [_T((2, 3), (3, 1), 4, np.float16), None, _T((3, 0), (1, 1), 0, np.float32),
             _T((4, 2), (1, 8), 2, np.float32)]
    layout = op._slot_layout(_Ex(slots))
    want = [(True, 4 * 2, _reference_extent((2, 3), (3, 1)) * 2), None, None,
            (False, 2 * 4, _reference_extent((4, 2), (1, 8)) * 4)]
    assert layout == want
