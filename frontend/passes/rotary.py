"""Pass ``fuse_rotary``: the rotate-half rotary embedding that exporters of LLaMA-style
models emit, ``x * cos + cat(-x[..., D/2:], x[..., :D/2]) * sin``, becomes one
``FusedRotaryPosEmb`` node lowered to CANN's aclnnApplyRotaryPosEmb (one vector kernel
instead of Slice, Slice, Neg, Concat, Mul, Mul, Add). The ONNX ``RotaryEmbedding`` op
itself needs no pass: it is lowered onto the same kernel in both modes.

Matched: ``Add(Mul(x, cos), Mul(Concat(Neg(Slice(x, D/2:)), Slice(x, :D/2), axis=-1),
sin))`` (either operand order of the Muls and the Add) with x 4-D [B, N, S, D]
(known shape), constant Slice bounds on the last axis that cut exactly the two halves
(steps 1), cos and sin of one shape [b, 1, S, D] (b in 1, B) or [S, D], and every
intermediate read only inside the pattern (not a graph output).

Not matched: halves swapped in the Concat (the rotation's sign), a Slice that is not
an exact half, a Neg or Concat read elsewhere, cos/sin broadcasting over heads
differently, an unknown shape.
"""
from __future__ import annotations

import numpy as np

from ..graph import Graph, Node
from .util import consumers, producers

FUSED_ROTARY = "FusedRotaryPosEmb"
_BIG = 2 ** 62


def _const_list(g: Graph, n: Node, i: int):
    if len(n.inputs) <= i or not n.inputs[i]:
        return None
    c = g.constants.get(n.inputs[i])
    return None if c is None else [int(v) for v in np.asarray(c).reshape(-1)]


def _half(g: Graph, n: Node | None, x: str, d: int) -> str | None:
    """"lo" / "hi" when ``n`` slices the first / second half of x's last axis."""
    if n is None or n.op_type != "Slice" or n.inputs[0] != x:
        return None
    st, en, ax = _const_list(g, n, 1), _const_list(g, n, 2), _const_list(g, n, 3)
    steps = _const_list(g, n, 4)
    if st is None or en is None or len(st) != 1 or (ax is not None and ax[0] not in (-1, 3)) or \
            (steps is not None and steps != [1]):
        return None
    s, e = st[0] + (d if st[0] < 0 else 0), min(en[0] + (d if en[0] < 0 else 0), d)
    if (s, e) == (0, d // 2):
        return "lo"
    if (s, e) == (d // 2, d):
        return "hi"
    return None


def _only(cons, g, name, reader) -> bool:
    c = cons.get(name, [])
    return len(c) == 1 and c[0] is reader and name not in g.outputs


def _match(g, add, prod, cons):
    """(x, cos, sin, members) for a rotate-half Add, else None."""
    for pm1, pm2 in (add.inputs, add.inputs[::-1]):
        m1, m2 = prod.get(pm1), prod.get(pm2)
        if m1 is None or m2 is None or m1.op_type != "Mul" or m2.op_type != "Mul" or \
                not _only(cons, g, pm1, add) or not _only(cons, g, pm2, add):
            continue
        for rot, sin in (m2.inputs, m2.inputs[::-1]):
            cat = prod.get(rot)
            if cat is None or cat.op_type != "Concat" or len(cat.inputs) != 2 or not _only(cons, g, rot, m2):
                continue
            neg, lo = prod.get(cat.inputs[0]), prod.get(cat.inputs[1])
            if neg is None or neg.op_type != "Neg" or not _only(cons, g, cat.inputs[0], cat):
                continue
            hi = prod.get(neg.inputs[0])
            if hi is None or not _only(cons, g, neg.inputs[0], neg) or lo is None or \
                    not _only(cons, g, cat.inputs[1], cat):
                continue
            x = hi.inputs[0]
            shape = g.shapes.get(x) or (tuple(g.inputs[x][0]) if x in g.inputs else None)
            if shape is None or len(shape) != 4 or shape[3] % 2 or int(cat.attrs.get("axis", 0)) not in (-1, 3):
                continue
            if _half(g, hi, x, shape[3]) != "hi" or _half(g, lo, x, shape[3]) != "lo" or x not in m1.inputs:
                continue
            cos = m1.inputs[1] if m1.inputs[0] == x else m1.inputs[0]
            if _cs_ok(g, cos, shape) and _cs_ok(g, sin, shape):
                return x, cos, sin, [hi, lo, neg, cat, m1, m2, add]
    return None


def _shape(g, name):
    if name in g.constants:
        return tuple(g.constants[name].shape)
    return g.shapes.get(name) or (tuple(g.inputs[name][0]) if name in g.inputs else None)


def _cs_ok(g, name, xs) -> bool:
    s = _shape(g, name)
    b, _, sq, d = xs
    return s is not None and (s == (sq, d) or (len(s) == 4 and s[0] in (1, b) and s[1:] == (1, sq, d)))


def fuse_rotary(g: Graph) -> int:
    """Fuse every rotate-half rotary embedding (module doc) in place; returns the count."""
    done = 0
    for add in list(g.nodes):
        if add.op_type != "Add" or len(add.inputs) != 2 or not any(add is n for n in g.nodes):
            continue
        prod, cons = producers(g), consumers(g)
        got = _match(g, add, prod, cons)
        if got is None:
            continue
        x, cos, sin, members = got
        node = Node(FUSED_ROTARY, f"{add.name}__rotary{done}", [x, cos, sin], [add.outputs[0]],
                    {"fused": [m.op_type for m in members], "members": members})
        i = next(j for j, n in enumerate(g.nodes) if n is add)
        g.nodes[i] = node
        gone = {id(m) for m in members[:-1]}
        g.nodes[:] = [n for n in g.nodes if id(n) not in gone]
        done += 1
    return done
