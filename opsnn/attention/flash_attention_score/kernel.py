"""FlashAttentionScore kernel half: the numpy functional body (online softmax).

The body follows the tile program of tiling.py: the Skv axis is walked in
``base_s_kv`` blocks and each block updates a running row max ``m``, row sum ``l``
and fp32 output accumulator, so the numbers carry the same rounding structure as the
tiled kernel (QK^T and PV accumulate in fp32 as the cube's L0C does; for fp16/bf16
inputs P is rounded to the input dtype before PV, as it is written to the cube).
Masked positions take the most negative float32, as CANN's select does, so a fully
masked row averages V uniformly unless innerPrecise = 2 zeroes it.
"""
from __future__ import annotations

import numpy as np

from ...base.memview import tensor_view, write_out
from .golden import causal_mask, from_bnsd, to_bnsd

FILL = np.float32(np.finfo(np.float32).min)


def flash_attention_forward(q: np.ndarray, k: np.ndarray, v: np.ndarray, pse: np.ndarray | None,
                            masked: np.ndarray | None, scale: float, block_kv: int, p_dtype: np.dtype | None,
                            zero_invalid_rows: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Online-softmax attention on [B, N, Sq, D] / [B, Nkv, Skv, D] fp32 arrays.

    ``pse`` broadcasts to [B, N, Sq, Skv]; ``masked`` (bool, True = masked) too.
    Returns (out [B, N, Sq, Dv], row max [B, N, Sq], row sum [B, N, Sq]) in fp32.
    """
    b, n, s_q, _ = q.shape
    g = n // k.shape[1]
    if g > 1:
        k = np.repeat(k, g, axis=1)
        v = np.repeat(v, g, axis=1)
    s_kv = k.shape[2]
    m = np.full((b, n, s_q), -np.inf, np.float32)
    l = np.zeros((b, n, s_q), np.float32)
    acc = np.zeros((b, n, s_q, v.shape[3]), np.float32)
    sc = np.float32(scale)
    kt = k.swapaxes(-1, -2)
    for j0 in range(0, s_kv, block_kv):
        j1 = min(j0 + block_kv, s_kv)
        s = np.matmul(q, kt[..., j0:j1])
        if pse is not None:
            s = s + pse[..., j0:j1]
        s *= sc
        if masked is not None:
            s = np.where(masked[..., j0:j1], FILL, s)
        m_new = np.maximum(m, s.max(axis=-1))
        alpha = np.exp(m - m_new)
        p = np.exp(s - m_new[..., None])
        l = l * alpha + p.sum(axis=-1)
        if p_dtype is not None:
            p = p.astype(p_dtype).astype(np.float32)
        acc = acc * alpha[..., None] + np.matmul(p, v[..., j0:j1, :])
        m = m_new
    out = acc / l[..., None]
    if zero_invalid_rows and masked is not None:
        out = np.where(np.broadcast_to(masked, (b, n, s_q, s_kv)).all(axis=-1)[..., None], np.float32(0), out)
    return out, m, l


def fa_body(tensors: dict, *, layout: str, head_num: int, kv_head_num: int, scale: float, block_kv: int,
            sparse_mode: int, inner_precise: int, slot: dict[str, int]):
    """Body factory. ``tensors`` maps role -> aclTensor (query, key, value, pse, mask,
    softmax_max, softmax_sum, out); ``slot`` maps role -> executor slot index."""
    q_t = tensors["query"]
    half = None if q_t.np_dtype == np.float32 else q_t.np_dtype

    def make(addrs, ws):
        def body(mem):
            def read(role):
                return tensor_view(mem, addrs[slot[role]], tensors[role])
            q = to_bnsd(read("query"), layout, head_num).astype(np.float32)
            k = to_bnsd(read("key"), layout, kv_head_num).astype(np.float32)
            v = to_bnsd(read("value"), layout, kv_head_num).astype(np.float32)
            pse = read("pse").astype(np.float32) if "pse" in slot else None
            masked = None
            if "mask" in slot:
                if sparse_mode in (2, 3):
                    masked = causal_mask(q.shape[2], k.shape[2], sparse_mode)
                else:
                    masked = read("mask").astype(bool)
            out, m, l = flash_attention_forward(q, k, v, pse, masked, scale, block_kv, half, inner_precise == 2)
            write_out(mem, addrs[slot["out"]], tensors["out"], from_bnsd(out, layout))
            write_out(mem, addrs[slot["softmax_max"]], tensors["softmax_max"],
                      np.broadcast_to(m[..., None], m.shape + (8,)))
            write_out(mem, addrs[slot["softmax_sum"]], tensors["softmax_sum"],
                      np.broadcast_to(l[..., None], l.shape + (8,)))
        return body
    return make
