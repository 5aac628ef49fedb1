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


class NodeMaps:
    """:func:`producers` and :func:`consumers` of ``g.nodes`` (``prod``, ``cons``), kept
    valid through a pass's rewrites by :meth:`update` at the cost of the nodes a rewrite
    touched, where rebuilding both maps after every rewrite costs O(nodes) each (an
    LLM graph with a rewrite per layer: quadratic). Consumer lists may then hold their
    nodes in another order than graph order (the passes using this only test a
    list's length and membership). A graph where some value has two writers (not
    SSA) is rebuilt from ``g.nodes`` instead, so ``prod`` keeps the last writer."""

    def __init__(self, g: Graph):
        self.g = g
        self.rebuild()

    def rebuild(self) -> None:
        """Both maps from ``g.nodes`` as they are now."""
        self.prod = producers(self.g)
        self.cons = consumers(self.g)
        self.ssa = len(self.prod) == sum(1 for n in self.g.nodes for o in n.outputs if o)

    def update(self, removed: list[Node], added: list[Node]) -> None:
        """After a rewrite took ``removed`` out of ``g.nodes`` and put ``added`` in."""
        if not self.ssa:
            self.rebuild()
            return
        gone = {id(n) for n in removed}
        for n in removed:
            for i in set(n.inputs):
                if i and i in self.cons:
                    self.cons[i] = [c for c in self.cons[i] if id(c) not in gone]
            for o in n.outputs:
                if o and self.prod.get(o) is n:
                    del self.prod[o]
        for n in added:
            for o in n.outputs:
                if o and o in self.prod:   # a second writer of o: the graph is not SSA any more
                    self.rebuild()
                    return
                if o:
                    self.prod[o] = n
            for i in n.inputs:
                if i:
                    self.cons[i].append(n)


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
