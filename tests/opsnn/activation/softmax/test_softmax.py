"""aclnnSoftmax against the float64 golden on the tiny chip: dims, dtypes, both
tiling strategies, error paths and a property test."""
import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.activation.softmax.golden import softmax_golden
from tests.conftest import rel_err

from ...pooling.helpers import TOL, assert_many_tiles, expect_error, run_op, strided_view


def _softmax(npu, x, dim, x_tensor=None, xv=None):
    xv = x if xv is None else xv
    (y,), ex = run_op(npu, opsnn.aclnnSoftmaxGetWorkspaceSize, opsnn.aclnnSoftmax, x, (dim,),
                      [(xv.shape, xv.dtype)], x_tensor=x_tensor)
    return y, softmax_golden(xv, dim), ex


@pytest.mark.parametrize("shape,dim", [((4, 10), -1), ((3, 5, 7), 1), ((3, 5, 7), 0), ((2, 3, 4, 5), -3),
                                       ((17,), 0), ((), 0), ((), -1), ((6, 1), 1)])
def test_softmax_float32_any_dim(npu, rng, shape, dim):
    x = (rng.standard_normal(shape) * 4).astype(np.float32)
    y, ref, _ = _softmax(npu, x, dim)
    assert rel_err(y, ref) < 1e-5


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
def test_softmax_half_types(npu, rng, dtype):
    x = (rng.standard_normal((6, 33)) * 3).astype(dtype)
    y, ref, _ = _softmax(npu, x, 1)
    assert rel_err(y, ref) < TOL[np.dtype(dtype)]


def test_softmax_is_numerically_stable(npu):
    x = np.array([[1000.0, 1001.0, 999.0], [-1e4, -1e4 + 1, -1e4 + 2]], np.float32)
    y, ref, _ = _softmax(npu, x, 1)
    assert np.isfinite(y).all() and rel_err(y, ref) < 1e-6


def test_softmax_non_contiguous(npu, rng):
    base = rng.standard_normal((8, 5, 6)).astype(np.float32)
    xv, t = strided_view(npu, base, (2, 0, 1))
    y, ref, _ = _softmax(npu, None, 1, x_tensor=t, xv=xv)
    assert rel_err(y, ref) < 1e-5


def test_softmax_one_pass_many_tiles(npu, rng):
    x = rng.standard_normal((203, 37)).astype(np.float32)
    y, ref, ex = _softmax(npu, x, -1)
    assert rel_err(y, ref) < 1e-5
    spec = ex.kernels[0].spec
    assert ex.info["strategy"] == "one_pass" == spec.args["strategy"] and spec.tiling_key == 0
    assert spec.args["tiling"]["total_units"] == 203
    assert_many_tiles(spec)


@pytest.mark.parametrize("shape,dim", [((9, 1000), 1), ((1000, 5), 0)])
def test_softmax_multi_pass_when_a_row_does_not_fit_ub(npu, rng, shape, dim):
    """A 1000-float row needs 2 x (4000 + 4000) B in+out plus a 4000 B fp32 work row:
    over the tiny chip's 16 KiB, so rows are streamed in chunks, three passes."""
    x = (rng.standard_normal(shape) * 5).astype(np.float32)
    y, ref, ex = _softmax(npu, x, dim)
    assert rel_err(y, ref) < 1e-5
    spec = ex.kernels[0].spec
    assert ex.info["strategy"] == "multi_pass" == spec.args["strategy"] and spec.tiling_key == 1
    cpr, c = ex.info["chunks_per_row"], ex.info["chunk_elems"]
    assert cpr >= 2 and c * cpr >= 1000 and (c * 4) % 32 == 0
    rows = x.size // 1000
    assert spec.args["tiling"]["total_units"] == rows * cpr
    assert spec.buffers[next(iter(spec.buffers))] <= 16 * 1024
    # three reads of every element, one write
    mte2 = sum(ts.stages[0].nbytes * ts.count for b in spec.blocks for ts in b.tiles)
    mte3 = sum(ts.stages[2].nbytes * ts.count for b in spec.blocks for ts in b.tiles)
    assert abs(mte2 / (3 * x.nbytes) - 1) < 1e-3 and abs(mte3 / x.nbytes - 1) < 1e-3
    assert_many_tiles(spec)


def test_softmax_float16_row_of_1000_fits_one_pass(npu, rng):
    x = rng.standard_normal((5, 1000)).astype(np.float16)
    y, ref, ex = _softmax(npu, x, -1)
    assert ex.info["strategy"] == "one_pass" and rel_err(y, ref) < 1e-2


def test_softmax_empty_tensor_launches_nothing(npu):
    _, t = npu.to_device(np.zeros((0, 4), np.float32))
    _, o = npu.empty((0, 4), np.float32)
    ws, ex, ret = opsnn.aclnnSoftmaxGetWorkspaceSize(t, 1, o)
    assert ret == 0 and ex.kernels == [] and ex.info["strategy"] == "empty"
    npu.run((ws, ex, ret), opsnn.aclnnSoftmax)


@pytest.mark.parametrize("case,code,frag", [
    ("self_null", NULL, "self is null"),
    ("dim_null", NULL, "dim is null"),
    ("out_null", NULL, "out is null"),
    ("self_numpy", INVALID, "self must be an aclTensor"),
    ("int_dtype", INVALID, "self dtype ACL_INT32 not supported"),
    ("out_dtype", INVALID, "out dtype ACL_FLOAT16 not supported"),
    ("dim_high", INVALID, "dim 2 out of range [-2, 2) for self shape [3, 4]"),
    ("dim_low", INVALID, "dim -3 out of range [-2, 2)"),
    ("dim_float", INVALID, "dim must be an integer, got 1.0"),
    ("out_shape", INVALID, "out shape [4, 3] does not match expected [3, 4]"),
])
def test_softmax_errors(npu, case, code, frag):
    x = npu.to_device(np.zeros((3, 4), np.float32))[1]
    o = npu.empty((3, 4), np.float32)[1]
    args = dict(self=x, dim=1, out=o)
    args.update({
        "self_null": dict(self=None), "dim_null": dict(dim=None), "out_null": dict(out=None),
        "self_numpy": dict(self=np.zeros((3, 4), np.float32)),
        "int_dtype": dict(self=npu.to_device(np.zeros((3, 4), np.int32))[1]),
        "out_dtype": dict(out=npu.empty((3, 4), np.float16)[1]),
        "dim_high": dict(dim=2), "dim_low": dict(dim=-3), "dim_float": dict(dim=1.0),
        "out_shape": dict(out=npu.empty((4, 3), np.float32)[1]),
    }[case])
    expect_error(opsnn.aclnnSoftmaxGetWorkspaceSize, tuple(args.values()), code, "aclnnSoftmax", frag)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=4), data=st.data(),
       dtype=st.sampled_from([np.float32, np.float16]), scale=st.sampled_from([0.1, 3.0, 30.0]))
def test_softmax_property(npu, shape, data, dtype, scale):
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    seed = data.draw(st.integers(0, 2**31 - 1))
    x = (np.random.default_rng(seed).standard_normal(shape) * scale).astype(dtype)
    y, ref, _ = _softmax(npu, x, dim)
    assert not np.isnan(y).any()
    assert rel_err(y, ref) < TOL[np.dtype(dtype)]
    np.testing.assert_allclose(y.astype(np.float64).sum(axis=dim), 1.0, rtol=0, atol=TOL[np.dtype(dtype)] * 2)
