"""aclnnFlashAttentionScore against the float64 golden on the tiny chip: layouts,
dtypes, masks, pse, GQA, causal modes, tiling, timing-only runs and every error path.

(Over 300 lines on purpose: one file per operator, mirroring its folder; the device-free tiling tests are already apart in test_tiling.py.)
"""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from acl_runtime import acl
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.attention.flash_attention_score.golden import flash_attention_score_golden, from_bnsd
from opsnn.base.dtypes import from_numpy_dtype
from opsnn.base.status import ACLNN_ERR_INNER_TILING_ERROR
from tests.conftest import rel_err

from ...pooling.helpers import TOL, expect_error

PREP = opsnn.aclnnFlashAttentionScoreGetWorkspaceSize
BF16 = np.dtype(ml_dtypes.bfloat16)


def _qkv(rng, b, n, s_q, s_kv, d, dtype=np.float32, n_kv=None, d_v=None):
    n_kv = n if n_kv is None else n_kv
    d_v = d if d_v is None else d_v
    q = rng.standard_normal((b, n, s_q, d))
    k = rng.standard_normal((b, n_kv, s_kv, d))
    v = rng.standard_normal((b, n_kv, s_kv, d_v))
    return [x.astype(dtype) for x in (q, k, v)]


class FA:
    """One FlashAttentionScore call: upload, phase 1, phase 2, read back."""

    def __init__(self, npu, q, k, v, *, layout="BNSD", pse=None, mask=None, scale=None, sparse_mode=0,
                 inner_precise=0, q_tensor=None):
        self.npu = npu
        b, n, s_q, d = q.shape
        d_v = v.shape[3]
        self.layout = layout
        self.host = [from_bnsd(x, layout).copy() for x in (q, k, v)]
        ts = [npu.to_device(x)[1] for x in self.host]
        if q_tensor is not None:
            ts[0] = q_tensor
        self.pse_t = npu.to_device(pse)[1] if pse is not None else None
        self.mask_t = npu.to_device(mask)[1] if mask is not None else None
        out_shape = from_bnsd(np.zeros((b, n, s_q, d_v), np.float32), layout).shape
        self.out_shape = out_shape
        self.out = npu.empty(out_shape, q.dtype)
        self.smax = npu.empty((b, n, s_q, 8), np.float32)
        self.ssum = npu.empty((b, n, s_q, 8), np.float32)
        self.scale = 1 / np.sqrt(d) if scale is None else scale
        self.args = [ts[0], ts[1], ts[2], self.pse_t, None, None, self.mask_t, None, self.scale, 1.0, 65536, 65536,
                     n, layout, inner_precise, sparse_mode, self.smax[1], self.ssum[1], None, self.out[1]]
        self.pse, self.mask, self.sparse_mode, self.inner_precise, self.n = pse, mask, sparse_mode, inner_precise, n
        self.dtype = q.dtype

    def run(self):
        ws, ex, ret = PREP(*self.args)
        assert ret == 0, opsnn.aclGetRecentErrMsg()
        self.executor = ex
        self.npu.run((ws, ex, ret), opsnn.aclnnFlashAttentionScore)
        b, n, s_q = self.smax[1].view_shape[:3]
        return (self.npu.to_host(self.out[0], self.out_shape, self.dtype),
                self.npu.to_host(self.smax[0], (b, n, s_q, 8), np.float32),
                self.npu.to_host(self.ssum[0], (b, n, s_q, 8), np.float32))

    def golden(self, q_host=None):
        q, k, v = self.host
        return flash_attention_score_golden(q if q_host is None else q_host, k, v, self.pse, self.mask, self.scale,
                                            self.n, self.layout, self.sparse_mode, self.inner_precise)


