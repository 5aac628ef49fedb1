"""The comparisons against the float64/int64 golden on the tiny chip: many blocks and
edge tiles, hypothesis over broadcast shapes, dtype pairs and layouts, scalar forms,
NaN, and one status per bad input."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from opsnn.math.compare.golden import compare_golden
from opsnn.math.compare.op_api import ROWS
from tests.opsnn.math.binary_table import check_binary_errors, many_tiles_case, property_case, run_scalar_case
from tests.opsnn.math.helpers import ALL_NP, LAYOUTS, SETTINGS, api, broadcast_pair, out_tensor, run

TENSOR = [r for r in ROWS if not r.scalar]
SCALAR = [r for r in ROWS if r.scalar]


def _g(row):
    return lambda a, b: compare_golden(row.kernel, a, b)


@pytest.mark.parametrize("row", TENSOR, ids=lambda r: r.op_type)
@pytest.mark.parametrize("dt", [np.float32, np.float16, np.int32], ids=str)
def test_many_blocks_and_edge_tiles(npu, rng, row, dt):
    many_tiles_case(npu, rng, row, _g(row), dt)


@SETTINGS
@given(row=st.sampled_from(TENSOR), pair=broadcast_pair(), a_dt=st.sampled_from(ALL_NP),
       b_dt=st.sampled_from(ALL_NP), layout=st.sampled_from(LAYOUTS), strided=st.booleans(),
       seed=st.integers(0, 2**31 - 1))
def test_compare_property(npu, row, pair, a_dt, b_dt, layout, strided, seed):
    property_case(row, _g(row), pair, a_dt, b_dt, layout, strided, seed, npu)


@pytest.mark.parametrize("row", SCALAR, ids=lambda r: r.op_type)
@pytest.mark.parametrize("dt,value,vdt", [(np.float32, 0.25, np.float32), (np.int32, 2, np.int64),
                                          (np.float16, -1, np.int64)])
def test_scalar_forms(npu, rng, row, dt, value, vdt):
    run_scalar_case(npu, rng, row, _g(row), (5, 33), dt, value, vdt)


def test_nan_compares_false(npu):
    x = np.array([np.nan, 1.0, np.nan], np.float32)
    y = np.array([1.0, np.nan, np.nan], np.float32)
    tx, ty = npu.to_device(x)[1], npu.to_device(y)[1]
    for row in TENSOR:
        tout, read = out_tensor(npu, (3,), np.bool_, False)
        run(npu, *api(row.op_type), tx, ty, tout)
        np.testing.assert_array_equal(read(), [row.kernel == "Ne"] * 3)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.op_type)
def test_errors(npu, row):
    check_binary_errors(npu, row)
