"""aclnnQuantize, aclnnDequantizeLinear and aclnnDynamicQuantizeLinear on the tiny chip
against float64 goldens (per tensor and per axis, every out dtype, many and edge UB
tiles), their tilings without a device, one status per bad input, and property tests."""
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
from opsnn.quant.dequantize.golden import dequantize_golden
from opsnn.quant.dynamic_quantize.golden import dynamic_quantize_golden
from opsnn.quant.dynamic_quantize.tiling import dynamic_quantize_tiling
from opsnn.quant.quantize.golden import quantize_golden
from opsnn.quant.quantize.tiling import quantize_tiling
from opsnn.quant.quantize.tiling_data import QuantizeTilingKey
from tests.opsnn.transform.helpers import BF16, expect_error, upload

TINY = PRESETS["tiny"]
QDT = {np.int8: DT.ACL_INT8, np.uint8: DT.ACL_UINT8, np.int32: DT.ACL_INT32}


def run_quantize(npu, x, scale, zp, axis, out_dtype):
    tx, ts = upload(npu, x)[1], upload(npu, scale)[1]
    tz = upload(npu, zp)[1] if zp is not None else None
    po, to = npu.empty(x.shape, out_dtype)
    prep = opsnn.aclnnQuantizeGetWorkspaceSize(tx, ts, tz, QDT[out_dtype], axis, to)
    npu.run(prep, opsnn.aclnnQuantize)
    return npu.to_host(po, x.shape, out_dtype), prep[1]


def run_dequantize(npu, x, scale, zp, axis, out_dtype=np.float32):
    tx, ts = upload(npu, x)[1], upload(npu, scale)[1]
    tz = upload(npu, zp)[1] if zp is not None else None
    po, to = npu.empty(x.shape, out_dtype)
    prep = opsnn.aclnnDequantizeLinearGetWorkspaceSize(tx, ts, tz, axis, to)
    npu.run(prep, opsnn.aclnnDequantizeLinear)
    return npu.to_host(po, x.shape, out_dtype), prep[1]


@pytest.mark.parametrize("shape,axis", [((7,), 0), ((3, 50, 41), 1), ((2, 3, 4, 5), -1), ((4000,), 0),
                                        ((6, 1300), 0)])
@pytest.mark.parametrize("out_dtype", [np.int8, np.uint8, np.int32])
@pytest.mark.parametrize("per_axis", [False, True])
def test_quantize_matches_golden(npu, rng, shape, axis, out_dtype, per_axis):
    x = (rng.standard_normal(shape) * 40).astype(np.float32)
    c = shape[axis] if per_axis else 1
    scale = rng.uniform(0.1, 0.5, c).astype(np.float32)
    zp = rng.integers(0, 100, c).astype(np.uint8 if out_dtype == np.uint8 else np.int8)
    got, ex = run_quantize(npu, x, scale, zp, axis, out_dtype)
    want = quantize_golden(x, scale, zp, axis % len(shape), out_dtype)
    assert np.abs(got.astype(np.int64) - want.astype(np.int64)).max() <= 1   # float32 vs float64 x / scale
    assert np.mean(got == want) > 0.999
    assert ex.plan.info["mode"] == ("per_axis" if c > 1 else "per_tensor")


def test_quantize_saturates_and_rounds_half_to_even(npu):
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 1000.0, -1000.0], np.float32)
    got, _ = run_quantize(npu, x, np.array([1.0], np.float32), None, 0, np.int8)
    assert got.tolist() == [0, 2, 2, 0, -2, 127, -128]


@pytest.mark.parametrize("x_dtype", [np.int8, np.uint8, np.int16, np.int32])
@pytest.mark.parametrize("out_dtype", [np.float32, np.float16, BF16], ids=["f32", "f16", "bf16"])
def test_dequantize_matches_golden(npu, rng, x_dtype, out_dtype):
    info = np.iinfo(x_dtype)
    x = rng.integers(max(info.min, -300), min(info.max, 300), (3, 37, 29)).astype(x_dtype)
    scale = rng.uniform(0.01, 0.1, 37).astype(np.float32)
    zp = rng.integers(0, 20, 37).astype(x_dtype)
    got, _ = run_dequantize(npu, x, scale, zp, 1, out_dtype)
    want = dequantize_golden(x, scale, zp, 1)
    tol = 1e-6 if out_dtype == np.float32 else 1e-2
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol * np.abs(want).max())


@pytest.mark.parametrize("shape", [(6,), (3, 4), (50, 70), (3000,)])
def test_dynamic_quantize(npu, rng, shape):
    x = (rng.standard_normal(shape) * 3 + 0.5).astype(np.float32)
    y_ptr, ty = npu.empty(shape, np.uint8)
    s_ptr, ts = npu.empty((), np.float32)
    z_ptr, tz = npu.empty((), np.uint8)
    prep = opsnn.aclnnDynamicQuantizeLinearGetWorkspaceSize(upload(npu, x)[1], ty, ts, tz)
    assert prep[0] >= 8
    npu.run(prep, opsnn.aclnnDynamicQuantizeLinear)
    y, s, z = npu.to_host(y_ptr, shape, np.uint8), npu.to_host(s_ptr, (), np.float32), npu.to_host(z_ptr, (), np.uint8)
    wy, ws, wz = dynamic_quantize_golden(x)
    assert abs(float(s) - ws) <= 1e-6 * ws and int(z) == int(wz)
    assert np.abs(y.astype(int) - wy.astype(int)).max() <= 1 and np.mean(y == wy) > 0.999
    assert [k.spec.name for k in prep[1].plan.kernels] == ["DynamicQuantizeLinearMinMax", "DynamicQuantizeLinear"]


