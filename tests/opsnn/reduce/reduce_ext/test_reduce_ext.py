"""The extra reductions against float64 / exact goldens on the tiny chip: many
blocks and edge tiles, hypothesis over shapes, axes, keepDim, dtypes and layouts,
empty reductions, and one status per bad input."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import opsnn
from opsnn.base.dtypes import aclDataType as T
from opsnn.base.dtypes import to_numpy_dtype
from opsnn.reduce.reduce_ext.golden import GOLDEN
from opsnn.reduce.reduce_ext.op_api import ROWS
from tests.opsnn.math.helpers import (ALL_NP, LAYOUTS, SETTINGS, api, check_close, expect_error, out_tensor, run,
                                      shapes, upload)

ROW = {r.op_type: r for r in ROWS}
IA = opsnn.aclCreateIntArray


def _np_types(row):
    return [np.dtype(to_numpy_dtype(t)) for t in row.dtypes]


def _x(rng, op, shape, dt):
    dt = np.dtype(dt)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        hi = 3 if op in ("ReduceProd", "ReduceSumSquare") else 9
        return rng.integers(0 if dt.kind == "u" else -hi, hi + 1, shape).astype(dt)
    if op == "ReduceLogSum":
        return rng.uniform(0.1, 2.0, shape).astype(dt)
    if op == "ReduceProd":
        return rng.uniform(0.8, 1.25, shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def _call(npu, op, tx, axes, keep, tout, p=2.0):
    prep, launch = api(op)
    args = (tx, opsnn.aclCreateScalar(p, T.ACL_FLOAT)) if ROW[op].p else (tx,)
    return run(npu, prep, launch, *args, IA(axes), keep, tout)


def _golden(op, x, axes, keep, p=2.0):
    a = tuple(axes) if axes else tuple(range(x.ndim))
    return GOLDEN[op](x, a, keep, p) if ROW[op].p else GOLDEN[op](x, a, keep)


def _out_shape(shape, axes, keep):
    a = set(axes) if axes else set(range(len(shape)))
    return tuple(1 if i in a else d for i, d in enumerate(shape) if keep or i not in a)


@pytest.mark.parametrize("op", sorted(ROW))
@pytest.mark.parametrize("axes", [[1], [0, 2]], ids=["mid", "outer"])
def test_many_blocks_and_edge_tiles(npu, rng, op, axes):
    x = _x(rng, op, (9, 130, 17), np.float32)
    tx = npu.to_device(x)[1]
    tout, read = out_tensor(npu, _out_shape(x.shape, axes, False), np.float32, False)
    ex = _call(npu, op, tx, axes, False, tout)
    spec = ex.kernels[0].spec
    assert spec.block_dim >= 2 and sum(b.tile_count for b in spec.blocks) > spec.block_dim
    check_close(read(), _golden(op, x, axes, False), np.float32)


@SETTINGS
@given(op=st.sampled_from(sorted(ROW)), shape=shapes(max_dims=4), dt=st.sampled_from(ALL_NP),
       keep=st.booleans(), layout=st.sampled_from(LAYOUTS), data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_reduce_ext_property(npu, op, shape, dt, keep, layout, data, seed):
    if np.dtype(dt) not in _np_types(ROW[op]):
        return
    rng = np.random.default_rng(seed)
    axes = data.draw(st.lists(st.integers(-max(len(shape), 1), max(len(shape), 1) - 1), unique_by=lambda a: a %
                              max(len(shape), 1), max_size=len(shape))) if shape else []
    p = data.draw(st.sampled_from([1.0, 2.0, 3.0])) if ROW[op].p else 2.0
    x = _x(rng, op, shape, dt)
    tx = upload(npu, x, "contiguous" if layout == "broadcast" else layout, rng)
    norm_axes = [a % max(len(shape), 1) for a in axes]
    tout, read = out_tensor(npu, _out_shape(shape, norm_axes, keep), dt, False)
    _call(npu, op, tx, axes, keep, tout, p)
    ref = _golden(op, x, norm_axes, keep, p)
    if np.dtype(dt).kind == "b":
        np.testing.assert_array_equal(read(), ref.astype(bool))
    else:
        check_close(read(), ref, dt)


@pytest.mark.parametrize("op,ident", [("Amax", -np.inf), ("Amin", np.inf), ("ReduceProd", 1.0),
                                      ("ReduceSumSquare", 0.0), ("Norm", 0.0), ("ReduceLogSum", -np.inf),
                                      ("LogSumExp", -np.inf)])
def test_empty_reduction_writes_the_identity(npu, op, ident):
    tx = npu.empty((2, 0, 3), np.float32)[1]
    tout, read = out_tensor(npu, (2, 1, 3), np.float32, False)
    ex = _call(npu, op, tx, [1], True, tout)
    assert ex.info["strategy"] == "fill"
    np.testing.assert_array_equal(read(), np.full((2, 1, 3), ident, np.float32))


@pytest.mark.parametrize("op", sorted(ROW))
def test_errors(npu, op):
    prep, _ = api(op)
    row = ROW[op]
    x = npu.empty((4, 5), np.float32)[1]
    o = npu.empty((4,), np.float32)[1]
    pre = (opsnn.aclCreateScalar(2.0, T.ACL_FLOAT),) if row.p else ()
    name = f"aclnn{op}"
    expect_error(prep, (None, *pre, IA([1]), False, o), 161001, name, "self is null")
    expect_error(prep, (x, *pre, None, False, o), 161001, "dim is null")
    expect_error(prep, (x, *pre, IA([1]), False, None), 161001, "out is null")
    expect_error(prep, (np.zeros(3), *pre, IA([1]), False, o), 161002, "self must be an aclTensor")
    expect_error(prep, (x, *pre, IA([2]), False, o), 161002, "dim value 2 out of range")
    expect_error(prep, (x, *pre, IA([1, -1]), False, o), 161002, "repeats axis 1")
    expect_error(prep, (x, *pre, IA([1]), 2, o), 161002, "keepDim must be a bool")
    expect_error(prep, (x, *pre, IA([1]), False, npu.empty((5,), np.float32)[1]), 161002, "out shape [5]")
    expect_error(prep, (x, *pre, IA([1]), False, npu.empty((4,), np.float16)[1]), 161002,
                 "out dtype ACL_FLOAT16 not supported")
    if T.ACL_INT32 not in row.dtypes:
        xi = npu.empty((4, 5), np.int32)[1]
        expect_error(prep, (xi, *pre, IA([1]), False, npu.empty((4,), np.int32)[1]), 161002,
                     "self dtype ACL_INT32 not supported")
    if row.p:
        expect_error(prep, (x, None, IA([1]), False, o), 161001, "pScalar is null")
        expect_error(prep, (x, opsnn.aclCreateScalar(-1.0, T.ACL_FLOAT), IA([1]), False, o), 161002,
                     "pScalar must be >= 0")
