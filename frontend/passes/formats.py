"""Pass ``keep_nc1hwc0``: convolutions run on NC1HWC0 activations and FRACTAL_Z
weights with the layout conversions placed once, at the edges of each 5-D region,
instead of inside every aclnnConvolution call.

In eager mode aclnnConvolution's executor converts its NCHW input, weight and output
with TransData kernels on every call (``opsnn/conv/convolution/formats.py``). A
graph compiler (GE / ATC) decides formats for the whole graph: constant weights are
converted to FRACTAL_Z once at build time (no kernel at run time), and activations
stay NC1HWC0 between Cube kernels, so a TransData runs only where NCHW data meets a
convolution (the model's input) or leaves the 5-D region (a consumer that needs
NCHW, or a graph output).

What runs on NC1HWC0 (the pass tracks which tensors are 5-D, in node order):

* ``Conv`` / ``FusedConv`` (left by ``fold_batchnorm`` / ``fuse_cube_epilogue``): 2-D
  (input shape known, 4-D), ``group`` 1, a constant float weight. Its weight is
  replaced by the FRACTAL_Z constant (read-only, packed by
  ``opsnn.transform.trans_data.constants.pack_constant_weight``, which freezes the
  OIHW constant and keeps it for the Cube body; ``attrs["weight_shape"]`` keeps the logical
  shape; a metadata-only weight of a timing-only load, :mod:`frontend.meta_const`,
  becomes a placeholder of the FRACTAL_Z shape, nothing copied); its input and output are 5-D (``attrs["formats"] = "NC1HWC0"``).
  A residual ``FusedConv`` (``attrs["residual"]``, from ``fuse_cube_epilogue``) reads
  its fourth input, the added tensor, in the output's format: 5-D as well (a
  TransData to NC1HWC0 first when it was produced NCHW).
  Grouped / depthwise, 1-D and 3-D convolutions stay NCHW (their aclnnConvolution
  converts internally, or runs plain NCHW for groups > 1).
* Layout-agnostic pointwise ops whose tensor inputs are all 5-D with the same
  logical shape (constants only as single values): Relu, LeakyRelu, Sigmoid, Tanh,
  Erf, Identity, Add, Sum, Sub, Mul, Max, Min, and ``FusedElementwise`` nodes made only of
  such members and Cast. A pointwise op maps each element alone, so the NC1HWC0
  order changes nothing; the pad channels hold finite values (f(0)), and the next
  convolution's FRACTAL_Z weights are 0 there. Div and Sqrt of the pads could make
  NaN or inf, which a Cube MAC with a 0 weight would spread, so they are not kept.
  Broadcasts over C (a [C, 1, 1] operand) are not kept either.
* Not kept (a TransData to NCHW runs before them): every other op, MaxPool and the
  other pools included. CANN's MaxPool kernel runs on NC1HWC0, but this
  simulator's aclnnMaxPool takes NCHW only, so the pass converts around it.

Inserted nodes: ``TransData`` (lowered to aclnnTransData; attrs ``dst_format``
"NC1HWC0" or "NCHW", ``shape`` the logical NCHW shape, ``c0``). A 5-D value gets the
name ``<name>__nc1hwc0``; where NCHW consumers or a graph output need the original
name, a TransData to NCHW writes it, once per value. Returns the number of
convolutions moved to NC1HWC0.
"""
from __future__ import annotations

import numpy as np

from opsnn.transform.trans_data import c0_for_itemsize, nc1hwc0_shape
from opsnn.transform.trans_data.constants import pack_constant_weight
from opsnn.transform.trans_data.infershape import fractal_z_shape

from ..graph import Graph, Node
from ..meta_const import is_placeholder, like
from .util import consumers, value_shape

PACKED = "NC1HWC0"
_AGNOSTIC = {"Relu", "LeakyRelu", "Sigmoid", "Tanh", "Erf", "Identity", "Add", "Sum", "Sub", "Mul", "Max", "Min"}
_FUSED_MEMBERS = _AGNOSTIC | {"Cast"}


def _conv_c0(g: Graph, n: Node) -> int | None:
    """C0 if ``n`` is a convolution the pass moves to NC1HWC0 (module doc), else None."""
    if n.op_type not in ("Conv", "FusedConv") or len(n.inputs) < 2 or not n.outputs:
        return None
    shape = g.shapes.get(n.inputs[0])
    w = g.constants.get(n.inputs[1])
    if shape is None or len(shape) != 4 or w is None or np.asarray(w).ndim != 4:
        return None
    if int(n.attrs.get("group", 1)) != 1 or np.asarray(w).dtype.kind != "f" or np.asarray(w).dtype.itemsize > 4:
        return None
    if w.shape[1] != shape[1]:
        return None
    if n.attrs.get("residual") and (len(n.inputs) < 4 or value_shape(g, n.inputs[3]) is None):
        return None
    return c0_for_itemsize(np.asarray(w).dtype.itemsize)


