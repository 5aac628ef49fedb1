"""The convolution body's reused scratch buffers (padded input, im2col matrix:
``opsnn.conv.convolution.kernel._scratch``) give the bits of fresh zeroed buffers,
whatever a previous call left in them (larger and smaller shapes, pads, strides,
dilations, groups, N > 1), and nothing returned views them."""
from __future__ import annotations

import importlib

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

kernel = importlib.import_module("opsnn.conv.convolution.kernel")


def _fresh_buffers(x, w, stride, pads, dilation, g):
    """The body as it was before the scratch: np.zeros padding, a reshape-copy im2col."""
    n, c, h, wd = x.shape
    co, cg, kh, kw = w.shape
    (sh, sw), (dh, dw), (pt, pb, pl, pr) = stride, dilation, pads
    ho = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    wo = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    xp = np.zeros((n, c, h + pt + pb, wd + pl + pr), np.float32)
    xp[:, :, pt:pt + h, pl:pl + wd] = x
    v = sliding_window_view(xp, (dh * (kh - 1) + 1, dw * (kw - 1) + 1), axis=(2, 3))
    v = v[:, :, ::sh, ::sw, ::dh, ::dw][:, :, :ho, :wo]
    cols = v.reshape(n, g, cg, ho, wo, kh, kw).transpose(1, 2, 5, 6, 0, 3, 4).reshape(g, cg * kh * kw, n * ho * wo)
    r = np.matmul(w.astype(np.float32).reshape(g, co // g, cg * kh * kw), cols).reshape(co, n, ho, wo)
    return r[:, 0][None] if n == 1 else r.transpose(1, 0, 2, 3)


CASES = [  # (n, c, h, w, cout, k, stride, pad, dilation, groups)
    (1, 16, 20, 20, 8, 3, 1, 2, 1, 1), (1, 8, 9, 9, 16, 3, 1, 1, 1, 1), (2, 8, 11, 7, 12, 3, 2, 1, 1, 1),
    (1, 3, 15, 15, 5, 7, 2, 3, 1, 1), (1, 8, 9, 9, 16, 3, 1, 1, 2, 4), (2, 6, 8, 8, 4, 5, 1, 2, 1, 2),
    (1, 4, 6, 6, 4, 1, 1, 1, 1, 1), (1, 16, 20, 20, 8, 3, 1, 0, 1, 1)]


def test_scratch_reuse_gives_fresh_buffer_bits():
    rng = np.random.default_rng(3)
    results = []
    for _ in range(2):   # a second pass: every buffer holds another case's leftovers
        for n, c, h, w, co, k, s, p, d, g in CASES:
            x = rng.standard_normal((n, c, h, w)).astype(np.float32)
            wt = rng.standard_normal((co, c // g, k, k)).astype(np.float32)
            args = ((s, s), (p, p, p, p), (d, d), g)
            got = kernel.conv2d_nchw(x, wt, *args)
            assert got.tobytes() == _fresh_buffers(x, wt, *args).tobytes()
            for slot in ("pad", "cols"):
                buf = getattr(kernel._SCRATCH, slot, None)
                assert buf is None or not np.may_share_memory(got, buf)
            results.append(got)
    kernel._SCRATCH.pad[...] = np.nan   # poisoned scratch: earlier results are not views of it
    assert all(np.isfinite(r).all() for r in results)


@pytest.mark.parametrize("limit", [0, 1 << 30])
def test_scratch_limit_allocates_per_call(monkeypatch, limit):
    monkeypatch.setattr(kernel, "SCRATCH_MAX_BYTES", limit)
    rng = np.random.default_rng(4)
    x = rng.standard_normal((1, 8, 9, 9)).astype(np.float32)
    wt = rng.standard_normal((16, 8, 3, 3)).astype(np.float32)
    args = ((1, 1), (1, 1, 1, 1), (1, 1), 1)
    assert kernel.conv2d_nchw(x, wt, *args).tobytes() == _fresh_buffers(x, wt, *args).tobytes()
