"""float64 reference of FlashAttentionScore; arguments in the op_def order.

Formula (CANN aclnnFlashAttentionScore docs):
    attention_out = Softmax(Mask(scale * (pse + query @ key^T), atten_mask)) @ value
with atten_mask 1 = masked out (the score is replaced by the most negative float,
so a row whose every position is masked averages ``value`` uniformly), grouped-query
heads (query head n reads key/value head n // (Nq / Nkv)) and no dropout.
"""
from __future__ import annotations

import numpy as np

LAYOUTS = ("BNSD", "BSND", "BSH", "SBH")


def to_bnsd(x: np.ndarray, layout: str, heads: int) -> np.ndarray:
    """View/copy ``x`` (in ``layout``) as [B, N, S, D]. ``heads`` is N (needed for BSH/SBH)."""
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return x.transpose(0, 2, 1, 3)
    if layout == "BSH":
        b, s, h = x.shape
        return x.reshape(b, s, heads, h // heads).transpose(0, 2, 1, 3)
    if layout == "SBH":
        s, b, h = x.shape
        return x.reshape(s, b, heads, h // heads).transpose(1, 2, 0, 3)
    raise ValueError(f"unknown layout {layout!r}")


def from_bnsd(x: np.ndarray, layout: str) -> np.ndarray:
    """Inverse of :func:`to_bnsd`: [B, N, S, D] -> ``layout``."""
    b, n, s, d = x.shape
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return x.transpose(0, 2, 1, 3)
    if layout == "BSH":
        return x.transpose(0, 2, 1, 3).reshape(b, s, n * d)
    if layout == "SBH":
        return x.transpose(2, 0, 1, 3).reshape(s, b, n * d)
    raise ValueError(f"unknown layout {layout!r}")


def causal_mask(s_q: int, s_kv: int, sparse_mode: int) -> np.ndarray:
    """Boolean [Sq, Skv] mask (True = masked) of sparseMode 2 (leftUpCausal: j > i)
    or 3 (rightDownCausal: j > i + Skv - Sq)."""
    off = 0 if sparse_mode == 2 else s_kv - s_q
    i = np.arange(s_q)[:, None]
    j = np.arange(s_kv)[None, :]
    return j > i + off


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
