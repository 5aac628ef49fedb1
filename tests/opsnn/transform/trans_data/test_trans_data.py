"""aclnnTransData on the tiny chip against the element-by-element goldens, and its
statuses."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from opsnn.base.dtypes import from_numpy_dtype
from opsnn.transform.trans_data import (fractal_z_shape, fractal_z_to_oihw, nc1hwc0_shape, nc1hwc0_to_nchw,
                                        nchw_to_nc1hwc0, oihw_to_fractal_z)
from opsnn.transform.trans_data.golden import golden_fractal_z, golden_nc1hwc0, golden_nchw

NC1HWC0, FRACTAL_Z, NCHW = 3, 4, 0


def _packed(npu, arr, logical, fmt):
    ptr, _ = npu.to_device(arr)
    t = opsnn.aclCreateTensor(logical, from_numpy_dtype(arr.dtype), None, 0, fmt, arr.shape, ptr)
    assert t is not None, opsnn.aclGetRecentErrMsg()
    return ptr, t


@pytest.mark.parametrize("dtype,c0", [(np.float16, 16), (np.float32, 8)])
@pytest.mark.parametrize("shape", [(2, 3, 5, 7), (1, 20, 4, 4), (1, 16, 2, 3)])
def test_nchw_to_nc1hwc0_and_back(npu, rng, dtype, c0, shape):
    x = rng.standard_normal(shape).astype(dtype)
    _, tx = npu.to_device(x)
    packed = nc1hwc0_shape(shape, c0)
    po, to = _packed(npu, np.full(packed, 7, dtype), shape, NC1HWC0)
    npu.run(opsnn.aclnnTransDataGetWorkspaceSize(tx, NC1HWC0, 1, to), opsnn.aclnnTransData)
    got = npu.to_host(po, packed, dtype)
    np.testing.assert_array_equal(got, golden_nc1hwc0(x.astype(np.float64), c0).astype(dtype))  # pads are 0
    pb, tb = npu.empty(shape, dtype)
    npu.run(opsnn.aclnnTransDataGetWorkspaceSize(to, NCHW, 1, tb), opsnn.aclnnTransData)
    np.testing.assert_array_equal(npu.to_host(pb, shape, dtype), x)


def test_weight_to_fractal_z(npu, rng):
    w = rng.standard_normal((20, 3, 3, 2)).astype(np.float16)
    _, tw = npu.to_device(w)
    fz = fractal_z_shape(w.shape, 16)
    po, to = _packed(npu, np.zeros(fz, np.float16), w.shape, FRACTAL_Z)
    ws, ex, ret = opsnn.aclnnTransDataGetWorkspaceSize(tw, FRACTAL_Z, 1, to)
    assert ret == 0 and ws == 0 and ex.info["conversion"] == "NCHW->FRACTAL_Z"
    npu.run((ws, ex, ret), opsnn.aclnnTransData)
    np.testing.assert_array_equal(npu.to_host(po, fz, np.float16), golden_fractal_z(w, 16).astype(np.float16))


def test_numpy_transforms_invert_and_match_the_goldens(rng):
    x = rng.standard_normal((2, 11, 3, 4))
    np.testing.assert_array_equal(nchw_to_nc1hwc0(x, 8), golden_nc1hwc0(x, 8))
    np.testing.assert_array_equal(nc1hwc0_to_nchw(nchw_to_nc1hwc0(x, 8), 11), x)
    np.testing.assert_array_equal(golden_nchw(golden_nc1hwc0(x, 16), 11), x)
    w = rng.standard_normal((33, 5, 3, 3))
    np.testing.assert_array_equal(oihw_to_fractal_z(w, 16), golden_fractal_z(w, 16))
    np.testing.assert_array_equal(fractal_z_to_oihw(oihw_to_fractal_z(w, 8), w.shape), w)


def test_an_nd_tensor_of_the_packed_shape_is_accepted(npu, rng):
    x = rng.standard_normal((1, 5, 2, 2)).astype(np.float16)
    _, tx = npu.to_device(x)
    po, to = npu.empty((1, 1, 2, 2, 16), np.float16)   # plain ND, as the Pythonic API would make it
    npu.run(opsnn.aclnnTransDataGetWorkspaceSize(tx, NC1HWC0, 1, to), opsnn.aclnnTransData)
    np.testing.assert_array_equal(npu.to_host(po, (1, 1, 2, 2, 16), np.float16), golden_nc1hwc0(x, 16))


def test_statuses(npu):
    _, tx = npu.empty((1, 3, 2, 2), np.float16)
    _, good = npu.empty((1, 1, 2, 2, 16), np.float16)
    _, wrong = npu.empty((1, 1, 2, 2, 8), np.float16)
    _, i32 = npu.empty((1, 3, 2, 2), np.int32)
    assert opsnn.aclnnTransDataGetWorkspaceSize(None, NC1HWC0, 1, good)[2] == 161001
    assert opsnn.aclnnTransDataGetWorkspaceSize(tx, NC1HWC0, 1, wrong)[2] == 161002
    assert opsnn.aclnnTransDataGetWorkspaceSize(tx, NC1HWC0, 2, good)[2] == 161002
    assert opsnn.aclnnTransDataGetWorkspaceSize(tx, 1, 1, good)[2] == 161002          # NHWC
    assert opsnn.aclnnTransDataGetWorkspaceSize(i32, NC1HWC0, 1, good)[2] == 161002
    assert opsnn.aclnnTransDataGetWorkspaceSize(tx, NC1HWC0, 1, good)[2] == 0
