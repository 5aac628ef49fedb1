"""aclnnConvolution's 1-D / 3-D and transposed forms: tiling without a device, numbers
against the independent float64 goldens on the tiny chip (many and edge tiles), one
status per bad input, and hypothesis over shapes, strides and dtypes."""
from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import opsnn
from npu_sim import PRESETS
from opsnn.conv.convolution.golden import conv2d_golden, conv_nd_golden, conv_transpose_golden
from opsnn.conv.convolution.infershape import infer_shape_nd, pads_begin_end
from opsnn.conv.convolution.tiling import convolution_nd_tiling, convolution_tiling
from opsnn.conv.convolution.tiling_data import ConvolutionTilingKey
from tests.conftest import rel_err

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]
BF16 = np.dtype(ml_dtypes.bfloat16)


def run(npu, x, w, b, stride, padding, dilation, groups, transposed=False, output_padding=None, out_dtype=None):
    """Phase 1 + 2 through the binding; returns (result, executor)."""
    nsp = x.ndim - 2
    (shape, _), = infer_shape_nd(x.shape, None, w.shape, stride, padding, dilation, transposed, output_padding, groups)
    out_dtype = out_dtype or x.dtype
    _, tx = npu.to_device(x)
    _, tw = npu.to_device(w)
    tb = npu.to_device(b)[1] if b is not None else None
    po, to = npu.empty(shape, out_dtype)
    ia = opsnn.aclCreateIntArray
    prep = opsnn.aclnnConvolutionGetWorkspaceSize(tx, tw, tb, ia(stride), ia(padding), ia(dilation), transposed,
                                                  ia(output_padding or [0] * nsp), groups, to, 0)
    assert prep[2] == 0, opsnn.aclGetRecentErrMsg()
    npu.run(prep, opsnn.aclnnConvolution)
    return npu.to_host(po, shape, out_dtype), prep[1]


def _data(rng, xs, ws, cout, bias, dtype):
    return (rng.standard_normal(xs).astype(dtype), rng.standard_normal(ws).astype(dtype),
            rng.standard_normal(cout).astype(dtype) if bias else None)


# ------------------------------------------------------------------ tiling, no device
def test_transposed_tiling_is_the_zero_inserted_gemm():
    # ConvTranspose 2x2 stride 2 (U-Net's up-conv): 8 -> 16 per axis
    n, cin, cout, k, s = 2, 32, 16, (2, 2), (2, 2)
    outs = [(8 - 1) * 2 + 2] * 2
    res = convolution_nd_tiling(TINY, n, cin, cout, k, outs, s, 1, 4, 4, "float32", True, transposed=True)
    td = res.data
    assert res.strategy == "zero_insert_gemm" and res.workspace_bytes == 0
    assert res.tiling_key == ConvolutionTilingKey.TRANSPOSED_BIAS == 6
    # the Cube multiplies the inserted zeros: M*N*K is prod(stride) times the useful MACs
    useful = n * 8 * 8 * cin * cout * math.prod(k)
    assert td.m * td.n * td.k * td.batch == useful * math.prod(s)
    # A's GM bytes are the original input's, not the zero-inserted one's
    assert td.m * td.k / td.a_gm_reuse == n * cin * outs[0] * outs[1] / math.prod(s)
    assert res.block_dim == td.cube.block_dim <= TINY.aic_count


@pytest.mark.parametrize("chip", [TINY, B2], ids=["tiny", "910b2"])
def test_nd_tiling_matches_the_2d_one_on_a_2d_problem(chip):
    """The N-d forward tiling of a 2-D problem is the 2-D tiling (one formula)."""
    a = convolution_nd_tiling(chip, 2, 16, 20, (3, 3), (14, 14), (1, 1), 1, 4, 4, "float32", True)
    b = convolution_tiling(chip, (2, 16, 14, 14), (20, 16, 3, 3), (14, 14), (1, 1), 1, 4, 4, "float32", True)
    assert a.data == b.data and a.tiling_key == b.tiling_key and a.block_dim == b.block_dim


