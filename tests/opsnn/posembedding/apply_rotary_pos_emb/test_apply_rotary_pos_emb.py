"""aclnnApplyRotaryPosEmb against the float64 golden on the tiny chip: dtypes, both
rotation modes, key optional, non-contiguous query, errors and a property test."""
import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.posembedding.apply_rotary_pos_emb.golden import apply_rotary_pos_emb_golden
from tests.conftest import rel_err

from opsnn.base.dtypes import from_numpy_dtype

from ...pooling.helpers import TOL, assert_many_tiles, expect_error

P = opsnn.aclnnApplyRotaryPosEmbGetWorkspaceSize


def _cos_sin(rng, b, s, d, dtype):
    ang = rng.uniform(-3, 3, (b, s, 1, d))
    return np.cos(ang).astype(dtype), np.sin(ang).astype(dtype)


def _run(npu, q, k, cos, sin, mode="half", q_tensor=None):
    tq = q_tensor if q_tensor is not None else npu.to_device(q)[1]
    pk, tk = npu.to_device(k) if k is not None else (None, None)
    tc, ts = npu.to_device(cos)[1], npu.to_device(sin)[1]
    ws, ex, ret = P(tq, tk, tc, ts, 1, rotaryMode=mode)
    assert ret == 0, opsnn.aclGetRecentErrMsg()
    npu.run((ws, ex, ret), opsnn.aclnnApplyRotaryPosEmb)
    return tq, pk, ex


@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16])
@pytest.mark.parametrize("mode", ["half", "interleave"])
def test_query_and_key_in_place(npu, rng, dtype, mode):
    b, s, nq, nk, d = 2, 5, 4, 2, 16
    q = rng.standard_normal((b, s, nq, d)).astype(dtype)
    k = rng.standard_normal((b, s, nk, d)).astype(dtype)
    cos, sin = _cos_sin(rng, b, s, d, dtype)
    pq, tq = npu.to_device(q)
    _, pk, ex = _run(npu, q, k, cos, sin, mode, q_tensor=tq)
    rq, rk = apply_rotary_pos_emb_golden(q, k, cos, sin, interleaved=mode == "interleave")
    assert rel_err(npu.to_host(pq, q.shape, q.dtype), rq) < TOL[np.dtype(dtype)]
    assert rel_err(npu.to_host(pk, k.shape, k.dtype), rk) < TOL[np.dtype(dtype)]
    assert ex.kernels[-1].spec.name == "ApplyRotaryPosEmb" and ex.info["rotary_mode"] == mode


def test_query_alone_broadcast_cos_and_many_tiles(npu, rng):
    b, s, n, d = 3, 61, 4, 32
    q = rng.standard_normal((b, s, n, d)).astype(np.float32)
    cos, sin = _cos_sin(rng, 1, s, d, np.float32)
    pq, tq = npu.to_device(q)
    _, _, ex = _run(npu, q, None, cos, sin, q_tensor=tq)
    rq, _ = apply_rotary_pos_emb_golden(q, None, cos, sin)
    assert rel_err(npu.to_host(pq, q.shape, q.dtype), rq) < 1e-5
    assert_many_tiles(ex.kernels[0].spec)


def test_non_contiguous_query_is_copied_in_and_back(npu, rng):
    base = rng.standard_normal((2, 3, 5, 8)).astype(np.float32)   # [B, N, S, D] seen as BSND
    ptr, _ = npu.to_device(base)
    view = base.transpose(0, 2, 1, 3)
    t = opsnn.aclCreateTensor(view.shape, from_numpy_dtype(base.dtype), [s // 4 for s in view.strides], 0, 2,
                              base.shape, ptr)
    cos, sin = _cos_sin(rng, 2, 5, 8, np.float32)
    _, _, ex = _run(npu, None, None, cos, sin, q_tensor=t)
    assert len(ex.info["copies"]) == 2 and len(ex.kernels) == 3
    rq, _ = apply_rotary_pos_emb_golden(view, None, cos, sin)
    got = npu.to_host(ptr, base.shape, base.dtype)
    assert rel_err(got.transpose(0, 2, 1, 3), rq) < 1e-5


def test_errors(npu, rng):
    q = npu.to_device(np.zeros((1, 2, 2, 4), np.float32))[1]
    c = npu.to_device(np.zeros((1, 2, 1, 4), np.float32))[1]
    c16 = npu.to_device(np.zeros((1, 2, 1, 4), np.float16))[1]
    odd = npu.to_device(np.zeros((1, 2, 2, 3), np.float32))[1]
    bad_c = npu.to_device(np.zeros((1, 2, 2, 4), np.float32))[1]
    i32 = npu.to_device(np.zeros((1, 2, 2, 4), np.int32))[1]
    expect_error(P, (None, None, c, c, 1), NULL, "queryRef")
    expect_error(P, (q, None, None, c, 1), NULL, "cos")
    expect_error(P, (i32, None, c, c, 1), INVALID, "queryRef")
    expect_error(P, (q, None, c16, c, 1), INVALID, "cos")
    expect_error(P, (odd, None, c, c, 1), INVALID, "even")
    expect_error(P, (q, None, bad_c, c, 1), INVALID, "cos shape")
    expect_error(P, (q, None, c, c, 2), INVALID, "layout")
    ws, ex, ret = P(q, None, c, c, 1, rotaryMode="spiral")
    assert ret == INVALID and "rotaryMode" in opsnn.aclGetRecentErrMsg()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(b=st.integers(1, 3), s=st.integers(1, 9), n=st.integers(1, 4), h=st.integers(1, 12),
       dtype=st.sampled_from([np.float32, np.float16]), mode=st.sampled_from(["half", "interleave"]))
def test_property_matches_golden(npu, b, s, n, h, dtype, mode):
    rng = np.random.default_rng(b * 1000 + s * 100 + n * 10 + h)
    q = rng.standard_normal((b, s, n, 2 * h)).astype(dtype)
    cos, sin = _cos_sin(rng, b, s, 2 * h, dtype)
    pq, tq = npu.to_device(q)
    _run(npu, q, None, cos, sin, mode, q_tensor=tq)
    rq, _ = apply_rotary_pos_emb_golden(q, None, cos, sin, interleaved=mode == "interleave")
    assert rel_err(npu.to_host(pq, q.shape, q.dtype), rq) < TOL[np.dtype(dtype)]
