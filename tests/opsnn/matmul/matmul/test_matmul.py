"""aclnnMatmul / aclnnMm / aclnnBatchMatMul / aclnnAddmm against float64 on the tiny
chip: batch broadcasting, dtypes, cubeMathType (numbers and trace), non-contiguous
operands, errors and a property test."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.matmul.matmul.golden import addmm_golden, matmul_golden
from tests.conftest import rel_err
from tests.opsnn.transform.helpers import BF16, TOL, device_tensor, expect_error

OPS = {"matmul": (opsnn.aclnnMatmulGetWorkspaceSize, opsnn.aclnnMatmul),
       "mm": (opsnn.aclnnMmGetWorkspaceSize, opsnn.aclnnMm),
       "bmm": (opsnn.aclnnBatchMatMulGetWorkspaceSize, opsnn.aclnnBatchMatMul)}


def run_mm(npu, which, a, b, cmt=0, layouts=("contiguous", "contiguous")):
    ta = device_tensor(npu, a, layouts[0])
    tb = device_tensor(npu, b, layouts[1])
    shape = np.matmul(np.zeros(a.shape, np.float32), np.zeros(b.shape, np.float32)).shape
    po, to = npu.empty(shape, a.dtype)
    prep_fn, launch = OPS[which]
    prep = prep_fn(ta, tb, to, cmt)
    npu.run(prep, launch)
    return npu.to_host(po, shape, a.dtype), prep[1]


def ref(a, b):
    return matmul_golden(a, b)


def round_sig(x, bits):
    """Round float32 values to ``bits`` significant bits, nearest-even (frexp based;
    an implementation independent of the kernel's bit manipulation)."""
    m, e = np.frexp(x.astype(np.float64))
    return np.ldexp(np.round(m * 2.0 ** bits) / 2.0 ** bits, e)


@pytest.mark.parametrize("sa,sb", [((5, 7), (7, 3)), ((2, 5, 7), (7, 3)), ((4, 5, 7), (1, 7, 9)),
                                   ((2, 1, 5, 7), (3, 7, 2)), ((1, 1), (1, 1)), ((33, 17), (17, 20))])
def test_matmul_broadcasts_batch_dims(npu, rng, sa, sb):
    a = rng.standard_normal(sa).astype(np.float32)
    b = rng.standard_normal(sb).astype(np.float32)
    got, _ = run_mm(npu, "matmul", a, b)
    assert rel_err(got, ref(a, b)) < 1e-5


@pytest.mark.parametrize("sa,sb", [((3, 5, 7), (3, 7, 4)), ((1, 5, 7), (4, 7, 3)), ((4, 5, 7), (1, 7, 3)),
                                   ((2, 1, 1), (2, 1, 1)), ((5, 33, 17), (5, 17, 18))])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16], ids=["fp32", "fp16", "bf16"])
def test_batch_matmul(npu, rng, sa, sb, dtype):
    a = rng.standard_normal(sa).astype(dtype)
    b = rng.standard_normal(sb).astype(dtype)
    got, ex = run_mm(npu, "bmm", a, b)
    assert rel_err(got, ref(a, b)) < TOL[np.dtype(dtype)]
    spec = ex.kernels[0].spec
    assert spec.name == "BatchMatMul" and spec.args["tiling"]["batch"] == max(sa[0], sb[0])


def test_mm_and_many_tiles(npu, rng):
    a = rng.standard_normal((100, 70)).astype(np.float16)
    b = rng.standard_normal((70, 130)).astype(np.float16)
    got, ex = run_mm(npu, "mm", a, b)
    assert rel_err(got, ref(a, b)) < 1e-2
    assert ex.kernels[0].spec.block_dim == 2


@pytest.mark.parametrize("which", ["matmul", "bmm"])
def test_non_contiguous_operands(npu, rng, which):
    a = rng.standard_normal((3, 6, 9)).astype(np.float32)
    b = rng.standard_normal((3, 9, 5)).astype(np.float32)
    got, _ = run_mm(npu, which, a, b, layouts=("strided", "transposed"))
    assert rel_err(got, ref(a, b)) < 1e-5


