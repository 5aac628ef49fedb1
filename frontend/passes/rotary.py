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

Then two fused rotations that read the same cos and sin, with x shapes [B, Nq, S, D]
and [B, Nk, S, D] (the query and the key of one attention), become one node with
inputs [q, cos, sin, k] and outputs [q', k'] (``attrs["pair"]``): aclnnApplyRotaryPosEmb
rotates queryRef and keyRef in one kernel. Not paired: different cos or sin values,
shapes that differ in B, S or D (another layout, or a cache of another length), or no
place in the node order where both inputs exist before both outputs are read.

Not matched: halves swapped in the Concat (the rotation's sign), a Slice that is not
an exact half, a Neg or Concat read elsewhere, cos/sin broadcasting over heads
differently, an unknown shape.
"""
from __future__ import annotations

import numpy as np

from ..graph import Graph, Node
from .util import NodeMaps, producers

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
    maps = None                 # built at the first candidate, kept by each rewrite (_match only reads)
    removed: set[int] = set()   # ids of nodes a rewrite took out of g.nodes
    for add in list(g.nodes):
        if add.op_type != "Add" or len(add.inputs) != 2 or id(add) in removed:
            continue
        if maps is None:
            maps = NodeMaps(g)
        got = _match(g, add, maps.prod, maps.cons)
        if got is None:
            continue
        x, cos, sin, members = got
        node = Node(FUSED_ROTARY, f"{add.name}__rotary{done}", [x, cos, sin], [add.outputs[0]],
                    {"fused": [m.op_type for m in members], "members": members})
        maps.rewrite(add, [node], members[:-1])
        removed.update(id(m) for m in members)
        done += 1
    if maps is not None:
        maps.flush()
    return done + _pair_query_key(g)


def _compatible(g: Graph, a: Node, b: Node) -> bool:
    """Whether single rotations ``a`` and ``b`` can share one kernel: the same cos and
    sin values, and x shapes [B, Na, S, D], [B, Nb, S, D] (aclnnApplyRotaryPosEmb's
    queryRef/keyRef: B, S and D equal, head counts free)."""
    if a.inputs[1:] != b.inputs[1:] or len(a.inputs) != 3 or len(b.inputs) != 3:
        return False
    sa, sb = _shape(g, a.inputs[0]), _shape(g, b.inputs[0])
    return sa is not None and sb is not None and (sa[0], sa[2], sa[3]) == (sb[0], sb[2], sb[3]) and \
        a.inputs[0] != b.inputs[0]


def _slot(g: Graph, a: Node, b: Node) -> int | None:
    """Where a pair of ``a`` (earlier) and ``b`` (later) can sit in ``g.nodes`` in
    topological order: at ``b`` when nothing between reads ``a``'s output, else at ``a``
    when ``b``'s inputs are all written before ``a``; None when neither holds."""
    pos = {id(n): i for i, n in enumerate(g.nodes)}
    ia, ib = pos[id(a)], pos[id(b)]
    if not any(a.outputs[0] in n.inputs for n in g.nodes[ia + 1:ib]):
        return ib
    prod = producers(g)
    if all(i not in prod or pos[id(prod[i])] < ia for i in b.inputs):
        return ia
    return None


def _pair_query_key(g: Graph) -> int:
    """Join fused single rotations two by two (the query's and the key's of one
    attention) into one ``FusedRotaryPosEmb`` with inputs [q, cos, sin, k] and outputs
    [q', k']: CANN's aclnnApplyRotaryPosEmb rotates queryRef and keyRef in one kernel
    (one launch, cos/sin read once). Returns how many pairs were made."""
    pairs = 0
    singles = [n for n in g.nodes if n.op_type == FUSED_ROTARY and len(n.inputs) == 3]
    used: set[int] = set()
    for i, a in enumerate(singles):
        if id(a) in used:
            continue
        for b in singles[i + 1:]:
            if id(b) in used or not _compatible(g, a, b):
                continue
            at = _slot(g, a, b)
            if at is None:
                continue
            used.update((id(a), id(b)))
            node = Node(FUSED_ROTARY, f"{a.name}__qk", [a.inputs[0], a.inputs[1], a.inputs[2], b.inputs[0]],
                        [a.outputs[0], b.outputs[0]],
                        {"fused": a.attrs["fused"] + b.attrs["fused"], "members": [a, b], "pair": True})
            g.nodes[at] = node
            g.nodes[:] = [n for n in g.nodes if n is not a and n is not b]
            pairs += 1
            break
    return pairs
