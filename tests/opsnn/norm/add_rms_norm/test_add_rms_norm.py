"""aclnnAddRmsNorm against the float64 golden on the tiny chip: both strategies, dtypes,
gamma ranks, many tiles, one status per bad input, and a property test."""
import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.norm.add_rms_norm.golden import add_rms_norm_golden
from tests.conftest import rel_err

from ...pooling.helpers import TOL, assert_many_tiles, expect_error

P = opsnn.aclnnAddRmsNormGetWorkspaceSize


def _run(npu, x1, x2, g, eps=1e-6, strategy=None):
    j = g.ndim
    rshape = x1.shape[:x1.ndim - j] + (1,) * j
    t1, t2, tg = (npu.to_device(a)[1] for a in (x1, x2, g))
    (py, ty), (pr, tr), (px, tx) = (npu.empty(x1.shape, x1.dtype), npu.empty(rshape, np.float32),
                                    npu.empty(x1.shape, x1.dtype))
    ws, ex, ret = P(t1, t2, tg, eps, ty, tr, tx, strategy=strategy)
    assert ret == 0, opsnn.aclGetRecentErrMsg()
    npu.run((ws, ex, ret), opsnn.aclnnAddRmsNorm)
    got = (npu.to_host(py, x1.shape, x1.dtype), npu.to_host(pr, rshape, np.float32),
           npu.to_host(px, x1.shape, x1.dtype))
    return got, add_rms_norm_golden(x1, x2, g, eps, x_dtype=x1.dtype), ex


@pytest.mark.parametrize("strategy", ["fused", "multi_pass"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16])
def test_both_strategies_and_dtypes(npu, rng, strategy, dtype):
    x1 = rng.standard_normal((6, 40)).astype(dtype)
    x2 = rng.standard_normal((6, 40)).astype(dtype)
    g = rng.standard_normal(40).astype(dtype)
    (y, r, x), (ry, rr, rx), ex = _run(npu, x1, x2, g, strategy=strategy)
    tol = TOL[np.dtype(dtype)]
    assert rel_err(y, ry) < tol and rel_err(r, rr) < 1e-5 and rel_err(x, rx) < tol
    assert ex.info["strategy"] == strategy
    assert all(k.spec.args["fused"] == ["Add", "RmsNorm"] for k in ex.kernels)


def test_gamma_over_two_axes_and_auto_multi_pass_many_tiles(npu, rng):
    x1 = rng.standard_normal((5, 3, 1100)).astype(np.float32)
    x2 = rng.standard_normal((5, 3, 1100)).astype(np.float32)
    (y, r, x), (ry, rr, rx), ex = _run(npu, x1, x2, rng.standard_normal(1100).astype(np.float32))
    assert ex.info["strategy"] == "multi_pass" and len(ex.kernels) == 2
    assert rel_err(y, ry) < 1e-5 and rel_err(x, rx) < 1e-6
    x1 = rng.standard_normal((203, 4, 6)).astype(np.float32)
    (y, r, x), (ry, rr, rx), ex = _run(npu, x1, x1 * 0.5, rng.standard_normal((4, 6)).astype(np.float32))
    assert ex.info["strategy"] == "fused" and rel_err(y, ry) < 1e-5 and r.shape == (203, 1, 1)
    assert_many_tiles(ex.kernels[0].spec)


def test_matches_add_then_rms_norm(npu, rng):
    """The fused op gives what Add followed by aclnnRmsNorm gives (float16, bit for bit)."""
    x1 = rng.standard_normal((7, 24)).astype(np.float16)
    x2 = rng.standard_normal((7, 24)).astype(np.float16)
    g = rng.standard_normal(24).astype(np.float16)
    (y, _, x), _, _ = _run(npu, x1, x2, g)
    s = (x1.astype(np.float32) + x2.astype(np.float32)).astype(np.float16)
    assert np.array_equal(x, s)
    ts, tg = npu.to_device(s)[1], npu.to_device(g)[1]
    (py, ty), (_, tr) = npu.empty(s.shape, s.dtype), npu.empty((7, 1), np.float32)
    npu.run(opsnn.aclnnRmsNormGetWorkspaceSize(ts, tg, 1e-6, ty, tr), opsnn.aclnnRmsNorm)
    assert np.array_equal(y, npu.to_host(py, s.shape, s.dtype))


def test_one_status_per_bad_input(npu):
    def t(shape, dt=np.float32):
        return npu.to_device(np.zeros(shape, dt))[1]
    x, g, r = t((4, 8)), t((8,)), t((4, 1))
    expect_error(P, (None, x, g, 1e-6, x, r, x), NULL, "x1")
    expect_error(P, (x, None, g, 1e-6, x, r, x), NULL, "x2")
    expect_error(P, (x, x, g, 1e-6, x, r, None), NULL, "xOut")
    expect_error(P, (t((4, 8), np.int32), x, g, 1e-6, x, r, x), INVALID, "x1")
    expect_error(P, (x, t((4, 8), np.float16), g, 1e-6, x, r, x), INVALID, "x2")
    expect_error(P, (x, x, g, 1e-6, x, t((4, 1), np.float16), x), INVALID, "rstdOut")
    expect_error(P, (x, t((4, 7)), g, 1e-6, x, r, x), INVALID, "x2")
    expect_error(P, (x, x, t((7,)), 1e-6, x, r, x), INVALID, "gamma")
    expect_error(P, (x, x, g, 1e-6, x, r, t((4, 9))), INVALID, "xOut")
    expect_error(P, (x, x, g, -1.0, x, r, x), INVALID, "epsilon")
    e, ge, re = t((0, 8)), g, t((0, 1))
    expect_error(P, (e, e, ge, 1e-6, e, re, e), INVALID, "empty")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.integers(1, 40), d=st.integers(1, 300), dtype=st.sampled_from([np.float32, np.float16]),
       strategy=st.sampled_from([None, "multi_pass"]))
def test_property_matches_golden(npu, rows, d, dtype, strategy):
    rng = np.random.default_rng(rows * 1000 + d)
    x1, x2 = (rng.standard_normal((rows, d)).astype(dtype) for _ in range(2))
    g = rng.standard_normal(d).astype(dtype)
    (y, r, x), (ry, rr, rx), _ = _run(npu, x1, x2, g, strategy=strategy)
    assert rel_err(y, ry) < TOL[np.dtype(dtype)] and rel_err(x, rx) < TOL[np.dtype(dtype)]