@pytest.mark.parametrize("cmt,compute,bits", [(0, "float32", None), (1, "hfloat32", 11), (3, "hfloat32", 11),
                                              (2, "float16", None)])
def test_cube_math_type_on_float32(npu, rng, cmt, compute, bits):
    """KEEP_DTYPE multiplies in fp32; ALLOW_FP32_DOWN_PRECISION / USE_HF32 round the
    operands to HF32 first and USE_FP16 to fp16: the result matches float64 on the
    rounded operands, and visibly differs from the exact product."""
    a = (rng.standard_normal((4, 16, 32)) * 3).astype(np.float32)
    b = rng.standard_normal((4, 32, 8)).astype(np.float32)
    got, ex = run_mm(npu, "bmm", a, b, cmt)
    spec = ex.kernels[0].spec
    assert ex.info["compute_dtype"] == compute == spec.args["compute_dtype"] and spec.args["cubeMathType"] == cmt
    cube = {st.dtype for blk in spec.blocks for ts in blk.tiles for st in ts.stages if st.pipe.value == "CUBE"}
    assert cube == {{"float32": "float32", "hfloat32": "hf32", "float16": "float16"}[compute]}
    if cmt == 0:
        assert rel_err(got, ref(a, b)) < 1e-5
        return
    if compute == "float16":
        ra, rb = a.astype(np.float16), b.astype(np.float16)
    else:
        ra, rb = round_sig(a, bits), round_sig(b, bits)
    assert rel_err(got, ref(ra, rb)) < 1e-5
    assert rel_err(got, ref(a, b)) > 1e-5


@pytest.mark.parametrize("dtype", [np.float16, BF16], ids=["fp16", "bf16"])
def test_cube_math_type_leaves_16_bit_inputs_alone(npu, rng, dtype):
    a = rng.standard_normal((2, 8, 24)).astype(dtype)
    b = rng.standard_normal((2, 24, 8)).astype(dtype)
    g0, _ = run_mm(npu, "matmul", a, b, 0)
    g1, ex = run_mm(npu, "matmul", a, b, 1)
    np.testing.assert_array_equal(g0, g1)
    assert ex.info["compute_dtype"] == np.dtype(dtype).name


def test_addmm_alpha_beta_broadcast_bias(npu, rng):
    bias = rng.standard_normal((1, 9)).astype(np.float32)
    m1 = rng.standard_normal((6, 5)).astype(np.float32)
    m2 = rng.standard_normal((5, 9)).astype(np.float32)
    tb, t1, t2 = (npu.to_device(x)[1] for x in (bias, m1, m2))
    po, to = npu.empty((6, 9), np.float32)
    npu.run(opsnn.aclnnAddmmGetWorkspaceSize(tb, t1, t2, opsnn.aclCreateScalar(0.5, 0),
                                             opsnn.aclCreateScalar(2.0, 0), to, 0), opsnn.aclnnAddmm)
    expect = addmm_golden(bias, m1, m2, beta=0.5, alpha=2.0)
    assert rel_err(npu.to_host(po, (6, 9), np.float32), expect) < 1e-5


