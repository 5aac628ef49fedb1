"""The one-pass TransData bodies (``nchw_to_nc1hwc0_into`` / ``nc1hwc0_to_nchw_into``)
store exactly what the copying forms produce, into stale buffers, for channel counts
that are and are not multiples of C0, casting dtypes and a strided destination."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.transform.trans_data.infershape import c1_of
from opsnn.transform.trans_data.kernel import (nc1hwc0_to_nchw, nc1hwc0_to_nchw_into, nchw_to_nc1hwc0,
                                               nchw_to_nc1hwc0_into)


@pytest.mark.parametrize("c", [1, 7, 8, 16, 17, 40])
@pytest.mark.parametrize("dtype,c0", [(np.float32, 8), (np.float16, 16), (np.int8, 32)])
def test_pack_into_matches_copying_form(c, dtype, c0):
    rng = np.random.default_rng(c)
    x = (rng.standard_normal((2, c, 3, 5)) * 50).astype(dtype)
    want = nchw_to_nc1hwc0(x, c0)
    out = np.full((2, c1_of(c, c0), 3, 5, c0), 77, dtype)          # a stale buffer
    nchw_to_nc1hwc0_into(x, out)
    assert out.tobytes() == want.tobytes()
    strided = np.full((2, 2 * c, 3, 5), 5, dtype)[:, ::2]           # a strided source
    strided[...] = x
    out[...] = 9
    nchw_to_nc1hwc0_into(strided, out)
    assert out.tobytes() == want.tobytes()


@pytest.mark.parametrize("c", [1, 7, 8, 16, 17, 40])
@pytest.mark.parametrize("dtype,c0", [(np.float32, 8), (np.float16, 16)])
def test_unpack_into_matches_copying_form(c, dtype, c0):
    rng = np.random.default_rng(100 + c)
    x5 = rng.standard_normal((2, c1_of(c, c0), 3, 5, c0)).astype(dtype)
    want = nc1hwc0_to_nchw(x5, c)
    out = np.full((2, c, 3, 5), 3, dtype)
    assert nc1hwc0_to_nchw_into(x5, out)
    assert out.tobytes() == want.tobytes()
    out32 = np.zeros((2, c, 3, 5), np.float32)                       # cast on assignment, as the store does
    assert nc1hwc0_to_nchw_into(x5, out32)
    ref = np.zeros_like(out32)
    ref[...] = want
    assert out32.tobytes() == ref.tobytes()


def test_unpack_into_transposed_destination():
    x5 = np.arange(2 * 2 * 3 * 5 * 8, dtype=np.float32).reshape(2, 2, 3, 5, 8)
    base = np.zeros((2, 3, 5, 16), np.float32)
    out = base.transpose(0, 3, 1, 2)          # [N, C, H, W] with C the fastest axis: no [C1, C0] view
    if out[:, :16].reshape(2, 2, 8, 3, 5).flags.owndata:
        assert not nc1hwc0_to_nchw_into(x5, out)
        assert not out.any()
    want = nc1hwc0_to_nchw(x5, 16)
    out[...] = want if not nc1hwc0_to_nchw_into(x5, out) else out
    assert np.array_equal(out, want)
