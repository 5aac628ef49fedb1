"""The convolution body's im2col by blocks of output rows (issue 17):
``opsnn.conv.convolution.kernel.IM2COL_BLOCK_BYTES`` and ``_gemm_by_rows``.

Blocked and one-GEMM bodies (the switch at 0) give the same bytes, with and without an
``out=`` array, for strides, dilations, asymmetric pads, blocks of unequal rows and
float16 inputs (products below ``MIN_BLOCK_MACS`` stay one GEMM); both match a float64
convolution computed tap by tap; and a VGG-sized layer at the default block size is
blocked, bit-identical, and leaves the im2col scratch small.
"""
from __future__ import annotations

import threading

import numpy as np
import pytest

from opsnn.conv.convolution import kernel


def _reference(x, w, stride, pads, dilation):
    """float64 convolution, one (i, j) tap at a time (no im2col, no BLAS GEMM)."""
    n, c, h, wd = x.shape
    co, _, kh, kw = w.shape
    (sh, sw), (dh, dw), (pt, pb, pl, pr) = stride, dilation, pads
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    ho = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    wo = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, co, ho, wo))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i * dh:i * dh + sh * (ho - 1) + 1:sh, j * dw:j * dw + sw * (wo - 1) + 1:sw]
            out += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j].astype(np.float64))
    return out


CASES = [  # x shape, w shape, stride, pads, dilation, block bytes (every block >= MIN_BLOCK_MACS)
    ((1, 32, 40, 40), (128, 32, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 400_000),
    ((1, 40, 50, 47), (160, 40, 3, 2), (2, 1), (0, 2, 1, 0), (1, 1), 300_000),
    ((1, 48, 38, 38), (128, 48, 3, 3), (1, 2), (2, 2, 2, 2), (2, 2), 600_000),   # uneven blocks: 12, 13, 13 rows
    ((1, 3, 120, 120), (96, 3, 7, 7), (2, 2), (3, 3, 3, 3), (1, 1), 700_000),
]


def test_small_products_stay_one_gemm(monkeypatch):
    monkeypatch.setattr(kernel, "IM2COL_BLOCK_BYTES", 1)
    assert kernel._row_blocks(16, 72, 20, 20) is None          # a block below MIN_BLOCK_MACS
    assert kernel._row_blocks(4096, 4096, 1, 4096) is None     # one output row: nothing to split
    monkeypatch.setattr(kernel, "IM2COL_BLOCK_BYTES", 0)
    assert kernel._row_blocks(512, 4608, 224, 224) is None     # the switch off


@pytest.mark.parametrize("xs,ws,stride,pads,dil,block", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_blocks_equal_one_gemm_and_reference(monkeypatch, xs, ws, stride, pads, dil, block, dtype):
    rng = np.random.default_rng(sum(xs) + sum(ws))
    x, w = rng.standard_normal(xs).astype(dtype), rng.standard_normal(ws).astype(dtype)
    b = rng.standard_normal(ws[0]).astype(np.float32)
    calls = []
    real = kernel._gemm_by_rows
    monkeypatch.setattr(kernel, "_gemm_by_rows", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(kernel, "IM2COL_BLOCK_BYTES", block)
    blocked = kernel.conv2d_nchw(x, w, stride, pads, dil, 1, b)
    out = np.full(blocked.shape, np.nan, np.float32)
    blocked_out = kernel.conv2d_nchw(x, w, stride, pads, dil, 1, b, out=out)
    assert calls and blocked_out is out
    monkeypatch.setattr(kernel, "IM2COL_BLOCK_BYTES", 0)
    whole = kernel.conv2d_nchw(x, w, stride, pads, dil, 1, b)
    assert len(calls) == 2
    assert blocked.dtype == whole.dtype == np.float32 and blocked.shape == whole.shape
    assert blocked.tobytes() == whole.tobytes() == out.tobytes()
    want = _reference(x, w, stride, pads, dil) + b.reshape(1, -1, 1, 1)
    np.testing.assert_allclose(blocked, want, rtol=1e-4, atol=1e-4)


def test_vgg_sized_layer_is_blocked_and_identical(monkeypatch):
    monkeypatch.setattr(kernel, "_SCRATCH", threading.local())   # no scratch grown by earlier tests
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, 64, 112, 112)).astype(np.float32)   # im2col 29 MB > the default block
    w = (rng.standard_normal((64, 64, 3, 3)) * 0.05).astype(np.float32)
    assert 64 * 9 * 112 * 112 * 4 > kernel.IM2COL_BLOCK_BYTES > 0
    blocked = kernel.conv2d_nchw(x, w, (1, 1), (1, 1, 1, 1), (1, 1), 1)
    assert kernel._scratch("cols", (1,)).base.size * 4 <= kernel.IM2COL_BLOCK_BYTES * 1.01   # the scratch stayed small
    monkeypatch.setattr(kernel, "IM2COL_BLOCK_BYTES", 0)
    whole = kernel.conv2d_nchw(x, w, (1, 1), (1, 1, 1, 1), (1, 1), 1)
    assert blocked.tobytes() == whole.tobytes()
    np.testing.assert_allclose(blocked[:, :, ::37, ::29],
                               _reference(x, w, (1, 1), (1, 1, 1, 1), (1, 1))[:, :, ::37, ::29], rtol=1e-4, atol=1e-4)
