"""Lowering of the opset-23 transformer ops onto the fused LLM kernels.

=================  ===================================================================
ONNX op            aclnn calls
=================  ===================================================================
RotaryEmbedding    the input copied to the output (aclnnCast, same dtype), then
(23)               aclnnApplyRotaryPosEmb in place on its [B, S, N, :rotary_dim] BSND
                   view (no key: a simulator extension), rotaryMode "interleave" for
                   ``interleaved=1``. cos/sin: rows picked by ``position_ids``
                   (aclnnEmbedding) when given, then each half-size row widened to the
                   rotary dim (repeated for the half form, each value twice for the
                   interleaved one) by an aclnnCast of a stride-0 view.
Attention (23)     decomposed onto existing kernels: MatMul (aclnnBatchMatMul) of Q and
                   K^T, scale and softcap (Mul, Div, Tanh), the mask and causal bias
                   (Where / Concat / Add; built at prepare time when the mask is a
                   constant), Softmax, a Where zeroing fully masked rows, MatMul with V;
                   past key/value by Concat, GQA by repeating key/value heads (an
                   aclnnCast of a stride-0 view), 3-D inputs through Transpose
=================  ===================================================================

RotaryEmbedding input layouts: 4-D [B, N, S, H] (seen as BSND through strides) or 3-D [B, S, N*H]
with ``num_heads``.
"""
from __future__ import annotations

import numpy as np

from .attrs import attr_int, bad
from .registry import register
from .attention_bias import host_bias, score_bias
from .tensors import cast_to, prepare, strided_view


def _wide_cache(ctx, node, cache, ids, b: int, s: int, half: int, interleaved: bool, what: str):
    """cos or sin as [B, S, 1, 2*half] (aclnnApplyRotaryPosEmb's full-width rows)."""
    base = f"{node.outputs[0]}__{what}"
    calls = []
    if ids is not None:
        if tuple(ids.shape) != (b, s):
            raise bad(node, f"position_ids shape {list(ids.shape)} must be [{b}, {s}]")
        if len(cache.shape) != 2 or cache.shape[1] != half:
            raise bad(node, f"{what}_cache shape {list(cache.shape)} must be [max_position, {half}]")
        rows = ctx.alloc(base + "_rows", (b, s, half), cache.dtype)
        calls.append(prepare(node, "aclnnEmbedding", cache.tensor, ids.tensor, rows.tensor))
    else:
        if tuple(cache.shape) != (b, s, half):
            raise bad(node, f"{what}_cache shape {list(cache.shape)} must be [{b}, {s}, {half}] without position_ids")
        rows = cache
    if interleaved:   # [B, S, half, 2]: each value twice
        v = strided_view(rows, base + "_bcast", (b, s, half, 2), (s * half, half, 1, 0))
    else:             # [B, S, 2, half]: the row twice
        v = strided_view(rows, base + "_bcast", (b, s, 2, half), (s * half, half, 0, 1))
    wide, cc = cast_to(ctx, node, v, cache.dtype, base + "_wide")
    calls.append(cc)
    return ctx.view(wide, base + "_bs1d", (b, s, 1, 2 * half)), calls


