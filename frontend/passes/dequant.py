"""Pass ``fuse_dequant_epilogue``: a QDQ-quantized MatMul runs as one int8 GEMM on the
Cube whose dequant (and requant) FixPipe applies as L0C drains to GM.

Matches (QDQ format, as quantization tools export it)::

    x  = DequantizeLinear(x_q, s_x, z_x)          x_q int8 at run time; s_x, z_x constants, per tensor
    W  = DequantizeLinear(W_q, s_w)               W_q int8 [K, N] initializer, s_w [1] or [N] (axis 1),
                                                  zero point absent or 0 (folded to a constant at load)
    y  = MatMul(x, W) [-> Add(y, bias)]           bias: a constant of N values
    yq = QuantizeLinear(y, s_y, z_y)              the only consumer; s_y, z_y int8 constants, per tensor

and becomes one ``FusedQuantMatMul`` node (lowered by :mod:`frontend.lowering.quant` to
aclnnQuantMatmulV4): x_q @ W_q accumulated in int32, z_x folded into an int32 bias
``-z_x * colsum(W_q)``, the float bias as int32 ``bias / (s_x * s_w)`` (only when that is
an exact integer, as a quantizer's int32 bias is), and FixPipe's per-channel scale
``s_x * s_w / s_y`` with offset ``z_y`` to the int8 out. Not matched: a uint8 x_q or
out, a weight zero point, a MatMul output with a second consumer (its float value
must reach HBM), per-axis activation scales, a non-integral bias. The DQ of x stays
when other nodes read x.

Cost: no vector kernel for the three Q/DQ nodes and no float activation round trip;
the dequant rides on the FIXPIPE stage at no extra bytes (its time is the FIXPIPE
formula of ``npu_sim/hardware/cost.py``, bytes / ``fixpipe_bytes_per_cycle`` +
per-transfer latency; source of the in-line quantization: the Ascend C ``Fixpipe`` API,
see :mod:`opsnn.matmul.quant_matmul.kernel`). The numbers: the Cube's int32 sum is
exact; the requant is one float32 multiply-add and a round half to even, where the
unfused graph rounds twice in float32 -- equal whenever the scales are powers of two,
and otherwise within one step at a rounding tie.
"""
from __future__ import annotations

import numpy as np
from onnx import numpy_helper

from ..graph import Graph, Node
from .util import consumers, producers, sole_consumer

FUSED_QUANT_MATMUL = "FusedQuantMatMul"


def _scalar(g: Graph, name: str, kinds: str):
    v = g.constants.get(name) if name else None
    if v is None or np.asarray(v).size != 1 or np.asarray(v).dtype.kind not in kinds:
        return None
    return np.asarray(v).reshape(-1)[0]


def _weight_source(g: Graph, name: str):
    """(W_q int8 [K, N], s_w [1] or [N]) of the DequantizeLinear the constant ``name``
    was folded from (found in the original model), or None."""
    inits = {t.name: t for t in g.model.graph.initializer}
    for n in g.model.graph.node:
        if n.op_type != "DequantizeLinear" or list(n.output)[:1] != [name]:
            continue
        ins = list(n.input) + [""] * (3 - len(n.input))
        if ins[0] not in inits or ins[1] not in inits or (ins[2] and ins[2] not in inits):
            return None
        wq, sw = numpy_helper.to_array(inits[ins[0]]), numpy_helper.to_array(inits[ins[1]])
        zw = numpy_helper.to_array(inits[ins[2]]) if ins[2] else None
        axis = next((a.i for a in n.attribute if a.name == "axis"), 1)
        if wq.dtype != np.int8 or wq.ndim != 2 or (zw is not None and np.any(zw != 0)):
            return None
        sw = np.asarray(sw, np.float32).reshape(-1)
        if sw.size not in (1, wq.shape[1]) or (sw.size > 1 and axis not in (1, -1)):
            return None
        return wq, sw
    return None