def test_3d_and_1d_tiling_dims_and_keys():
    r3 = convolution_nd_tiling(TINY, 1, 8, 12, (3, 3, 3), (4, 5, 6), (1, 2, 2), 2, 2, 2, "float16", False)
    assert (r3.data.batch, r3.data.m, r3.data.n, r3.data.k) == (2, 4 * 5 * 6, 6, 4 * 27)
    assert r3.data.a_gm_reuse == 27 / 4 and r3.tiling_key == ConvolutionTilingKey.GENERAL
    r1 = convolution_nd_tiling(TINY, 3, 4, 4, (1,), (9,), (1,), 1, 4, 4, "float32", True)
    assert r1.tiling_key == ConvolutionTilingKey.POINTWISE_BIAS and r1.data.a_gm_reuse == 1.0


def test_transposed_gemm_grows_with_the_stride_at_equal_useful_work(npu):
    """Same input, kernel and channels: stride 2 makes the zero-inserted GEMM's M four
    times that of stride 1 (24x24 vs 12x12 output pixels; the zeros are not skipped)."""
    x = np.ones((1, 16, 12, 12), np.float32)
    w = np.ones((16, 16, 3, 3), np.float32)
    _, e1 = run(npu, x, w, None, [1, 1], [1, 1], [1, 1], 1, True, [0, 0])
    _, e2 = run(npu, x, w, None, [2, 2], [1, 1], [1, 1], 1, True, [1, 1])
    assert e2.info["strategy"] == "zero_insert_gemm"
    assert e1.kernels[0].spec.args["gemm"]["m"] == 12 * 12
    assert e2.kernels[0].spec.args["gemm"]["m"] == 4 * 12 * 12


# ------------------------------------------------------------------ numbers on the tiny chip
# x shape, w shape ([Cin, Cout/g, *k]), stride, padding, dilation, output padding, groups, bias
TCASES = [
    ("1d", (2, 3, 7), (3, 4, 3), [2], [1], [1], [1], 1, True),
    ("1d_dil2_groups", (1, 4, 9), (4, 2, 3), [1], [0, 2], [2], [0], 2, False),
    ("2d_k3s2_outpad", (2, 4, 5, 6), (4, 5, 3, 3), [2, 2], [1, 1], [1, 1], [1, 1], 1, True),
    ("2d_unet_up_k2s2", (1, 16, 8, 8), (16, 8, 2, 2), [2, 2], [0, 0], [1, 1], [0, 0], 1, True),
    ("2d_rect_asym", (1, 3, 4, 5), (3, 2, 2, 3), [3, 2], [0, 1, 1, 0], [1, 2], [2, 1], 1, False),
    ("2d_groups3_dil", (2, 6, 5, 5), (6, 1, 3, 3), [1, 2], [2, 2], [2, 1], [1, 1], 3, True),
    ("2d_depthwise", (1, 4, 6, 6), (4, 1, 3, 3), [2, 2], [1, 1], [1, 1], [0, 1], 4, False),
    ("2d_many_tiles", (2, 32, 12, 12), (32, 24, 3, 3), [2, 2], [1, 1], [1, 1], [1, 1], 1, True),
    ("3d", (1, 2, 3, 4, 3), (2, 3, 2, 3, 2), [2, 1, 2], [0, 1, 1], [1, 1, 1], [1, 0, 0], 1, True),
]


@pytest.mark.parametrize("case", TCASES, ids=[c[0] for c in TCASES])
def test_transposed_float32(npu, rng, case):
    _, xs, ws, s, p, d, op, g, bias = case
    x, w, b = _data(rng, xs, ws, ws[1] * g, bias, np.float32)
    got, ex = run(npu, x, w, b, s, p, d, g, True, op)
    ref = conv_transpose_golden(x, w, b, s, pads_begin_end(p, len(s)), d, op, g)
    assert got.shape == ref.shape and rel_err(got, ref) < 1e-5
    assert ex.info["strategy"] == "zero_insert_gemm"


@pytest.mark.parametrize("dtype", [np.float16, BF16], ids=["fp16", "bf16"])
def test_transposed_16bit(npu, rng, dtype):
    _, xs, ws, s, p, d, op, g, bias = TCASES[2]
    x, w, b = _data(rng, xs, ws, ws[1] * g, bias, dtype)
    got, _ = run(npu, x, w, b, s, p, d, g, True, op)
    assert rel_err(got, conv_transpose_golden(x, w, b, s, pads_begin_end(p, 2), d, op, g)) < 1e-2


