"""The packed convolution body adds an NC1HWC0 residual straight from its packed view
(``opsnn.conv.convolution.formats._add_residual``): the bytes of the add of its
unpacked float32 copy (``_residual_nchw``, the reference path), for whole and partial
C0 slices, float32 and float16, batch 1 and 2, and an NCHW residual unchanged."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from acl_runtime.runtime import runtime
from opsnn.base.dtypes import from_numpy_dtype
from opsnn.conv.convolution.formats import _add_residual, _residual_nchw
from opsnn.transform.trans_data import nchw_to_nc1hwc0

NC1HWC0 = 3


@pytest.mark.parametrize("n,c", [(1, 16), (2, 20), (1, 5), (2, 3)])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("packed", [True, False])
def test_residual_add_has_the_reference_bytes(npu, n, c, dtype, packed):
    rng = np.random.default_rng(n * 100 + c)
    c0 = 32 // np.dtype(dtype).itemsize
    res = rng.standard_normal((n, c, 3, 5)).astype(dtype)
    arr = nchw_to_nc1hwc0(res, c0) if packed else res
    ptr, _ = npu.to_device(arr)
    t = opsnn.aclCreateTensor(res.shape, from_numpy_dtype(dtype), None, 0, NC1HWC0 if packed else 2, arr.shape, ptr)
    assert t is not None, opsnn.aclGetRecentErrMsg()
    mem = runtime().device.memory
    r = rng.standard_normal(res.shape).astype(np.float32)
    want = r.copy()
    np.add(want, _residual_nchw(mem, ptr, t, c0), out=want)
    want64 = r.astype(np.float64) + res.astype(np.float64)      # independent check, within float32 rounding
    _add_residual(r, mem, ptr, t, c0)
    assert r.tobytes() == want.tobytes()
    np.testing.assert_allclose(r, want64, rtol=1e-6, atol=1e-6)
