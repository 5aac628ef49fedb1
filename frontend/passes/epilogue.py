"""Pass ``fuse_cube_epilogue``: an activation after a convolution applied by FixPipe as
L0C drains to GM, so it costs no vector kernel and no HBM round trip.

Matches ``Conv`` (or a ``FusedConv`` left by ``fold_batchnorm``) whose output's only
consumer is one of:

=========  ==============================================  ============================
op         FixPipe epilogue                                 attrs
=========  ==============================================  ============================
Relu       relu                                             --
LeakyRelu  leaky_relu, slope ``alpha`` (ONNX default 0.01)  alpha
Clip       clip to [min, max] (ReLU6 is Clip(0, 6)); the    min/max inputs (opset >= 11)
           bounds must be constants (absent = unbounded)    or attributes (before)
=========  ==============================================  ============================

and that output is not a graph output. Not matched: a second consumer of the conv
output (its pre-activation value must reach HBM), runtime Clip bounds, any other op.
The result is one ``FusedConv`` node (lowered to ``aclnnFusedConvolution``, an
npu-sim graph-mode kernel) with ``attrs["activation"]``, ``activation_alpha`` and
``activation_beta``. Gemm/MatMul epilogues are not rewritten yet.
"""
from __future__ import annotations

import numpy as np

from ..graph import Graph, Node
from .util import consumers, fused_names, sole_consumer

FUSED_CONV = "FusedConv"


def _clip_bounds(g: Graph, n: Node) -> tuple[float, float] | None:
    if g.opset < 11:
        return float(n.attrs.get("min", -np.inf)), float(n.attrs.get("max", np.inf))
    bounds = []
    for i, default in ((1, -np.inf), (2, np.inf)):
        name = n.inputs[i] if len(n.inputs) > i else ""
        if not name:
            bounds.append(default)
            continue
        v = g.constants.get(name)
        if v is None or np.asarray(v).size != 1:
            return None
        bounds.append(float(np.asarray(v).reshape(-1)[0]))
    return bounds[0], bounds[1]


def _activation(g: Graph, n: Node) -> tuple[str, float, float] | None:
    if n.op_type == "Relu":
        return "relu", 0.0, 0.0
    if n.op_type == "LeakyRelu":
        return "leaky_relu", float(n.attrs.get("alpha", 0.01)), 0.0
    if n.op_type == "Clip":
        b = _clip_bounds(g, n)
        return None if b is None else ("clip", b[0], b[1])
    return None


def fuse_cube_epilogue(g: Graph) -> int:
    """Fuse every matching Conv + activation (module doc) in place; returns how many."""
    cons = consumers(g)
    drop = set()
    for conv in g.nodes:
        if conv.op_type not in ("Conv", FUSED_CONV) or not conv.outputs or conv.attrs.get("activation"):
            continue
        act_node = sole_consumer(g, cons, conv.outputs[0])
        if act_node is None or not act_node.inputs or act_node.inputs[0] != conv.outputs[0]:
            continue
        act = _activation(g, act_node)
        if act is None:
            continue
        conv.op_type = FUSED_CONV
        conv.attrs = dict(conv.attrs, fused=fused_names(conv) + [act_node.op_type], activation=act[0],
                          activation_alpha=act[1], activation_beta=act[2])
        conv.outputs = [act_node.outputs[0]]
        drop.add(id(act_node))
    g.nodes[:] = [n for n in g.nodes if id(n) not in drop]
    return len(drop)
