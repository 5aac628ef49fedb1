"""aclnnRmsNorm against the float64 golden on the tiny chip: shapes, dtypes, both
strategies on one input, non-contiguous x, error paths, a property test."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.norm.rms_norm.golden import rms_norm_golden
from tests.conftest import rel_err
from tests.opsnn.transform.helpers import BF16, TOL, device_tensor, expect_error


def run_rms(npu, x, g, eps=1e-6, strategy=None, layout="contiguous", rstd_keep=True):
    tx = device_tensor(npu, x, layout)
    tg = npu.to_device(g)[1]
    py, ty = npu.empty(x.shape, x.dtype)
    a = x.shape[:x.ndim - g.ndim]
    rs = a + (1,) * g.ndim if rstd_keep else a
    pr, tr = npu.empty(rs, np.float32)
    prep = opsnn.aclnnRmsNormGetWorkspaceSize(tx, tg, eps, ty, tr, strategy=strategy)
    npu.run(prep, opsnn.aclnnRmsNorm)
    return npu.to_host(py, x.shape, x.dtype), npu.to_host(pr, rs, np.float32), prep[1]


def check(x, g, eps, y, r, tol):
    gy, gr = rms_norm_golden(x, g, eps)
    assert not np.isnan(y.astype(np.float32)).any()
    assert rel_err(y, gy) < tol and rel_err(r, gr.reshape(r.shape)) < max(tol, 1e-5)


@pytest.mark.parametrize("shape,j", [((4, 10), 1), ((2, 3, 17), 1), ((2, 3, 17), 2), ((33,), 1), ((5, 1), 1),
                                     ((2, 2, 3, 5), 3)])
def test_rms_norm_float32(npu, rng, shape, j):
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    g = rng.standard_normal(shape[-j:]).astype(np.float32)
    y, r, ex = run_rms(npu, x, g)
    check(x, g, 1e-6, y, r, 1e-5)
    assert ex.info["strategy"] == "fused" and ex.workspace_size == 0


@pytest.mark.parametrize("dtype", [np.float16, BF16], ids=["fp16", "bf16"])
@pytest.mark.parametrize("gamma_dtype", ["same", "fp32"])
def test_rms_norm_half_types(npu, rng, dtype, gamma_dtype):
    x = rng.standard_normal((6, 48)).astype(dtype)
    g = rng.standard_normal(48).astype(dtype if gamma_dtype == "same" else np.float32)
    for s in ("fused", "multi_pass"):
        y, r, _ = run_rms(npu, x, g, strategy=s)
        check(x, g, 1e-6, y, r, TOL[np.dtype(dtype)])


def test_long_rows_go_multi_pass_and_match_fused(npu, rng):
    x = rng.standard_normal((3, 3000)).astype(np.float32)
    g = rng.standard_normal(3000).astype(np.float32)
    y, r, ex = run_rms(npu, x, g)
    check(x, g, 1e-6, y, r, 1e-5)
    assert ex.info["strategy"] == "multi_pass" and ex.workspace_size == 32 and len(ex.kernels) == 2
    assert [k.spec.args["pass"] for k in ex.kernels] == ["stats", "apply"]
    assert all(k.spec.tiling_key == 1 for k in ex.kernels) and ex.info["chunks_per_row"] >= 2
    # a row that fits both ways: the two strategies agree to fp32 rounding
    x2, g2 = x[:, :600].copy(), g[:600].copy()
    (yf, rf, exf), (ym, rm, exm) = (run_rms(npu, x2, g2, strategy=s) for s in ("fused", "multi_pass"))
    assert exf.info["strategy"] == "fused" and exm.info["strategy"] == "multi_pass"
    assert rel_err(yf, ym) < 1e-6 and rel_err(rf, rm) < 1e-6


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16], ids=["fp32", "fp16", "bf16"])
def test_fused_and_chunked_multi_pass_agree_on_910b2(npu910, rng, dtype):
    """Five 3000-element rows on ascend910b2: both strategies fit, and multi-pass
    splits each row into chunks (fewer rows than vector cores)."""
    x = rng.standard_normal((5, 3000)).astype(dtype)
    g = rng.standard_normal(3000).astype(dtype)
    (yf, rf, exf), (ym, rm, exm) = (run_rms(npu910, x, g, strategy=s) for s in ("fused", "multi_pass"))
    assert exf.info["strategy"] == "fused" and exm.info["chunks_per_row"] >= 2
    for y, r in ((yf, rf), (ym, rm)):
        check(x, g, 1e-6, y, r, TOL[np.dtype(dtype)])
    # rstd agrees to fp32 rounding; y = x * rstd * g inherits that relative difference
    # (16-bit outputs: at most one unit in the last place after rounding)
    assert rel_err(rf, rm) < 1e-6
    a32, c32 = yf.astype(np.float32), ym.astype(np.float32)
    if np.dtype(dtype) == np.float32:
        assert (np.abs(a32 - c32) <= 1e-6 * np.abs(a32) + 1e-30).all()
    else:
        ulp = 2.0 ** (-10 if np.dtype(dtype) == np.float16 else -7)
        assert (np.abs(a32 - c32) <= ulp * np.maximum(np.abs(a32), 1e-3)).all()


@pytest.mark.parametrize("layout", ["strided", "transposed"])
def test_rms_norm_non_contiguous(npu, rng, layout):
    x = rng.standard_normal((7, 36)).astype(np.float32)
    g = rng.standard_normal(36).astype(np.float32)
    y, r, ex = run_rms(npu, x, g, layout=layout, rstd_keep=False)
    check(x, g, 1e-6, y, r, 1e-5)
    assert ex.info["copies"] == ["Contiguous"]


def test_rms_norm_empty(npu):
    tx = npu.to_device(np.zeros((0, 8), np.float32))[1]
    tg = npu.to_device(np.ones(8, np.float32))[1]
    ty = npu.empty((0, 8), np.float32)[1]
    tr = npu.empty((0, 1), np.float32)[1]
    ws, ex, ret = opsnn.aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-6, ty, tr)
    assert ret == 0 and ex.kernels == [] and ex.info["strategy"] == "empty"
    npu.run((ws, ex, ret), opsnn.aclnnRmsNorm)


@pytest.mark.parametrize("case,code,frag", [
    ("x_null", NULL, "x is null"),
    ("gamma_null", NULL, "gamma is null"),
    ("eps_null", NULL, "epsilon is null"),
    ("rstd_null", NULL, "rstdOut is null"),
    ("x_int", INVALID, "x dtype ACL_INT32 not supported"),
    ("gamma_dtype", INVALID, "gamma dtype ACL_FLOAT16 not supported; expected one of ACL_FLOAT"),
    ("y_dtype", INVALID, "yOut dtype ACL_BF16 not supported"),
    ("rstd_dtype", INVALID, "rstdOut dtype ACL_FLOAT16 not supported; expected one of ACL_FLOAT"),
    ("gamma_shape", INVALID, "gamma shape [3] does not match the trailing dims of x shape [3, 4]"),
    ("gamma_rank", INVALID, "gamma shape [1, 3, 4] does not match the trailing dims of x shape [3, 4]"),
    ("y_shape", INVALID, "yOut shape [4, 3] does not match expected [3, 4]"),
    ("rstd_shape", INVALID, "rstdOut shape [4, 1] does not match expected [3, 1]"),
    ("eps_neg", INVALID, "epsilon must be >= 0, got -1"),
    ("eps_inf", INVALID, "epsilon must be finite, got inf"),
    ("strategy", INVALID, "strategy must be one of fused, multi_pass or None, got 1"),
])
def test_rms_norm_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(x=t((3, 4)), gamma=t((4,)), eps=1e-6, y=t((3, 4)), rstd=t((3, 1)))
    args.update({
        "x_null": dict(x=None), "gamma_null": dict(gamma=None), "eps_null": dict(eps=None),
        "rstd_null": dict(rstd=None), "x_int": dict(x=t((3, 4), np.int32)), "gamma_dtype": dict(gamma=t((4,), np.float16)),
        "y_dtype": dict(y=t((3, 4), BF16)), "rstd_dtype": dict(rstd=t((3, 1), np.float16)),
        "gamma_shape": dict(gamma=t((3,))), "gamma_rank": dict(gamma=t((1, 3, 4))), "y_shape": dict(y=t((4, 3))),
        "rstd_shape": dict(rstd=t((4, 1))), "eps_neg": dict(eps=-1), "eps_inf": dict(eps=float("inf")),
    }.get(case, {}))
    kw = {"strategy": 1} if case == "strategy" else {}
    expect_error(opsnn.aclnnRmsNormGetWorkspaceSize, tuple(args.values()), code, "aclnnRmsNorm", frag, **kw)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 40), min_size=1, max_size=4), data=st.data(),
       dtype=st.sampled_from([np.float32, np.float16, BF16]), strategy=st.sampled_from([None, "multi_pass"]),
       layout=st.sampled_from(["contiguous", "strided"]))
def test_rms_norm_property(npu, shape, data, dtype, strategy, layout):
    j = data.draw(st.integers(1, len(shape)))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    x = (rng.standard_normal(shape) * 2).astype(dtype)
    g = rng.standard_normal(shape[-j:]).astype(dtype)
    y, r, _ = run_rms(npu, x, g, eps=1e-5, strategy=strategy, layout=layout)
    check(x, g, 1e-5, y, r, TOL[np.dtype(dtype)])
