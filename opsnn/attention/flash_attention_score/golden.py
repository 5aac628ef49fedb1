"""float64 reference of FlashAttentionScore (tests only; independent of the kernel's
layout and mask helpers); arguments in the op_def order.

Formula (CANN aclnnFlashAttentionScore docs):
    attention_out = Softmax(Mask(scale * (pse + query @ key^T), atten_mask)) @ value
with atten_mask 1 = masked out (the score is replaced by the most negative float,
so a row whose every position is masked averages ``value`` uniformly), grouped-query
heads (query head n reads key/value head n // (Nq / Nkv)) and no dropout.
"""
from __future__ import annotations

import numpy as np

#: query/key/value axes of each inputLayout as einsum letters (BSH/SBH: H split as N x D)
_AXES = {"BNSD": "bnsd", "BSND": "bsnd", "BSH": "bsnd", "SBH": "sbnd"}


def to_bnsd(x: np.ndarray, layout: str, heads: int) -> np.ndarray:
    """``x`` (in ``layout``) as [B, N, S, D]; ``heads`` is N (needed for BSH/SBH)."""
    if layout not in _AXES:
        raise ValueError(f"unknown layout {layout!r}")
    x = np.asarray(x)
    if layout in ("BSH", "SBH"):
        x = x.reshape(x.shape[0], x.shape[1], heads, x.shape[2] // heads)
    return np.einsum(f"{_AXES[layout]}->bnsd", x)


def from_bnsd(x: np.ndarray, layout: str) -> np.ndarray:
    """[B, N, S, D] -> ``layout`` (the inverse of :func:`to_bnsd`)."""
    if layout not in _AXES:
        raise ValueError(f"unknown layout {layout!r}")
    y = np.einsum(f"bnsd->{_AXES[layout]}", np.asarray(x))
    return y.reshape(y.shape[0], y.shape[1], -1) if layout in ("BSH", "SBH") else y


def causal_mask(s_q: int, s_kv: int, sparse_mode: int) -> np.ndarray:
    """Boolean [Sq, Skv] mask (True = masked): strictly above the diagonal that starts at
    column 0 (sparseMode 2, leftUpCausal) or column Skv - Sq (3, rightDownCausal)."""
    return np.triu(np.ones((s_q, s_kv), bool), k=1 + (0 if sparse_mode == 2 else s_kv - s_q))


def flash_attention_score_golden(query, key, value, pse=None, atten_mask=None, scale=1.0, head_num=1,
                                 input_layout="BNSD", sparse_mode=0, inner_precise=0):
    """Returns (attention_out in ``input_layout``, softmax_max [B, N, Sq], softmax_sum
    [B, N, Sq]) in float64. ``atten_mask`` (bool/uint8, 1 = masked) broadcasts to
    [B, N, Sq, Skv]; with sparse_mode 2/3 and a mask given, the causal mask is used.
    inner_precise 2 zeroes rows whose every position is masked."""
    q = to_bnsd(np.asarray(query, np.float64), input_layout, head_num)
    n = q.shape[1]
    d = q.shape[3]
    kv_heads = {"BNSD": key.shape[1], "BSND": key.shape[2]}.get(input_layout) or key.shape[-1] // d
    k = to_bnsd(np.asarray(key, np.float64), input_layout, kv_heads)
    v = to_bnsd(np.asarray(value, np.float64), input_layout, kv_heads)
    g = n // k.shape[1]
    k = np.repeat(k, g, axis=1)
    v = np.repeat(v, g, axis=1)
    s = q @ k.swapaxes(-1, -2)
    if pse is not None:
        s = s + np.asarray(pse, np.float64)
    s = s * scale
    masked = None
    if atten_mask is not None:
        if sparse_mode in (2, 3):
            masked = np.broadcast_to(causal_mask(s.shape[2], s.shape[3], sparse_mode), s.shape)
        else:
            masked = np.broadcast_to(np.asarray(atten_mask).astype(bool), s.shape)
        s = np.where(masked, np.finfo(np.float64).min, s)
    m = s.max(axis=-1, keepdims=True)
    e = np.exp(s - m)
    total = e.sum(axis=-1, keepdims=True)
    out = (e / total) @ v
    if masked is not None and inner_precise == 2:
        out = np.where(masked.all(axis=-1, keepdims=True), 0.0, out)
    return from_bnsd(out, input_layout), m[..., 0], total[..., 0]
