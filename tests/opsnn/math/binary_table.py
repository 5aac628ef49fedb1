"""Shared test bodies of the table-generated binary families (compare, logical,
minmax): each family's test module binds them to its rows and golden."""
from __future__ import annotations

import numpy as np

import opsnn
from opsnn.base.dtypes import to_numpy_dtype
from opsnn.math.common.table import infer_binary_row

from .helpers import acl, api, check_close, expect_error, make_input, out_tensor, run, upload, values

S = opsnn.aclCreateScalar


def row_np_dtypes(row):
    return [np.dtype(to_numpy_dtype(t)) for t in row.dtypes]


def out_dtype(row, a_dt, b):
    """numpy dtype of the row's result for a tensor of ``a_dt`` and ``b`` (a dtype, or a
    Python scalar for the scalar rows)."""
    other = b if row.scalar else ((), acl(b))
    return np.dtype(to_numpy_dtype(infer_binary_row(row, ((), acl(a_dt)), other)[0][1]))


def run_tensor_case(npu, rng, row, golden, a_shape, b_shape, a_dt, b_dt, layout="contiguous", strided=False,
                    b_kind="any"):
    """Run ``row`` on random operands; check against ``golden(a, b)``; returns the executor."""
    a, ta = make_input(npu, rng, a_shape, a_dt, layout)
    b = values(rng, b_shape, b_dt, b_kind)
    tb = upload(npu, b, "contiguous", rng)
    shape = np.broadcast_shapes(a.shape, b.shape)
    odt = out_dtype(row, a_dt, b_dt)
    tout, read = out_tensor(npu, shape, odt, strided)
    ex = run(npu, *api(row.op_type), ta, tb, tout)
    check_close(read(), golden(a, b), odt)
    return ex


def run_scalar_case(npu, rng, row, golden, shape, a_dt, value, b_dt):
    a, ta = make_input(npu, rng, shape, a_dt)
    odt = out_dtype(row, a_dt, value)
    tout, read = out_tensor(npu, a.shape, odt, False)
    run(npu, *api(row.op_type), ta, S(value, acl(b_dt)), tout)
    check_close(read(), golden(a, np.asarray(value, dtype=b_dt)), odt)


def check_binary_errors(npu, row):
    """One status per bad input of a binary row."""
    prep, _ = api(row.op_type)
    name = f"aclnn{row.op_type}"
    dt = row_np_dtypes(row)[0]
    x = npu.empty((4, 5), dt)[1]
    other = S(1, acl(np.int64)) if row.scalar else x
    odt = out_dtype(row, dt, 1 if row.scalar else dt)
    o = npu.empty((4, 5), odt)[1]
    expect_error(prep, (None, other, o), 161001, name, "self is null")
    expect_error(prep, (x, None, o), 161001, "other is null")
    expect_error(prep, (x, other, None), 161001, "out is null")
    expect_error(prep, (np.zeros(3), other, o), 161002, "self must be an aclTensor")
    expect_error(prep, (x, other, npu.empty((5, 4), odt)[1]), 161002, "[5, 4]")
    bad = [d for d in (np.float32, np.int32, np.bool_) if np.dtype(d) not in row_np_dtypes(row)]
    if bad:
        xb = npu.empty((4, 5), bad[0])[1]
        expect_error(prep, (xb, other, o), 161002, f"self dtype {acl(bad[0]).name} not supported")
    if not row.scalar:
        expect_error(prep, (x, npu.empty((3,), dt)[1], o), 161002, "do not broadcast")
        expect_error(prep, (x, 1.5 + 0j, o), 161002, "other must be an aclTensor")


def many_tiles_case(npu, rng, row, golden, dt, b_shape=(257,), b_kind="any"):
    """(67, 257) against ``b_shape``: several blocks on the tiny chip, more UB tiles
    than blocks and a ragged last tile; checked against ``golden``."""
    ex = run_tensor_case(npu, rng, row, golden, (67, 257), b_shape, dt, dt, b_kind=b_kind)
    spec = ex.kernels[0].spec
    assert spec.block_dim >= 2 and sum(b.tile_count for b in spec.blocks) > spec.block_dim


def property_case(row, golden, pair, a_dt, b_dt, layout, strided, seed, npu, b_kind="any"):
    """One hypothesis example: skipped when the row refuses a dtype (its errors are
    tested separately), else run and checked."""
    if np.dtype(a_dt) not in row_np_dtypes(row) or np.dtype(b_dt) not in row_np_dtypes(row):
        return
    run_tensor_case(npu, np.random.default_rng(seed), row, golden, pair[0], pair[1], a_dt, b_dt, layout, strided,
                    b_kind=b_kind)
