"""aclnnMaxPool2dWithIndices and aclnnMaxPool against the float64 golden, on the tiny chip."""
import ml_dtypes
import numpy as np
import pytest

import opsnn
from opsnn.pooling.max_pool.golden import max_pool2d_golden, out_len
from tests.conftest import rel_err

from ..helpers import TOL, assert_many_tiles, run_op, strided_view


def _with_indices(npu, x, k, s, p, d, ceil, idx_dtype=np.int64, x_tensor=None, xv=None):
    xv = x if xv is None else xv
    H, W = xv.shape[-2:]
    pk, ps, pp, pd = (list(v) if len(v) == 2 else [v[0]] * 2 for v in (k, s or k, p, d))
    ho = out_len(H, pk[0], ps[0], pd[0], pp[0], pp[0], ceil)
    wo = out_len(W, pk[1], ps[1], pd[1], pp[1], pp[1], ceil)
    shape = xv.shape[:-2] + (ho, wo)
    (val, idx), ex = run_op(npu, opsnn.aclnnMaxPool2dWithIndicesGetWorkspaceSize, opsnn.aclnnMaxPool2dWithIndices,
                            x, (opsnn.aclCreateIntArray(k), opsnn.aclCreateIntArray(s), opsnn.aclCreateIntArray(p),
                                opsnn.aclCreateIntArray(d), ceil),
                            [(shape, xv.dtype), (shape, idx_dtype)], x_tensor=x_tensor)
    ref_v, ref_i = max_pool2d_golden(xv, pk, ps, (pp[0], pp[1], pp[0], pp[1]), pd, ceil)
    return val, idx, ref_v, ref_i, ex


@pytest.mark.parametrize("k,s,p,d,ceil", [
    ((3, 3), (2, 2), (1, 1), (1, 1), False),   # ResNet stem
    ((3,), (2,), (0,), (1,), True),            # AlexNet/GoogLeNet style, ceil mode
    ((2, 3), (1, 2), (1, 1), (2, 1), False),   # dilation, rectangular kernel
    ((3, 2), (), (1, 0), (1, 1), True),        # empty stride = kernel
    ((1, 1), (1, 1), (0, 0), (1, 1), False),
])
def test_max_pool_with_indices_float32(npu, rng, k, s, p, d, ceil):
    x = rng.standard_normal((2, 3, 13, 11)).astype(np.float32)
    val, idx, ref_v, ref_i, _ = _with_indices(npu, x, k, s, p, d, ceil)
    assert rel_err(val, ref_v) == 0.0
    np.testing.assert_array_equal(idx, ref_i)


@pytest.mark.parametrize("dtype,idx_dtype", [(np.float16, np.int32), (ml_dtypes.bfloat16, np.int64)])
def test_max_pool_with_indices_half_types(npu, rng, dtype, idx_dtype):
    x = rng.standard_normal((1, 4, 9, 10)).astype(dtype)
    val, idx, ref_v, ref_i, _ = _with_indices(npu, x, (3, 3), (2, 2), (1, 1), (1, 1), True, idx_dtype)
    assert rel_err(val, ref_v) < TOL[np.dtype(dtype)]
    np.testing.assert_array_equal(idx, ref_i)


def test_max_pool_3d_chw_input(npu, rng):
    """A CHW (NCL) input pools each of its C planes."""
    x = rng.standard_normal((5, 8, 7)).astype(np.float32)
    val, idx, ref_v, ref_i, _ = _with_indices(npu, x, (2, 2), (2, 2), (0, 0), (1, 1), False)
    assert val.shape == (5, 4, 3)
    assert rel_err(val, ref_v) == 0.0
    np.testing.assert_array_equal(idx, ref_i)


def test_max_pool_non_contiguous_input(npu, rng):
    base = rng.standard_normal((2, 3, 9, 12)).astype(np.float32)
    xv, t = strided_view(npu, base, (0, 1, 3, 2))           # (2, 3, 12, 9) view, W stride = 12
    val, idx, ref_v, ref_i, _ = _with_indices(npu, None, (3, 3), (2, 2), (1, 1), (1, 1), False, x_tensor=t, xv=xv)
    assert rel_err(val, ref_v) == 0.0
    np.testing.assert_array_equal(idx, ref_i)


def test_max_pool_nan_and_inf_follow_torch(npu):
    """NaN propagates (and its index is reported); an all -inf window reports its
    first in-bounds position."""
    x = np.full((1, 1, 4, 4), -np.inf, np.float32)
    x[0, 0, 0, 3] = np.nan
    x[0, 0, 2:, 2:] = [[1, 5], [5, 2]]
    val, idx, ref_v, ref_i, _ = _with_indices(npu, x, (2, 2), (2, 2), (0, 0), (1, 1), False)
    np.testing.assert_array_equal(idx, ref_i)
    np.testing.assert_array_equal(idx[0, 0], [[0, 3], [8, 11]])
    assert np.isnan(val[0, 0, 0, 1]) and val[0, 0, 0, 0] == -np.inf and val[0, 0, 1, 1] == 5


def test_dilated_window_wholly_in_padding(npu):
    """k=2, d=2 spans 3 rows, so pad 1 is allowed; on a 1-row input the only window
    taps rows -1 and 1, both padding: -inf, index of the first non-negative tap (torch)."""
    x = np.array([[[[3.0]]]], np.float32)
    val, idx, ref_v, ref_i, _ = _with_indices(npu, x, (2, 1), (1, 1), (1, 0), (2, 1), False)
    assert val.shape == (1, 1, 1, 1) and val[0, 0, 0, 0] == -np.inf and idx[0, 0, 0, 0] == 1
    np.testing.assert_array_equal(val, ref_v)
    np.testing.assert_array_equal(idx, ref_i)


