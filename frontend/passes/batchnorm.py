"""Pass ``fold_batchnorm``: inference BatchNormalization folded into the weights and
bias of the Conv or Gemm before it (what ATC's Conv+BN fusion does at build time).

BN(y) = s * (y - mean) + B with s = scale / sqrt(var + eps), per channel (axis 1).
For ``y = Conv(X, W, b)``: ``W' = W * s`` (per output channel), ``b' = s * (b - mean)
+ B``. For ``y = alpha * A @ op(Bm) + beta * C`` (Gemm): the columns of op(Bm) are
scaled by s and ``C' = s * beta * C + B - s * mean`` (beta becomes 1). The folded
statistics are combined in float64; a float32 weight is then scaled in float32 (one
rounding of s, one of the product: it may differ from a float64 product by an ulp),
other dtypes in float64, stored in the weight's dtype; the arithmetic is done here,
at prepare time, once. A metadata-only weight (timing-only runs,
:mod:`frontend.meta_const`) folds to a placeholder of the same shape, with no arithmetic.

Matches only when: BN is in inference mode (``training_mode=0``; one output in opsets
7-13; ``is_test=1`` before); its input is the Conv/Gemm output and that output has
no other consumer and is not a graph output; W, b (if any), C (if any) and the four
BN statistics are constants of shape [C_out] (C broadcastable to [N]); Gemm has no
``transA`` issue (A is untouched) and a 2-D output.
"""
from __future__ import annotations

import numpy as np

from ..graph import Graph, Node
from ..lowering.cnn import _training_reason
from ..meta_const import is_placeholder, like
from .util import consumers, fused_names, producers, sole_consumer


def _bn_params(g: Graph, bn: Node, c: int):
    """(s, shift) in float64 with shift = B - s * mean, or None when a statistic is not
    a per-channel constant of length ``c``."""
    if len(bn.inputs) < 5 or not all(bn.inputs[1:5]):
        return None
    arrs = [g.constants.get(n) for n in bn.inputs[1:5]]
    if any(a is None or np.asarray(a).shape != (c,) for a in arrs):
        return None
    scale, bias, mean, var = (np.asarray(a, np.float64) for a in arrs)
    eps = float(bn.attrs.get("epsilon", 1e-5))
    s = scale / np.sqrt(var + eps)
    return s, bias - s * mean


def _scaled(w: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``w * s`` in ``w``'s dtype. A float32 weight is multiplied in float32 by ``s``
    (computed in float64) rounded once to float32: one pass over the weight and no
    float64 copy (issue 17); the product may differ from the float64 one by an ulp.
    Other dtypes keep the float64 product, rounded once."""
    if w.dtype == np.float32:
        return np.multiply(w, s.astype(np.float32))
    return (w.astype(np.float64) * s).astype(w.dtype)


def _fold_conv(g: Graph, conv: Node, bn: Node) -> bool:
    w = g.constants.get(conv.inputs[1]) if len(conv.inputs) > 1 else None
    if w is None or np.asarray(w).ndim < 3:
        return False
    w = np.asarray(w)
    b_name = conv.inputs[2] if len(conv.inputs) > 2 and conv.inputs[2] else ""
    b = g.constants.get(b_name) if b_name else np.zeros(w.shape[0], w.dtype)
    if b is None or np.asarray(b).shape != (w.shape[0],):
        return False
    p = _bn_params(g, bn, w.shape[0])
    if p is None:
        return False
    s, shift = p
    w2 = like(w.shape, w) if is_placeholder(w) else _scaled(w, s.reshape((-1,) + (1,) * (w.ndim - 1)))
    b2 = (s * np.asarray(b, np.float64) + shift).astype(w.dtype if w.dtype.kind == "f" else np.float32)
    wn, bnn = f"{conv.name}__bn_folded_w", f"{conv.name}__bn_folded_b"
    g.constants[wn], g.constants[bnn] = w2, b2
    conv.inputs = [conv.inputs[0], wn, bnn]
    return True


def _fold_gemm(g: Graph, gemm: Node, bn: Node) -> bool:
    if len(gemm.inputs) < 2 or len(g.shapes.get(gemm.outputs[0], ())) != 2:
        return False
    bm = g.constants.get(gemm.inputs[1])
    if bm is None or np.asarray(bm).ndim != 2:
        return False
    bm = np.asarray(bm)
    trans_b = int(gemm.attrs.get("transB", 0))
    n = bm.shape[0] if trans_b else bm.shape[1]
    c_name = gemm.inputs[2] if len(gemm.inputs) > 2 and gemm.inputs[2] else ""
    c = g.constants.get(c_name) if c_name else np.zeros((), bm.dtype)
    p = _bn_params(g, bn, n)
    if c is None or p is None:
        return False
    try:
        cb = np.broadcast_to(np.asarray(c, np.float64), (n,)) if np.asarray(c).ndim <= 1 else None
    except ValueError:
        return False
    if cb is None:
        return False
    s, shift = p
    bm2 = like(bm.shape, bm) if is_placeholder(bm) else _scaled(bm, s[:, None] if trans_b else s[None, :])
    c2 = s * float(gemm.attrs.get("beta", 1.0)) * cb + shift
    bn_, cn = f"{gemm.name}__bn_folded_b", f"{gemm.name}__bn_folded_c"
    g.constants[bn_], g.constants[cn] = bm2, c2.astype(bm.dtype)
    gemm.inputs = [gemm.inputs[0], bn_, cn]
    gemm.attrs = dict(gemm.attrs, beta=1.0)
    return True


def fold_batchnorm(g: Graph) -> int:
    """Fold every matching BatchNormalization (module doc) in place; returns how many."""
    folded = 0
    prod = producers(g)
    cons = consumers(g)
    drop = set()
    for bn in g.nodes:
        if bn.op_type != "BatchNormalization" or not bn.inputs or _training_reason(bn, g.opset):
            continue
        src = prod.get(bn.inputs[0])
        if src is None or src.op_type not in ("Conv", "Gemm") or sole_consumer(g, cons, bn.inputs[0]) is not bn:
            continue
        ok = _fold_conv(g, src, bn) if src.op_type == "Conv" else _fold_gemm(g, src, bn)
        if not ok:
            continue
        src.attrs = dict(src.attrs, fused=fused_names(src) + ["BatchNormalization"])
        if src.op_type == "Conv":
            src.op_type = "FusedConv"   # lowered to aclnnFusedConvolution, which names its members
        src.outputs = [bn.outputs[0]]
        drop.add(id(bn))
        folded += 1
    g.nodes[:] = [n for n in g.nodes if id(n) not in drop]
    return folded
