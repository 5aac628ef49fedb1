"""aclnnLrn (ONNX LRN across channels) against the float64 golden on the tiny chip."""
import ml_dtypes
import numpy as np
import pytest

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.activation.lrn.golden import lrn_golden
from tests.conftest import rel_err

from ...pooling.helpers import TOL, assert_many_tiles, expect_error, run_op, strided_view


def _lrn(npu, x, size, alpha=1e-4, beta=0.75, bias=1.0, x_tensor=None, xv=None):
    xv = x if xv is None else xv
    (y,), ex = run_op(npu, opsnn.aclnnLrnGetWorkspaceSize, opsnn.aclnnLrn, x, (size, alpha, beta, bias),
                      [(xv.shape, xv.dtype)], x_tensor=x_tensor)
    return y, lrn_golden(xv, size, alpha, beta, bias), ex


@pytest.mark.parametrize("shape,size,alpha,beta,bias", [
    ((2, 7, 5, 6), 3, 0.02, 0.75, 1.0),
    ((1, 16, 9, 9), 5, 1e-2, 0.75, 2.0),     # AlexNet's k=2, n=5 (scaled-up alpha to matter)
    ((3, 6, 4, 4), 4, 0.5, 0.5, 1.0),        # even size: window c-1 .. c+2
    ((2, 5, 3, 3), 1, 1.0, 1.0, 1.0),
    ((2, 9, 4, 4), 20, 0.3, 0.6, 1.5),       # window larger than C
    ((4, 6), 3, 0.1, 0.75, 1.0),             # (N, C)
    ((2, 4, 3, 2, 2), 3, 0.1, 0.75, 1.0),    # N x C x D1 x D2 x D3
])
def test_lrn_float32(npu, rng, shape, size, alpha, beta, bias):
    x = (rng.standard_normal(shape) * 2).astype(np.float32)
    y, ref, _ = _lrn(npu, x, size, alpha, beta, bias)
    assert rel_err(y, ref) < 1e-5


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
def test_lrn_half_types(npu, rng, dtype):
    x = (rng.standard_normal((2, 12, 5, 5)) * 2).astype(dtype)
    y, ref, _ = _lrn(npu, x, 5, 0.05, 0.75, 1.0)
    assert rel_err(y, ref) < TOL[np.dtype(dtype)]


def test_lrn_non_contiguous(npu, rng):
    base = rng.standard_normal((2, 5, 6, 7)).astype(np.float32)
    xv, t = strided_view(npu, base, (0, 3, 1, 2))             # NHWC buffer seen as NCHW
    y, ref, _ = _lrn(npu, None, 3, 0.1, 0.75, 1.0, x_tensor=t, xv=xv)
    assert rel_err(y, ref) < 1e-5


def test_lrn_aclscalar_attributes(npu, rng):
    x = rng.standard_normal((1, 6, 3, 3)).astype(np.float32)
    f = opsnn.aclDataType.ACL_FLOAT
    (y,), _ = run_op(npu, opsnn.aclnnLrnGetWorkspaceSize, opsnn.aclnnLrn, x,
                     (3, opsnn.aclCreateScalar(0.25, f), opsnn.aclCreateScalar(0.5, f), opsnn.aclCreateScalar(2.0, f)),
                     [(x.shape, np.float32)])
    assert rel_err(y, lrn_golden(x, 3, 0.25, 0.5, 2.0)) < 1e-5


def test_lrn_channel_columns_many_tiles(npu, rng):
    x = rng.standard_normal((2, 24, 15, 13)).astype(np.float32)
    y, ref, ex = _lrn(npu, x, 5, 0.1)
    assert rel_err(y, ref) < 1e-5
    spec = ex.kernels[0].spec
    assert ex.info["strategy"] == "channel_column" and spec.tiling_key == 0
    assert spec.args["tiling"]["total_units"] == 2 * 15 * 13
    assert_many_tiles(spec)


def test_lrn_channel_chunks_when_a_column_does_not_fit(npu, rng):
    """1200 fp32 channels per column (in + out double-buffered + fp32 scratch) exceed
    16 KiB of UB: units are channel chunks with a halo."""
    x = rng.standard_normal((2, 1200, 2, 3)).astype(np.float32)
    y, ref, ex = _lrn(npu, x, 5, 0.5)
    assert rel_err(y, ref) < 1e-5
    assert ex.info["strategy"] == "channel_chunk" and ex.kernels[0].spec.tiling_key == 1
    assert ex.info["unit_channels"] < 1200


def test_lrn_empty_tensor_launches_nothing(npu):
    _, t = npu.to_device(np.zeros((0, 3, 4, 4), np.float32))
    _, o = npu.empty((0, 3, 4, 4), np.float32)
    ws, ex, ret = opsnn.aclnnLrnGetWorkspaceSize(t, 3, 1e-4, 0.75, 1.0, o)
    assert ret == 0 and ex.kernels == []
    npu.run((ws, ex, ret), opsnn.aclnnLrn)


@pytest.mark.parametrize("case,code,frag", [
    ("self_null", NULL, "self is null"),
    ("size_null", NULL, "size is null"),
    ("alpha_null", NULL, "alpha is null"),
    ("out_null", NULL, "out is null"),
    ("self_list", INVALID, "self must be an aclTensor"),
    ("int_dtype", INVALID, "self dtype ACL_INT32 not supported"),
    ("out_dtype", INVALID, "out dtype ACL_FLOAT16 not supported"),
    ("rank1", INVALID, "self must be 2/3/4/5/6/7/8-D"),
    ("size0", INVALID, "size must be an integer >= 1, got 0"),
    ("size_float", INVALID, "size must be an integer >= 1, got 2.5"),
    ("alpha_nan", INVALID, "alpha must be finite"),
    ("beta_str", INVALID, "beta must be a number"),
    ("out_shape", INVALID, "out shape [2, 3, 4, 5] does not match expected [2, 3, 4, 4]"),
])
def test_lrn_errors(npu, case, code, frag):
    x = npu.to_device(np.zeros((2, 3, 4, 4), np.float32))[1]
    o = npu.empty((2, 3, 4, 4), np.float32)[1]
    args = dict(self=x, size=3, alpha=1e-4, beta=0.75, bias=1.0, out=o)
    args.update({
        "self_null": dict(self=None), "size_null": dict(size=None), "alpha_null": dict(alpha=None),
        "out_null": dict(out=None), "self_list": dict(self=[1.0]),
        "int_dtype": dict(self=npu.to_device(np.zeros((2, 3, 4, 4), np.int32))[1]),
        "out_dtype": dict(out=npu.empty((2, 3, 4, 4), np.float16)[1]),
        "rank1": dict(self=npu.to_device(np.zeros((5,), np.float32))[1], out=npu.empty((5,), np.float32)[1]),
        "size0": dict(size=0), "size_float": dict(size=2.5), "alpha_nan": dict(alpha=float("nan")),
        "beta_str": dict(beta="0.75"), "out_shape": dict(out=npu.empty((2, 3, 4, 5), np.float32)[1]),
    }[case])
    expect_error(opsnn.aclnnLrnGetWorkspaceSize, tuple(args.values()), code, "aclnnLrn", frag)
