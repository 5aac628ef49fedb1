"""Build (phase 1) the encoder layer and the decoder step (formulas in
:mod:`frontend.workloads`) into a :class:`~.layer.LayerWorkload`."""
from __future__ import annotations

import math

import numpy as np

import opsnn
from opsnn.base.dtypes import from_numpy_dtype

from .config import PRESETS, TransformerConfig
from .layer import LayerWorkload


def _norm(wl: LayerWorkload, label: str, x, gamma, beta, out, rows: int) -> None:
    cfg = wl.cfg
    if cfg.norm == "layernorm":
        wl.op(label, "aclnnLayerNorm", x, opsnn.aclCreateIntArray([cfg.hidden]), gamma, beta, cfg.eps, out, None, None)
    else:
        rstd = wl.buffer(label + ".rstd", (rows, 1), np.float32)
        wl.op(label, "aclnnRmsNorm", x, gamma, cfg.eps, out, rstd)


def _ffn(wl: LayerWorkload, prefix: str, x2d, rows: int, out2d) -> None:
    cfg = wl.cfg
    h, f = cfg.hidden, cfg.ffn
    sc_in, sc_out = 1 / math.sqrt(h), 1 / math.sqrt(f)
    bias = cfg.bias
    if cfg.ffn_kind == "gelu":
        w1, w2 = wl.param(f"{prefix}.w1", (h, f), sc_in), wl.param(f"{prefix}.w2", (f, h), sc_out)
        b1 = wl.param(f"{prefix}.b1", (f,), 0.02) if bias else None
        b2 = wl.param(f"{prefix}.b2", (h,), 0.02) if bias else None
        u = wl.buffer(f"{prefix}.up", (rows, f))
        g = wl.buffer(f"{prefix}.act", (rows, f))
        wl.linear("ffn_up", x2d, w1, b1, u)
        wl.op("gelu", "aclnnGelu", u, g)
        wl.linear("ffn_down", g, w2, b2, out2d)
    elif cfg.ffn_kind == "silu_gated":
        wg, wu = wl.param(f"{prefix}.wg", (h, f), sc_in), wl.param(f"{prefix}.wu", (h, f), sc_in)
        wd = wl.param(f"{prefix}.wd", (f, h), sc_out)
        gate, up = wl.buffer(f"{prefix}.gate", (rows, f)), wl.buffer(f"{prefix}.upv", (rows, f))
        act, prod = wl.buffer(f"{prefix}.silu", (rows, f)), wl.buffer(f"{prefix}.gated", (rows, f))
        wl.linear("ffn_gate", x2d, wg, None, gate)
        wl.linear("ffn_up", x2d, wu, None, up)
        wl.op("silu", "aclnnSilu", gate, act)
        wl.op("gate_mul", "aclnnMul", act, up, prod)
        wl.linear("ffn_down", prod, wd, None, out2d)
    else:
        raise ValueError(f"unknown ffn_kind {cfg.ffn_kind!r}")


def _check_cfg(cfg: TransformerConfig) -> None:
    if cfg.hidden % cfg.heads or (cfg.kv_heads and cfg.heads % cfg.kv_heads):
        raise ValueError(f"{cfg.name}: hidden {cfg.hidden} must split into {cfg.heads} heads and heads into "
                         f"{cfg.kv_heads} kv heads")


def encoder_layer(session, cfg: TransformerConfig = PRESETS["bert-base"], *, batch: int = 1, seq: int = 128,
                  lengths=None, seed: int = 0) -> LayerWorkload:
    """Build (phase 1) one encoder layer (module docstring) on an open Session.

    ``lengths``: per-sequence valid lengths (padding mask: key positions >= length are
    masked, 1 = masked as CANN's attenMask); None for no mask. Outputs: ``"y"`` [B, S, H].
    Raises ValueError for inconsistent sizes, OpError if an op's phase 1 fails."""
    _check_cfg(cfg)
    wl = LayerWorkload(session, f"encoder_layer[{cfg.name}, B={batch}, S={seq}]", cfg, seed)
    h, t = cfg.hidden, batch * seq
    x = wl.param("x", (batch, seq, h))
    x2 = wl.view("x2d", x, (t, h), (h, 1))
    sc = 1 / math.sqrt(h)
    proj = {}
    for p in ("q", "k", "v"):
        w = wl.param(f"w{p}", (h, cfg.kv_hidden if p != "q" else h), sc)
        b = wl.param(f"b{p}", (w.shape[1],), 0.02) if cfg.bias else None
        out = wl.buffer(p, (batch, seq, w.shape[1]))
        wl.linear(f"{p}_proj", x2, w, b, wl.view(p + "2d", out, (t, w.shape[1]), (w.shape[1], 1)))
        proj[p] = out
    mask = None
    if lengths is not None:
        lengths = np.asarray(lengths, np.int64).reshape(batch)
        m = (np.arange(seq)[None, None, None, :] >= lengths[:, None, None, None])
        m = np.broadcast_to(m, (batch, 1, seq, seq)).astype(np.uint8)
        wl.host["mask"] = m
        mask = session.to_device(np.ascontiguousarray(m)) if wl.backed else wl.buffer("mask", m.shape, np.uint8)
    attn = wl.buffer("attn", (batch, seq, h))
    smax = wl.buffer("softmax_max", (batch, cfg.heads, seq, 8), np.float32)
    ssum = wl.buffer("softmax_sum", (batch, cfg.heads, seq, 8), np.float32)
    wl.op("attention", "aclnnFlashAttentionScore", proj["q"], proj["k"], proj["v"], None, None, None, mask, None,
          1 / math.sqrt(cfg.head_dim), 1.0, 2147483647, 2147483647, cfg.heads, "BSH", 0, 0, smax, ssum, None, attn)
    wo = wl.param("wo", (h, h), sc)
    bo = wl.param("bo", (h,), 0.02) if cfg.bias else None
    o = wl.buffer("o", (batch, seq, h))
    wl.linear("o_proj", wl.view("attn2d", attn, (t, h), (h, 1)), wo, bo, wl.view("o2d", o, (t, h), (h, 1)))
    r1 = wl.buffer("res1", (batch, seq, h))
    wl.add("residual_1", x, o, r1)
    g1, be1 = wl.param("ln1.g", (h,), 0.1, 1.0), wl.param("ln1.b", (h,), 0.02)
    x1 = wl.buffer("x1", (batch, seq, h))
    _norm(wl, "norm_1", r1, g1, be1, x1, t)
    f = wl.buffer("ffn_out", (batch, seq, h))
    _ffn(wl, "ffn", wl.view("x1_2d", x1, (t, h), (h, 1)), t, wl.view("f2d", f, (t, h), (h, 1)))
    r2 = wl.buffer("res2", (batch, seq, h))
    wl.add("residual_2", x1, f, r2)
    g2, be2 = wl.param("ln2.g", (h,), 0.1, 1.0), wl.param("ln2.b", (h,), 0.02)
    wl.buffer("y", (batch, seq, h))
    _norm(wl, "norm_2", r2, g2, be2, wl.buffers["y"], t)
    wl.outputs = ["y"]
    return wl