@pytest.mark.parametrize("case,code,frag", [
    ("self_null", NULL, "self is null"),
    ("mat2_null", NULL, "mat2 is null"),
    ("out_null", NULL, "out is null"),
    ("self_2d", INVALID, "self must be 3-D, got shape [5, 7]"),
    ("mat2_4d", INVALID, "mat2 must be 3-D, got shape [1, 3, 7, 4]"),
    ("int_dtype", INVALID, "self dtype ACL_INT32 not supported"),
    ("mixed", INVALID, "mat2 dtype ACL_FLOAT16 differs from self ACL_FLOAT"),
    ("k_mismatch", INVALID, "inner dimensions differ: self [3, 5, 7] has K=7, mat2 [3, 6, 4] has K=6"),
    ("batch", INVALID, "shapes [3] and [2] do not broadcast"),
    ("out_shape", INVALID, "out shape [3, 4, 5] does not match expected [3, 5, 4]"),
    ("cmt_range", INVALID, "cubeMathType must be 0..3, got 4"),
    ("cmt_bool", INVALID, "cubeMathType must be 0..3, got True"),
    ("bf16_fp16", INVALID, "cubeMathType 2 (USE_FP16) is not supported for ACL_BF16 inputs"),
    ("fp16_hf32", INVALID, "cubeMathType 3 (USE_HF32) supports only ACL_FLOAT inputs, got ACL_FLOAT16"),
])
def test_batch_matmul_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(self=t((3, 5, 7)), mat2=t((3, 7, 4)), out=t((3, 5, 4)), cmt=0)
    args.update({
        "self_null": dict(self=None), "mat2_null": dict(mat2=None), "out_null": dict(out=None),
        "self_2d": dict(self=t((5, 7))), "mat2_4d": dict(mat2=t((1, 3, 7, 4))),
        "int_dtype": dict(self=t((3, 5, 7), np.int32)), "mixed": dict(mat2=t((3, 7, 4), np.float16)),
        "k_mismatch": dict(mat2=t((3, 6, 4))), "batch": dict(mat2=t((2, 7, 4))), "out_shape": dict(out=t((3, 4, 5))),
        "cmt_range": dict(cmt=4), "cmt_bool": dict(cmt=True),
        "bf16_fp16": dict(self=t((3, 5, 7), BF16), mat2=t((3, 7, 4), BF16), out=t((3, 5, 4), BF16), cmt=2),
        "fp16_hf32": dict(self=t((3, 5, 7), np.float16), mat2=t((3, 7, 4), np.float16),
                          out=t((3, 5, 4), np.float16), cmt=3),
    }.get(case, {}))
    expect_error(opsnn.aclnnBatchMatMulGetWorkspaceSize, tuple(args.values()), code, "aclnnBatchMatMul", frag)


def test_matmul_cmt_errors_apply_to_every_entry_point(npu):
    a = npu.empty((4, 8), BF16)[1]
    b = npu.empty((8, 2), BF16)[1]
    o = npu.empty((4, 2), BF16)[1]
    for prep, name in ((opsnn.aclnnMatmulGetWorkspaceSize, "aclnnMatmul"), (opsnn.aclnnMmGetWorkspaceSize, "aclnnMm")):
        expect_error(prep, (a, b, o, 2), INVALID, name, "USE_FP16) is not supported for ACL_BF16")
        expect_error(prep, (a, b, o, 3), INVALID, name, "USE_HF32) supports only ACL_FLOAT inputs, got ACL_BF16")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(st.integers(1, 3), max_size=2), m=st.integers(1, 20), k=st.integers(1, 40),
       n=st.integers(1, 20), data=st.data(), dtype=st.sampled_from([np.float32, np.float16, BF16]),
       layout=st.sampled_from(["contiguous", "strided", "transposed"]))
def test_matmul_property(npu, batch, m, k, n, data, dtype, layout):
    bb = [data.draw(st.sampled_from([1, d])) for d in batch]  # mat2's batch: equal or broadcast
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    a = rng.standard_normal(tuple(batch) + (m, k)).astype(dtype)
    b = rng.standard_normal(tuple(bb) + (k, n)).astype(dtype)
    cmt = data.draw(st.sampled_from([0, 1] + ([2] if dtype == np.float16 else [])))
    got, _ = run_mm(npu, "matmul", a, b, cmt, (layout, layout))
    assert not np.isnan(got.astype(np.float32)).any()
    # HF32 keeps 11 significant bits: fp32 with cmt 1 is as precise as a 16-bit type
    tol = TOL[np.dtype(dtype)] if cmt == 0 or dtype != np.float32 else TOL[np.dtype(np.float16)]
    # a dot product's rounding error scales with sum |a_i b_i| (cancellation-safe bound)
    scale = np.matmul(np.abs(a.astype(np.float64)), np.abs(b.astype(np.float64)))
    assert (np.abs(got.astype(np.float64) - ref(a, b)) <= tol * scale).all()
