"""Pass ``fuse_add_rms_norm``: a residual ``Add`` feeding ``RMSNormalization`` (opset 23)
becomes one ``FusedAddRmsNorm`` node, lowered to CANN's aclnnAddRmsNorm: one vector
kernel reads both addends once and writes the sum (xOut) and the normalised rows (yOut).

Matched: ``RMSNormalization(X, scale)`` with ``stash_type`` 1 whose X is produced by an
``Add`` (or a two-input ``Sum``) of two tensors of X's own shape (no broadcast), with
``scale`` of exactly X.shape[axis:] that is a constant, a graph input or a value
produced before the Add. The Add's result keeps its name as the fused node's second
output (aclnnAddRmsNorm's xOut), so other consumers of it (the residual stream of a
decoder) still read it: that is what xOut is for.

Not matched: a broadcasting Add (a bias), an Add feeding the scale rather than X, a
scale that only broadcasts, ``stash_type`` 0, shapes unknown at prepare time.

The fused node sits where the Add was (its consumers may come before the norm) and
keeps its members (``attrs["members"]``): lowering falls back to them if
aclnnAddRmsNorm refuses the operands (an integer dtype, say).
"""
from __future__ import annotations

from ..graph import Graph, Node
from .util import fused_names, producers, value_shape

FUSED_ADD_RMS_NORM = "FusedAddRmsNorm"


def _match(g: Graph, n: Node, prod: dict, pos: dict) -> Node | None:
    """The Add feeding ``n`` (an RMSNormalization) when the pair can fuse, else None."""
    if len(n.inputs) < 2 or not n.inputs[0] or not n.inputs[1] or int(n.attrs.get("stash_type", 1)) != 1:
        return None
    x, scale = n.inputs[0], n.inputs[1]
    p = prod.get(x)
    if p is None or p.op_type not in ("Add", "Sum") or len(p.inputs) != 2 or not all(p.inputs):
        return None
    xs = value_shape(g, x)
    if xs is None or any(value_shape(g, i) != xs for i in p.inputs):
        return None
    axis = int(n.attrs.get("axis", -1))
    if not -len(xs) <= axis < len(xs) or value_shape(g, scale) != xs[axis % len(xs):]:
        return None
    sp = prod.get(scale)
    if sp is not None and pos[id(sp)] > pos[id(p)]:
        return None
    return p


def fuse_add_rms_norm(g: Graph) -> int:
    """Fuse every matching Add + RMSNormalization pair (module doc) in place; returns
    how many fused nodes were made."""
    prod = producers(g)
    pos = {id(m): i for i, m in enumerate(g.nodes)}
    pairs = []
    used: set[int] = set()
    for n in g.nodes:
        if n.op_type != "RMSNormalization":
            continue
        p = _match(g, n, prod, pos)
        if p is None or id(p) in used or n.inputs[0] in n.inputs[1:]:   # one norm per Add
            continue
        used.add(id(p))
        pairs.append((p, n))
    fused: dict[int, Node] = {}   # id(Add) -> the node taking its place
    for k, (p, n) in enumerate(pairs):
        fused[id(p)] = Node(FUSED_ADD_RMS_NORM, f"{n.name}__add_rms_norm{k}",
                            [p.inputs[0], p.inputs[1], n.inputs[1]], [n.outputs[0], p.outputs[0]],
                            {"axis": int(n.attrs.get("axis", -1)), "epsilon": float(n.attrs.get("epsilon", 1e-5)),
                             "fused": [p.op_type] + fused_names(n), "members": [p, n]})
    norms = {id(n) for _, n in pairs}
    g.nodes[:] = [fused.get(id(m), m) for m in g.nodes if id(m) not in norms]   # one rebuild for all pairs
    return len(pairs)