@pytest.mark.parametrize("layout", ["BNSD", "BSND", "BSH", "SBH"])
def test_layouts_with_mask_float32(npu, rng, layout):
    q, k, v = _qkv(rng, 2, 3, 37, 70, 16)
    mask = (rng.random((2, 1, 37, 70)) < 0.3).astype(np.uint8)
    fa = FA(npu, q, k, v, layout=layout, mask=mask)
    out, smax, ssum = fa.run()
    ref, m, l = fa.golden()
    assert rel_err(out, ref) < 1e-5
    assert rel_err(smax[..., 0], m) < 1e-5 and rel_err(ssum[..., 0], l) < 1e-5
    assert (smax == smax[..., :1]).all()
    assert fa.executor.kernels[0].spec.tiling_key == 1


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
@pytest.mark.parametrize("layout", ["BNSD", "BSH"])
def test_half_types(npu, rng, dtype, layout):
    q, k, v = _qkv(rng, 1, 2, 40, 50, 32, dtype)
    mask = rng.random((40, 50)) < 0.2
    fa = FA(npu, q, k, v, layout=layout, mask=mask)
    out, _, _ = fa.run()
    ref, _, _ = fa.golden()
    assert np.isfinite(out.astype(np.float32)).all()
    assert rel_err(out, ref) < TOL[np.dtype(dtype)]


