"""aclnnAvgPool2d against the float64 golden, on the tiny chip."""
import ml_dtypes
import numpy as np
import pytest

import opsnn
from opsnn.pooling.avg_pool2d.golden import avg_pool2d_golden, out_len
from tests.conftest import rel_err

from ..helpers import TOL, assert_many_tiles, run_op, strided_view


def _pads4(p):
    return tuple(p) if len(p) == 4 else ((p[0],) * 4 if len(p) == 1 else (p[0], p[1], p[0], p[1]))


def _avg(npu, x, k, s, p, ceil=False, cip=True, div=0, cmt=0, x_tensor=None, xv=None):
    xv = x if xv is None else xv
    kk = list(k) * (2 // len(k))
    ss = (list(s) * (2 // len(s))) if s else kk
    p4 = _pads4(p)
    H, W = xv.shape[-2:]
    shape = xv.shape[:-2] + (out_len(H, kk[0], ss[0], 1, p4[0], p4[2], ceil), out_len(W, kk[1], ss[1], 1, p4[1], p4[3], ceil))
    ia = opsnn.aclCreateIntArray
    (out,), ex = run_op(npu, opsnn.aclnnAvgPool2dGetWorkspaceSize, opsnn.aclnnAvgPool2d, x,
                        (ia(k), ia(s), ia(p), ceil, cip, div, cmt), [(shape, xv.dtype)], x_tensor=x_tensor)
    return out, avg_pool2d_golden(xv, kk, ss, p4, ceil, cip, div), ex


@pytest.mark.parametrize("k,s,p,ceil,cip,div", [
    ((3, 3), (2, 2), (1, 1), False, True, 0),
    ((3, 3), (2, 2), (1, 1), True, False, 0),       # ceil mode: last window clipped, pads excluded
    ((3, 3), (2, 2), (1, 1), True, True, 0),        # ceil mode: divisor clipped to the padded extent
    ((2, 3), (1, 2), (1, 0), False, True, 5),       # divisorOverride
    ((3,), (), (0,), False, True, 0),               # empty strides = kernel
    ((3, 3), (2, 2), (0, 1, 1, 0), False, False, 0),  # 4 pads [top, left, bottom, right] (extension)
    ((3, 3), (2, 1), (1, 0, 0, 1), True, True, 0),
])
def test_avg_pool_float32(npu, rng, k, s, p, ceil, cip, div):
    x = rng.standard_normal((2, 3, 12, 11)).astype(np.float32)
    out, ref, _ = _avg(npu, x, k, s, p, ceil, cip, div)
    assert rel_err(out, ref) < TOL[np.dtype(np.float32)]


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
def test_avg_pool_half_types(npu, rng, dtype):
    x = rng.standard_normal((1, 4, 10, 9)).astype(dtype)
    out, ref, _ = _avg(npu, x, (3, 3), (2, 2), (1, 1), True, False)
    assert rel_err(out, ref) < TOL[np.dtype(dtype)]


def test_avg_pool_cube_math_type_is_recorded_not_numeric(npu, rng):
    x = rng.standard_normal((1, 2, 8, 8)).astype(np.float32)
    out, ref, ex = _avg(npu, x, (2, 2), (2, 2), (0, 0), cmt=2)
    assert rel_err(out, ref) < 1e-5
    assert ex.kernels[0].spec.args["cubeMathType"] == 2


def test_avg_pool_non_contiguous_3d(npu, rng):
    base = rng.standard_normal((9, 3, 10)).astype(np.float32)
    xv, t = strided_view(npu, base, (1, 0, 2))             # CHW view (3, 9, 10) of an HCW buffer
    out, ref, _ = _avg(npu, None, (3, 3), (2, 2), (1, 1), x_tensor=t, xv=xv)
    assert rel_err(out, ref) < 1e-5


def test_avg_pool_many_tiles(npu, rng):
    x = rng.standard_normal((2, 5, 33, 30)).astype(np.float32)
    out, ref, ex = _avg(npu, x, (3, 3), (1, 1), (1, 1))
    assert rel_err(out, ref) < 1e-5
    assert ex.info["strategy"] == "row"
    assert_many_tiles(ex.kernels[0].spec)


def test_avg_pool_kernel_row_chunk_strategy(npu, rng):
    """A 64x64 window does not fit 16 KiB of UB even for one output: kernel rows
    are chunked and accumulated (tiling key 2)."""
    x = rng.standard_normal((1, 2, 64, 64)).astype(np.float32)
    out, ref, ex = _avg(npu, x, (64, 64), (1, 1), (0, 0))
    assert rel_err(out, ref) < 1e-5
    assert ex.info["strategy"] == "kernel_row_chunk" and ex.kernels[0].spec.tiling_key == 2
    assert 1 <= ex.info["unit_kernel_rows"] < 64
