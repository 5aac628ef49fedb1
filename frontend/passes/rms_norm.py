"""Pass ``fuse_rms_norm``: the decomposed RMSNorm that exporters emit (torch.onnx of a
LLaMA-style ``x * rsqrt(mean(x^2, -1) + eps) * weight``, opsets before 23 have no
RMSNormalization op) becomes one ``RMSNormalization`` node, lowered to CANN's
aclnnRmsNorm (one vector kernel, the square, mean and rstd in UB) instead of five or six
vector kernels that each stream the whole activation through HBM. Running before
``fuse_add_rms_norm``, it lets that pass take a residual Add in front of it too.

Matched (``x`` of known shape, ``d`` = x.shape[-1]):

    sq = Pow(x, 2) | Mul(x, x)
    ms = ReduceMean(sq, axes=[-1] (or rank-1), keepdims=1)      axes attribute or input
    v  = Add(ms, eps) | Add(eps, ms)                            eps a 1-element constant
    s  = Sqrt(v)
    n  = Div(x, s)
       | Mul(x, Reciprocal(s)) | Mul(x, Div(1, s))               either Mul operand order
    y  = Mul(n, gamma) | Mul(gamma, n)                          gamma of shape [d] (a constant of
                                                                [1, .., 1, d] is reshaped)

-> ``RMSNormalization(x, gamma, axis=-1, epsilon=eps, stash_type=1)`` writing ``y``,
placed where the final Mul was, with ``attrs["fused"]`` naming the ops it replaced.

Not matched: a mean over any axis but the last alone (or several axes), keepdims 0, an
eps that is not a 1-element constant (or a runtime value), an exponent other than 2, a
Pow/Mul squaring another tensor than the one divided, a gamma that is a runtime value of
another shape (it would broadcast differently), and any intermediate (sq .. n) read
by a second node or being a graph output (it must reach HBM then, so the chain stays).

Numbers: aclnnRmsNorm computes in float32 (stash_type 1), so a float32 graph matches
the decomposed reference to float32 rounding.
"""
from __future__ import annotations

import numpy as np

from ..graph import Graph, Node
from .util import NodeMaps, sole_consumer, value_shape

RMS_NORM = "RMSNormalization"


def _const(g: Graph, name: str):
    return None if not name or name not in g.constants else np.asarray(g.constants[name])


def _scalar(g: Graph, name: str) -> float | None:
    c = _const(g, name)
    return None if c is None or c.size != 1 else float(c.reshape(-1)[0])


def _squared(g: Graph, n: Node | None) -> str | None:
    """x when ``n`` is Pow(x, 2) or Mul(x, x), else None."""
    if n is None or len(n.inputs) != 2:
        return None
    if n.op_type == "Mul" and n.inputs[0] == n.inputs[1]:
        return n.inputs[0]
    if n.op_type == "Pow" and _scalar(g, n.inputs[1]) == 2.0:
        return n.inputs[0]
    return None


def _last_axis_mean(g: Graph, n: Node | None, rank: int) -> bool:
    if n is None or n.op_type != "ReduceMean" or int(n.attrs.get("keepdims", 1)) != 1:
        return False
    axes = n.attrs.get("axes")
    if len(n.inputs) > 1 and n.inputs[1]:
        c = _const(g, n.inputs[1])
        if c is None:
            return False
        axes = c.reshape(-1).tolist()
    return axes is not None and len(axes) == 1 and int(axes[0]) % rank == rank - 1


def _other(n: Node, name: str) -> str:
    return n.inputs[1] if n.inputs[0] == name else n.inputs[0]


