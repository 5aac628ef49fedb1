"""The additive score bias of the decomposed ONNX Attention (:mod:`.attention`): the
causal / sliding-window part known at prepare time, a runtime mask (bool via Where,
padded with -inf to the key length by Concat), opset 24's ``nonpad_kv_seqlen`` built on
the device by comparing constant index grids, and the fully-masked-row flags (ReduceMax,
IsInf) that make those rows' probabilities 0, as the spec asks."""
from __future__ import annotations

import numpy as np


def host_bias(q_len: int, kv_len: int, causal: bool, offset: int, win, dtype):
    """The causal and sliding-window bias [q, kv] for query i at position i + offset (0
    where key j may be attended: j <= i + offset if causal, within ``win`` = (left,
    right; -1 unbounded) of it; -inf elsewhere), or None when neither applies."""
    if not causal and win == (-1, -1):
        return None
    diff = np.arange(q_len)[:, None] + offset - np.arange(kv_len)[None, :]
    ok = np.ones(diff.shape, bool)
    if causal:
        ok &= diff >= 0
    if win[0] >= 0:
        ok &= diff <= win[0]
    if win[1] >= 0:
        ok &= -diff <= win[1]
    return np.where(ok, 0, -np.inf).astype(dtype)


def score_bias(seq, node, mask, nonpad, q_len, kv_len, past_len, causal, win, dt):
    """(bias tensor or None, fully-masked-row bool tensor or None) for the scores."""
    if nonpad is not None:
        return _nonpad_bias(seq, node, mask, nonpad, q_len, kv_len, causal, win, dt)
    causal_b = host_bias(q_len, kv_len, causal, past_len, win, dt)
    const_mask = seq.ctx.const(node.inputs[3]) if mask is not None else None
    if mask is None or const_mask is not None:     # everything known at prepare time
        if mask is None and causal_b is None:
            return None, None
        b = np.zeros((q_len, kv_len), dt) if causal_b is None else causal_b
        if const_mask is not None:
            m = np.asarray(const_mask)
            m = np.where(m, 0, -np.inf).astype(dt) if m.dtype == np.bool_ else m.astype(dt)
            pad = kv_len - m.shape[-1]
            if pad > 0:
                m = np.concatenate([m, np.full(m.shape[:-1] + (pad,), -np.inf, dt)], axis=-1)
            b = b + m
        dead = np.isneginf(b.max(axis=-1, keepdims=True))
        return seq.const(b, "bias"), (seq.const(dead, "dead") if dead.any() else None)
    m = _mask_bias(seq, mask, kv_len, dt)
    if causal_b is not None:
        m = seq.op("Add", [m, seq.const(causal_b, "causal")])
    mx = seq.op("ReduceMax", [m], axes=[-1], keepdims=1)
    dead = seq.op("IsInf", [mx], detect_positive=0, opset=20)
    return m, dead


def _mask_bias(seq, m, kv_len, dt):
    """A runtime mask as an additive bias padded to ``kv_len`` keys with -inf."""
    if m.dtype == np.bool_:
        m = seq.op("Where", [m, seq.const(np.array(0, dt), "zero"), seq.const(np.array(-np.inf, dt), "ninf")])
    pad = kv_len - m.shape[-1]
    if pad > 0:
        m = seq.op("Concat", [m, seq.const(np.full(tuple(m.shape[:-1]) + (pad,), -np.inf, dt), "pad")], axis=-1)
    return m


def _nonpad_bias(seq, node, mask, nonpad, q_len, kv_len, causal, win, dt):
    """Opset-24 external cache: key j of batch b is valid iff j < nonpad[b]; causal and
    window offsets are nonpad[b] - q_len. Built on the device by comparing constant
    index grids with nonpad [B, 1, 1, 1]."""
    b = nonpad.shape[0]
    n4 = seq.ctx.view(nonpad, seq.name("nonpad4"), (b, 1, 1, 1))
    i = np.arange(q_len)[:, None]
    j = np.arange(kv_len)[None, :]
    ok = seq.op("Less", [seq.const(np.broadcast_to(j, (q_len, kv_len)).astype(np.int64), "j"), n4])
    conds = []
    if causal:       # j <= i + nonpad - q  <=>  j - i + q <= nonpad
        conds.append(j - i + q_len)
    if win[0] >= 0:  # i + nonpad - q - j <= left  <=>  nonpad <= left - i + j + q
        conds.append(("ge", win[0] - i + j + q_len))
    if win[1] >= 0:  # j - (i + nonpad - q) <= right  <=>  j - i + q - right <= nonpad
        conds.append(j - i + q_len - win[1])
    for c in conds:
        if isinstance(c, tuple):
            cond = seq.op("LessOrEqual", [n4, seq.const(c[1].astype(np.int64), "grid")], opset=16)
        else:
            cond = seq.op("LessOrEqual", [seq.const(c.astype(np.int64), "grid"), n4], opset=16)
        ok = seq.op("And", [ok, cond])
    m = seq.op("Where", [ok, seq.const(np.array(0, dt), "zero"), seq.const(np.array(-np.inf, dt), "ninf")])
    if mask is not None:
        m = seq.op("Add", [_mask_bias(seq, mask, kv_len, dt), m])
    mx = seq.op("ReduceMax", [m], axes=[-1], keepdims=1)
    return m, seq.op("IsInf", [mx], detect_positive=0, opset=20)
