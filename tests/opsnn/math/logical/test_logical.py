"""Logical and bitwise ops against exact references on the tiny chip: many blocks and
edge tiles, hypothesis over broadcast shapes, dtype pairs and layouts, and one status
per bad input."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from opsnn.math.logical.golden import GOLDEN
from opsnn.math.logical.op_api import ROWS, UNARY_ROWS
from tests.opsnn.math.binary_table import check_binary_errors, many_tiles_case, property_case, row_np_dtypes
from tests.opsnn.math.helpers import (ALL_NP, LAYOUTS, SETTINGS, api, check_close, expect_error, make_input,
                                      out_tensor, run, broadcast_pair, shapes)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.op_type)
@pytest.mark.parametrize("dt", [np.bool_, np.int32, np.uint8], ids=str)
def test_many_blocks_and_edge_tiles(npu, rng, row, dt):
    many_tiles_case(npu, rng, row, GOLDEN[row.op_type], dt, (67, 1))


@SETTINGS
@given(row=st.sampled_from(ROWS), pair=broadcast_pair(), a_dt=st.sampled_from(ALL_NP),
       b_dt=st.sampled_from(ALL_NP), layout=st.sampled_from(LAYOUTS), strided=st.booleans(),
       seed=st.integers(0, 2**31 - 1))
def test_logical_property(npu, row, pair, a_dt, b_dt, layout, strided, seed):
    property_case(row, GOLDEN[row.op_type], pair, a_dt, b_dt, layout, strided, seed, npu)


@SETTINGS
@given(row=st.sampled_from(UNARY_ROWS), shape=shapes(), dt=st.sampled_from(ALL_NP), layout=st.sampled_from(LAYOUTS),
       seed=st.integers(0, 2**31 - 1))
def test_not_property(npu, row, shape, dt, layout, seed):
    if np.dtype(dt) not in row_np_dtypes(row):
        return
    x, tx = make_input(npu, np.random.default_rng(seed), shape, dt, layout)
    odt = np.bool_ if row.result == "bool" else dt
    tout, read = out_tensor(npu, x.shape, odt, False)
    run(npu, *api(row.op_type), tx, tout)
    check_close(read(), GOLDEN[row.op_type](x), odt)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.op_type)
def test_errors(npu, row):
    check_binary_errors(npu, row)


def test_unary_errors(npu):
    x = npu.empty((4,), np.float32)[1]
    expect_error(api("BitwiseNot")[0], (x, x), 161002, "self dtype ACL_FLOAT not supported")
    expect_error(api("LogicalNot")[0], (None, x), 161001, "self is null")
    expect_error(api("LogicalNot")[0], (x, npu.empty((5,), np.bool_)[1]), 161002, "out shape [5]")
