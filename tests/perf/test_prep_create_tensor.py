"""``aclCreateTensor``'s fast path (``FAST_CREATE``) gives the checked path's result for
every input: an equal aclTensor (every attribute, same types), or None with the same
status message, over valid calls and every kind of malformed argument."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

import opsnn
from opsnn.base.dtypes import aclDataType, aclFormat

T = importlib.import_module("opsnn.base.tensor")

_ATTRS = ("view_shape", "data_type", "view_strides", "view_offset", "storage_format", "storage_shape",
          "tensor_data", "destroyed", "np_dtype")


def _create(fast: bool, args):
    prev = T.FAST_CREATE
    T.FAST_CREATE = fast
    T.LAST_ERROR.message = ""
    try:
        t = opsnn.aclCreateTensor(*args)
        return t, T.LAST_ERROR.message
    finally:
        T.FAST_CREATE = prev


def _state(t):
    if t is None:
        return None
    return [(a, getattr(t, a), type(getattr(t, a))) for a in _ATTRS] + [
        tuple(type(v) for v in t.view_shape + t.view_strides + t.storage_shape)]


CASES = [
    ((2, 3), 0, None, 0, 2, (2, 3), 64),
    ([2, 3], aclDataType.ACL_FLOAT16, [3, 1], 0, aclFormat.ACL_FORMAT_ND, [2, 3], 0),
    ((1, 64, 56, 56), 1, [200704, 3136, 56, 1], 0, 0, (1, 4, 56, 56, 16), 4096),
    ((), 0, None, 0, 2, (), 32),
    ((0, 5), 0, None, 0, 2, (0,), 32),
    ((2, 2), 0, (1, 2), 3, 2, (10,), 32),
    ((2, 2), 0, (0, 1), 0, 2, (2,), 32),
    ((2, 3), 27, None, 0, 2, (2, 3), 32),
    ((2, 3), 0, None, 0, 2, (2, 3), 33),
    ((2, 3), 0, None, 0, 2, (2, 3), -32),
    ((2, -3), 0, None, 0, 2, (6,), 32),
    ((2, 3), 0, None, 0, 2, (5,), 32),
    ((2, 3), 0, (3,), 0, 2, (6,), 32),
    ((2, 3), 0, (3, -1), 0, 2, (6,), 32),
    ((2, 3), 0, None, -1, 2, (6,), 32),
    ((2, 3), 0, None, 1, 2, (6,), 32),
    ((2, 3), 99, None, 0, 2, (6,), 32),
    ((2, 3), 0, None, 0, 99, (6,), 32),
    ((2, 3), True, None, 0, 2, (6,), 32),
    ((2, 3), 1.0, None, 0, 2, (6,), 32),
    ((2, 3), np.int64(1), None, 0, 2, (6,), 32),
    ((2, 3), 0, None, 0, True, (6,), 32),
    ((2, 3), 0, None, np.int32(0), 2, (6,), np.int64(64)),
    ((2, True), 0, None, 0, 2, (6,), 32),
    ((2, 3.0), 0, None, 0, 2, (6,), 32),
    ((np.int64(2), 3), 0, None, 0, 2, (6,), 32),
    (np.array([2, 3]), 0, None, 0, 2, (6,), 32),
    ((2, 3), 0, np.array([3, 1]), 0, 2, (6,), 32),
    ((2, 3), 0, (3, True), 0, 2, (6,), 32),
    ("23", 0, None, 0, 2, (6,), 32),
    (None, 0, None, 0, 2, (6,), 32),
    ((2, 3), 0, None, 0, 2, None, 32),
    ((2**40, 2**40), 0, None, 0, 2, (2**40, 2**40), 32),
    ((2, 3), 0, None, 0.0, 2, (6,), 32),
    ((2, 3), 0, None, 0, 2, (6,), 32.0),
]


@pytest.mark.parametrize("args", CASES)
def test_fast_create_equals_checked(args):
    t_fast, msg_fast = _create(True, args)
    t_ref, msg_ref = _create(False, args)
    assert _state(t_fast) == _state(t_ref)
    assert msg_fast == msg_ref


def test_fast_create_random_views():
    rng = np.random.default_rng(11)
    for _ in range(300):
        nd = int(rng.integers(0, 5))
        view = tuple(int(d) for d in rng.integers(0, 5, nd))
        strides = tuple(int(s) for s in rng.integers(0, 30, nd)) if rng.random() < 0.7 else None
        storage = (int(rng.integers(0, 200)),)
        args = (view, int(rng.choice([0, 1, 3, 27, 12])), strides, int(rng.integers(0, 4)), int(rng.choice([0, 2, 3])),
                storage, 32 * int(rng.integers(0, 3)))
        t_fast, msg_fast = _create(True, args)
        t_ref, msg_ref = _create(False, args)
        assert _state(t_fast) == _state(t_ref), args
        assert msg_fast == msg_ref, args