@pytest.mark.parametrize("numel", [1, 31, 4096, 100_000])
@pytest.mark.parametrize("in_item,out_item", [(4, 1), (2, 1), (4, 4)])
def test_quantize_tiling_fits_ub_and_covers(numel, in_item, out_item):
    pbytes = 2 * 64
    res = quantize_tiling(TINY, numel, in_item, out_item, pbytes, QuantizeTilingKey.PER_AXIS)
    td = res.data
    assert res.strategy == "affine" and res.tiling_key == 1 and res.workspace_bytes == 0
    # UB: double-buffered in + out tiles, an fp32 scratch per element, the vectors (32 B aligned)
    assert 2 * (in_item + out_item) * td.ub_factor + 4 * td.ub_factor + 128 <= TINY.ub_bytes
    assert td.per_block * (td.block_dim - 1) < numel <= td.per_block * td.block_dim
    assert td.block_dim <= TINY.aiv_count


def test_dynamic_tiling_workspace_holds_the_partials():
    res = dynamic_quantize_tiling(TINY, 100_000, 4)
    assert res.workspace_bytes == 8 * res.data.reduce.block_dim
    assert res.data.quant.total_units == res.data.reduce.total_units == 100_000


def test_status_codes(npu):
    x = upload(npu, np.zeros((2, 3), np.float32))[1]
    s = upload(npu, np.ones(1, np.float32))[1]
    out = npu.empty((2, 3), np.int8)[1]
    q = opsnn.aclnnQuantizeGetWorkspaceSize
    expect_error(q, (None, s, None, DT.ACL_INT8, 1, out), NULL, "x")
    expect_error(q, (x, None, None, DT.ACL_INT8, 1, out), NULL, "scales")
    xi = upload(npu, np.zeros((2, 3), np.int32))[1]
    expect_error(q, (xi, s, None, DT.ACL_INT8, 1, out), INVALID, "x", "ACL_INT32")
    expect_error(q, (x, s, None, DT.ACL_INT16, 1, npu.empty((2, 3), np.int16)[1]), INVALID, "ACL_INT16")
    expect_error(q, (x, s, None, DT.ACL_UINT8, 1, out), INVALID, "out", "ACL_INT8")
    expect_error(q, (x, upload(npu, np.ones(2, np.float32))[1], None, DT.ACL_INT8, 1, out), INVALID, "scale", "[3]")
    s3 = upload(npu, np.ones(3, np.float32))[1]
    expect_error(q, (x, s3, None, DT.ACL_INT8, 2, out), INVALID, "axis")
    ws, ex, ret = q(x, s, None, DT.ACL_INT8, 2, out)   # CANN: axis unused when scales has size 1
    assert ret == 0 and ex is not None
    opsnn.aclDestroyAclOpExecutor(ex)
    expect_error(q, (x, s, None, DT.ACL_INT8, 1, npu.empty((3, 2), np.int8)[1]), INVALID, "out")
    d = opsnn.aclnnDequantizeLinearGetWorkspaceSize
    xq = upload(npu, np.zeros((2, 3), np.int8))[1]
    fo = npu.empty((2, 3), np.float32)[1]
    expect_error(d, (xq, None, None, 1, fo), NULL, "scale")
    expect_error(d, (x, s, None, 1, fo), INVALID, "x", "ACL_FLOAT")
    expect_error(d, (xq, s, upload(npu, np.zeros(1, np.uint8))[1], 1, fo), INVALID, "zeroPoint", "ACL_UINT8")
    expect_error(d, (xq, s, None, 1, npu.empty((2, 3), np.int32)[1]), INVALID, "out", "ACL_INT32")
    dq = opsnn.aclnnDynamicQuantizeLinearGetWorkspaceSize
    y, ys, yz = npu.empty((2, 3), np.uint8)[1], npu.empty((), np.float32)[1], npu.empty((), np.uint8)[1]
    expect_error(dq, (x, None, ys, yz), NULL, "y")
    expect_error(dq, (upload(npu, np.zeros((2, 3), np.float16))[1], y, ys, yz), INVALID, "x", "ACL_FLOAT16")
    expect_error(dq, (x, npu.empty((2, 3), np.int8)[1], ys, yz), INVALID, "y", "ACL_INT8")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=4), seed=st.integers(0, 2 ** 16),
       per_axis=st.booleans())
def test_property_quantize_dequantize_round_trip(npu, shape, seed, per_axis):
    rng = np.random.default_rng(seed)
    shape = tuple(shape)
    axis = int(rng.integers(0, len(shape)))
    c = shape[axis] if per_axis else 1
    scale = rng.uniform(0.05, 0.2, c).astype(np.float32)
    zp = rng.integers(-10, 10, c).astype(np.int8)
    x = (rng.standard_normal(shape) * 5).astype(np.float32)
    q, _ = run_quantize(npu, x, scale, zp, axis, np.int8)
    want = quantize_golden(x, scale, zp, axis, np.int8)
    assert np.abs(q.astype(int) - want.astype(int)).max(initial=0) <= 1
    d, _ = run_dequantize(npu, q, scale, zp, axis)
    np.testing.assert_allclose(d, dequantize_golden(q, scale, zp, axis), rtol=1e-6, atol=1e-6)