def decoder_step(session, cfg: TransformerConfig = PRESETS["llama-7b"], *, batch: int = 1, cache_len: int = 1024,
                 max_cache: int | None = None, seed: int = 0) -> LayerWorkload:
    """Build (phase 1) one decoder step with a KV cache (module docstring).

    ``cache_len`` tokens are already cached (positions 0..cache_len-1, seeded random);
    the step writes position ``cache_len`` and attends over cache_len + 1 keys.
    ``max_cache`` (>= cache_len + 1) sizes the cache buffers [B, max_cache, H_kv].
    Outputs: ``"y"`` [B, 1, H], ``"k_cache"``, ``"v_cache"``."""
    _check_cfg(cfg)
    s_max = max_cache or cache_len + 1
    if s_max < cache_len + 1:
        raise ValueError(f"max_cache {s_max} must exceed cache_len {cache_len}")
    wl = LayerWorkload(session, f"decoder_step[{cfg.name}, B={batch}, cache={cache_len}]", cfg, seed)
    h, hk, b = cfg.hidden, cfg.kv_hidden, batch
    sc = 1 / math.sqrt(h)
    x = wl.param("x", (b, 1, h))
    x2 = wl.view("x2d", x, (b, h), (h, 1))
    k_cache = wl.param("k_cache", (b, s_max, hk))
    v_cache = wl.param("v_cache", (b, s_max, hk))
    g1 = wl.param("norm1.g", (h,), 0.1, 1.0)
    hn = wl.buffer("h", (b, h))
    _norm(wl, "norm_1", x2, g1, None, hn, b)
    q = wl.buffer("q", (b, 1, h))
    k_new, v_new = wl.buffer("k_new", (b, 1, hk)), wl.buffer("v_new", (b, 1, hk))
    for name, out, width in (("q", q, h), ("k", k_new, hk), ("v", v_new, hk)):
        w = wl.param(f"w{name}", (h, width), sc)
        wl.linear(f"{name}_proj", hn, w, None, wl.view(f"{name}2d", out, (b, width), (width, 1)))
    pos = cache_len
    for name, new, cache in (("k", k_new, k_cache), ("v", v_new, v_cache)):
        slot = wl.view(f"{name}_slot", cache, (b, 1, hk), (s_max * hk, hk, 1), pos * hk)
        wl.op(f"{name}_cache_write", "aclnnCast", new, from_numpy_dtype(wl.dtype), slot)
    keys = wl.view("keys", k_cache, (b, pos + 1, hk), (s_max * hk, hk, 1))
    vals = wl.view("values", v_cache, (b, pos + 1, hk), (s_max * hk, hk, 1))
    attn = wl.buffer("attn", (b, 1, h))
    smax = wl.buffer("softmax_max", (b, cfg.heads, 1, 8), np.float32)
    ssum = wl.buffer("softmax_sum", (b, cfg.heads, 1, 8), np.float32)
    wl.op("attention", "aclnnFlashAttentionScore", q, keys, vals, None, None, None, None, None,
          1 / math.sqrt(cfg.head_dim), 1.0, 2147483647, 2147483647, cfg.heads, "BSH", 0, 0, smax, ssum, None, attn)
    wo = wl.param("wo", (h, h), sc)
    o = wl.buffer("o", (b, h))
    wl.linear("o_proj", wl.view("attn2d", attn, (b, h), (h, 1)), wo, None, o)
    x1 = wl.buffer("x1", (b, h))
    wl.add("residual_1", x2, o, x1)
    g2 = wl.param("norm2.g", (h,), 0.1, 1.0)
    h2 = wl.buffer("h2", (b, h))
    _norm(wl, "norm_2", x1, g2, None, h2, b)
    f = wl.buffer("ffn_out", (b, h))
    _ffn(wl, "ffn", h2, b, f)
    wl.buffer("y", (b, 1, h))
    wl.add("residual_2", x1, f, wl.view("y2d", wl.buffers["y"], (b, h), (h, 1)))
    wl.outputs = ["y", "k_cache", "v_cache"]
    return wl
