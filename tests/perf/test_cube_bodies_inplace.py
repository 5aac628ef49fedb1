"""The cube bodies' in-place paths give the bytes of the copying paths they replace:
``conv2d_nchw(..., out=)`` equals the returned-array result bit for bit (1x1, depthwise,
im2col with N == 1 and N > 1, strides, groups, bias, fp16 operands), and the packed
output write ``_pack_into`` equals ``trans_data``'s ``nchw_to_nc1hwc0``."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from opsnn.transform.trans_data.kernel import nchw_to_nc1hwc0

kernel = importlib.import_module("opsnn.conv.convolution.kernel")
formats = importlib.import_module("opsnn.conv.convolution.formats")

CASES = [  # (n, c, h, w, cout, k, stride, pad, groups)
    (1, 16, 9, 9, 32, 1, 1, 0, 1), (2, 16, 9, 9, 32, 1, 2, 0, 1), (1, 8, 11, 7, 12, 3, 1, 1, 1),
    (3, 8, 11, 7, 12, 3, 2, 1, 1), (1, 12, 10, 10, 12, 3, 1, 1, 12), (2, 12, 10, 10, 12, 3, 2, 1, 12),
    (1, 8, 9, 9, 16, 3, 1, 1, 4), (2, 6, 8, 8, 4, 5, 1, 2, 2), (1, 3, 15, 15, 5, 7, 2, 3, 1)]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("with_bias", [False, True])
def test_conv_out_equals_copy(case, dtype, with_bias):
    n, c, h, w, co, k, s, p, g = case
    rng = np.random.default_rng(hash(case) % 2**32)
    x = rng.standard_normal((n, c, h, w)).astype(dtype)
    wt = rng.standard_normal((co, c // g, k, k)).astype(dtype)
    b = rng.standard_normal(co).astype(dtype) if with_bias else None
    args = ((s, s), (p, p, p, p), (1, 1), g, b)
    want = kernel.conv2d_nchw(x, wt, *args)
    out = np.full(want.shape, np.nan, np.float32)
    got = kernel.conv2d_nchw(x, wt, *args, out=out)
    assert got is out
    assert want.tobytes() == out.tobytes()


def test_direct_out_refuses_overlap_and_other_dtypes():
    buf = np.zeros(64, np.float32)
    assert kernel.direct_out(buf[:32], buf[32:]) is not None
    assert kernel.direct_out(buf[:32], buf[16:48]) is None
    assert kernel.direct_out(buf[::2], None) is None
    assert kernel.direct_out(np.zeros(4, np.float16)) is None


@pytest.mark.parametrize("c", [1, 15, 16, 17, 32, 40])
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_pack_into_equals_nchw_to_nc1hwc0(c, dtype):
    c0 = 16 if dtype == np.float16 else 8
    r = np.random.default_rng(c).standard_normal((2, c, 3, 5)).astype(dtype)
    want = nchw_to_nc1hwc0(r, c0)
    pv = np.full(want.shape, 7, dtype)
    formats._pack_into(pv, r, c0)
    assert pv.tobytes() == want.tobytes()
