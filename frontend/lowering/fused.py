"""Lowering of the graph-mode fused nodes (:mod:`frontend.passes`).

============================  =================================================================
node                          aclnn prepare
============================  =================================================================
FusedConv                     aclnnFusedConvolution: Conv with BatchNorm folded and/or a FixPipe
                              activation (``attrs["activation"]``), members ``attrs["fused"]``
FusedElementwise              aclnnFusedElementwise over the chain ``attrs["steps"]``; if the
                              kernel refuses it (e.g. an integer dtype) the members
                              (``attrs["members"]``) are lowered one by one instead
============================  =================================================================
"""
from __future__ import annotations

from ..errors import UnsupportedModelError
from ..graph import Node
from .cnn import lower_conv
from .registry import register
from .tensors import DTensor, prepare


@register("FusedConv")
def lower_fused_conv(ctx, node: Node, ins: list[DTensor]):
    a = node.attrs
    fused = (str(a.get("activation", "none")), float(a.get("activation_alpha", 0.0)),
             float(a.get("activation_beta", 0.0)), tuple(a.get("fused", ("Conv",))))
    return lower_conv(ctx, node, ins, fused=fused)


@register("FusedElementwise", opset=True)
def lower_fused_elementwise(ctx, node: Node, ins: list[DTensor], opset: int):
    import numpy as np
    from .dispatch import lower_node
    steps = node.attrs["steps"]
    out_dtype = _result_dtype(ins, steps)
    if out_dtype is not None and all(t is not None and t.dtype.kind == "f" for t in ins):
        shape = tuple(np.broadcast_shapes(*[t.shape for t in ins]))
        out = ctx.alloc(node.outputs[0], shape, out_dtype)
        try:
            return [out], [prepare(node, "aclnnFusedElementwise", [t.tensor for t in ins], steps,
                                   tuple(node.attrs.get("fused", ())), out.tensor)]
        except UnsupportedModelError:
            pass
    values = dict(zip(node.inputs, ins))
    calls, outs = [], []
    for m in node.attrs["members"]:
        outs, cs = lower_node(ctx, m, [values[i] for i in m.inputs], opset)
        values.update(zip(m.outputs, outs))
        calls.extend(cs)
    return outs, calls


def _result_dtype(ins, steps):
    """The chain's result dtype from the inputs' (None when operands mix dtypes)."""
    from opsnn.math.fused_elementwise.infershape import step_dtypes
    try:
        dts = step_dtypes([t.dtype for t in ins], steps)
    except (TypeError, IndexError, KeyError):
        return None
    every = [t.dtype for t in ins] + dts
    if any(len(o) == 2 and every[o[0]] != every[o[1]] for _, o, _ in steps):
        return None
    return dts[-1]