# x shape, w shape, stride, padding, dilation, groups, bias
FCASES = [
    ("1d", (2, 3, 11), (5, 3, 3), [2], [1], [1], 1, True),
    ("1d_asym_dil", (1, 4, 10), (4, 2, 3), [1], [2, 0], [2], 2, False),
    ("3d", (2, 3, 5, 6, 7), (4, 3, 3, 3, 3), [1, 2, 2], [1, 1, 1], [1, 1, 1], 1, True),
    ("3d_asym_groups_dil", (1, 4, 6, 5, 6), (6, 2, 2, 3, 2), [2, 1, 2], [1, 0, 1, 1, 0, 1], [1, 2, 1], 2, False),
    ("3d_pointwise", (1, 8, 3, 4, 5), (6, 8, 1, 1, 1), [1, 1, 1], [0, 0, 0], [1, 1, 1], 1, True),
]


@pytest.mark.parametrize("case", FCASES, ids=[c[0] for c in FCASES])
def test_1d_3d_float32(npu, rng, case):
    _, xs, ws, s, p, d, g, bias = case
    x, w, b = _data(rng, xs, ws, ws[0], bias, np.float32)
    got, ex = run(npu, x, w, b, s, p, d, g)
    ref = conv_nd_golden(x, w, b, s, pads_begin_end(p, len(s)), d, g)
    assert got.shape == ref.shape and rel_err(got, ref) < 1e-5
    assert ex.info["strategy"] == "implicit_gemm"


def test_nd_golden_agrees_with_the_2d_golden(rng):
    x, w, b = _data(rng, (2, 4, 7, 6), (6, 2, 3, 2), 6, True, np.float64)
    np.testing.assert_allclose(conv_nd_golden(x, w, b, (2, 1), [(1, 0), (0, 2)], (1, 2), 2),
                               conv2d_golden(x, w, b, (2, 1), (1, 0, 0, 2), (1, 2), 2), rtol=1e-12, atol=1e-12)


def test_transposed_golden_is_the_adjoint_of_the_forward_golden(rng):
    """<conv(y), x> == <y, conv_transpose(x)>: the scatter definition is the forward
    convolution's adjoint (an independent check of the golden)."""
    y = rng.standard_normal((2, 4, 9, 8))
    w = rng.standard_normal((6, 2, 3, 3))  # forward: [Cout=6, Cin/g=2]; transposed reads it as [Cin=6, Cout/g=2]
    fwd = conv_nd_golden(y, w, None, (2, 2), [(1, 1), (0, 1)], (1, 1), 2)
    x = rng.standard_normal(fwd.shape)
    back = conv_transpose_golden(x, w, None, (2, 2), [(1, 1), (0, 1)], (1, 1), (0, 0), 2)
    back_full = np.zeros_like(y)
    back_full[:, :, :back.shape[2], :back.shape[3]] = back
    assert np.isclose((fwd * x).sum(), (y * back_full).sum())


# ------------------------------------------------------------------ statuses
def _args(npu, **over):
    a = dict(input=npu.empty((1, 4, 5, 5), np.float32)[1], weight=npu.empty((4, 3, 3, 3), np.float32)[1],
             bias=None, stride=[2, 2], padding=[1, 1], dilation=[1, 1], transposed=True, outputPadding=[1, 1],
             groups=1, output=npu.empty((1, 3, 10, 10), np.float32)[1], cubeMathType=0)
    a.update(over)
    return a


def _phase1(a):
    ws, ex, ret = opsnn.aclnnConvolutionGetWorkspaceSize(*a.values())
    return ret, opsnn.aclGetRecentErrMsg()


def test_transposed_valid_baseline(npu):
    assert _phase1(_args(npu))[0] == 0, opsnn.aclGetRecentErrMsg()


