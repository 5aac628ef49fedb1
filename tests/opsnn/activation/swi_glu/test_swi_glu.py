"""aclnnSwiGlu against the float64 golden on the tiny chip: dims, dtypes, many tiles,
errors (one status per bad input) and a property test."""
import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.activation.swi_glu.golden import swi_glu_golden
from tests.conftest import rel_err

from ...pooling.helpers import TOL, assert_many_tiles, expect_error, run_op

P = opsnn.aclnnSwiGluGetWorkspaceSize


def _swi_glu(npu, x, dim):
    shape = list(x.shape)
    shape[dim] //= 2
    (y,), ex = run_op(npu, P, opsnn.aclnnSwiGlu, x, (dim,), [(tuple(shape), x.dtype)])
    return y, swi_glu_golden(x, dim), ex


@pytest.mark.parametrize("shape,dim", [((4, 10), -1), ((3, 6, 7), 1), ((8, 5), 0), ((2,), 0), ((2, 3, 4, 6), -1)])
def test_float32_any_dim(npu, rng, shape, dim):
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    y, ref, ex = _swi_glu(npu, x, dim)
    assert rel_err(y, ref) < 1e-5
    assert ex.kernels[0].spec.name == "SwiGlu"


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
def test_half_types(npu, rng, dtype):
    x = (rng.standard_normal((6, 34)) * 3).astype(dtype)
    y, ref, _ = _swi_glu(npu, x, -1)
    assert rel_err(y, ref) < TOL[np.dtype(dtype)]


def test_many_and_edge_tiles(npu, rng):
    x = rng.standard_normal((203, 74)).astype(np.float32)
    y, ref, ex = _swi_glu(npu, x, -1)
    assert rel_err(y, ref) < 1e-5
    assert_many_tiles(ex.kernels[0].spec)
    assert ex.kernels[0].spec.args["dim"] == 1


def test_one_status_per_bad_input(npu):
    x = npu.to_device(np.zeros((4, 6), np.float32))[1]
    out = npu.to_device(np.zeros((4, 3), np.float32))[1]
    i32 = npu.to_device(np.zeros((4, 6), np.int32))[1]
    o16 = npu.to_device(np.zeros((4, 3), np.float16))[1]
    odd = npu.to_device(np.zeros((4, 5), np.float32))[1]
    empty = npu.to_device(np.zeros((0, 6), np.float32))[1]
    empty_o = npu.to_device(np.zeros((0, 3), np.float32))[1]
    bad_o = npu.to_device(np.zeros((4, 6), np.float32))[1]
    expect_error(P, (None, -1, out), NULL, "x")
    expect_error(P, (x, -1, None), NULL, "out")
    expect_error(P, (i32, -1, out), INVALID, "x")
    expect_error(P, (x, -1, o16), INVALID, "out")
    expect_error(P, (x, 2, out), INVALID, "dim")
    expect_error(P, (odd, -1, out), INVALID, "even")
    expect_error(P, (empty, -1, empty_o), INVALID, "empty")
    expect_error(P, (x, -1, bad_o), INVALID, "out")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=4), data=st.data(),
       dtype=st.sampled_from([np.float32, np.float16, ml_dtypes.bfloat16]))
def test_property_matches_golden(npu, shape, data, dtype):
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    shape[dim] *= 2
    x = (np.random.default_rng(len(shape) + sum(shape)).standard_normal(shape) * 2).astype(dtype)
    y, ref, _ = _swi_glu(npu, x, dim)
    assert rel_err(y, ref) < TOL[np.dtype(dtype)]
