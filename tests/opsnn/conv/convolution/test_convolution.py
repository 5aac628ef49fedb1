"""aclnnConvolution against independent float64 references on the tiny chip.

(Over 300 lines on purpose: one file per operator, mirroring opsnn/conv/convolution/; the device-free tiling tests are already apart in test_tiling.py.)
"""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn.conv.convolution.golden import conv2d_golden, conv2d_naive
from npu_sim.program import Buffer, Pipe
from tests.conftest import rel_err
from tests.opsnn.matmul.matmul.test_matmul import round_sig


BF16 = np.dtype(ml_dtypes.bfloat16)


def _cube(ex):
    """The Cube kernel of a convolution executor (TransData kernels around it: formats.py)."""
    return next(k for k in ex.kernels if k.spec.name in ("Convolution", "FusedConvolution"))


def _out_hw(x_shape, w_shape, stride, padding, dilation):
    p = list(padding)
    pt, pb, pl, pr = (p[0], p[0], p[1], p[1]) if len(p) == 2 else p
    ho = (x_shape[2] + pt + pb - dilation[0] * (w_shape[2] - 1) - 1) // stride[0] + 1
    wo = (x_shape[3] + pl + pr - dilation[1] * (w_shape[3] - 1) - 1) // stride[1] + 1
    return ho, wo


def run_conv(npu, x, w, b, stride, padding, dilation, groups, cmt=0, out_dtype=None):
    """Phase 1 + phase 2 through the binding; returns (result, executor)."""
    out_dtype = out_dtype or x.dtype
    ho, wo = _out_hw(x.shape, w.shape, stride, padding, dilation)
    shape = (x.shape[0], w.shape[0], ho, wo)
    _, tx = npu.to_device(x)
    _, tw = npu.to_device(w)
    tb = npu.to_device(b)[1] if b is not None else None
    po, to = npu.empty(shape, out_dtype)
    prep = opsnn.aclnnConvolutionGetWorkspaceSize(
        tx, tw, tb, opsnn.aclCreateIntArray(stride), opsnn.aclCreateIntArray(padding),
        opsnn.aclCreateIntArray(dilation), False, opsnn.aclCreateIntArray([0, 0]), groups, to, cmt)
    npu.run(prep, opsnn.aclnnConvolution)
    return npu.to_host(po, shape, out_dtype), prep[1]


# name, x shape, w shape, stride, padding, dilation, groups, bias
CASES = [
    ("3x3_pad1_bias_n2", (2, 6, 9, 10), (8, 6, 3, 3), (1, 1), (1, 1), (1, 1), 1, True),
    ("3x3_stride2_nobias", (1, 5, 11, 9), (7, 5, 3, 3), (2, 2), (1, 1), (1, 1), 1, False),
    ("stride_2x3_rect_kernel", (2, 3, 12, 13), (4, 3, 2, 4), (2, 3), (0, 1), (1, 1), 1, True),
    ("dilation2", (1, 4, 12, 12), (6, 4, 3, 3), (1, 1), (2, 2), (2, 2), 1, True),
    ("dilation_2x1_stride2", (1, 4, 13, 11), (5, 4, 3, 2), (2, 1), (1, 0), (2, 1), 1, False),
    ("asym_pad4_tblr", (1, 3, 8, 9), (4, 3, 3, 3), (1, 1), (0, 2, 1, 0), (1, 1), 1, True),
    ("asym_pad4_stride2", (2, 3, 10, 7), (4, 3, 3, 3), (2, 2), (1, 0, 0, 1), (1, 1), 1, False),
    ("groups2", (2, 8, 7, 7), (6, 4, 3, 3), (1, 1), (1, 1), (1, 1), 2, True),
    ("groups4_stride2", (1, 8, 9, 9), (12, 2, 3, 3), (2, 2), (1, 1), (1, 1), 4, False),
    ("depthwise", (2, 6, 8, 8), (6, 1, 3, 3), (1, 1), (1, 1), (1, 1), 6, True),
    ("depthwise_stride2_dil2", (1, 5, 11, 11), (5, 1, 3, 3), (2, 2), (2, 2), (2, 2), 5, False),
    ("depthwise_multiplier2", (1, 4, 7, 7), (8, 1, 3, 3), (1, 1), (1, 1), (1, 1), 4, True),
    ("1x1_fast_path", (2, 16, 6, 7), (24, 16, 1, 1), (1, 1), (0, 0), (1, 1), 1, True),
    ("1x1_stride2_odd", (1, 8, 7, 9), (12, 8, 1, 1), (2, 2), (0, 0), (1, 1), 1, False),
    ("1x1_groups2", (1, 8, 5, 5), (6, 4, 1, 1), (1, 1), (0, 0), (1, 1), 2, True),
    ("1x1_padded", (1, 4, 5, 5), (3, 4, 1, 1), (1, 1), (1, 1), (1, 1), 1, True),
    ("kernel_covers_input", (3, 3, 5, 4), (2, 3, 5, 4), (1, 1), (0, 0), (1, 1), 1, True),
    ("7x7_stride2_pad3", (1, 3, 20, 20), (8, 3, 7, 7), (2, 2), (3, 3), (1, 1), 1, False),
]


