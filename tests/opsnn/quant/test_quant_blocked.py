"""Blocked quantization (ONNX opset 21 ``block_size``): aclnnQuantizeBlock and
aclnnDequantizeLinearBlock on the tiny chip against float64 goldens (many and edge
tiles, a last block shorter than blockSize), the tiling without a device, one status
per bad input, and a hypothesis test over shapes, axes, block sizes and dtypes."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from npu_sim import PRESETS
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.base.dtypes import aclDataType as DT
from opsnn.quant.common.affine import param_plan
from opsnn.quant.dequantize.golden import dequantize_block_golden
from opsnn.quant.quantize.golden import quantize_block_golden
from opsnn.quant.quantize.tiling import quantize_tiling
from opsnn.quant.quantize.tiling_data import QuantizeTilingKey
from tests.opsnn.transform.helpers import BF16, expect_error, upload

TINY = PRESETS["tiny"]
QDT = {np.int8: DT.ACL_INT8, np.uint8: DT.ACL_UINT8, np.int32: DT.ACL_INT32}


def _blocked_shape(shape, axis, block):
    s = list(shape)
    s[axis] = -(-s[axis] // block)
    return tuple(s)


def run_qb(npu, x, scale, zp, axis, block, out_dtype):
    tx, ts = upload(npu, x)[1], upload(npu, scale)[1]
    tz = upload(npu, zp)[1] if zp is not None else None
    po, to = npu.empty(x.shape, out_dtype)
    prep = opsnn.aclnnQuantizeBlockGetWorkspaceSize(tx, ts, tz, QDT[out_dtype], axis, block, to)
    assert prep[2] == 0, opsnn.aclGetRecentErrMsg()
    npu.run(prep, opsnn.aclnnQuantizeBlock)
    return npu.to_host(po, x.shape, out_dtype), prep[1]


def run_dqb(npu, x, scale, zp, axis, block, out_dtype=np.float32):
    tx, ts = upload(npu, x)[1], upload(npu, scale)[1]
    tz = upload(npu, zp)[1] if zp is not None else None
    po, to = npu.empty(x.shape, out_dtype)
    prep = opsnn.aclnnDequantizeLinearBlockGetWorkspaceSize(tx, ts, tz, axis, block, to)
    assert prep[2] == 0, opsnn.aclGetRecentErrMsg()
    npu.run(prep, opsnn.aclnnDequantizeLinearBlock)
    return npu.to_host(po, x.shape, out_dtype), prep[1]


# ------------------------------------------------------------------ tiling (no device)
def test_blocked_scale_resident_when_it_fits_a_quarter_of_ub():
    numel = 64 * 1024
    small = TINY.ub_bytes // 8                   # fp32 scales, one per block: an eighth of UB
    assert param_plan(TINY, small, 4) == (small, 0.0)
    big = TINY.ub_bytes                          # more than a quarter of UB: streamed beside x
    assert param_plan(TINY, big, 4) == (0, 4.0)
    res = quantize_tiling(TINY, numel, 4, 1, small, QuantizeTilingKey.PER_BLOCK)
    td = res.data
    assert res.tiling_key == QuantizeTilingKey.PER_BLOCK == 2 and res.workspace_bytes == 0
    assert td.per_block * (td.block_dim - 1) < numel <= td.per_block * td.block_dim
    assert td.ub_bytes_used <= TINY.ub_bytes and td.per_block > td.ub_factor   # several tiles a block


# ------------------------------------------------------------------ numbers
@pytest.mark.parametrize("shape,axis,block", [((3, 4), 1, 2), ((1, 4, 3, 2), 1, 2), ((5, 37), 1, 8),
                                              ((64, 300), 0, 16), ((6, 1300), 1, 128), ((9,), 0, 4)], ids=str)
@pytest.mark.parametrize("out_dtype", [np.int8, np.uint8, np.int32])
def test_quantize_block_matches_golden(npu, rng, shape, axis, block, out_dtype):
    x = (rng.standard_normal(shape) * 40).astype(np.float32)
    bs = _blocked_shape(shape, axis, block)
    scale = rng.uniform(0.1, 0.5, bs).astype(np.float32)
    zp = rng.integers(0, 100, bs).astype(np.uint8 if out_dtype == np.uint8 else np.int8)
    got, ex = run_qb(npu, x, scale, zp, axis, block, out_dtype)
    want = quantize_block_golden(x, scale, zp, axis, block, out_dtype)
    assert np.abs(got.astype(np.int64) - want.astype(np.int64)).max() <= 1   # float32 vs float64 x / scale
    assert np.mean(got == want) > 0.999
    assert ex.plan.info["mode"] == "per_block"


@pytest.mark.parametrize("shape,axis,block", [((1, 4, 3, 2), 1, 2), ((5, 37), 1, 8), ((6, 1300), 1, 128)],
                         ids=str)
@pytest.mark.parametrize("x_dtype", [np.int8, np.uint8, np.int32])
def test_dequantize_block_matches_golden(npu, rng, shape, axis, block, x_dtype):
    lo, hi = (-128, 128) if x_dtype != np.uint8 else (0, 256)
    x = rng.integers(lo, hi, shape).astype(x_dtype)
    bs = _blocked_shape(shape, axis, block)
    scale = rng.uniform(0.01, 2, bs).astype(np.float32)
    zp = rng.integers(lo, hi, bs).astype(x_dtype)
    got, _ = run_dqb(npu, x, scale, zp, axis, block)
    want = dequantize_block_golden(x, scale, zp, axis, block)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-5)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=4).map(tuple), data=st.data(),
       x_dtype=st.sampled_from([np.float32, np.float16, BF16]), zp=st.booleans())
def test_quantize_block_hypothesis(npu, shape, data, x_dtype, zp):
    axis = data.draw(st.integers(0, len(shape) - 1))
    block = data.draw(st.integers(1, shape[axis] + 2))
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(shape) * 20).astype(x_dtype)
    bs = _blocked_shape(shape, axis, block)
    scale = rng.uniform(0.1, 0.5, bs).astype(x_dtype)
    z = rng.integers(-20, 20, bs).astype(np.int8) if zp else None
    got, _ = run_qb(npu, x, scale, z, axis, block, np.int8)
    want = quantize_block_golden(x, scale, z, axis, block, np.int8)
    assert np.abs(got.astype(np.int64) - want.astype(np.int64)).max() <= 1
    xd = got
    dq, _ = run_dqb(npu, xd, scale.astype(np.float32), z, axis, block)
    np.testing.assert_allclose(dq, dequantize_block_golden(xd, scale.astype(np.float32), z, axis, block),
                               rtol=1e-6, atol=1e-6)


# ------------------------------------------------------------------ statuses
def test_block_status_codes(npu):
    x = upload(npu, np.zeros((2, 6), np.float32))[1]
    s = upload(npu, np.ones((2, 3), np.float32))[1]
    out = npu.empty((2, 6), np.int8)[1]
    q = opsnn.aclnnQuantizeBlockGetWorkspaceSize
    assert q(x, s, None, DT.ACL_INT8, 1, 2, out)[2] == 0
    expect_error(q, (None, s, None, DT.ACL_INT8, 1, 2, out), NULL, "x")
    expect_error(q, (x, None, None, DT.ACL_INT8, 1, 2, out), NULL, "scales")
    expect_error(q, (x, s, None, DT.ACL_INT8, 1, 2, None), NULL, "out")
    xi = upload(npu, np.zeros((2, 6), np.int32))[1]
    expect_error(q, (xi, s, None, DT.ACL_INT8, 1, 2, out), INVALID, "x", "ACL_INT32")
    expect_error(q, (x, s, None, DT.ACL_INT16, 1, 2, npu.empty((2, 6), np.int16)[1]), INVALID, "ACL_INT16")
    expect_error(q, (x, s, None, DT.ACL_INT8, 1, 0, out), INVALID, "blockSize must be >= 1")
    expect_error(q, (x, s, None, DT.ACL_INT8, 1, 2.5, out), INVALID, "blockSize must be an int")
    expect_error(q, (x, s, None, DT.ACL_INT8, 2, 2, out), INVALID, "axis 2 out of range")
    expect_error(q, (x, s, None, DT.ACL_INT8, 1, 4, out), INVALID, "scale shape [2, 3] must be [2, 2]")
    zbad = upload(npu, np.zeros((2, 2), np.int8))[1]
    expect_error(q, (x, s, zbad, DT.ACL_INT8, 1, 2, out), INVALID, "zeroPoint shape [2, 2] must be [2, 3]")
    expect_error(q, (x, s, None, DT.ACL_INT8, 1, 2, npu.empty((2, 5), np.int8)[1]), INVALID, "out")
    d = opsnn.aclnnDequantizeLinearBlockGetWorkspaceSize
    xq = upload(npu, np.zeros((2, 6), np.int8))[1]
    fo = npu.empty((2, 6), np.float32)[1]
    assert d(xq, s, None, 1, 2, fo)[2] == 0
    expect_error(d, (xq, None, None, 1, 2, fo), NULL, "scale")
    expect_error(d, (x, s, None, 1, 2, fo), INVALID, "x", "ACL_FLOAT")
    expect_error(d, (xq, s, None, 1, -1, fo), INVALID, "blockSize must be >= 1")
    expect_error(d, (xq, upload(npu, np.ones((3, 3), np.float32))[1], None, 1, 2, fo), INVALID, "scale shape [3, 3]")
