"""The table-generated unary math ops against float64 goldens on the tiny chip: many
blocks and edge tiles, hypothesis over shapes/dtypes/layouts, special values, and
one status per bad input."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import opsnn
from opsnn.math.unary_math.golden import GOLDEN
from opsnn.math.unary_math.op_api import ROWS
from tests.opsnn.math.helpers import (ALL_NP, FLOAT_NP, LAYOUTS, SETTINGS, api, check_close, expect_error,
                                      make_input, out_tensor, run, shapes, upload)

ROW = {r.op_type: r for r in ROWS}
#: op -> (lo, hi) of the inputs (inside the domain)
DOMAIN = {"Log": (0.05, 8), "Rsqrt": (0.05, 8), "Asin": (-0.95, 0.95), "Acos": (-0.95, 0.95),
          "Atanh": (-0.95, 0.95), "Acosh": (1.05, 8), "Tan": (-1.4, 1.4), "Exp": (-8, 8), "Sinh": (-8, 8),
          "Cosh": (-8, 8)}


def _out_dtype(op, dt):
    r = ROW[op].result
    if r == "bool":
        return np.dtype(np.bool_)
    if r == "float" and np.dtype(dt).kind in "iub":
        return np.dtype(np.float32)
    return np.dtype(dt)


def _x(rng, op, shape, dt):
    lo, hi = DOMAIN.get(op, (-6, 6))
    if np.dtype(dt).kind in "iu":
        lo, hi = (max(int(np.ceil(lo)), 0 if np.dtype(dt).kind == "u" else -100), max(int(hi), 1))
        return rng.integers(lo, hi + 1, shape).astype(dt)
    if np.dtype(dt).kind == "b":
        return rng.random(shape) < 0.5
    return rng.uniform(lo, hi, shape).astype(dt)


@pytest.mark.parametrize("op", sorted(ROW))
@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["f32", "f16"])
def test_many_blocks_and_edge_tiles(npu, rng, op, dt):
    x = _x(rng, op, (67, 257), dt)
    tx = npu.to_device(x)[1]
    tout, read = out_tensor(npu, x.shape, _out_dtype(op, dt), False)
    ex = run(npu, *api(op), tx, tout)
    spec = ex.kernels[0].spec
    assert spec.block_dim >= 2 and sum(b.tile_count for b in spec.blocks) > spec.block_dim
    check_close(read(), GOLDEN[op](x), _out_dtype(op, dt))


@SETTINGS
@given(op=st.sampled_from(sorted(ROW)), shape=shapes(), dt=st.sampled_from(ALL_NP),
       layout=st.sampled_from(LAYOUTS), strided_out=st.booleans(), seed=st.integers(0, 2**31 - 1))
def test_unary_math_property(npu, op, shape, dt, layout, strided_out, seed):
    if np.dtype(dt) not in [np.dtype(opsnn.base.dtypes.to_numpy_dtype(t)) for t in ROW[op].dtypes]:
        return
    rng = np.random.default_rng(seed)
    x = _x(rng, op, shape, dt)
    tx = upload(npu, x, "contiguous" if layout == "broadcast" else layout, rng)
    tout, read = out_tensor(npu, x.shape, _out_dtype(op, dt), strided_out)
    run(npu, *api(op), tx, tout)
    check_close(read(), GOLDEN[op](x), _out_dtype(op, dt))


@pytest.mark.parametrize("dt", FLOAT_NP, ids=str)
def test_special_values(npu, dt):
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.5, 0.5], dtype=dt)
    tx = npu.to_device(x)[1]
    for op in ("IsNan", "IsInf", "IsPosInf", "IsNegInf"):
        tout, read = out_tensor(npu, x.shape, np.bool_, False)
        run(npu, *api(op), tx, tout)
        np.testing.assert_array_equal(read(), GOLDEN[op](x))
    for op in ("Round", "Floor", "Ceil", "Sign", "Abs", "Neg"):
        tout, read = out_tensor(npu, x.shape, dt, False)
        run(npu, *api(op), tx, tout)
        np.testing.assert_array_equal(read().astype(np.float64), GOLDEN[op](x).astype(dt).astype(np.float64))


@pytest.mark.parametrize("op", sorted(ROW))
def test_errors(npu, op):
    prep, _ = api(op)
    x = npu.empty((4, 5), np.float32)[1]
    expect_error(prep, (None, x), 161001, f"aclnn{op}", "self is null")
    expect_error(prep, (x, None), 161001, "out is null")
    expect_error(prep, (np.zeros(3), x), 161002, "self must be an aclTensor")
    expect_error(prep, (x, npu.empty((5, 4), _out_dtype(op, np.float32))[1]), 161002, "out shape [5, 4]")
    if ROW[op].result != "bool":
        expect_error(prep, (x, npu.empty((4, 5), np.int32)[1]), 161002, "cannot be cast to out dtype ACL_INT32")
    if ROW[op].result != "float":
        xb = npu.empty((4, 5), np.bool_)[1]
        expect_error(prep, (xb, xb), 161002, "self dtype ACL_BOOL not supported")
    big = npu.empty((1,) * 9, np.float32)[1]
    expect_error(prep, (big, big), 161002, "at most 8")