def _data(rng, xs, ws, bias, dtype):
    x = rng.standard_normal(xs).astype(dtype)
    w = rng.standard_normal(ws).astype(dtype)
    b = rng.standard_normal(ws[0]).astype(dtype) if bias else None
    return x, w, b


def test_golden_matches_naive_loops(rng):
    for _, xs, ws, s, p, d, g, bias in CASES[:12:3] + [CASES[5], CASES[9]]:
        x, w, b = _data(rng, xs, ws, bias, np.float64)
        np.testing.assert_allclose(conv2d_golden(x, w, b, s, p, d, g), conv2d_naive(x, w, b, s, p, d, g),
                                   rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_conv_float32(npu, rng, case):
    _, xs, ws, s, p, d, g, bias = case
    x, w, b = _data(rng, xs, ws, bias, np.float32)
    got, _ = run_conv(npu, x, w, b, s, p, d, g)
    assert rel_err(got, conv2d_golden(x, w, b, s, p, d, g)) < 1e-5


@pytest.mark.parametrize("case", CASES[::2], ids=[c[0] for c in CASES[::2]])
def test_conv_float16(npu, rng, case):
    _, xs, ws, s, p, d, g, bias = case
    x, w, b = _data(rng, xs, ws, bias, np.float16)
    got, _ = run_conv(npu, x, w, b, s, p, d, g)
    assert not np.isnan(got).any()
    assert rel_err(got, conv2d_golden(x, w, b, s, p, d, g)) < 1e-2


@pytest.mark.parametrize("case", [CASES[0], CASES[7], CASES[9], CASES[12]], ids=lambda c: c[0])
def test_conv_bfloat16(npu, rng, case):
    _, xs, ws, s, p, d, g, bias = case
    x, w, b = _data(rng, xs, ws, bias, BF16)
    got, _ = run_conv(npu, x, w, b, s, p, d, g)
    assert rel_err(got, conv2d_golden(x, w, b, s, p, d, g)) < 1e-2


def test_conv_fp32_bias_with_fp16_data(npu, rng):
    x, w, _ = _data(rng, (1, 4, 6, 6), (5, 4, 3, 3), False, np.float16)
    b = rng.standard_normal(5).astype(np.float32)
    got, _ = run_conv(npu, x, w, b, (1, 1), (1, 1), (1, 1), 1)
    assert rel_err(got, conv2d_golden(x, w, b, (1, 1), (1, 1), (1, 1), 1)) < 1e-2


def test_cube_math_type_use_fp16_rounds_operands(npu, rng):
    x, w, b = _data(rng, (1, 4, 7, 7), (6, 4, 3, 3), True, np.float32)
    got, ex = run_conv(npu, x, w, b, (1, 1), (1, 1), (1, 1), 1, cmt=2)
    ref = conv2d_golden(x.astype(np.float16), w.astype(np.float16), b, (1, 1), (1, 1), (1, 1), 1)
    assert rel_err(got, ref) < 1e-5
    assert _cube(ex).spec.blocks[0].tiles[0].stages[2].dtype == "float16"
    for cmt in (1, 3):  # HF32 (CANN Atlas A2): operands rounded to 11 significant bits, the HF32 cube rate
        got1, ex1 = run_conv(npu, x, w, b, (1, 1), (1, 1), (1, 1), 1, cmt=cmt)
        ref1 = conv2d_golden(round_sig(x, 11), round_sig(w, 11), b, (1, 1), (1, 1), (1, 1), 1)
        assert rel_err(got1, ref1) < 1e-5
        assert rel_err(got1, conv2d_golden(x, w, b, (1, 1), (1, 1), (1, 1), 1)) > 1e-5
        assert _cube(ex1).spec.blocks[0].tiles[0].stages[2].dtype == "hf32"
        assert _cube(ex1).spec.args["compute_dtype"] == "hfloat32"


def test_tiling_many_tiles_and_k_chunks_on_tiny(npu, rng):
    """M = 2*14*14 = 392 rows, K = 16*9 = 144: several M tiles, an edge tile, several K chunks."""
    x, w, b = _data(rng, (2, 16, 14, 14), (20, 16, 3, 3), True, np.float32)
    got, ex = run_conv(npu, x, w, b, (1, 1), (1, 1), (1, 1), 1)
    assert rel_err(got, conv2d_golden(x, w, b, (1, 1), (1, 1), (1, 1), 1)) < 1e-5
    td = ex.info["tiling"]
    assert (td["batch"], td["m"], td["n"], td["k"]) == (1, 392, 20, 144)
    assert td["out_tiles"] > 1 and td["block_dim"] == 2
    assert td["m"] % td["base_m"] and td["k_l1"] < td["k"]  # edge M tile, K split over L1 loads
    spec = _cube(ex).spec
    assert sum(p.tile_count for p in spec.blocks) > td["out_tiles"]  # K chunks on top of output tiles
    assert spec.args["flops"] == 2 * 392 * 20 * 144
    assert spec.args["gemm"]["a_gm_reuse"] == 9.0


def test_grouped_tiling_batches_over_groups(npu, rng):
    x, w, b = _data(rng, (1, 8, 6, 6), (8, 1, 3, 3), False, np.float32)
    _, ex = run_conv(npu, x, w, b, (1, 1), (1, 1), (1, 1), 8)
    td = ex.info["tiling"]
    assert (td["batch"], td["n"], td["k"]) == (8, 1, 9) and td["out_tiles"] == 8


def test_bias_is_charged_on_mte2_and_bias_table(npu, rng):
    x, w, b = _data(rng, (1, 4, 8, 8), (8, 4, 3, 3), True, np.float32)
    _, with_b = run_conv(npu, x, w, b, (1, 1), (1, 1), (1, 1), 1)
    _, without = run_conv(npu, x, w, None, (1, 1), (1, 1), (1, 1), 1)
    s1, s0 = _cube(with_b).spec, _cube(without).spec

    def mte2(spec):
        return sum(t.count * st.nbytes for p in spec.blocks for t in p.tiles for st in t.stages if st.pipe == Pipe.MTE2)
    base_n = with_b.info["tiling"]["base_n"]
    assert mte2(s1) - mte2(s0) == with_b.info["tiling"]["out_tiles"] * base_n * 4
    assert s1.buffers[Buffer.BT] == base_n * 4 and Buffer.BT not in s0.buffers
    assert s1.tiling_key != s0.tiling_key


def test_non_contiguous_input_view(npu, rng):
    """input is a window of a wider stored tensor (strides and offset in elements)."""
    big = rng.standard_normal((1, 3, 8, 12)).astype(np.float32)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    ptr, _ = npu.to_device(big)
    tx = opsnn.aclCreateTensor((1, 3, 8, 9), opsnn.aclDataType.ACL_FLOAT, (288, 96, 12, 1), 2, 0, (1, 3, 8, 12), ptr)
    _, tw = npu.to_device(w)
    po, to = npu.empty((1, 4, 8, 9), np.float32)
    npu.run(opsnn.aclnnConvolutionGetWorkspaceSize(tx, tw, None, [1, 1], [1, 1], [1, 1], False, None, 1, to, 0),
            opsnn.aclnnConvolution)
    ref = conv2d_golden(big[:, :, :, 2:11], w, None, (1, 1), (1, 1), (1, 1), 1)
    assert rel_err(npu.to_host(po, (1, 4, 8, 9), np.float32), ref) < 1e-5


def test_repeatable_executor_with_rebound_input(npu, rng):
    x1, w, b = _data(rng, (1, 3, 6, 6), (4, 3, 3, 3), True, np.float32)
    x2 = rng.standard_normal(x1.shape).astype(np.float32)
    _, tx = npu.to_device(x1)
    p2, _ = npu.to_device(x2)
    _, tw = npu.to_device(w)
    _, tb = npu.to_device(b)
    po, to = npu.empty((1, 4, 6, 6), np.float32)
    ws, ex, ret = opsnn.aclnnConvolutionGetWorkspaceSize(tx, tw, tb, [1, 1], [1, 1], [1, 1], False, None, 1, to, 0)
    # workspace: the NC1HWC0 input and output (1*1*6*6*8 fp32 each) and the FRACTAL_Z weight (9*1*16*8 fp32)
    assert ret == 0 and ws == 2 * 6 * 6 * 8 * 4 + 9 * 16 * 8 * 4
    assert opsnn.aclSetAclOpExecutorRepeatable(ex) == 0
    npu.run((ws, ex, ret), opsnn.aclnnConvolution)
    r1 = npu.to_host(po, (1, 4, 6, 6), np.float32)
    assert opsnn.aclSetInputTensorAddr(ex, 0, tx, p2) == 0
    npu.run((ws, ex, ret), opsnn.aclnnConvolution)
    r2 = npu.to_host(po, (1, 4, 6, 6), np.float32)
    assert rel_err(r1, conv2d_golden(x1, w, b, (1, 1), (1, 1), (1, 1), 1)) < 1e-5
    assert rel_err(r2, conv2d_golden(x2, w, b, (1, 1), (1, 1), (1, 1), 1)) < 1e-5
    assert opsnn.aclDestroyAclOpExecutor(ex) == 0


def test_resnet_stem_on_910b2(npu910, rng):
    x, w, b = _data(rng, (1, 3, 64, 64), (16, 3, 7, 7), True, np.float16)
    got, ex = run_conv(npu910, x, w, b, (2, 2), (3, 3), (1, 1), 1)
    assert rel_err(got, conv2d_golden(x, w, b, (2, 2), (3, 3), (1, 1), 1)) < 1e-2
    assert ex.info["tiling"]["block_dim"] > 1


# ---------------------------------------------------------------------------- errors
class _Bad:
    """Builds valid arguments, lets a test override one, and runs phase 1."""

    def __init__(self, npu):
        self.npu = npu
        self.args = dict(input=npu.empty((1, 4, 6, 6), np.float32)[1], weight=npu.empty((8, 4, 3, 3), np.float32)[1],
                         bias=npu.empty((8,), np.float32)[1], stride=[1, 1], padding=[1, 1], dilation=[1, 1],
                         transposed=False, outputPadding=None, groups=1,
                         output=npu.empty((1, 8, 6, 6), np.float32)[1], cubeMathType=0)

    def __call__(self, **over):
        a = dict(self.args, **over)
        ws, ex, ret = opsnn.aclnnConvolutionGetWorkspaceSize(
            a["input"], a["weight"], a["bias"], a["stride"], a["padding"], a["dilation"], a["transposed"],
            a["outputPadding"], a["groups"], a["output"], a["cubeMathType"])
        assert ex is None and ws == 0
        return ret, opsnn.aclGetRecentErrMsg()


def test_valid_baseline_args_succeed(npu):
    a = _Bad(npu).args
    ws, ex, ret = opsnn.aclnnConvolutionGetWorkspaceSize(*a.values())
    assert ret == 0 and ex is not None, opsnn.aclGetRecentErrMsg()


@pytest.mark.parametrize("name", ["input", "weight", "output", "stride", "padding", "dilation"])
def test_null_argument_161001(npu, name):
    ret, msg = _Bad(npu)(**{name: None})
    assert ret == opsnn.ACLNN_ERR_PARAM_NULLPTR == 161001
    assert f"{name} is null" in msg and "aclnnConvolution" in msg


def test_destroyed_tensor_161001(npu):
    bad = _Bad(npu)
    opsnn.aclDestroyTensor(bad.args["weight"])
    ret, msg = bad()
    assert ret == 161001 and "weight was destroyed" in msg


def _t(npu, shape, dtype=np.float32):
    return npu.empty(shape, dtype)[1]


@pytest.mark.parametrize("over, text", [
    (lambda n: dict(input=np.zeros((1, 4, 6, 6), np.float32)), "input must be an aclTensor"),
    (lambda n: dict(bias=[0.0] * 8), "bias must be an aclTensor"),
    (lambda n: dict(input=_t(n, (1, 4, 6, 6), np.int32)), "input dtype ACL_INT32 not supported"),
    (lambda n: dict(weight=_t(n, (8, 4, 3, 3), np.float64)), "weight dtype ACL_DOUBLE not supported"),
    (lambda n: dict(bias=_t(n, (8,), np.int8)), "bias dtype ACL_INT8 not supported"),
    (lambda n: dict(weight=_t(n, (8, 4, 3, 3), np.float16)), "weight dtype ACL_FLOAT16 differs from input"),
    (lambda n: dict(output=_t(n, (1, 8, 6, 6), np.float16)), "output dtype ACL_FLOAT16 differs from input"),
    (lambda n: dict(cubeMathType=4), "cubeMathType must be 0..3"),
    (lambda n: dict(transposed=True), "outputPadding must not be null when transposed is true"),
    (lambda n: dict(transposed=True, outputPadding=[1, 0]), "outputPadding[0] = 1 must be smaller than stride 1"),
    (lambda n: dict(input=_t(n, (4, 6))), "input must be 4-D"),
    (lambda n: dict(input=_t(n, (4, 6, 6))), "weight must be 3-D"),
    (lambda n: dict(weight=_t(n, (8, 4, 3))), "weight must be 4-D"),
    (lambda n: dict(stride=[1, 1, 1]), "stride must have length 2"),
    (lambda n: dict(stride=2), "stride must be an aclIntArray"),
    (lambda n: dict(stride=[1, 0]), "stride values must be >= 1"),
    (lambda n: dict(stride=[1.5, 1]), "stride values must be integers"),
    (lambda n: dict(dilation=[0, 1]), "dilation values must be >= 1"),
    (lambda n: dict(padding=[1, 1, 1]), "padding must have length 2 or 4"),
    (lambda n: dict(padding=[-1, 1]), "padding values must be >= 0"),
    (lambda n: dict(groups=0), "groups must be an integer >= 1"),
    (lambda n: dict(groups=3, weight=_t(n, (8, 1, 3, 3))), "groups=3 must divide"),
    (lambda n: dict(groups=2), "weight shape [8, 4, 3, 3]: dim 1 must be C/groups = 2"),
    (lambda n: dict(weight=_t(n, (8, 3, 3, 3))), "dim 1 must be C/groups = 4"),
    (lambda n: dict(bias=_t(n, (7,))), "bias shape [7] does not match expected [8]"),
    (lambda n: dict(output=_t(n, (1, 8, 4, 4))), "output shape [1, 8, 4, 4] does not match expected [1, 8, 6, 6]"),
    (lambda n: dict(padding=[0, 0], weight=_t(n, (8, 4, 7, 3))), "kernel extent [7, 3]"),
    (lambda n: dict(input=_t(n, (1, 0, 6, 6))), "non-zero channel"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_invalid_argument_161002(npu, over, text):
    ret, msg = _Bad(npu)(**over(npu))
    assert ret == opsnn.ACLNN_ERR_PARAM_INVALID == 161002, msg
    assert text in msg and msg.startswith("[161002")


def test_nhwc_format_rejected(npu):
    ptr, _ = npu.to_device(np.zeros((1, 4, 6, 6), np.float32))
    t = opsnn.aclCreateTensor((1, 4, 6, 6), opsnn.aclDataType.ACL_FLOAT, None, 0, opsnn.aclFormat.ACL_FORMAT_NHWC,
                              (1, 4, 6, 6), ptr)
    ret, msg = _Bad(npu)(input=t)
    assert ret == 161002 and "format NHWC is not supported" in msg


def test_check_order_null_then_type_then_dtype_then_shape(npu):
    bad = _Bad(npu)
    # null beats a dtype error
    ret, msg = bad(output=None, input=_t(npu, (1, 4, 6, 6), np.int32))
    assert ret == 161001 and "output is null" in msg
    # tensor type beats dtype
    ret, msg = bad(output="x", input=_t(npu, (1, 4, 6, 6), np.int32))
    assert ret == 161002 and "output must be an aclTensor" in msg
    # dtype beats shape
    ret, msg = bad(input=_t(npu, (1, 4, 6), np.int32))
    assert ret == 161002 and "dtype ACL_INT32" in msg
    # transposed: outputPadding beats the output shape
    ret, msg = bad(transposed=True, outputPadding=[2, 2], output=_t(npu, (2, 2, 2, 2)))
    assert ret == 161002 and "outputPadding[0] = 2" in msg


def test_phase2_single_use_executor(npu, rng):
    a = _Bad(npu).args
    ws, ex, ret = opsnn.aclnnConvolutionGetWorkspaceSize(*a.values())
    assert ret == 0
    wsp = npu.malloc(ws) if ws else 0  # the TransData buffers (formats.py)
    assert opsnn.aclnnConvolution(wsp, ws, ex, 0) == 0
    assert opsnn.aclnnConvolution(wsp, ws, ex, 0) == 161002
    assert "not repeatable" in opsnn.aclGetRecentErrMsg()


# ---------------------------------------------------------------------------- property
@st.composite
def conv_problems(draw):
    n = draw(st.integers(1, 2))
    g = draw(st.sampled_from([1, 2, 3]))
    cg = draw(st.integers(1, 3))
    cog = draw(st.integers(1, 3))
    kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    h, w = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    stride = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    dilation = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    if draw(st.booleans()):
        padding = [draw(st.integers(0, 2)) for _ in range(4)]
    else:
        padding = [draw(st.integers(0, 2)) for _ in range(2)]
    bias = draw(st.booleans())
    return (n, g * cg, h, w), (g * cog, cg, kh, kw), stride, padding, dilation, g, bias


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prob=conv_problems(), seed=st.integers(0, 2**31 - 1))
def test_property_conv_matches_golden(npu, prob, seed):
    xs, ws, s, p, d, g, bias = prob
    ho, wo = _out_hw(xs, ws, s, p, d)
    assume(ho >= 1 and wo >= 1)
    r = np.random.default_rng(seed)
    x, w, b = _data(r, xs, ws, bias, np.float32)
    got, _ = run_conv(npu, x, w, b, s, p, d, g)
    ref = conv2d_golden(x, w, b, s, p, d, g)
    assert got.shape == ref.shape
    assert rel_err(got, ref) < 1e-5