@register("RotaryEmbedding")
def lower_rotary_embedding(ctx, node, ins):
    x, cos_c, sin_c = ins[0], ins[1], ins[2]
    ids = ins[3] if len(ins) > 3 and ins[3] is not None else None
    interleaved = bool(attr_int(node, "interleaved", 0))
    if len(x.shape) == 4:
        b, n, s, h = (int(d) for d in x.shape)
        strides = (n * s * h, h, s * h, 1)           # [B, N, S, H] seen as [B, S, N, H]
    elif len(x.shape) == 3:
        b, s, hidden = (int(d) for d in x.shape)
        n = attr_int(node, "num_heads", 0)
        if n < 1 or hidden % n:
            raise bad(node, f"a 3-D input needs num_heads dividing the hidden size {hidden}, got {n}")
        h = hidden // n
        strides = (s * hidden, hidden, h, 1)
    else:
        raise bad(node, f"input must be 3-D or 4-D, got {list(x.shape)}")
    rot = attr_int(node, "rotary_embedding_dim", 0) or h
    if rot % 2 or not 0 < rot <= h:
        raise bad(node, f"rotary_embedding_dim {rot} must be even and at most the head size {h}")
    out, copy = cast_to(ctx, node, x, x.dtype, node.outputs[0])
    calls = [copy]
    q = strided_view(out, node.outputs[0] + "__bsnd", (b, s, n, rot), strides)
    cos, cc = _wide_cache(ctx, node, cos_c, ids, b, s, rot // 2, interleaved, "cos")
    sin, sc = _wide_cache(ctx, node, sin_c, ids, b, s, rot // 2, interleaved, "sin")
    calls += cc + sc
    calls.append(prepare(node, "aclnnApplyRotaryPosEmb", q.tensor, None, cos.tensor, sin.tensor, 1,
                         "interleave" if interleaved else "half"))
    return [out], calls


# ---- Attention (opset 23) -----------------------------------------------------------------

class _Seq:
    """Lowers synthetic one-op nodes in order (each through the op's own handler), so
    the decomposed Attention reuses the MatMul, Softmax, Where, ... lowerings."""

    def __init__(self, ctx, node):
        self.ctx, self.node, self.calls, self.k = ctx, node, [], 0

    def name(self, what: str) -> str:
        self.k += 1
        return f"{self.node.outputs[0]}__attn{self.k}_{what}"

    def op(self, op_type: str, ins: list, out: str | None = None, opset: int = 13, **attrs):
        from ..graph import Node
        from .dispatch import lower_node
        names = [t.name if t is not None else "" for t in ins]
        n = Node(op_type, f"{self.node.name}__{op_type.lower()}{self.k}", names, [out or self.name(op_type)], attrs)
        outs, calls = lower_node(self.ctx, n, ins, opset)
        self.calls.extend(calls)
        return outs[0]

    def const(self, arr, what: str):
        return self.ctx.upload(self.name(what), np.asarray(arr))

    def cast(self, t, dtype, out: str | None = None):
        """``t`` as ``dtype`` in a new contiguous tensor (aclnnCast; same dtype: a copy)."""
        c, call = cast_to(self.ctx, self.node, t, dtype, out or self.name("cast"))
        self.calls.append(call)
        return c

    def copy(self, t, out: str | None = None):
        return self.cast(t, t.dtype, out)


def _heads(seq, x, heads: int, what: str):
    """[B, S, heads*D] as [B, heads, S, D] (a Transpose of the reshaped view)."""
    b, s, hid = x.shape
    v = seq.ctx.view(x, seq.name(what + "_bshd"), (b, s, heads, hid // heads))
    return seq.op("Transpose", [v], perm=[0, 2, 1, 3])


def _repeat_heads(seq, t, rep: int):
    """[B, Hk, L, D] -> [B, Hk*rep, L, D], each head repeated ``rep`` times (GQA)."""
    if rep == 1:
        return t
    b, hk, L, d = t.shape
    v = strided_view(t, seq.name("gqa_view"), (b, hk, rep, L, d), (hk * L * d, L * d, 0, d, 1))
    full = seq.copy(v)
    return seq.ctx.view(full, seq.name("gqa"), (b, hk * rep, L, d))


@register("Attention")
def lower_attention(ctx, node, ins):
    """ONNX Attention (opset 23) decomposed: MatMul, scale, softcap, mask/causal bias,
    Softmax (fully masked rows give 0, as the spec says), MatMul; past key/value
    joined by Concat, GQA by repeating the key/value heads."""
    a = node.attrs
    ins = list(ins) + [None] * (7 - len(ins))
    q, k, v, mask, past_k, past_v = ins[:6]
    nonpad = ins[6] if len(ins) > 6 else None
    if q.dtype.kind != "f" and q.dtype.name != "bfloat16":
        raise bad(node, f"dtype {q.dtype} is not supported")
    seq = _Seq(ctx, node)
    three_d = len(q.shape) == 3
    if three_d:
        hq, hk = attr_int(node, "q_num_heads", 0), attr_int(node, "kv_num_heads", 0)
        if hq < 1 or hk < 1:
            raise bad(node, "3-D inputs need q_num_heads and kv_num_heads")
        q, k, v = _heads(seq, q, hq, "q"), _heads(seq, k, hk, "k"), _heads(seq, v, hk, "v")
    elif len(q.shape) != 4:
        raise bad(node, f"Q must be 3-D or 4-D, got {list(q.shape)}")
    hq, hk = q.shape[1], k.shape[1]
    if hq % hk or v.shape[1] != hk:
        raise bad(node, f"{hq} query heads are not a multiple of {hk} key/value heads")
    past_len = 0
    outs = {}
    if past_k is not None and past_v is not None:
        past_len = past_k.shape[2]
        k = seq.op("Concat", [past_k, k], axis=2)
        v = seq.op("Concat", [past_v, v], axis=2)
    elif past_k is not None or past_v is not None:
        raise bad(node, "past_key and past_value must be given together")
    want = [len(node.outputs) > i and bool(node.outputs[i]) for i in range(4)]
    if want[1]:
        outs[1] = seq.copy(k, node.outputs[1])
    if want[2]:
        outs[2] = seq.copy(v, node.outputs[2])
    q_len, kv_len, dt = q.shape[2], k.shape[2], q.dtype
    out_dt = dt
    if dt.name == "bfloat16":   # decomposed in float32, rounded once at the end (bf16 has 8 mantissa bits)
        dt = np.dtype(np.float32)
        q, k, v = (seq.cast(t, dt) for t in (q, k, v))
    scale = float(a["scale"]) if "scale" in a else 1.0 / np.sqrt(q.shape[3])
    win = (attr_int(node, "left_window_size", -1), attr_int(node, "right_window_size", -1))
    causal = bool(attr_int(node, "is_causal", 0))
    if not want[3] and float(a.get("softcap", 0.0)) <= 0 and nonpad is None and out_dt == dt:
        fa = _flash(seq, node, q, k, v, mask, q_len, kv_len, past_len, causal, win, scale, three_d)
        if fa is not None:
            outs[0] = fa
            return [outs.get(i) for i in range(len(node.outputs))], seq.calls
    kt = seq.op("Transpose", [_repeat_heads(seq, k, hq // hk)], perm=[0, 1, 3, 2])
    vv = _repeat_heads(seq, v, hq // hk)
    s = seq.op("MatMul", [q, kt])
    s = seq.op("Mul", [s, seq.const(np.array(scale, dt), "scale")])
    softcap = float(a.get("softcap", 0.0))
    if softcap > 0:
        c = seq.const(np.array(softcap, dt), "softcap")
        s = seq.op("Mul", [seq.op("Tanh", [seq.op("Div", [s, c])]), c])
    mode = attr_int(node, "qk_matmul_output_mode", 0)
    qk_out = s
    bias, dead = score_bias(seq, node, mask, nonpad, q_len, kv_len, past_len, causal, win, dt)
    if bias is not None:
        s = seq.op("Add", [s, bias])
    if mode == 2:
        qk_out = s
    p = seq.op("Softmax", [s], axis=-1)
    if dead is not None:
        p = seq.op("Where", [dead, seq.const(np.array(0, dt), "zero"), p])
    if mode == 3:
        qk_out = p
    rounded = out_dt != dt
    y = seq.op("MatMul", [p, vv], None if three_d or rounded else node.outputs[0])
    if three_d:
        t = seq.op("Transpose", [y], perm=[0, 2, 1, 3])
        b, sq, h, d = t.shape
        y = ctx.view(t, seq.name("y_flat"), (b, sq, h * d))
        y = seq.cast(y, out_dt, node.outputs[0]) if rounded else seq.copy(y, node.outputs[0])
    elif rounded:
        y = seq.cast(y, out_dt, node.outputs[0])
    outs[0] = y
    if want[3]:
        outs[3] = seq.cast(qk_out, out_dt, node.outputs[3])
    return [outs.get(i) for i in range(len(node.outputs))], seq.calls


def _flash(seq, node, q, k, v, mask, q_len, kv_len, past_len, causal, win, scale, three_d):
    """Y through one aclnnFlashAttentionScore (BNSD, GQA native) when the bias is known
    at prepare time and is a pure keep/drop mask (0 or -inf, no fully masked row); None
    when it does not fit (the caller decomposes)."""
    from ..errors import UnsupportedModelError
    if three_d or v.shape[3] > k.shape[3]:
        return None
    const_mask = seq.ctx.const(node.inputs[3]) if mask is not None else None
    if mask is not None and const_mask is None:
        return None
    b = host_bias(q_len, kv_len, causal, past_len, win, np.float32)
    if const_mask is not None:
        m = np.asarray(const_mask)
        m = np.where(m, 0, -np.inf) if m.dtype == np.bool_ else m.astype(np.float64)
        if m.shape[-1] < kv_len:
            m = np.concatenate([m, np.full(m.shape[:-1] + (kv_len - m.shape[-1],), -np.inf)], axis=-1)
        b = m if b is None else b + m
    drop = None
    if b is not None:
        if not np.all((b == 0) | np.isneginf(b)) or np.isneginf(b.max(axis=-1)).any():
            return None
        drop = np.isneginf(b)
        drop = drop.reshape((1,) * (4 - drop.ndim) + drop.shape) if drop.ndim < 4 else drop
        if drop.ndim != 4 or drop.shape[1] not in (1, q.shape[1]) or drop.shape[0] not in (1, q.shape[0]):
            return None
        if drop.shape[:2] == (1, 1):
            drop = drop[0, 0]
        drop = seq.const(drop, "fa_mask")
    bq, n, sq, _ = q.shape
    out = seq.ctx.alloc(node.outputs[0], (bq, n, sq, v.shape[3]), q.dtype)
    smax = seq.ctx.alloc(seq.name("softmax_max"), (bq, n, sq, 8), np.float32)
    ssum = seq.ctx.alloc(seq.name("softmax_sum"), (bq, n, sq, 8), np.float32)
    try:
        call = prepare(node, "aclnnFlashAttentionScore", q.tensor, k.tensor, v.tensor, None, None, None,
                       drop.tensor if drop is not None else None, None, scale, 1.0, 2147483647, 2147483647, n,
                       "BNSD", 0, 0, smax.tensor, ssum.tensor, None, out.tensor)
    except UnsupportedModelError:
        return None
    seq.calls.append(call)
    return out