@pytest.mark.parametrize("over, text", [
    (lambda n: dict(outputPadding=None), "outputPadding must not be null"),
    (lambda n: dict(outputPadding=[1]), "outputPadding must have length 2"),
    (lambda n: dict(outputPadding=[2, 0]), "outputPadding[0] = 2 must be smaller than stride 2"),
    (lambda n: dict(outputPadding=[-1, 0]), "outputPadding values must be >= 0"),
    (lambda n: dict(weight=n.empty((3, 3, 3, 3), np.float32)[1]), "dim 0 must be the input channels C=4"),
    (lambda n: dict(groups=3), "divisible by groups=3"),
    (lambda n: dict(bias=n.empty((4,), np.float32)[1]), "bias shape [4] does not match expected [3]"),
    (lambda n: dict(output=n.empty((1, 3, 9, 10), np.float32)[1]), "does not match expected [1, 3, 10, 10]"),
    (lambda n: dict(padding=[1, 1, 1]), "padding must have length 2 or 4"),
    (lambda n: dict(stride=[2]), "stride must have length 2"),
    (lambda n: dict(input=n.empty((1, 4, 5), np.float32)[1]), "weight must be 3-D"),
    (lambda n: dict(input=n.empty((1, 4, 5, 5, 5, 5), np.float32)[1]), "input must be 3/4/5-D"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_transposed_invalid_161002(npu, over, text):
    ret, msg = _phase1(_args(npu, **over(npu)))
    assert ret == 161002 and text in msg, msg


def test_3d_invalid_161002(npu):
    a = dict(input=npu.empty((1, 4, 3, 3, 3), np.float32)[1], weight=npu.empty((2, 4, 4, 1, 1), np.float32)[1],
             bias=None, stride=[1, 1, 1], padding=[0, 0, 0], dilation=[1, 1, 1], transposed=False,
             outputPadding=None, groups=1, output=npu.empty((1, 2, 1, 3, 3), np.float32)[1], cubeMathType=0)
    ret, msg = _phase1(a)
    assert ret == 161002 and "kernel extent [4, 1, 1] exceeds" in msg
    ret, msg = _phase1(dict(a, weight=npu.empty((2, 3, 1, 1, 1), np.float32)[1]))
    assert ret == 161002 and "dim 1 must be C/groups = 4" in msg
    ret, msg = _phase1(dict(a, input=None))
    assert ret == 161001


# ------------------------------------------------------------------ property
@st.composite
def transposed_problems(draw):
    nsp = draw(st.sampled_from([1, 2, 2, 3]))
    g = draw(st.sampled_from([1, 2]))
    cg, cog = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    sizes = [draw(st.integers(1, 5 if nsp < 3 else 3)) for _ in range(nsp)]
    ks = [draw(st.integers(1, 3)) for _ in range(nsp)]
    stride = [draw(st.integers(1, 3)) for _ in range(nsp)]
    dil = [draw(st.integers(1, 2)) for _ in range(nsp)]
    pads = [draw(st.integers(0, 2)) for _ in range(2 * nsp)]
    opad = [draw(st.integers(0, max(s, d) - 1)) for s, d in zip(stride, dil)]
    dtype = draw(st.sampled_from([np.float32, np.float32, np.float16]))
    return ((draw(st.integers(1, 2)), g * cg, *sizes), (g * cg, cog, *ks), stride, pads, dil, opad, g,
            draw(st.booleans()), dtype)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prob=transposed_problems(), seed=st.integers(0, 2**31 - 1))
def test_property_transposed_matches_golden(npu, prob, seed):
    xs, ws, s, p, d, op, g, bias, dtype = prob
    pbe = pads_begin_end(p, len(s))
    outs = [(n - 1) * st_ - pb - pe + dd * (k - 1) + 1 + o for n, st_, (pb, pe), dd, k, o in
            zip(xs[2:], s, pbe, d, ws[2:], op)]
    assume(min(outs) >= 1)
    r = np.random.default_rng(seed)
    x, w, b = _data(r, xs, ws, ws[1] * g, bias, dtype)
    got, _ = run(npu, x, w, b, s, p, d, g, True, op)
    ref = conv_transpose_golden(x, w, b, s, pbe, d, op, g)
    assert got.shape == ref.shape
    assert rel_err(got, ref) < (1e-5 if dtype == np.float32 else 1e-2)
