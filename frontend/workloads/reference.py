"""float64 numpy references of the built-in layers, from a workload's host weights and
inputs (tests compare the simulated outputs with these)."""
from __future__ import annotations

import math

import numpy as np

from .layer import LayerWorkload


def _ln(x, g, b, eps):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


def _rms(x, g, eps):
    return x / np.sqrt((x ** 2).mean(-1, keepdims=True) + eps) * g


def _attention(q, k, v, heads, kv_heads, mask=None):
    """q [B, Sq, H], k/v [B, Skv, Hk] -> [B, Sq, H] in float64 (mask [B,1,Sq,Skv], 1 = masked)."""
    b, s_q, h = q.shape
    d = h // heads
    qh = q.reshape(b, s_q, heads, d).transpose(0, 2, 1, 3)
    kh = np.repeat(k.reshape(b, -1, kv_heads, d).transpose(0, 2, 1, 3), heads // kv_heads, axis=1)
    vh = np.repeat(v.reshape(b, -1, kv_heads, d).transpose(0, 2, 1, 3), heads // kv_heads, axis=1)
    s = qh @ kh.swapaxes(-1, -2) / math.sqrt(d)
    if mask is not None:
        s = np.where(mask.astype(bool), -np.inf, s)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    return (p @ vh).transpose(0, 2, 1, 3).reshape(b, s_q, h)


def _ffn_ref(cfg, P, x):
    if cfg.ffn_kind == "gelu":
        from math import erf
        u = x @ P["ffn.w1"] + (P["ffn.b1"] if cfg.bias else 0)
        g = 0.5 * u * (1 + np.vectorize(erf)(u / math.sqrt(2)))
        return g @ P["ffn.w2"] + (P["ffn.b2"] if cfg.bias else 0)
    gate, up = x @ P["ffn.wg"], x @ P["ffn.wu"]
    return (gate / (1 + np.exp(-gate)) * up) @ P["ffn.wd"]


def encoder_layer_reference(wl: LayerWorkload) -> np.ndarray:
    """The layer in float64 numpy from the workload's host weights and input."""
    cfg, P = wl.cfg, {k: v.astype(np.float64) for k, v in wl.host.items()}
    x = P["x"]
    proj = {p: x @ P[f"w{p}"] + (P[f"b{p}"] if cfg.bias else 0) for p in "qkv"}
    a = _attention(proj["q"], proj["k"], proj["v"], cfg.heads, cfg.kv_heads or cfg.heads, wl.host.get("mask"))
    o = a @ P["wo"] + (P["bo"] if cfg.bias else 0)
    norm = (lambda z, n: _ln(z, P[f"{n}.g"], P[f"{n}.b"], cfg.eps)) if cfg.norm == "layernorm" else \
        (lambda z, n: _rms(z, P[f"{n}.g"], cfg.eps))
    x1 = norm(x + o, "ln1")
    return norm(x1 + _ffn_ref(cfg, P, x1), "ln2")


def decoder_step_reference(wl: LayerWorkload, cache_len: int) -> np.ndarray:
    """The decoder step in float64 numpy (new k/v appended to the first ``cache_len`` cached rows)."""
    cfg, P = wl.cfg, {k: v.astype(np.float64) for k, v in wl.host.items()}
    x = P["x"][:, 0]
    hn = _rms(x, P["norm1.g"], cfg.eps)
    q, k, v = hn @ P["wq"], hn @ P["wk"], hn @ P["wv"]
    keys = np.concatenate([P["k_cache"][:, :cache_len], k[:, None]], axis=1)
    vals = np.concatenate([P["v_cache"][:, :cache_len], v[:, None]], axis=1)
    a = _attention(q[:, None], keys, vals, cfg.heads, cfg.kv_heads or cfg.heads)[:, 0]
    x1 = x + a @ P["wo"]
    return (x1 + _ffn_ref(cfg, P, _rms(x1, P["norm2.g"], cfg.eps)))[:, None]
