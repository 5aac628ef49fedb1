"""The one-copy layout transforms of TransData (``opsnn/transform/trans_data/kernel.py``)
give the same bits as the plain pad-then-transpose form, for channel counts that are
whole C0 / N0 groups, partial ones and smaller than one group."""
import numpy as np
import pytest

from opsnn.transform.trans_data.kernel import nc1hwc0_to_nchw, nchw_to_nc1hwc0, oihw_to_fractal_z


def _pad_transpose_nc1hwc0(x, c0):
    n, c, h, w = x.shape
    c1 = -(-c // c0)
    xp = np.zeros((n, c1 * c0, h, w), x.dtype)
    xp[:, :c] = x
    return np.ascontiguousarray(xp.reshape(n, c1, c0, h, w).transpose(0, 1, 3, 4, 2))


def _pad_transpose_fractal_z(wt, c0):
    co, ci, kh, kw = wt.shape
    c1, n1 = -(-ci // c0), -(-co // 16)
    wp = np.zeros((n1 * 16, c1 * c0, kh, kw), wt.dtype)
    wp[:co, :ci] = wt
    r = wp.reshape(n1, 16, c1, c0, kh, kw).transpose(2, 4, 5, 0, 1, 3)
    return np.ascontiguousarray(r.reshape(c1 * kh * kw, n1, 16, c0))


@pytest.mark.parametrize("c", [1, 3, 8, 16, 17, 40, 64])
@pytest.mark.parametrize("dtype,c0", [(np.float32, 8), (np.float16, 16)])
def test_nc1hwc0_one_copy_is_bit_identical(c, dtype, c0):
    x = np.random.default_rng(c).standard_normal((2, c, 3, 5)).astype(dtype)
    got = nchw_to_nc1hwc0(x, c0)
    want = _pad_transpose_nc1hwc0(x, c0)
    assert got.shape == want.shape and got.flags.c_contiguous
    assert got.tobytes() == want.tobytes()
    assert np.array_equal(nc1hwc0_to_nchw(got, c), x)


@pytest.mark.parametrize("co,ci", [(1, 1), (16, 8), (17, 3), (64, 40), (5, 33)])
@pytest.mark.parametrize("dtype,c0", [(np.float32, 8), (np.float16, 16)])
@pytest.mark.parametrize("k", [(1, 1), (3, 3), (2, 5)])
def test_fractal_z_one_copy_is_bit_identical(co, ci, dtype, c0, k):
    wt = np.random.default_rng(co * 100 + ci).standard_normal((co, ci) + k).astype(dtype)
    got = oihw_to_fractal_z(wt, c0)
    want = _pad_transpose_fractal_z(wt, c0)
    assert got.shape == want.shape and got.flags.c_contiguous
    assert got.tobytes() == want.tobytes()
