"""FlashAttentionScore's numpy body with reused block buffers and float32 operands read
through their strides (issue 17, full runs): ``flash_attention_forward``.

* Strided float32 views of q/k/v (what the body now passes for BSND/BSH/SBH layouts)
  give the bytes of contiguous copies (what it passed before), over block sizes that
  divide Skv and that leave a partial last block, GQA, pse, masks, fp16 P and
  innerPrecise 2.
* The result agrees with a float64 softmax attention (an independent reference).
"""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.attention.flash_attention_score.kernel import flash_attention_forward


def _reference(q, k, v, pse, masked, scale):
    """Plain float64 attention over [B, N, Sq, D] (k/v heads repeated for GQA)."""
    g = q.shape[1] // k.shape[1]
    k, v = np.repeat(k, g, axis=1).astype(np.float64), np.repeat(v, g, axis=1).astype(np.float64)
    s = np.matmul(q.astype(np.float64), k.swapaxes(-1, -2))
    if pse is not None:
        s = s + pse
    s = s * scale
    if masked is not None:
        s = np.where(masked, np.finfo(np.float32).min, s)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    return np.matmul(p / p.sum(axis=-1, keepdims=True), v)


@pytest.mark.parametrize("case", range(12))
def test_strided_operands_and_buffers_same_bits(case):
    rng = np.random.default_rng(case)
    b, n, nkv = 2, 4, (4, 2, 1)[case % 3]
    sq, skv, d = (5, 17, 33)[case % 3], (64, 70, 129, 16)[case % 4], (16, 32)[case % 2]
    block = (64, 32, 128)[case % 3]
    # [B, S, N, D] storage seen as [B, N, S, D]: the BSND layout's view
    q, k, v = (rng.standard_normal((b, s, h, d)).astype(np.float32).transpose(0, 2, 1, 3)
               for s, h in ((sq, n), (skv, nkv), (skv, nkv)))
    pse = rng.standard_normal((1, n, sq, skv)).astype(np.float32) if case % 4 == 0 else None
    masked = rng.random((b, 1, sq, skv)) < 0.3 if case % 2 else None
    p_dtype = np.float16 if case % 5 == 0 else None
    zero = case % 6 == 1
    got = flash_attention_forward(q, k, v, pse, masked, 0.125, block, p_dtype, zero)
    want = flash_attention_forward(*(np.ascontiguousarray(x) for x in (q, k, v)), pse, masked, 0.125, block,
                                   p_dtype, zero)
    for a, c in zip(got, want):
        assert a.dtype == c.dtype == np.float32 and a.tobytes() == np.ascontiguousarray(c).tobytes()
    again = flash_attention_forward(q, k, v, pse, masked, 0.125, block, p_dtype, zero)   # buffers are per call
    assert all(a.tobytes() == c.tobytes() for a, c in zip(got, again))
    if p_dtype is None:
        ref = _reference(q, k, v, pse, masked, 0.125)
        out = got[0]
        if zero and masked is not None:
            ref = np.where(masked.all(axis=-1)[..., None], 0.0, ref)
        np.testing.assert_allclose(out, ref, rtol=2e-5, atol=2e-6)
