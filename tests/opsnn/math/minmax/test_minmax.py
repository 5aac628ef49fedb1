"""Maximum, Minimum, Remainder and Fmod against exact references on the tiny chip:
many blocks and edge tiles, hypothesis over broadcast shapes, dtype pairs and
layouts, scalar forms, NaN, and one status per bad input."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from opsnn.math.minmax.golden import GOLDEN
from opsnn.math.minmax.op_api import ROWS
from tests.opsnn.math.binary_table import check_binary_errors, many_tiles_case, property_case, run_scalar_case
from tests.opsnn.math.helpers import ALL_NP, LAYOUTS, SETTINGS, api, broadcast_pair, out_tensor, run

TENSOR = [r for r in ROWS if not r.scalar]
SCALAR = [r for r in ROWS if r.scalar]


def _kind(row):
    return "nonzero" if row.kernel in ("Remainder", "Fmod") else "any"


@pytest.mark.parametrize("row", TENSOR, ids=lambda r: r.op_type)
@pytest.mark.parametrize("dt", [np.float32, np.float16, np.int32, np.int8], ids=str)
def test_many_blocks_and_edge_tiles(npu, rng, row, dt):
    many_tiles_case(npu, rng, row, GOLDEN[row.kernel], dt, b_kind=_kind(row))


@SETTINGS
@given(row=st.sampled_from(TENSOR), pair=broadcast_pair(), a_dt=st.sampled_from(ALL_NP),
       b_dt=st.sampled_from(ALL_NP), layout=st.sampled_from(LAYOUTS), strided=st.booleans(),
       seed=st.integers(0, 2**31 - 1))
def test_minmax_property(npu, row, pair, a_dt, b_dt, layout, strided, seed):
    property_case(row, GOLDEN[row.kernel], pair, a_dt, b_dt, layout, strided, seed, npu, b_kind=_kind(row))


@pytest.mark.parametrize("row", SCALAR, ids=lambda r: r.op_type)
@pytest.mark.parametrize("dt,value,vdt", [(np.float32, -0.75, np.float32), (np.int32, 3, np.int64),
                                          (np.int64, -4, np.int64)])
def test_scalar_forms(npu, rng, row, dt, value, vdt):
    run_scalar_case(npu, rng, row, GOLDEN[row.kernel], (5, 33), dt, value, vdt)


def test_signs_of_the_two_modulos(npu):
    a = np.array([5, -5, 5, -5], np.int32)
    b = np.array([3, 3, -3, -3], np.int32)
    ta, tb = npu.to_device(a)[1], npu.to_device(b)[1]
    want = {"RemainderTensorTensor": [2, 1, -1, -2], "FmodTensor": [2, -2, 2, -2]}
    for op, w in want.items():
        tout, read = out_tensor(npu, (4,), np.int32, False)
        run(npu, *api(op), ta, tb, tout)
        np.testing.assert_array_equal(read(), w)


def test_nan_propagates_through_max_and_min(npu):
    a = np.array([np.nan, 1.0, 2.0], np.float32)
    b = np.array([0.0, np.nan, 1.0], np.float32)
    ta, tb = npu.to_device(a)[1], npu.to_device(b)[1]
    for op, last in (("Maximum", 2.0), ("Minimum", 1.0)):
        tout, read = out_tensor(npu, (3,), np.float32, False)
        run(npu, *api(op), ta, tb, tout)
        got = read()
        assert np.isnan(got[:2]).all() and got[2] == last


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.op_type)
def test_errors(npu, row):
    check_binary_errors(npu, row)
