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
    """:func:`producers` and :func:`consumers` of ``g.nodes`` (``prod``, ``cons``) for a
    pass that rewrites one place at a time, at the cost of the nodes a rewrite touches:
    rebuilding both maps and the node list after every rewrite costs O(nodes) each
    (an LLM graph with rewrites in every layer: quadratic).

    :meth:`rewrite` updates the maps at once and queues the node-list edit;
    :meth:`flush` applies the queued edits in one pass over ``g.nodes`` (call it
    before reading ``g.nodes``). Queuing is exact while no later rewrite touches a
    node an earlier one put in: the passes using this make fused nodes that none of
    their patterns takes as a member. Consumer lists may hold their nodes in another
    order than graph order (those passes only test a list's length and membership). A
    graph where some value has two writers (not SSA) is flushed and rebuilt after
    every rewrite instead, so ``prod`` keeps the last writer in node order."""

    def __init__(self, g: Graph):
        self.g = g
        self._put: dict[int, list[Node]] = {}   # queued: id(node) -> the nodes taking its place
        self._out: set[int] = set()             # queued: ids of nodes leaving g.nodes
        self.rebuild()

    def rebuild(self) -> None:
        """Both maps from ``g.nodes`` (queued edits applied first)."""
        self.flush()
        self.prod = producers(self.g)
        self.cons = consumers(self.g)
        self.ssa = len(self.prod) == sum(1 for n in self.g.nodes for o in n.outputs if o)

    def flush(self) -> None:
        """Apply the queued node-list edits to ``g.nodes``."""
        if self._put or self._out:
            nodes: list[Node] = []
            for n in self.g.nodes:
                if id(n) not in self._out:
                    nodes.extend(self._put.get(id(n), (n,)))
            self.g.nodes[:] = nodes
            self._put, self._out = {}, set()

    def rewrite(self, at: Node, new: list[Node], drop) -> None:
        """``new`` (in order) in ``at``'s place in ``g.nodes`` and the nodes of ``drop``
        out of it; ``prod``/``cons`` describe the result at once."""
        drop = list(drop)
        self._put[id(at)] = list(new)
        self._out.update(id(n) for n in drop)
        if not self.ssa:
            self.rebuild()
            return
        removed = [at, *drop]
        gone = {id(n) for n in removed}
        for n in removed:
            for i in set(n.inputs):
                if i and i in self.cons:
                    self.cons[i] = [c for c in self.cons[i] if id(c) not in gone]
            for o in n.outputs:
                if o and self.prod.get(o) is n:
                    del self.prod[o]
        for n in new:
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