class _Chain:
    """Walks back from a candidate final Mul, collecting members (in graph order)."""

    def __init__(self, g: Graph, prod: dict, cons: dict):
        self.g, self.prod, self.cons = g, prod, cons
        self.members: list[Node] = []

    def take(self, name: str, reader: Node, op_types: tuple[str, ...]) -> Node | None:
        """The producer of ``name`` when it is one of ``op_types`` and ``reader`` is its
        only reader (and ``name`` no graph output)."""
        p = self.prod.get(name)
        if p is None or p.op_type not in op_types or sole_consumer(self.g, self.cons, name) is not reader:
            return None
        self.members.insert(0, p)
        return p

    def normalised(self, n: Node) -> tuple[str, Node] | None:
        """(x, the Sqrt node) when ``n`` is x / sqrt(...) in one of the matched forms."""
        if n.op_type == "Div":
            s = self.take(n.inputs[1], n, ("Sqrt",))
            return (n.inputs[0], s) if s is not None else None
        for x, r_name in (n.inputs, n.inputs[::-1]):
            r = self.prod.get(r_name)
            if r is None or r.op_type not in ("Reciprocal", "Div"):
                continue
            if r.op_type == "Div" and _scalar(self.g, r.inputs[0]) != 1.0:
                continue
            r = self.take(r_name, n, ("Reciprocal", "Div"))
            if r is None:
                return None
            s = self.take(r.inputs[-1], r, ("Sqrt",))
            return (x, s) if s is not None else None
        return None


def _match(g: Graph, y: Node, prod: dict, cons: dict):
    """(x, gamma name or array, eps, members) for a final Mul ``y``, else None."""
    if y.op_type != "Mul" or len(y.inputs) != 2:
        return None
    for n_name, gamma in (y.inputs, y.inputs[::-1]):
        ch = _Chain(g, prod, cons)
        n = ch.take(n_name, y, ("Div", "Mul"))
        if n is None or len(n.inputs) != 2:
            continue
        got = ch.normalised(n)
        if got is None:
            continue
        x, sqrt = got
        xs = value_shape(g, x)
        add = ch.take(sqrt.inputs[0], sqrt, ("Add",))
        if xs is None or not xs or add is None or len(add.inputs) != 2:
            continue
        for ms_name, eps_name in (add.inputs, add.inputs[::-1]):
            eps = _scalar(g, eps_name)
            if eps is None or prod.get(ms_name) is None:
                continue
            mean = ch.take(ms_name, add, ("ReduceMean",))
            if mean is None:
                break
            sq = ch.take(mean.inputs[0], mean, ("Pow", "Mul"))
            if sq is None or not _last_axis_mean(g, mean, len(xs)) or _squared(g, sq) != x:
                break
            gs = value_shape(g, gamma)
            if gs == (xs[-1],):
                return x, gamma, eps, ch.members + [y]
            c = _const(g, gamma)
            if c is not None and c.size == xs[-1] and c.ndim <= len(xs) and c.shape[-1] == xs[-1]:
                return x, c.reshape(xs[-1]), eps, ch.members + [y]
            break
    return None


def fuse_rms_norm(g: Graph) -> int:
    """Replace every decomposed RMSNorm (module doc) by one RMSNormalization node, in
    place; returns how many were made."""
    done = 0
    maps = None                 # built at the first candidate, kept by each rewrite (_match only reads)
    removed: set[int] = set()   # ids of nodes a rewrite took out of g.nodes
    for y in list(g.nodes):
        if y.op_type != "Mul" or id(y) in removed:
            continue
        if maps is None:
            maps = NodeMaps(g)
        got = _match(g, y, maps.prod, maps.cons)
        if got is None:
            continue
        x, gamma, eps, members = got
        if not isinstance(gamma, str):
            name = f"{y.name or y.outputs[0]}__rms_gamma"
            g.constants[name] = gamma
            gamma = name
        node = Node(RMS_NORM, f"{y.name or y.outputs[0]}__rms_norm{done}", [x, gamma], [y.outputs[0]],
                    {"axis": -1, "epsilon": eps, "stash_type": 1, "fused": [m.op_type for m in members],
                     "members": members})
        maps.rewrite(y, [node], members[:-1])
        removed.update(id(m) for m in members)
        done += 1
    if maps is not None:
        maps.flush()
    return done
