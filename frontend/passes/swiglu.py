"""Pass ``fuse_swiglu``: the SwiGLU gate of an LLM MLP, ``silu(a) * b``, becomes one
``FusedSwiGlu`` node lowered to CANN's aclnnSwiGlu (one vector kernel, the gate's
intermediates in UB).

Matched: ``Mul(Mul(a, Sigmoid(a)), b)`` (either operand order at each Mul) where the
Sigmoid and the inner Mul have no other consumer, ``a`` is read only by the Sigmoid
and the inner Mul, ``b`` only by the outer Mul, and

* ``a``, ``b`` are the two outputs of one ``Split`` into equal halves (``split``
  constant, attribute or ``num_outputs``=2): SwiGlu(x, dim=axis); or
* ``a = MatMul(h, Wg)``, ``b = MatMul(h, Wu)`` with the same ``h`` and constant 2-D
  weights of one shape [K, F]: the weights are joined at prepare time into [K, 2F]
  (one MatMul, one pass over ``h``) and SwiGlu splits the result along its last axis.

Not matched: a gate or product with a second consumer (it must reach HBM), ``b == a``,
a Split into unequal halves, MatMuls over different inputs or with runtime weights.
Fallback: the members (``attrs["members"]``) when aclnnSwiGlu refuses the operands.
"""
from __future__ import annotations

import numpy as np

from ..graph import Graph, Node
from ..meta_const import is_placeholder, like
from .util import NodeMaps

FUSED_SWIGLU = "FusedSwiGlu"


def _only(cons, name: str, *readers: Node) -> bool:
    got = cons.get(name, [])
    return len(got) == len(readers) and all(any(r is c for c in got) for r in readers)


def _gate(prod, cons, g, m_name: str):
    """(a, sigmoid node, inner mul) when ``m_name`` = a * sigmoid(a), else None."""
    m = prod.get(m_name)
    if m is None or m.op_type != "Mul" or len(m.inputs) != 2 or m_name in g.outputs:
        return None
    for a, s_name in (m.inputs, m.inputs[::-1]):
        s = prod.get(s_name)
        if s is not None and s.op_type == "Sigmoid" and s.inputs == [a] and _only(cons, s_name, m) \
                and s_name not in g.outputs and _only(cons, a, s, m) and a not in g.outputs:
            return a, s, m
    return None


def _split_halves(g: Graph, sp: Node, shape) -> int | None:
    """The axis when Split ``sp`` cuts ``shape`` into two equal halves, else None."""
    if len(sp.outputs) != 2 or shape is None:
        return None
    axis = int(sp.attrs.get("axis", 0)) % len(shape)
    if shape[axis] % 2:
        return None
    sizes = sp.attrs.get("split")
    if len(sp.inputs) > 1 and sp.inputs[1]:
        c = g.constants.get(sp.inputs[1])
        sizes = None if c is None else [int(v) for v in np.asarray(c).reshape(-1)]
        if sizes is None:
            return None
    if sizes is not None and [int(v) for v in sizes] != [shape[axis] // 2] * 2:
        return None
    return axis


def fuse_swiglu(g: Graph) -> int:
    """Fuse every SwiGLU gate (module doc) in place; returns how many were fused."""
    maps = NodeMaps(g)          # kept by each rewrite
    done = 0
    removed: set[int] = set()   # ids of nodes a rewrite took out of g.nodes
    for y in list(g.nodes):
        if y.op_type != "Mul" or len(y.inputs) != 2 or id(y) in removed:
            continue
        for m_name, b in (y.inputs, y.inputs[::-1]):
            prod, cons = maps.prod, maps.cons
            got = _gate(prod, cons, g, m_name)
            if got is None or b == got[0] or not _only(cons, m_name, y) or not _only(cons, b, y) or b in g.outputs:
                continue
            a, s, m = got
            pa, pb = prod.get(a), prod.get(b)
            gone = _rewrite(g, maps, y, a, b, s, m, pa, pb, done)
            if gone:
                done += 1
                removed.update(id(n) for n in gone)
                break
    maps.flush()
    return done


def _rewrite(g, maps, y, a, b, s, m, pa, pb, k) -> list:
    """Fuse the gate at ``y`` in place (``maps`` kept valid); returns the nodes taken out
    of ``g.nodes``, empty when the operands do not fit."""
    if pa is not None and pa is pb and pa.op_type == "Split" and pa.outputs == [a, b]:
        src = pa.inputs[0]
        shape = g.shapes.get(src) or (tuple(g.inputs[src][0]) if src in g.inputs else None)
        axis = _split_halves(g, pa, shape)
        if axis is None:
            return []
        node = Node(FUSED_SWIGLU, f"{y.name}__swiglu{k}", [src], [y.outputs[0]],
                    {"dim": axis, "fused": ["Split", "Sigmoid", "Mul", "Mul"], "members": [pa, s, m, y]})
        return _replace(maps, y, [node], (pa, s, m))
    if pa is None or pb is None or pa.op_type != "MatMul" or pb.op_type != "MatMul" or pa.inputs[0] != pb.inputs[0]:
        return []
    wg, wu = g.constants.get(pa.inputs[1]), g.constants.get(pb.inputs[1])
    if wg is None or wu is None or wg.ndim != 2 or wg.shape != wu.shape or wg.dtype != wu.dtype:
        return []
    h = pa.inputs[0]
    w_name, gu = f"{y.name}__gate_up_weight{k}", f"{y.name}__gate_up{k}"
    g.constants[w_name] = like((wg.shape[0], 2 * wg.shape[1]), wg) if is_placeholder(wg) or is_placeholder(wu) \
        else np.concatenate([wg, wu], axis=1)
    if g.shapes.get(a) is not None:
        g.shapes[gu] = tuple(g.shapes[a][:-1]) + (2 * wg.shape[1],)
    mm = Node("MatMul", f"{y.name}__gate_up_matmul{k}", [h, w_name], [gu], {})
    split = Node("Split", f"{y.name}__gate_up_split{k}", [gu], [a, b], {"axis": -1, "num_outputs": 2})
    node = Node(FUSED_SWIGLU, f"{y.name}__swiglu{k}", [gu], [y.outputs[0]],
                {"dim": -1, "fused": ["MatMul", "MatMul", "Sigmoid", "Mul", "Mul"], "members": [split, s, m, y]})
    return _replace(maps, y, [mm, node], (pa, pb, s, m))


def _replace(maps, at: Node, new: list, drop) -> list:
    """``new`` in ``at``'s place, ``drop`` out; returns the nodes taken out."""
    maps.rewrite(at, new, drop)
    return [at, *drop]