def _members(n: Node) -> list[str]:
    if n.op_type == "FusedElementwise":
        return list(n.attrs.get("fused") or [])
    return [n.op_type]


def _agnostic_c0(g: Graph, n: Node, packed: dict[str, int]) -> int | None:
    """C0 of ``n``'s 5-D tensor inputs if ``n`` can run on them as they are, else None."""
    members = _members(n)
    if not members or len(n.outputs) != 1 or not set(members) <= (_FUSED_MEMBERS if n.op_type == "FusedElementwise"
                                                                  else _AGNOSTIC):
        return None
    c0s, shapes = set(), set()
    for i in n.inputs:
        if not i:
            continue
        if i in g.constants:
            if np.asarray(g.constants[i]).size != 1:
                return None
            continue
        if i not in packed:
            return None
        c0s.add(packed[i])
        shapes.add(tuple(g.shapes.get(i, ())))
    out_shape = g.shapes.get(n.outputs[0])
    if len(c0s) != 1 or len(shapes) != 1 or out_shape is None or (tuple(out_shape),) != tuple(shapes):
        return None
    return c0s.pop()


def _trans(name: str, src: str, dst: str, fmt: str, shape, c0: int) -> Node:
    return Node("TransData", name, [src], [dst], {"dst_format": fmt, "shape": [int(d) for d in shape], "c0": c0})


def _residual_in(n: Node) -> str | None:
    """The added tensor of a residual FusedConv, else None."""
    return n.inputs[3] if n.attrs.get("residual") and len(n.inputs) > 3 else None


def _reads_packed(c: Node, out: str, convs: set, agn: set) -> bool:
    """Whether consumer ``c`` reads ``out`` 5-D (a packed conv's input or residual, a
    kept pointwise op)."""
    if id(c) in agn:
        return True
    return id(c) in convs and bool(c.inputs) and (c.inputs[0] == out or _residual_in(c) == out)


def keep_nc1hwc0(g: Graph) -> int:
    """Move the graph's eligible convolutions and the pointwise ops between them to
    NC1HWC0 (module doc), in place; returns how many convolutions moved."""
    packed: dict[str, int] = {}   # value (original name) -> C0, for values produced 5-D
    convs, agn = set(), set()
    for n in g.nodes:
        c0 = _conv_c0(g, n)
        if c0 is None:
            c0 = _agnostic_c0(g, n, packed)
            if c0 is None:
                continue
            agn.add(id(n))
        else:
            convs.add(id(n))
        packed[n.outputs[0]] = c0
    if not convs:
        return 0
    cons = consumers(g)
    five = {v: f"{v}__{PACKED.lower()}" for v in packed}
    entry: dict[str, str] = {}    # NCHW value -> its 5-D copy made by a TransData
    nodes: list[Node] = []
    for n in g.nodes:
        if id(n) in convs:
            x, c0 = n.inputs[0], packed[n.outputs[0]]
            for slot in (0, 3) if _residual_in(n) else (0,):
                v = n.inputs[slot]
                if v in five:
                    n.inputs[slot] = five[v]
                    continue
                if v not in entry:
                    entry[v] = f"{v}__{PACKED.lower()}"
                    vs = value_shape(g, v)
                    nodes.append(_trans(f"{v}__to_nc1hwc0", v, entry[v], PACKED, vs, c0))
                    g.shapes[entry[v]] = nc1hwc0_shape(vs, c0)
                n.inputs[slot] = entry[v]
            w = np.asarray(g.constants[n.inputs[1]])
            wz = f"{n.inputs[1]}__fractal_z"
            g.constants[wz] = (like(fractal_z_shape(w.shape, c0), w) if is_placeholder(w)
                               else pack_constant_weight(w, c0))
            n.attrs = dict(n.attrs, formats=PACKED, c0=c0, in_shape=list(g.shapes[x]), weight_shape=list(w.shape))
            n.inputs[1] = wz
        elif id(n) in agn:
            n.inputs = [five.get(i, i) if i not in g.constants else i for i in n.inputs]
            n.attrs = dict(n.attrs, formats=PACKED)
            for m in n.attrs.get("members") or []:   # the fallback members read and write the 5-D names too
                m.inputs = [five.get(i, i) if i not in g.constants else i for i in m.inputs]
                m.outputs = [five.get(o, o) for o in m.outputs]
        nodes.append(n)
        out = n.outputs[0] if n.outputs else None
        if out in packed and (id(n) in convs or id(n) in agn):
            n.outputs[0] = five[out]
            shape = g.shapes.get(out)
            if shape is not None:
                g.shapes[five[out]] = nc1hwc0_shape(shape, packed[out])
            plain_needed = out in g.outputs or any(not _reads_packed(c, out, convs, agn) for c in cons.get(out, []))
            if plain_needed:
                nodes.append(_trans(f"{out}__to_nchw", five[out], out, "NCHW", shape, packed[out]))
    g.nodes[:] = nodes
    return len(convs)