def test_no_mask_scale_and_many_tiles(npu, rng):
    """S and Skv well past the tiny chip's 32 x 32 tiles: several Sq blocks per head,
    several KV blocks per task, tail tiles in both directions."""
    q, k, v = _qkv(rng, 1, 2, 75, 101, 16)
    fa = FA(npu, q, k, v, scale=0.3)
    out, _, _ = fa.run()
    ref, _, _ = fa.golden()
    assert rel_err(out, ref) < 1e-5
    spec = fa.executor.kernels[0].spec
    td = spec.args["tiling"]
    assert spec.tiling_key == 0 and spec.block_dim == 2
    assert td["q_blocks"] == -(-75 // td["base_s_q"]) >= 2 and td["kv_blocks"] >= 2
    assert td["tiles"] == td["tasks"] * td["kv_blocks"]
    # two tiles (QK^T, PV) per KV block, each through the six mixed pipes
    assert sum(b.tile_count for b in spec.blocks) == 2 * td["tiles"]
    assert [p.value for p in spec.blocks[0].pipes] == ["MTE2", "MTE1", "CUBE", "FIXPIPE", "VECTOR", "MTE3"]
    assert fa.executor.workspace_size == td["workspace_bytes"] > 0


def test_gqa_and_smaller_value_head_dim(npu, rng):
    q, k, v = _qkv(rng, 2, 4, 20, 33, 32, n_kv=2, d_v=16)
    for layout in ("BNSD", "BSH"):
        fa = FA(npu, q, k, v, layout=layout)
        out, _, _ = fa.run()
        ref, _, _ = fa.golden()
        assert out.shape == ref.shape and rel_err(out, ref) < 1e-5


@pytest.mark.parametrize("pse_shape", [(2, 2, 24, 40), (2, 2, 1, 40), (1, 2, 24, 40)])
def test_pse_is_added_before_scale(npu, rng, pse_shape):
    q, k, v = _qkv(rng, 2, 2, 24, 40, 16)
    pse = rng.standard_normal(pse_shape).astype(np.float32)
    fa = FA(npu, q, k, v, pse=pse, scale=0.5)
    out, _, _ = fa.run()
    ref, _, _ = fa.golden()
    assert rel_err(out, ref) < 1e-5
    # and it is not the same as adding pse after the scale (= pse / scale before it)
    alt = flash_attention_score_golden(*fa.host, pse / 0.5, None, 0.5, 2)[0]
    assert rel_err(out, alt) > 1e-3


@pytest.mark.parametrize("sparse_mode", [2, 3])
def test_causal_modes_skip_masked_blocks(npu, rng, sparse_mode):
    q, k, v = _qkv(rng, 1, 1, 64, 96, 16)
    mask = np.triu(np.ones((2048, 2048), np.uint8), 1)
    fa = FA(npu, q, k, v, mask=mask, sparse_mode=sparse_mode)
    out, _, _ = fa.run()
    ref, _, _ = fa.golden()
    assert rel_err(out, ref) < 1e-5
    # float64 check of the causal meaning itself: row i sees keys j <= i (+ Skv - Sq for mode 3)
    off = 0 if sparse_mode == 2 else 96 - 64
    row = 5
    s = (fa.host[0][0, 0, row].astype(np.float64) @ fa.host[1][0, 0, :row + off + 1].T.astype(np.float64)) * fa.scale
    p = np.exp(s - s.max())
    p /= p.sum()
    assert rel_err(out[0, 0, row], p @ fa.host[2][0, 0, :row + off + 1]) < 1e-5
    td = fa.executor.kernels[0].spec.args["tiling"]
    assert fa.executor.kernels[0].spec.tiling_key == 2
    assert td["tiles"] < td["tasks"] * td["kv_blocks"]


def test_fully_masked_rows(npu, rng):
    q, k, v = _qkv(rng, 1, 1, 8, 40, 16)
    mask = np.zeros((8, 40), np.bool_)
    mask[3] = True
    out0, _, _ = FA(npu, q, k, v, mask=mask).run()
    assert rel_err(out0[0, 0, 3], v[0, 0].astype(np.float64).mean(axis=0)) < 1e-5
    fa = FA(npu, q, k, v, mask=mask, inner_precise=2)
    out2, _, _ = fa.run()
    assert (out2[0, 0, 3] == 0).all()
    ref, _, _ = fa.golden()
    assert rel_err(out2, ref) < 1e-5


def test_non_contiguous_query(npu, rng):
    q, k, v = _qkv(rng, 1, 2, 16, 24, 16)
    base = np.ascontiguousarray(q.transpose(0, 2, 1, 3))  # stored BSND, viewed as BNSD
    ptr, _ = npu.to_device(base)
    t = opsnn.aclCreateTensor(q.shape, from_numpy_dtype(q.dtype), [16 * 2 * 16, 16, 2 * 16, 1], 0, 2, base.shape, ptr)
    fa = FA(npu, q, k, v, q_tensor=t)
    out, _, _ = fa.run()
    ref, _, _ = fa.golden()
    assert rel_err(out, ref) < 1e-5


def test_910b_tiles_are_larger(npu910, rng):
    q, k, v = _qkv(rng, 1, 2, 200, 300, 64, np.float16)
    fa = FA(npu910, q, k, v)
    out, _, _ = fa.run()
    ref, _, _ = fa.golden()
    assert rel_err(out, ref) < 1e-2
    td = fa.executor.kernels[0].spec.args["tiling"]
    assert td["base_s_q"] == 128 and td["base_s_kv"] >= 128
    assert td["ub_bytes"] <= 192 * 1024 and td["l0c_bytes"] <= 128 * 1024


def test_timing_only_runs_without_numbers(rng):
    from acl_runtime.runtime import runtime
    if runtime().initialized:
        acl.finalize()
    assert acl.init(chip="ascend910b2", timing_only=True) == 0
    try:
        assert acl.rt.set_device(0) == 0
        from tests.conftest import DeviceHelper
        npu = DeviceHelper()
        ts = [npu.empty(s, np.float16)[1] for s in ((1, 32, 1, 128), (1, 32, 4096, 128), (1, 32, 4096, 128))]
        out = npu.empty((1, 32, 1, 128), np.float16)[1]
        sm = [npu.empty((1, 32, 1, 8), np.float32)[1] for _ in range(2)]
        prep = PREP(*ts, None, None, None, None, None, 0.088, 1.0, 65536, 65536, 32, "BNSD", 0, 0, sm[0], sm[1],
                    None, out)
        npu.run(prep, opsnn.aclnnFlashAttentionScore)
        rec = runtime().device.kernel_records[-1]
        assert rec["name"] == "FlashAttentionScore" and rec["dur_ns"] > 0
    finally:
        acl.finalize()


def test_empty_query_has_no_kernel(npu, rng):
    q, k, v = _qkv(rng, 1, 2, 0, 8, 16)
    ts = [npu.empty(x.shape, np.float32)[1] for x in (q, k, v)]
    out = npu.empty((1, 2, 0, 16), np.float32)[1]
    sm = [npu.empty((1, 2, 0, 8), np.float32)[1] for _ in range(2)]
    ws, ex, ret = PREP(*ts, None, None, None, None, None, 1.0, 1.0, 0, 0, 2, "BNSD", 0, 0, sm[0], sm[1], None, out)
    assert ret == 0 and ws == 0 and ex.kernels == [] and ex.info["strategy"] == "empty"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(b=st.integers(1, 2), n_kv=st.integers(1, 2), g=st.integers(1, 2), s_q=st.integers(1, 40),
       s_kv=st.integers(1, 70), d=st.sampled_from([8, 16, 24]), layout=st.sampled_from(["BNSD", "BSND", "BSH", "SBH"]),
       dtype=st.sampled_from([np.float32, np.float16, BF16]), masked=st.booleans(), seed=st.integers(0, 2**16))
def test_property_against_float64(npu, b, n_kv, g, s_q, s_kv, d, layout, dtype, masked, seed):
    rng = np.random.default_rng(seed)
    q, k, v = _qkv(rng, b, n_kv * g, s_q, s_kv, d, dtype, n_kv=n_kv)
    mask = (rng.random((b, 1, s_q, s_kv)) < 0.3).astype(np.uint8) if masked else None
    fa = FA(npu, q, k, v, layout=layout, mask=mask)
    out, _, _ = fa.run()
    ref, _, _ = fa.golden()
    assert np.isfinite(out.astype(np.float32)).all()
    assert rel_err(out, ref) < TOL[np.dtype(dtype)]


# ------------------------------------------------------------------------------------------ errors
def _args(npu, rng, **over):
    q, k, v = _qkv(rng, 1, 2, 8, 12, 16)
    t = {name: npu.to_device(x)[1] for name, x in (("query", q), ("key", k), ("value", v))}
    a = dict(query=t["query"], key=t["key"], value=t["value"], realShiftOptional=None, dropMaskOptional=None,
             paddingMaskOptional=None, attenMaskOptional=None, prefixOptional=None, scaleValue=0.25, keepProb=1.0,
             preTokens=65536, nextTokens=65536, headNum=2, inputLayout="BNSD", innerPrecise=0, sparseMode=0,
             softmaxMaxOut=npu.empty((1, 2, 8, 8), np.float32)[1], softmaxSumOut=npu.empty((1, 2, 8, 8), np.float32)[1],
             softmaxOutOut=None, attentionOutOut=npu.empty((1, 2, 8, 16), np.float32)[1])
    for key, val in over.items():
        if isinstance(val, tuple) and len(val) == 2 and isinstance(val[0], tuple):
            val = npu.empty(*val)[1]
        a[key] = val
    return list(a.values())


@pytest.mark.parametrize("over,code,frag", [
    (dict(query=None), NULL, "query is null"),
    (dict(value=None), NULL, "value is null"),
    (dict(softmaxMaxOut=None), NULL, "softmaxMaxOut is null"),
    (dict(attentionOutOut=None), NULL, "attentionOutOut is null"),
    (dict(inputLayout=None), NULL, "inputLayout is null"),
    (dict(query=((1, 2, 8, 16), np.int32)), INVALID, "query dtype ACL_INT32 not supported"),
    (dict(key=((1, 2, 12, 16), np.float16)), INVALID, "key dtype ACL_FLOAT16 differs from query"),
    (dict(softmaxSumOut=((1, 2, 8, 8), np.float16)), INVALID, "softmaxSumOut dtype"),
    (dict(attenMaskOptional=((8, 12), np.float32)), INVALID, "attenMaskOptional dtype ACL_FLOAT"),
    (dict(realShiftOptional=((1, 2, 8, 12), np.float16)), INVALID, "realShiftOptional dtype"),
    (dict(inputLayout="NSD"), INVALID, "inputLayout 'NSD' not supported"),
    (dict(inputLayout=7), INVALID, "inputLayout must be a string"),
    (dict(inputLayout="BSH"), INVALID, "query must be 3-D for inputLayout BSH"),
    (dict(headNum=3), INVALID, "headNum 3 differs from query's N=2"),
    (dict(headNum=0), INVALID, "headNum must be positive"),
    (dict(sparseMode=4), INVALID, "sparseMode 4 not supported"),
    (dict(innerPrecise=7), INVALID, "innerPrecise must be 0, 1 or 2"),
    (dict(keepProb=0.0), INVALID, "keepProb must be in (0, 1]"),
    (dict(keepProb=0.9), INVALID, "dropout"),
    (dict(dropMaskOptional=((8,), np.uint8)), INVALID, "dropout"),
    (dict(paddingMaskOptional=((8,), np.uint8)), INVALID, "paddingMaskOptional is reserved"),
    (dict(scaleValue="x"), INVALID, "scaleValue and keepProb must be numbers"),
    (dict(preTokens=1.5), INVALID, "preTokens must be an integer"),
    (dict(key=((2, 2, 12, 16), np.float32)), INVALID, "batch sizes differ"),
    (dict(key=((1, 2, 12, 8), np.float32)), INVALID, "qD == kD >= vD"),
    (dict(value=((1, 2, 12, 32), np.float32)), INVALID, "qD == kD >= vD"),
    (dict(value=((1, 2, 11, 16), np.float32)), INVALID, "key and value must match except in D"),
    (dict(key=((1, 3, 12, 16), np.float32), value=((1, 3, 12, 16), np.float32)), INVALID,
     "N=2 must be a multiple of key/value heads N=3"),
    (dict(attentionOutOut=((1, 2, 8, 8), np.float32)), INVALID, "attentionOutOut shape [1, 2, 8, 8]"),
    (dict(softmaxMaxOut=((1, 2, 8, 1), np.float32)), INVALID, "softmaxMaxOut shape [1, 2, 8, 1]"),
    (dict(attenMaskOptional=((8, 11), np.uint8)), INVALID, "attenMaskOptional shape [8, 11] not supported"),
    (dict(attenMaskOptional=((8, 12), np.uint8), sparseMode=2), INVALID, "[2048, 2048]"),
    (dict(realShiftOptional=((1, 1, 8, 12), np.float32)), INVALID, "realShiftOptional shape [1, 1, 8, 12]"),
])
def test_phase1_errors(npu, rng, over, code, frag):
    expect_error(PREP, _args(npu, rng, **over), code, frag)


def test_query_not_a_tensor(npu, rng):
    expect_error(PREP, _args(npu, rng, query=3), INVALID, "query must be an aclTensor")


def test_bsh_hidden_not_multiple_of_heads(npu, rng):
    args = _args(npu, rng, query=((1, 8, 30), np.float32), key=((1, 12, 32), np.float32),
                 value=((1, 12, 32), np.float32), inputLayout="BSH", headNum=4)
    expect_error(PREP, args, INVALID, "H=30 is not a multiple of the head count 4")


def test_zero_length_keys_rejected(npu, rng):
    args = _args(npu, rng, key=((1, 2, 0, 16), np.float32), value=((1, 2, 0, 16), np.float32))
    expect_error(PREP, args, INVALID, "key sequence length and head dim must be positive")


def test_head_dim_too_large_for_tiny_is_a_tiling_error(npu, rng):
    d = 2048
    args = _args(npu, rng, query=((1, 1, 16, d), np.float32), key=((1, 1, 16, d), np.float32),
                 value=((1, 1, 16, d), np.float32), attentionOutOut=((1, 1, 16, d), np.float32),
                 softmaxMaxOut=((1, 1, 16, 8), np.float32), softmaxSumOut=((1, 1, 16, 8), np.float32), headNum=1)
    expect_error(PREP, args, ACLNN_ERR_INNER_TILING_ERROR, "does not fit tiny's buffers")


def test_phase2_workspace_too_small(npu, rng):
    ws, ex, ret = PREP(*_args(npu, rng))
    assert ret == 0 and ws > 0
    assert opsnn.aclnnFlashAttentionScore(0, ws - 1, ex, 0) == INVALID
    assert "smaller than" in opsnn.aclGetRecentErrMsg()
