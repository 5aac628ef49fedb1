"""aclnnMaxPool3dWithArgmax / aclnnAvgPool3d against the float64 goldens on the tiny chip
(many and edge tiles), statuses, and hypothesis over shapes, strides and dtypes."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn.pooling.pool3d.golden import avg_pool3d_golden, max_pool3d_golden
from tests.conftest import rel_err
from tests.opsnn.pooling.helpers import TOL, assert_many_tiles, expect_error, run_op

BF16 = np.dtype(ml_dtypes.bfloat16)
ia = opsnn.aclCreateIntArray


def _p6(p):
    p = tuple(p)
    return p if len(p) == 6 else (p * 3 if len(p) == 1 else p) * 2 if len(p) != 3 else p + p


def run_max(npu, x, k, s, p, d, ceil):
    vg, ig = max_pool3d_golden(x, k if len(k) == 3 else k * 3, s if len(s) == 3 else (s * 3 if s else k),
                               d if len(d) == 3 else d * 3, _p6(p), ceil)
    (v, i), ex = run_op(npu, opsnn.aclnnMaxPool3dWithArgmaxGetWorkspaceSize, opsnn.aclnnMaxPool3dWithArgmax, x,
                        [ia(k), ia(s), ia(p), ia(d), ceil], [(vg.shape, x.dtype), (vg.shape, np.int32)])
    return v, i, vg, ig, ex


# shape, kernel, stride, padding, dilation, ceil
MAX = [((2, 3, 5, 6, 7), (2, 3, 2), (2, 2, 1), (1, 1, 0), (1, 1, 1), False),
       ((1, 2, 7, 6, 5), (3, 2, 3), (2, 1, 2), (1, 0, 1), (1, 2, 1), True),
       ((3, 5, 6, 6), (3,), (2,), (1,), (1,), True),                       # CDHW, one value for all axes
       ((1, 2, 4, 5, 6), (2, 2, 2), (), (0, 0, 1, 1, 0, 1), (1, 1, 1), False),  # ONNX 6-pads, stride = kernel
       ((1, 8, 6, 40, 40), (2, 3, 3), (1, 1, 1), (1, 1, 1), (1, 1, 1), False)]  # many tiles


@pytest.mark.parametrize("case", MAX, ids=[str(i) for i in range(len(MAX))])
def test_max_pool3d_float32(npu, rng, case):
    shape, k, s, p, d, ceil = case
    x = rng.standard_normal(shape).astype(np.float32)
    v, i, vg, ig, ex = run_max(npu, x, k, s, p, d, ceil)
    assert np.array_equal(v.astype(np.float64), vg) and (i == ig).all()
    assert ex.info["strategy"] == "separable" and len(ex.kernels) == 2
    if shape[-1] == 40:
        assert_many_tiles(ex.kernels[0].spec)


@pytest.mark.parametrize("dtype", [np.float16, BF16], ids=["fp16", "bf16"])
def test_max_pool3d_16bit(npu, rng, dtype):
    x = rng.standard_normal((2, 3, 5, 6, 7)).astype(dtype)
    v, i, vg, ig, _ = run_max(npu, x, (2, 2, 2), (1, 2, 2), (1, 1, 1), (1, 1, 1), False)
    assert np.array_equal(v.astype(np.float64), vg) and (i == ig).all()   # a max is exact in any dtype


AVG = [((2, 3, 5, 6, 7), (2, 3, 2), (2, 2, 1), (1, 1, 0), False, True, 0),
       ((2, 3, 5, 6, 7), (3, 3, 3), (2, 2, 2), (1, 1, 1), True, False, 0),
       ((1, 2, 4, 5, 6), (2, 2, 3), (1, 2, 2), (1, 1, 1), True, True, 7),
       ((3, 5, 6, 6), (3,), (), (1,), False, False, 0),
       ((1, 8, 6, 40, 40), (2, 3, 3), (1, 1, 1), (1, 1, 1), False, True, 0)]


@pytest.mark.parametrize("case", AVG, ids=[str(i) for i in range(len(AVG))])
@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=["fp32", "fp16"])
def test_avg_pool3d(npu, rng, case, dtype):
    shape, k, s, p, ceil, cip, dov = case
    x = rng.standard_normal(shape).astype(dtype)
    k3 = k * 3 if len(k) == 1 else k
    ref = avg_pool3d_golden(x, k3, (s * 3 if len(s) == 1 else s) or k3, _p6(p), ceil, cip, dov)
    (got,), ex = run_op(npu, opsnn.aclnnAvgPool3dGetWorkspaceSize, opsnn.aclnnAvgPool3d, x,
                        [ia(k), ia(s), ia(p), ceil, cip, dov], [(ref.shape, dtype)])
    assert rel_err(got, ref) < TOL[np.dtype(dtype)]
    assert ex.workspace_size > 0 and len(ex.kernels) == 2


def _max_args(npu, **over):
    a = dict(self=npu.empty((1, 2, 4, 4, 4), np.float32)[1], kernelSize=[2, 2, 2], stride=[2, 2, 2],
             padding=[0, 0, 0], dilation=[1, 1, 1], ceilMode=False, out=npu.empty((1, 2, 2, 2, 2), np.float32)[1],
             indices=npu.empty((1, 2, 2, 2, 2), np.int32)[1])
    a.update(over)
    return list(a.values())


@pytest.mark.parametrize("over, code, text", [
    (lambda n: dict(self=None), 161001, "self is null"),
    (lambda n: dict(indices=None), 161001, "indices is null"),
    (lambda n: dict(self=n.empty((1, 2, 4, 4, 4), np.int32)[1]), 161002, "self dtype ACL_INT32"),
    (lambda n: dict(indices=n.empty((1, 2, 2, 2, 2), np.int64)[1]), 161002, "indices dtype ACL_INT64"),
    (lambda n: dict(self=n.empty((2, 4, 4), np.float32)[1]), 161002, "self must be 4/5-D"),
    (lambda n: dict(kernelSize=[2, 2]), 161002, "kernelSize must have 1 or 3 elements"),
    (lambda n: dict(padding=[2, 0, 0]), 161002, "padding along D (2, 2) must be at most half"),
    (lambda n: dict(dilation=[0, 1, 1]), 161002, "dilation elements must be >= 1"),
    (lambda n: dict(kernelSize=[5, 1, 1], padding=[0, 0, 0]), 161002, "output size [0, 2, 2] is too small"),
    (lambda n: dict(out=n.empty((1, 2, 2, 2, 3), np.float32)[1]), 161002, "out shape [1, 2, 2, 2, 3]"),
    (lambda n: dict(self=n.empty((1, 0, 4, 4, 4), np.float32)[1]), 161002, "empty C/D/H/W"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_max_pool3d_statuses(npu, over, code, text):
    expect_error(opsnn.aclnnMaxPool3dWithArgmaxGetWorkspaceSize, _max_args(npu, **over(npu)), code, text)


def test_avg_pool3d_statuses(npu):
    x = npu.empty((1, 2, 4, 4, 4), np.float32)[1]
    out = npu.empty((1, 2, 2, 2, 2), np.float32)[1]
    prep = opsnn.aclnnAvgPool3dGetWorkspaceSize
    expect_error(prep, [x, [2], [2], [0], False, True, -1, out], 161002, "divisorOverride must be an int >= 0")
    expect_error(prep, [x, None, [2], [0], False, True, 0, out], 161001, "kernelSize is null")
    expect_error(prep, [x, [2], [2], [0, 0], False, True, 0, out], 161002, "padding must have 1 or 3 or 6")
    expect_error(prep, [x, [2], [2], [0], False, True, 0, npu.empty((1, 2, 2, 2, 2), np.float16)[1]], 161002,
                 "out dtype ACL_FLOAT16")


@st.composite
def problems(draw):
    k = tuple(draw(st.integers(1, 3)) for _ in range(3))
    s = tuple(draw(st.integers(1, 3)) for _ in range(3))
    d = tuple(draw(st.integers(1, 2)) for _ in range(3))
    p = tuple(draw(st.integers(0, ((kk - 1) * dd + 1) // 2)) for kk, dd in zip(k, d))
    shape = (draw(st.integers(1, 2)), draw(st.integers(1, 3))) + tuple(draw(st.integers(1, 6)) for _ in range(3))
    return shape, k, s, p, d, draw(st.booleans()), draw(st.sampled_from([np.float32, np.float16]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prob=problems(), seed=st.integers(0, 2**31 - 1))
def test_property_pool3d_matches_golden(npu, prob, seed):
    shape, k, s, p, d, ceil, dtype = prob
    vg, _ = max_pool3d_golden(np.zeros(shape), k, s, d, p + p, ceil)
    assume(min(vg.shape[2:]) >= 1)
    x = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    v, i, vg, ig, _ = run_max(npu, x, k, s, p, d, ceil)
    assert np.array_equal(v.astype(np.float64), vg) and (i == ig).all()
    pa = tuple(min(pp, kk // 2) for pp, kk in zip(p, k))   # no dilation: pads up to half the kernel
    ref = avg_pool3d_golden(x, k, s, pa + pa, ceil, True, 0)
    assume(min(ref.shape[2:]) >= 1)
    (got,), _ = run_op(npu, opsnn.aclnnAvgPool3dGetWorkspaceSize, opsnn.aclnnAvgPool3d, x,
                       [ia(k), ia(s), ia(pa), ceil, True, 0], [(ref.shape, dtype)])
    assert rel_err(got, ref) < TOL[np.dtype(dtype)]
