"""The encoder layer of :func:`.builders.encoder_layer` as an ONNX graph, spelled the way
torch.onnx exports a HF BERT layer (opset 17), so it runs through the ONNX path
(:class:`frontend.runner.ModelRunner`) in eager and in graph mode:

    q/k/v = MatMul(x, W) + b;  split heads: Reshape [B, S, N, D] + Transpose (K to [B, N, D, S])
    P = Softmax(Div(MatMul(Q, K^T), sqrt(D)));  O = Transpose(MatMul(P, V)) -> Reshape [B, S, H]
    x1 = LayerNormalization(x + (O W_o + b_o))
    u = x1 W_1 + b_1;  gelu(u) = u * (Erf(u / sqrt(2)) + 1) * 0.5     (the exported erf GELU)
    y = LayerNormalization(x1 + (gelu W_2 + b_2))

The attention subgraph becomes FlashAttentionScore at load time in both modes
(:mod:`frontend.fusion`); no padding mask. The builder in :mod:`.builders` calls the
aclnn ops directly (one aclnnGelu, aclnnAddmm with the bias): this graph is what a
deployed model's exporter gives the graph compiler instead. Weights are seeded random,
scaled 1/sqrt(fan_in) like the workload's (not the same draws).
"""
from __future__ import annotations

import math

import numpy as np
import onnx
from onnx import helper, numpy_helper

from .config import PRESETS, TransformerConfig

OPSET = 17


def encoder_layer_onnx(cfg: TransformerConfig = PRESETS["bert-base"], *, batch: int = 1, seq: int = 128,
                       seed: int = 0) -> onnx.ModelProto:
    """One post-LayerNorm encoder layer (module doc) as a ModelProto: input ``x``
    [batch, seq, hidden], output ``y`` of the same shape, both ``cfg.dtype``.
    Raises ValueError for a config the layer cannot use (not GELU + LayerNorm, or hidden
    not a multiple of heads)."""
    if cfg.ffn_kind != "gelu" or cfg.norm != "layernorm" or cfg.hidden % cfg.heads or cfg.kv_heads:
        raise ValueError(f"{cfg.name}: the ONNX encoder layer needs GELU, LayerNorm and MHA with hidden % heads == 0")
    dt = np.dtype(cfg.dtype)
    elem = helper.np_dtype_to_tensor_dtype(dt)
    h, n, d, f = cfg.hidden, cfg.heads, cfg.head_dim, cfg.ffn
    rng = np.random.default_rng(seed)
    inits: list = []
    nodes: list = []

    def const(name, arr, dtype=dt):
        inits.append(numpy_helper.from_array(np.asarray(arr, dtype), name))
        return name

    def param(name, shape, scale, center=0.0):
        return const(name, center + scale * rng.standard_normal(shape))

    def node(op, ins, out, **attrs):
        nodes.append(helper.make_node(op, ins, [out], name=out, **attrs))
        return out

    def linear(name, x, k, m):
        w = param(name + ".w", (k, m), 1 / math.sqrt(k))
        b = param(name + ".b", (m,), 0.02) if cfg.bias else None
        y = node("MatMul", [x, w], name + ".mm")
        return node("Add", [b, y], name + ".out") if b else y

    def layer_norm(name, x, out=None):
        g, b = param(name + ".g", (h,), 0.1, 1.0), param(name + ".b", (h,), 0.02)
        return node("LayerNormalization", [x, g, b], out or name + ".out", axis=-1, epsilon=cfg.eps)

    heads = const("shape_bsnd", [batch, seq, n, d], np.int64)
    merged = const("shape_bsh", [batch, seq, h], np.int64)
    split = {}
    for p in ("q", "k", "v"):
        r = node("Reshape", [linear(p, "x", h, h), heads], p + ".heads")
        split[p] = node("Transpose", [r], p + ".t", perm=[0, 2, 3, 1] if p == "k" else [0, 2, 1, 3])
    s = node("MatMul", [split["q"], split["k"]], "scores")
    s = node("Div", [s, const("sqrt_d", math.sqrt(d))], "scores.scaled")
    pr = node("Softmax", [s], "probs", axis=-1)
    o = node("Transpose", [node("MatMul", [pr, split["v"]], "ctx")], "ctx.t", perm=[0, 2, 1, 3])
    o = node("Reshape", [o, merged], "ctx.bsh")
    x1 = layer_norm("ln1", node("Add", ["x", linear("o", o, h, h)], "res1"))
    u = linear("ffn_up", x1, h, f)
    e = node("Erf", [node("Div", [u, const("sqrt2", math.sqrt(2.0))], "gelu.div")], "gelu.erf")
    e = node("Add", [e, const("one", 1.0)], "gelu.add")
    gl = node("Mul", [node("Mul", [u, e], "gelu.mul"), const("half", 0.5)], "gelu.out")
    layer_norm("ln2", node("Add", [x1, linear("ffn_down", gl, f, h)], "res2"), "y")
    g = helper.make_graph(nodes, f"encoder_layer_{cfg.name}", [helper.make_tensor_value_info("x", elem,
                                                                                            [batch, seq, h])],
                          [helper.make_tensor_value_info("y", elem, [batch, seq, h])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)])
    m.ir_version = 8
    return m
