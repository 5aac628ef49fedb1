"""Pass ``fuse_elementwise``: a maximal chain of pointwise ops becomes one
``FusedElementwise`` node (lowered to ``aclnnFusedElementwise``, one vector kernel
whose intermediates stay in UB), so only the chain's inputs and its one output
cross HBM. Residual ``Add`` + ``Relu`` is the first case; GELU's Div, Erf, Add, Mul,
Mul another.

Members: Add (and two-input Sum), Sub, Mul, Div (broadcasting operands), Relu, Sqrt, Erf, and Cast to
float16/float32. Walking the nodes in order, a chain starts at a member and grows
while the last result's only consumer (not a graph output) is a member producing the
same shape. It is cut where an intermediate has a second consumer or is a graph
output (a chain has one output), where the shape would change, and where the UB
rows it keeps live (streamed inputs + live intermediates + output,
:func:`opsnn.math.fused_elementwise.tiling.live_tiles`) would pass
``MAX_LIVE_TILES``. Chains of one op stay as they are.

The node keeps its members (``attrs["members"]``): when the fused kernel refuses
the chain at prepare time (an integer dtype, say), lowering falls back to them.
"""
from __future__ import annotations

import numpy as np
import onnx

from opsnn.math.fused_elementwise.tiling import live_tiles
from opsnn.math.fused_elementwise.tiling_data import MAX_LIVE_TILES

from ..graph import Graph, Node
from .util import consumers, sole_consumer

FUSED_ELEMENTWISE = "FusedElementwise"
_BINARY = ("Add", "Sub", "Mul", "Div")
_UNARY = ("Relu", "Sqrt", "Erf")
_CAST_TO = ("float16", "float32")


def _cast_to(n: Node) -> str | None:
    try:
        name = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(int(n.attrs.get("to")))).name
    except Exception:  # noqa: BLE001 - a missing or unknown 'to' is left for lowering to report
        return None
    return name if name in _CAST_TO else None


def _member(n: Node) -> bool:
    if n.op_type in _BINARY or n.op_type == "Sum":
        return len(n.inputs) == 2 and all(n.inputs) and len(n.outputs) == 1
    if n.op_type in _UNARY:
        return len(n.inputs) == 1 and bool(n.inputs[0]) and len(n.outputs) == 1
    return n.op_type == "Cast" and len(n.inputs) == 1 and _cast_to(n) is not None


class _Chain:
    """Steps and external inputs of a chain being grown."""

    def __init__(self, first: Node):
        self.nodes: list[Node] = []
        self.ext: list[str] = []
        self.steps: list[tuple] = []
        self.values: dict[str, int] = {}
        self.add(first)

    def _operands(self, n: Node) -> tuple[list[int], list[str]]:
        ext, ops = list(self.ext), []
        for i in n.inputs:
            if i in self.values:
                ops.append(self.values[i])
            else:
                if i not in ext:
                    ext.append(i)
                ops.append(("ext", ext.index(i)))
        return ops, ext

    def steps_with(self, n: Node) -> tuple[list[tuple], int]:
        """(steps, external input count) if ``n`` were appended."""
        ops, ext = self._operands(n)
        return self._encode(self.steps + [(n, ops)], len(ext)), len(ext)

    @staticmethod
    def _encode(raw, n_ext) -> list[tuple]:
        out = []
        for n, ops in raw:
            idx = tuple(o[1] if isinstance(o, tuple) else n_ext + o for o in ops)
            attrs = (("to", _cast_to(n)),) if n.op_type == "Cast" else ()
            out.append(("Add" if n.op_type == "Sum" else n.op_type, idx, attrs))
        return out

    def add(self, n: Node) -> None:
        ops, self.ext = self._operands(n)
        self.steps.append((n, ops))
        self.values[n.outputs[0]] = len(self.nodes)
        self.nodes.append(n)

    def node(self, index: int) -> Node:
        last = self.nodes[-1]
        return Node(FUSED_ELEMENTWISE, f"{last.name}__fused{index}", list(self.ext), [last.outputs[0]],
                    {"steps": self._encode(self.steps, len(self.ext)), "fused": [n.op_type for n in self.nodes],
                     "members": list(self.nodes)})


def fuse_elementwise(g: Graph, max_live: int = MAX_LIVE_TILES) -> int:
    """Fuse every maximal pointwise chain of two or more ops (module doc) in place;
    returns how many fused nodes were made."""
    cons = consumers(g)
    taken: set[int] = set()
    chains: list[_Chain] = []
    for n in g.nodes:
        if id(n) in taken or not _member(n):
            continue
        ch = _Chain(n)
        shape = g.shapes.get(n.outputs[0])
        while shape is not None:
            nxt = sole_consumer(g, cons, ch.nodes[-1].outputs[0])
            if nxt is None or id(nxt) in taken or not _member(nxt) or g.shapes.get(nxt.outputs[0]) != shape:
                break
            steps, n_ext = ch.steps_with(nxt)
            if live_tiles(n_ext, n_ext, steps) > max_live:
                break
            ch.add(nxt)
        taken.update(id(m) for m in ch.nodes)
        if len(ch.nodes) > 1:
            chains.append(ch)
    # one rebuild: each chain's fused node where its last member was, the other members dropped
    fused = {id(ch.nodes[-1]): ch.node(k) for k, ch in enumerate(chains)}
    members = {id(m) for ch in chains for m in ch.nodes}
    g.nodes[:] = [fused[id(m)] if id(m) in fused else m for m in g.nodes if id(m) not in members or id(m) in fused]
    return len(chains)
