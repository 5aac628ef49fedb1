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
``activation_beta``.

Residual add (before the activation): a ``Conv`` / ``FusedConv`` with no activation
yet whose output's only consumer is ``Add`` or a two-input ``Sum`` of that output and
an ``other`` tensor, then optionally an activation as above as the Add's only
consumer, becomes one ``FusedConv`` with ``attrs["residual"]`` = True and ``other``
as its fourth input (``""`` in the bias slot when there is no bias): the kernel adds
``other`` to the fp32 accumulator, then applies the activation. Conditions: 2-D (a
4-D conv output), ``other`` not the conv's own output and not a constant, its static
shape equal to the conv output's (no broadcast); otherwise the Add stays (and the
vector fusion may take it). The fused node takes the Add's place in node order, after
``other``'s producer. Source: CANN's graph fusion reference lists, for Atlas A2,
``TbeConvFixPipeFusionPass`` (conv2d with the fixpipe node built by
FIXPIPEFUSIONPASS and an optional element-wise op) and notes an Add "converted to the
Fixpipe operator" (``TbeConv2DAddMulQuantPass``): the A2 FixPipe reads a second GM
operand for the element-wise add as L0C drains.

On the matmul side: ``MatMul(A, W)`` with a constant 2-D ``W`` [K, N] and A at least
2-D, then optionally ``Add`` of a constant bias of N values (shape [N], or 1s then N)
as the only consumer, then optionally an activation as above (at least one of the
two), becomes one ``FusedMatMul`` node (``aclnnFusedMatmul``: bias in the BiasTable,
activation in FixPipe). ``Gemm`` with ``alpha`` = 1, no ``transA`` and a constant C
of N values (or none) followed by an activation, or one ``fold_batchnorm`` changed,
becomes one too (``transB`` kept).
"""
from __future__ import annotations

import numpy as np

from ..graph import Graph, Node
from .util import consumers, fused_names, sole_consumer, value_shape

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


FUSED_MATMUL = "FusedMatMul"


def _n_values(g: Graph, name: str, n: int) -> np.ndarray | None:
    """The constant ``name`` as a flat [n] array if it holds n values along its last
    axis (leading dims 1), else None."""
    v = g.constants.get(name) if name else None
    if v is None:
        return None
    v = np.asarray(v)
    if v.ndim < 1 or v.shape[-1] != n or v.size != n or v.dtype.kind != "f":
        return None
    return v.reshape(n)


def _fuse_matmul(g: Graph, cons, mm: Node, drop: set, pos: dict) -> bool:
    a_shape = g.shapes.get(mm.inputs[0]) if mm.inputs else None
    if mm.op_type == "MatMul":
        w = g.constants.get(mm.inputs[1]) if len(mm.inputs) == 2 else None
        if w is None or np.asarray(w).ndim != 2 or a_shape is None or len(a_shape) < 2:
            return False
        n, bias, trans_b, chain = np.asarray(w).shape[1], None, 0, [mm]
        add = sole_consumer(g, cons, mm.outputs[0])
        if add is not None and add.op_type == "Add" and len(add.inputs) == 2 and mm.outputs[0] in add.inputs:
            other = [i for i in add.inputs if i != mm.outputs[0]]
            bias = _n_values(g, other[0], n) if len(other) == 1 else None
            if bias is not None:
                chain.append(add)
    else:  # Gemm
        if float(mm.attrs.get("alpha", 1.0)) != 1.0 or int(mm.attrs.get("transA", 0)) or len(mm.inputs) < 2:
            return False
        bm = g.constants.get(mm.inputs[1])
        if bm is None or np.asarray(bm).ndim != 2:
            return False
        trans_b = int(mm.attrs.get("transB", 0))
        n, chain = np.asarray(bm).shape[0 if trans_b else 1], [mm]
        c_name = mm.inputs[2] if len(mm.inputs) > 2 else ""
        bias = _n_values(g, c_name, n) if c_name else None
        if c_name and bias is None:
            return False
        if bias is not None:
            bias = bias * float(mm.attrs.get("beta", 1.0))
    last = chain[-1]
    act_node = sole_consumer(g, cons, last.outputs[0])
    act = _activation(g, act_node) if act_node is not None and act_node.inputs[0] == last.outputs[0] else None
    if act is not None:
        chain.append(act_node)
    if len(chain) == 1 and not mm.attrs.get("fused"):   # a BN-folded Gemm alone still names its members
        return False
    ins = [mm.inputs[0], mm.inputs[1]]
    if bias is not None:
        bn = f"{mm.name}__fused_bias"
        g.constants[bn] = bias.astype(np.float32)
        ins.append(bn)
    act = act or ("none", 0.0, 0.0)
    fused = Node(FUSED_MATMUL, mm.name, ins, [chain[-1].outputs[0]],
                 {"fused": fused_names(mm) + [c.op_type for c in chain[1:]], "activation": act[0],
                  "activation_alpha": act[1], "activation_beta": act[2], "transB": trans_b})
    g.nodes[pos[id(mm)]] = fused
    drop.update(id(c) for c in chain[1:])
    return True


def _residual(g: Graph, cons, conv: Node) -> tuple[Node, str] | None:
    """(the Add, its other operand) if ``conv``'s output feeds a residual add the
    FixPipe epilogue can take (module doc), else None."""
    y = conv.outputs[0]
    add = sole_consumer(g, cons, y)
    if add is None or add.op_type not in ("Add", "Sum") or len(add.inputs) != 2 or len(add.outputs) != 1:
        return None
    other = [i for i in add.inputs if i != y]
    if len(other) != 1 or not other[0] or other[0] in g.constants:
        return None
    ys, os_ = value_shape(g, y), value_shape(g, other[0])
    if ys is None or len(ys) != 4 or os_ is None or tuple(os_) != tuple(ys):
        return None
    return add, other[0]


def _fuse_residual(g: Graph, cons, conv: Node, drop: set, moved: dict) -> bool:
    """Conv -> Add(other) [-> activation] as one FusedConv (module doc), in place."""
    found = _residual(g, cons, conv)
    if found is None or conv.attrs.get("residual") or id(found[0]) in moved:
        return False   # (an Add of two conv outputs is taken by the first conv only)
    add, other = found
    chain = [add]
    act_node = sole_consumer(g, cons, add.outputs[0])
    act = _activation(g, act_node) if act_node is not None and act_node.inputs[0] == add.outputs[0] else None
    if act is not None:
        chain.append(act_node)
    act = act or ("none", 0.0, 0.0)
    ins = list(conv.inputs[:3]) + [""] * (3 - len(conv.inputs[:3]))
    conv.inputs = ins[:3] + [other]
    conv.attrs = dict(conv.attrs, fused=fused_names(conv) + [c.op_type for c in chain], residual=True,
                      activation=act[0], activation_alpha=act[1], activation_beta=act[2])
    conv.op_type = FUSED_CONV
    conv.outputs = [chain[-1].outputs[0]]
    moved[id(add)] = conv   # the fused node runs where the Add ran: after other's producer
    drop.add(id(conv))
    drop.update(id(c) for c in chain[1:])
    return True


def fuse_cube_epilogue(g: Graph) -> int:
    """Fuse every matching Conv/MatMul/Gemm + bias/activation (module doc) in place;
    returns how many."""
    cons = consumers(g)
    drop = set()
    fused_mm = 0
    pos = {id(n): i for i, n in enumerate(g.nodes)}   # a fused matmul takes its source's slot: no shifts
    for mm in list(g.nodes):
        if mm.op_type in ("MatMul", "Gemm") and mm.outputs and id(mm) not in drop:
            fused_mm += _fuse_matmul(g, cons, mm, drop, pos)
    g.nodes[:] = [n for n in g.nodes if id(n) not in drop]
    drop, moved = set(), {}
    fused_res = 0
    for conv in list(g.nodes):
        if conv.op_type not in ("Conv", FUSED_CONV) or not conv.outputs or conv.attrs.get("activation"):
            continue
        fused_res += _fuse_residual(g, cons, conv, drop, moved)
    g.nodes[:] = [moved.get(id(n), n) for n in g.nodes if id(n) not in drop or id(n) in moved]
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
        conv.attrs = dict(conv.attrs, fused=fused_names(conv) + [act_node.op_type], activation=act[0],
                          activation_alpha=act[1], activation_beta=act[2])
        conv.op_type = FUSED_CONV
        conv.outputs = [act_node.outputs[0]]
        drop.add(id(act_node))
    g.nodes[:] = [n for n in g.nodes if id(n) not in drop]
    return len(drop) + fused_mm + fused_res
