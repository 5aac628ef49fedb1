"""aclnnQuantMatmulV4 on the tiny chip against the int64/float64 golden: per-tensor,
per-channel and per-token scales, int32 and float biases, fp16/bf16/int8 outs, the
transpose flags, batch broadcasting, the trace (int8 cube, dequant epilogue), one
status per bad input and a property test over shapes."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.matmul.quant_matmul.golden import quant_matmul_golden
from tests.opsnn.transform.helpers import BF16, expect_error, upload

PREP, LAUNCH = opsnn.aclnnQuantMatmulV4GetWorkspaceSize, opsnn.aclnnQuantMatmulV4


def _i8(rng, shape):
    return rng.integers(-128, 128, shape).astype(np.int8)


def run_qmm(npu, x1, x2, scale, offset=None, pertoken=None, bias=None, tx1=False, tx2=False, out_dtype=np.float16):
    t = [upload(npu, a)[1] if a is not None else None for a in (x1, x2, scale, offset, pertoken, bias)]
    a = np.swapaxes(x1, -1, -2) if tx1 else x1
    b = np.swapaxes(x2, -1, -2) if tx2 else x2
    shape = np.matmul(np.zeros(a.shape, np.float32), np.zeros(b.shape, np.float32)).shape
    po, to = npu.empty(shape, out_dtype)
    prep = PREP(*t, tx1, tx2, to)
    npu.run(prep, LAUNCH)
    return npu.to_host(po, shape, out_dtype), prep[1]


def _close(got, want, dtype):
    if np.dtype(dtype) == np.int8:
        # the kernel dequantizes in float32, the golden in float64: a value within
        # rounding of a .5 boundary may land one step apart
        assert np.abs(got.astype(np.int32) - want.astype(np.int32)).max(initial=0) <= 1
        assert np.mean(got == want) > 0.99
    else:
        tol = 1e-2 if np.dtype(dtype) in (np.dtype(np.float16), BF16) else 1e-5
        np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol * np.abs(want).max())


@pytest.mark.parametrize("m,n,k", [(5, 7, 3), (33, 17, 65), (100, 130, 70), (1, 1, 1), (64, 96, 200)])
@pytest.mark.parametrize("out_dtype", [np.float16, BF16], ids=["fp16", "bf16"])
def test_per_tensor_and_per_channel(npu, rng, m, n, k, out_dtype):
    x1, x2 = _i8(rng, (m, k)), _i8(rng, (k, n))
    for scale in (np.array([0.01], np.float32), rng.uniform(0.001, 0.02, n).astype(np.float32)):
        got, ex = run_qmm(npu, x1, x2, scale, out_dtype=out_dtype)
        _close(got, quant_matmul_golden(x1, x2, scale), out_dtype)


def test_int32_accumulation_is_exact(npu, rng):
    """K = 300 of -128 x -128 products: 4,915,200 overflows fp16/bf16 accumulation
    precision; scale 1 with an fp16-exact result checks the int32 sum."""
    x1 = np.full((4, 300), -128, np.int8)
    x2 = np.full((300, 3), -128, np.int8)
    got, _ = run_qmm(npu, x1, x2, np.array([1.0 / 4096], np.float32))
    assert np.all(got == np.float16(300 * 128 * 128 / 4096))


@pytest.mark.parametrize("bias_dtype", [np.int32, np.float32, np.float16, BF16], ids=["i32", "f32", "f16", "bf16"])
def test_bias(npu, rng, bias_dtype):
    x1, x2 = _i8(rng, (20, 48)), _i8(rng, (48, 24))
    scale = rng.uniform(0.001, 0.01, 24).astype(np.float32)
    bias = (rng.integers(-1000, 1000, 24) if bias_dtype == np.int32 else rng.standard_normal(24)).astype(bias_dtype)
    got, _ = run_qmm(npu, x1, x2, scale, bias=bias)
    _close(got, quant_matmul_golden(x1, x2, scale, bias=bias), np.float16)


def test_int8_out_with_offset(npu, rng):
    x1, x2 = _i8(rng, (40, 64)), _i8(rng, (64, 36))
    scale = rng.uniform(0.0005, 0.002, 36).astype(np.float32)
    offset = rng.uniform(-5, 5, 36).astype(np.float32)
    bias = rng.integers(-500, 500, 36).astype(np.int32)
    got, _ = run_qmm(npu, x1, x2, scale, offset, bias=bias, out_dtype=np.int8)
    want = quant_matmul_golden(x1, x2, scale, offset, bias=bias, out_int8=True)
    _close(got, want, np.int8)
    assert got.min() == -128 or got.max() == 127 or np.abs(got).max() < 127  # saturation reachable


def test_pertoken(npu, rng):
    x1, x2 = _i8(rng, (2, 17, 32)), _i8(rng, (32, 9))
    scale = rng.uniform(0.01, 0.02, 9).astype(np.float32)
    pt = rng.uniform(0.1, 1.0, 17).astype(np.float32)
    got, ex = run_qmm(npu, x1, x2, scale, pertoken=pt, out_dtype=BF16)
    _close(got, quant_matmul_golden(x1, x2, scale, pertoken=pt), BF16)
    assert ex.plan.info["dequant"] == "per_token"


@pytest.mark.parametrize("tx1,tx2", [(True, False), (False, True), (True, True)])
def test_transpose_flags(npu, rng, tx1, tx2):
    m, n, k = 19, 21, 40
    x1 = _i8(rng, (k, m) if tx1 else (m, k))
    x2 = _i8(rng, (n, k) if tx2 else (k, n))
    scale = np.array([0.003], np.float32)
    got, _ = run_qmm(npu, x1, x2, scale, tx1=tx1, tx2=tx2)
    _close(got, quant_matmul_golden(x1, x2, scale, transpose_x1=tx1, transpose_x2=tx2), np.float16)


def test_batch_broadcast_and_trace(npu, rng):
    x1, x2 = _i8(rng, (3, 1, 9, 33)), _i8(rng, (2, 33, 12))
    scale = np.array([0.01], np.float32)
    got, ex = run_qmm(npu, x1, x2, scale)
    _close(got, quant_matmul_golden(x1, x2, scale), np.float16)
    spec = ex.plan.kernels[-1].spec
    assert spec.args["compute_dtype"] == "int8" and spec.args["epilogue"] == ["dequant"]
    assert spec.args["tiling"]["batch"] == 6
    assert all(st.dtype == "int8" for b in spec.blocks for t in b.tiles for st in t.stages if st.macs)


def _tensors(npu, m=4, n=5, k=6, xd=np.int8, sd=np.float32, od=np.float16):
    return (upload(npu, np.zeros((m, k), xd))[1], upload(npu, np.zeros((k, n), xd))[1],
            upload(npu, np.ones(1, sd))[1], npu.empty((m, n), od)[1])


def test_status_codes(npu):
    x1, x2, sc, out = _tensors(npu)
    expect_error(PREP, (None, x2, sc, None, None, None, False, False, out), NULL, "x1")
    expect_error(PREP, (x1, x2, None, None, None, None, False, False, out), NULL, "scale")
    expect_error(PREP, (x1, x2, sc, None, None, None, False, False, None), NULL, "out")
    f16 = _tensors(npu, xd=np.float16)
    expect_error(PREP, (f16[0], x2, sc, None, None, None, False, False, out), INVALID, "x1", "ACL_FLOAT16")
    i32 = _tensors(npu, xd=np.int32)
    expect_error(PREP, (x1, i32[1], sc, None, None, None, False, False, out), INVALID, "x2", "ACL_INT32")
    s64 = upload(npu, np.ones(1, np.int64))[1]
    expect_error(PREP, (x1, x2, s64, None, None, None, False, False, out), INVALID, "scale", "ACL_INT64")
    o32 = npu.empty((4, 5), np.float32)[1]
    expect_error(PREP, (x1, x2, sc, None, None, None, False, False, o32), INVALID, "out", "ACL_FLOAT")
    bad_k = upload(npu, np.zeros((7, 5), np.int8))[1]
    expect_error(PREP, (x1, bad_k, sc, None, None, None, False, False, out), INVALID, "K=6", "K=7")
    sc3 = upload(npu, np.ones(3, np.float32))[1]
    expect_error(PREP, (x1, x2, sc3, None, None, None, False, False, out), INVALID, "scale", "[3]")
    off = upload(npu, np.ones(1, np.float32))[1]
    expect_error(PREP, (x1, x2, sc, off, None, None, False, False, out), INVALID, "offset", "ACL_INT8")
    pt = upload(npu, np.ones(3, np.float32))[1]
    expect_error(PREP, (x1, x2, sc, None, pt, None, False, False, out), INVALID, "pertokenScaleOptional")
    bias = upload(npu, np.ones(4, np.int32))[1]
    expect_error(PREP, (x1, x2, sc, None, None, bias, False, False, out), INVALID, "bias", "[4]")
    expect_error(PREP, (x1, x2, sc, None, None, None, 1, False, out), INVALID, "transposeX1")
    wrong_out = npu.empty((4, 6), np.float16)[1]
    expect_error(PREP, (x1, x2, sc, None, None, None, False, False, wrong_out), INVALID, "out")
    r1 = upload(npu, np.zeros(6, np.int8))[1]
    expect_error(PREP, (r1, x2, sc, None, None, None, False, False, out), INVALID, "2 to 6 dims")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(m=st.integers(1, 70), n=st.integers(1, 70), k=st.integers(1, 130), per_channel=st.booleans(),
       seed=st.integers(0, 2 ** 16))
def test_property_shapes(npu, m, n, k, per_channel, seed):
    rng = np.random.default_rng(seed)
    x1, x2 = _i8(rng, (m, k)), _i8(rng, (k, n))
    scale = (rng.uniform(0.001, 0.01, n) if per_channel else np.array([0.004])).astype(np.float32)
    got, _ = run_qmm(npu, x1, x2, scale)
    _close(got, quant_matmul_golden(x1, x2, scale), np.float16)


def test_int32_out_and_batch_bias(npu, rng):
    """INT32 out: the accumulator plus a [batch, 1, N] int32 bias, no scale."""
    x1, x2 = _i8(rng, (2, 5, 40)), _i8(rng, (2, 40, 7))
    bias = rng.integers(-9, 9, (2, 1, 7)).astype(np.int32)
    got, _ = run_qmm(npu, x1, x2, np.array([1.0], np.float32), bias=bias, out_dtype=np.int32)
    assert np.array_equal(got, quant_matmul_golden(x1, x2, np.array([1.0]), bias=bias, out_int32=True))