def test_max_pool_padding_never_wins(npu):
    """Padding is -inf: an all-negative input never pools to 0."""
    x = -np.ones((1, 2, 5, 5), np.float32) - np.arange(50, dtype=np.float32).reshape(1, 2, 5, 5)
    val, idx, ref_v, ref_i, _ = _with_indices(npu, x, (3, 3), (2, 2), (1, 1), (1, 1), False)
    assert (val < 0).all()
    np.testing.assert_array_equal(val, ref_v)


def test_max_pool_many_tiles_and_edge_tiles(npu, rng):
    x = rng.standard_normal((2, 3, 37, 35)).astype(np.float32)
    val, idx, ref_v, ref_i, ex = _with_indices(npu, x, (3, 3), (1, 1), (1, 1), (1, 1), False)
    np.testing.assert_array_equal(val, ref_v)
    np.testing.assert_array_equal(idx, ref_i)
    spec = ex.kernels[0].spec
    assert ex.info["strategy"] == "row" and spec.tiling_key == 0
    assert spec.args["tiling"]["total_units"] == 2 * 3 * 37
    assert_many_tiles(spec)


def test_max_pool_row_chunk_strategy(npu, rng):
    """A 2000-wide output row does not fit 16 KiB of UB: units are row chunks."""
    x = rng.standard_normal((1, 2, 4, 2000)).astype(np.float32)
    val, idx, ref_v, ref_i, ex = _with_indices(npu, x, (3, 3), (1, 1), (1, 1), (1, 1), False)
    np.testing.assert_array_equal(val, ref_v)
    np.testing.assert_array_equal(idx, ref_i)
    assert ex.info["strategy"] == "row_chunk" and 1 <= ex.info["unit_outputs"] < 2000
    assert ex.kernels[0].spec.buffers  # UB use recorded
    assert max(ex.kernels[0].spec.buffers.values()) <= 16 * 1024


# ------------------------------------------------------------------ ONNX-style aclnnMaxPool
def _onnx_max(npu, x, k, s, pads, d, ceil):
    H, W = x.shape[-2:]
    p4 = list(pads) if len(pads) == 4 else ([pads[0]] * 4 if len(pads) == 1 else
                                             ([0] * 4 if not pads else [pads[0], pads[1], pads[0], pads[1]]))
    kk = list(k) * (2 // len(k))
    ss = (list(s) * (2 // len(s))) if s else kk
    dd = (list(d) * (2 // len(d))) if d else [1, 1]
    ho = out_len(H, kk[0], ss[0], dd[0], p4[0], p4[2], bool(ceil))
    wo = out_len(W, kk[1], ss[1], dd[1], p4[1], p4[3], bool(ceil))
    (val,), ex = run_op(npu, opsnn.aclnnMaxPoolGetWorkspaceSize, opsnn.aclnnMaxPool, x,
                        (opsnn.aclCreateIntArray(k), opsnn.aclCreateIntArray(s), 0, opsnn.aclCreateIntArray(pads),
                         opsnn.aclCreateIntArray(d), ceil), [(x.shape[:-2] + (ho, wo), x.dtype)])
    ref, _ = max_pool2d_golden(x, kk, ss, p4, dd, bool(ceil))
    return val, ref


@pytest.mark.parametrize("k,s,pads,d,ceil", [
    ((3, 3), (2, 2), (0, 1, 1, 0), (), 0),      # asymmetric [top, left, bottom, right]
    ((2, 2), (2, 2), (0, 0, 1, 1), (1, 1), 1),  # SAME_UPPER-style pads + ceil
    ((3,), (), (1,), (2,), 0),                  # one value everywhere, dilation 2
    ((3, 3), (1, 2), (1, 0), (1, 1), 0),        # [pH, pW]
    ((2, 2), (2, 2), (), (), 1),                # no pads
])
def test_onnx_style_max_pool(npu, rng, k, s, pads, d, ceil):
    x = rng.standard_normal((2, 2, 10, 9)).astype(np.float32)
    val, ref = _onnx_max(npu, x, k, s, pads, d, ceil)
    np.testing.assert_array_equal(val, ref)


def test_onnx_style_max_pool_float16_3d(npu, rng):
    x = rng.standard_normal((3, 11, 8)).astype(np.float16)
    val, ref = _onnx_max(npu, x, (3, 3), (2, 2), (1, 1, 0, 1), (1, 1), 1)
    assert rel_err(val, ref) < TOL[np.dtype(np.float16)]


def test_max_pool_empty_batch_launches_nothing(npu):
    _, t = npu.to_device(np.zeros((0, 3, 8, 8), np.float32))
    _, o = npu.empty((0, 3, 4, 4), np.float32)
    _, i = npu.empty((0, 3, 4, 4), np.int64)
    ia = opsnn.aclCreateIntArray
    ws, ex, ret = opsnn.aclnnMaxPool2dWithIndicesGetWorkspaceSize(t, ia([2]), ia([2]), ia([0]), ia([1]), False, o, i)
    assert ret == 0 and ex.kernels == [] and ex.info["strategy"] == "empty"
    npu.run((ws, ex, ret), opsnn.aclnnMaxPool2dWithIndices)