def _fuse_one(g: Graph, cons, prod, mm: Node, drop: set) -> bool:
    if len(mm.inputs) != 2:
        return False
    dq = prod.get(mm.inputs[0])
    if dq is None or dq.op_type != "DequantizeLinear" or len(dq.inputs) < 2:
        return False
    xq = dq.inputs[0]
    x_dtype = g.inputs.get(xq, (None, None))[1] if xq in g.inputs else None
    src = prod.get(xq)
    if src is not None and src.op_type == "QuantizeLinear" and len(src.inputs) > 2:
        x_dtype = np.asarray(g.constants.get(src.inputs[2], np.zeros(0, np.uint8))).dtype
    sx = _scalar(g, dq.inputs[1], "f")
    zx = _scalar(g, dq.inputs[2], "i") if len(dq.inputs) > 2 and dq.inputs[2] else np.int8(0)
    if x_dtype is None or np.dtype(x_dtype) != np.int8 or sx is None or zx is None:
        return False
    w = _weight_source(g, mm.inputs[1])
    if w is None:
        return False
    wq, sw = w
    n = wq.shape[1]
    chain, bias = [mm], None
    nxt = sole_consumer(g, cons, mm.outputs[0])
    if nxt is not None and nxt.op_type == "Add" and len(nxt.inputs) == 2:
        other = [i for i in nxt.inputs if i != mm.outputs[0]]
        b = np.asarray(g.constants.get(other[0])) if len(other) == 1 and other[0] in g.constants else None
        if b is None or b.size != n or b.shape[-1] != n:
            return False
        step = (np.float32(sx) * sw).astype(np.float32)
        bi = np.rint(b.reshape(n).astype(np.float64) / step)
        if not np.array_equal((bi * step).astype(np.float32), b.reshape(n).astype(np.float32)):
            return False
        bias, chain = bi.astype(np.int32), chain + [nxt]
        nxt = sole_consumer(g, cons, nxt.outputs[0])
    if nxt is None or nxt.op_type != "QuantizeLinear" or len(nxt.inputs) < 3 or nxt.inputs[0] != chain[-1].outputs[0]:
        return False
    sy, zy = _scalar(g, nxt.inputs[1], "f"), _scalar(g, nxt.inputs[2], "i")
    if sy is None or zy is None or np.asarray(zy).dtype != np.int8:
        return False
    chain.append(nxt)
    scale = (np.float32(sx) * sw / np.float32(sy)).astype(np.float32)
    tag = mm.name or mm.outputs[0]
    g.constants[f"{tag}__w_int8"] = wq
    g.constants[f"{tag}__fixpipe_scale"] = scale
    ins = [xq, f"{tag}__w_int8", f"{tag}__fixpipe_scale"]
    if bias is not None:
        g.constants[f"{tag}__bias_int32"] = bias
        ins.append(f"{tag}__bias_int32")
    fused = Node(FUSED_QUANT_MATMUL, mm.name, ins, [nxt.outputs[0]],
                 {"fused": ["DequantizeLinear", "MatMul"] + [c.op_type for c in chain[1:]],
                  "a_zero_point": int(zx), "y_zero_point": int(zy), "out_dtype": "int8",
                  "epilogue": "dequant", "fixpipe_scale": "per_channel" if sw.size > 1 else "per_tensor"})
    g.nodes[next(i for i, x in enumerate(g.nodes) if x is mm)] = fused
    drop.update(id(c) for c in chain[1:])
    if len(cons.get(dq.outputs[0], [])) == 1 and dq.outputs[0] not in g.outputs:
        drop.add(id(dq))
    return True


def fuse_dequant_epilogue(g: Graph) -> int:
    """Fuse every matching DQ -> MatMul [-> Add] -> Q (module doc) in place; returns how many."""
    cons, prod = consumers(g), producers(g)
    drop: set = set()
    done = sum(_fuse_one(g, cons, prod, mm, drop) for mm in list(g.nodes) if mm.op_type == "MatMul" and mm.outputs)
    g.nodes[:] = [n for n in g.nodes if id(n) not in drop]
    return done
