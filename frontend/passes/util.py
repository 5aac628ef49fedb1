"""Graph queries the passes share: producers, consumers, single-use values."""
from __future__ import annotations

from collections import defaultdict

from ..graph import Graph, Node


def consumers(g: Graph) -> dict[str, list[Node]]:
    """value name -> nodes reading it (a node reading it twice appears twice)."""
    out: dict[str, list[Node]] = defaultdict(list)
    for n in g.nodes:
        for i in n.inputs:
            if i:
                out[i].append(n)
    return out


def producers(g: Graph) -> dict[str, Node]:
    """value name -> the node writing it."""
    return {o: n for n in g.nodes for o in n.outputs if o}


def sole_consumer(g: Graph, cons: dict[str, list[Node]], name: str) -> Node | None:
    """The one node reading ``name``, or None when it has several readers, none, or
    is a graph output (then its value must reach HBM anyway)."""
    c = cons.get(name, [])
    return c[0] if len(c) == 1 and name not in g.outputs else None


def value_shape(g: Graph, name: str) -> tuple | None:
    """The static shape of value ``name``: a constant's, a graph input's, or the one shape
    inference found; None when unknown."""
    if name in g.constants:
        return tuple(g.constants[name].shape)
    if name in g.inputs:
        return tuple(g.inputs[name][0])
    return g.shapes.get(name)


def fused_names(n: Node) -> list[str]:
    """The op types ``n`` stands for: ``attrs["fused"]`` or just its own."""
    return list(n.attrs.get("fused") or [n.op_type])
