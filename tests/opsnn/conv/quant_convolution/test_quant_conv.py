"""aclnnQuantConvolution on the tiny chip against the tap-by-tap int64 golden: exact
int32 accumulation, per-tensor and per-channel scales, int32 and float biases,
fp16 / bf16 / int8 / uint8 / int32 outputs, offsetx padding, groups, strides and
dilations with many and edge tiles, the trace (int8 cube, dequant epilogue), one status
per bad input, and a property test over shapes."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.conv.convolution.infershape import normalize_pads, out_hw
from opsnn.conv.quant_convolution.golden import quant_conv_golden
from tests.opsnn.transform.helpers import BF16, expect_error, upload

PREP, LAUNCH = opsnn.aclnnQuantConvolutionGetWorkspaceSize, opsnn.aclnnQuantConvolution
IA = opsnn.aclCreateIntArray


def _i8(rng, shape):
    return rng.integers(-128, 128, shape).astype(np.int8)


def _args(npu, x, w, scale, offset=None, bias=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1,
          offsetx=0, out_dtype=np.float16, round_mode="rint"):
    t = [upload(npu, a)[1] if a is not None else None for a in (x, w, bias, scale, offset)]
    ho, wo = out_hw(x.shape[2], x.shape[3], w.shape[2], w.shape[3], stride, normalize_pads(padding), dilation)
    shape = (x.shape[0], w.shape[0], ho, wo)
    po, to = npu.empty(shape, out_dtype)
    args = (t[0], t[1], t[2], t[3], t[4], IA(list(stride)), IA(list(padding)), IA(list(dilation)), False, None,
            groups, offsetx, round_mode, to)
    return args, po, shape


def run_qconv(npu, x, w, scale, out_dtype=np.float16, **kw):
    args, po, shape = _args(npu, x, w, scale, out_dtype=out_dtype, **kw)
    prep = PREP(*args)
    npu.run(prep, LAUNCH)
    return npu.to_host(po, shape, out_dtype), prep[1]


def _want(x, w, scale, out_dtype=np.float16, stride=(1, 1), padding=(0, 0), dilation=(1, 1), **kw):
    return quant_conv_golden(x, w, scale, stride=stride, pads=normalize_pads(padding), dilation=dilation,
                             out_dtype=out_dtype, **kw)


def _check(got, want, dtype):
    if np.dtype(dtype).kind in "iu":
        np.testing.assert_array_equal(got, want)   # exact: float64 requant, half to even
    else:
        tol = 1e-2 if np.dtype(dtype) in (np.dtype(np.float16), BF16) else 1e-6
        np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol * np.abs(want).max())


GEOM = [((1, 4, 8, 8), (6, 4, 3, 3), (1, 1), (1, 1), (1, 1), 1),
        ((2, 8, 9, 7), (12, 2, 3, 3), (2, 2), (1, 0, 2, 1), (1, 1), 4),     # groups, asymmetric pads
        ((1, 6, 10, 10), (6, 1, 3, 3), (1, 1), (2, 2), (2, 2), 6),          # depthwise, dilated
        ((1, 16, 5, 5), (8, 16, 1, 1), (1, 1), (0, 0), (1, 1), 1),          # pointwise
        ((2, 32, 20, 20), (40, 32, 3, 3), (1, 1), (1, 1), (1, 1), 1)]       # many and edge tiles on tiny


@pytest.mark.parametrize("xs,ws,stride,padding,dilation,groups", GEOM)
def test_int32_output_is_the_exact_accumulator(npu, rng, xs, ws, stride, padding, dilation, groups):
    x, w = _i8(rng, xs), _i8(rng, ws)
    geo = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
    for offsetx in (0, -7):
        got, _ = run_qconv(npu, x, w, np.ones(1, np.float32), out_dtype=np.int32, offsetx=offsetx, **geo)
        _check(got, _want(x, w, np.ones(1), np.int32, offsetx=offsetx, **geo), np.int32)


def test_int32_accumulation_beyond_float_precision(npu):
    """K = 32*3*3 = 288 products of -128 x -128: 4,718,592 per output, past fp16 and
    bf16 precision; an INT32 out with an INT32 bias must be exact."""
    x = np.full((1, 32, 5, 5), -128, np.int8)
    w = np.full((4, 32, 3, 3), -128, np.int8)
    bias = np.array([1, -1, 2**20, -3], np.int32)
    got, _ = run_qconv(npu, x, w, np.ones(1, np.float32), bias=bias, out_dtype=np.int32)
    assert got[0, :, 0, 0].tolist() == [288 * 16384 + 1, 288 * 16384 - 1, 288 * 16384 + 2**20, 288 * 16384 - 3]


@pytest.mark.parametrize("out_dtype", [np.float16, BF16], ids=["fp16", "bf16"])
@pytest.mark.parametrize("per_channel", [False, True])
@pytest.mark.parametrize("bias_kind", [None, "int32", "float32"])
def test_dequant_float_out(npu, rng, out_dtype, per_channel, bias_kind):
    x, w = _i8(rng, (2, 8, 9, 9)), _i8(rng, (12, 8, 3, 3))
    scale = rng.uniform(1e-4, 1e-3, 12 if per_channel else 1).astype(np.float32)
    bias = None if bias_kind is None else (rng.integers(-5000, 5000, 12).astype(np.int32) if bias_kind == "int32"
                                           else rng.normal(0, 1, 12).astype(np.float32))
    got, ex = run_qconv(npu, x, w, scale, bias=bias, padding=(1, 1), out_dtype=out_dtype)
    _check(got, _want(x, w, scale, out_dtype, padding=(1, 1), bias=bias), out_dtype)
    assert ex.info["compute_dtype"] == "int8"
    assert ex.info["dequant"] == ("per_channel" if per_channel else "per_tensor")


@pytest.mark.parametrize("out_dtype", [np.int8, np.uint8])
def test_requant_int8_uint8_out_exact(npu, rng, out_dtype):
    """Round half to even and saturation: scale 0.5 makes every odd accumulator a tie."""
    x, w = _i8(rng, (1, 4, 6, 6)), rng.integers(-3, 4, (5, 4, 3, 3)).astype(np.int8)
    for scale, off in ((np.array([0.5], np.float32), np.array([3.0], np.float32)),
                       (rng.uniform(0.01, 0.2, 5).astype(np.float32), rng.integers(-20, 20, 5).astype(np.float32))):
        bias = rng.integers(-300, 300, 5).astype(np.int32)
        got, _ = run_qconv(npu, x, w, scale, offset=off, bias=bias, out_dtype=out_dtype, padding=(1, 1), offsetx=5)
        want = _want(x, w, scale, out_dtype, padding=(1, 1), offset=off, bias=bias, offsetx=5)
        _check(got, want, out_dtype)


def test_saturation_at_both_ends(npu):
    x = np.full((1, 2, 3, 3), 127, np.int8)
    w = np.stack([np.full((2, 1, 1), 127, np.int8), np.full((2, 1, 1), -128, np.int8)])
    got, _ = run_qconv(npu, x, w, np.array([1.0], np.float32), out_dtype=np.int8)
    assert (got[0, 0] == 127).all() and (got[0, 1] == -128).all()
    got, _ = run_qconv(npu, x, w, np.array([1.0], np.float32), out_dtype=np.uint8)
    assert (got[0, 0] == 255).all() and (got[0, 1] == 0).all()


def test_trace_and_key(npu, rng):
    x, w = _i8(rng, (1, 8, 8, 8)), _i8(rng, (8, 8, 1, 1))
    args, _, _ = _args(npu, x, w, np.ones(8, np.float32), bias=np.zeros(8, np.int32))
    ws, ex, ret = PREP(*args)
    assert ret == 0 and ws == 0
    spec = ex.kernels[0].spec
    assert spec.name == "QuantConvolution" and spec.tiling_key == 19  # pointwise + bias + per channel
    assert spec.args["compute_dtype"] == "int8" and spec.args["epilogue"] == ["dequant"]
    assert spec.args["tiling"]["k"] == 8 and spec.args["gemm"]["m"] == 64


def _bad(npu, rng, **change):
    x, w = _i8(rng, (1, 4, 6, 6)), _i8(rng, (4, 4, 3, 3))
    args, _, _ = _args(npu, x, w, np.ones(1, np.float32))
    args = list(args)
    names = ["input", "weight", "bias", "scale", "offset", "stride", "padding", "dilation", "transposed",
             "outputPadding", "groups", "offsetx", "roundMode", "output"]
    for k, v in change.items():
        args[names.index(k)] = v(npu) if callable(v) else v
    return args


def _t(shape, dtype):
    return lambda npu: upload(npu, np.zeros(shape, dtype))[1]


@pytest.mark.parametrize("change,code,frag", [
    (dict(input=None), NULL, "input"), (dict(weight=None), NULL, "weight"), (dict(scale=None), NULL, "scale"),
    (dict(output=None), NULL, "output"), (dict(stride=None), NULL, "stride"),
    (dict(input=_t((1, 4, 6, 6), np.float16)), INVALID, "FLOAT16"),
    (dict(weight=_t((4, 4, 3, 3), np.uint8)), INVALID, "UINT8"),
    (dict(scale=_t((1,), np.int64)), INVALID, "INT64"),
    (dict(bias=_t((4,), np.int8)), INVALID, "bias dtype ACL_INT8"),
    (dict(output=_t((1, 4, 4, 4), np.float32)), INVALID, "output dtype ACL_FLOAT"),
    (dict(transposed=True), INVALID, "transposed"), (dict(roundMode="floor"), INVALID, "roundMode"),
    (dict(offsetx=200), INVALID, "offsetx"), (dict(groups=3), INVALID, "groups"),
    (dict(stride=IA([0, 1])), INVALID, "stride"), (dict(padding=IA([1, 1, 1])), INVALID, "padding"),
    (dict(scale=_t((3,), np.float32)), INVALID, "scale"), (dict(bias=_t((5,), np.int32)), INVALID, "bias"),
    (dict(offset=_t((1,), np.float32)), INVALID, "offset needs"),
    (dict(output=_t((1, 4, 5, 4), np.float16)), INVALID, "output"),
    (dict(input=_t((1, 4, 2, 6, 6), np.int8)), INVALID, "3-D"),
    (dict(weight=_t((4, 4, 9, 3), np.int8)), INVALID, "exceeds"),
])
def test_one_status_per_bad_input(npu, rng, change, code, frag):
    expect_error(PREP, _bad(npu, rng, **change), code, frag)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 2), g=st.sampled_from([1, 2]), cg=st.integers(1, 5), cog=st.integers(1, 6),
       hw=st.integers(3, 11), k=st.integers(1, 3), s=st.integers(1, 3), p=st.integers(0, 2), d=st.integers(1, 2),
       offx=st.integers(-128, 127), seed=st.integers(0, 2**16))
def test_property_int32_exact(npu, n, g, cg, cog, hw, k, s, p, d, offx, seed):
    if hw + 2 * p < d * (k - 1) + 1:
        return
    rng = np.random.default_rng(seed)
    x, w = _i8(rng, (n, g * cg, hw, hw)), _i8(rng, (g * cog, cg, k, k))
    geo = dict(stride=(s, s), padding=(p, p), dilation=(d, d), groups=g)
    got, _ = run_qconv(npu, x, w, np.ones(1, np.float32), out_dtype=np.int32, offsetx=offx, **geo)
    _check(got, _want(x, w, np.ones(1), np.int32, offsetx=offx, **geo), np.int32)
