"""Lower folded ONNX nodes onto opsnn operators (phase 1 happens here, once).

Each handler takes the node and its input :class:`DTensor` s, allocates its outputs
on the device, runs the op's ``aclnnXxxGetWorkspaceSize`` and returns the prepared
calls. View ops (Reshape, Flatten, Dropout at inference, Identity, Squeeze,
Unsqueeze) alias their input's device memory and cost no kernel. This module holds
the CNN handlers and the dispatcher; :mod:`frontend.lowering_ops` the transformer
ones (elementwise, norms, reductions, layout, gather, slice); :mod:`frontend.fusion`
rewrites the attention subgraph into one FlashAttentionScore node before lowering.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

import opsnn
from opsnn.base.dtypes import from_numpy_dtype

from .onnx_import import Node, UnsupportedModelError


@dataclass
class DTensor:
    """A device tensor: address, shape, numpy dtype and its aclTensor (contiguous ND
    unless ``tensor`` says otherwise)."""

    name: str
    ptr: int
    shape: tuple[int, ...]
    dtype: np.dtype
    tensor: object

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize


@dataclass
class PreparedCall:
    """One prepared aclnn call: phase 2 is ``launch(workspace, ws_size, executor, stream)``."""

    node: str
    op_type: str
    aclnn: str
    launch: Callable
    executor: object
    workspace_size: int


class LoweringContext:
    """What handlers need: device allocation and tensor creation (see runner.py)."""

    def alloc(self, name: str, shape, dtype) -> DTensor:  # pragma: no cover - interface
        raise NotImplementedError

    def view(self, src: DTensor, name: str, shape, strides=None) -> DTensor:  # pragma: no cover
        raise NotImplementedError

    def const(self, name: str) -> np.ndarray | None:  # pragma: no cover
        raise NotImplementedError


def _check(node: Node, aclnn: str, result) -> tuple[int, object]:
    ws, ex, ret = result
    if ret != 0:
        raise UnsupportedModelError(f"{node.op_type} node {node.name!r}: {aclnn}GetWorkspaceSize failed: "
                                    f"{opsnn.aclGetRecentErrMsg()}")
    r = opsnn.aclSetAclOpExecutorRepeatable(ex)
    assert r == 0
    return ws, ex


def _call(node: Node, aclnn: str, *args) -> PreparedCall:
    prep = getattr(opsnn, f"{aclnn}GetWorkspaceSize")
    ws, ex = _check(node, aclnn, prep(*args))
    return PreparedCall(node.name, node.op_type, aclnn, getattr(opsnn, aclnn), ex, ws)


def _pool_out(size: int, k: int, s: int, p0: int, p1: int, d: int = 1, ceil: bool = False) -> int:
    eff = d * (k - 1) + 1
    num = size + p0 + p1 - eff
    out = (-(-num // s) if ceil else num // s) + 1
    if ceil and (out - 1) * s >= size + p0:
        out -= 1
    return out


def _auto_pads(node: Node, in_hw, kernel, strides, dilations) -> list[int]:
    """ONNX pads [top, left, bottom, right] from explicit pads or auto_pad."""
    ap = node.attrs.get("auto_pad", "NOTSET")
    if ap in ("NOTSET", "VALID") or not ap:
        return list(node.attrs.get("pads", [0, 0, 0, 0])) if ap != "VALID" else [0, 0, 0, 0]
    begin, end = [], []
    for size, k, s, d in zip(in_hw, kernel, strides, dilations):
        out = -(-size // s)
        total = max(0, (out - 1) * s + d * (k - 1) + 1 - size)
        small, big = total // 2, total - total // 2
        begin.append(small if ap == "SAME_UPPER" else big)
        end.append(big if ap == "SAME_UPPER" else small)
    return begin + end


def lower_conv(ctx, node: Node, ins: list[DTensor]):
    x, w = ins[0], ins[1]
    b = ins[2] if len(ins) > 2 and ins[2] is not None else None
    kh, kw = w.shape[2], w.shape[3]
    st = list(node.attrs.get("strides", [1, 1]))
    dl = list(node.attrs.get("dilations", [1, 1]))
    g = int(node.attrs.get("group", 1))
    pads = _auto_pads(node, x.shape[2:], (kh, kw), st, dl)
    ho = _pool_out(x.shape[2], kh, st[0], pads[0], pads[2], dl[0])
    wo = _pool_out(x.shape[3], kw, st[1], pads[1], pads[3], dl[1])
    out = ctx.alloc(node.outputs[0], (x.shape[0], w.shape[0], ho, wo), x.dtype)
    padding = [pads[0], pads[2], pads[1], pads[3]]  # opsnn: [top, bottom, left, right]
    call = _call(node, "aclnnConvolution", x.tensor, w.tensor, b.tensor if b else None, opsnn.aclCreateIntArray(st),
                 opsnn.aclCreateIntArray(padding), opsnn.aclCreateIntArray(dl), False,
                 opsnn.aclCreateIntArray([0, 0]), g, out.tensor, 0)
    return [out], [call]


def lower_batchnorm(ctx, node: Node, ins):
    x, scale, bias, mean, var = ins[:5]
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    call = _call(node, "aclnnBatchNorm", x.tensor, scale.tensor, bias.tensor, mean.tensor, var.tensor, False,
                 float(node.attrs.get("momentum", 0.9)), float(node.attrs.get("epsilon", 1e-5)), out.tensor, None, None)
    return [out], [call]


def lower_relu(ctx, node, ins):
    out = ctx.alloc(node.outputs[0], ins[0].shape, ins[0].dtype)
    return [out], [_call(node, "aclnnRelu", ins[0].tensor, out.tensor)]


def _bshape(a, b):
    return tuple(np.broadcast_shapes(a, b))


def lower_sum(ctx, node, ins):
    one = opsnn.aclCreateScalar(1.0, opsnn.aclDataType.ACL_FLOAT)
    if len(ins) == 1:
        return [ctx.view(ins[0], node.outputs[0], ins[0].shape)], []
    calls = []
    acc = ins[0]
    for i, nxt in enumerate(ins[1:]):
        last = i == len(ins) - 2
        name = node.outputs[0] if last else f"{node.outputs[0]}__partial{i}"
        out = ctx.alloc(name, _bshape(acc.shape, nxt.shape), acc.dtype)
        calls.append(_call(node, "aclnnAdd", acc.tensor, nxt.tensor, one, out.tensor))
        acc = out
    return [acc], calls


def lower_maxpool(ctx, node, ins):
    x = ins[0]
    k = list(node.attrs["kernel_shape"])
    st = list(node.attrs.get("strides", [1] * len(k)))
    dl = list(node.attrs.get("dilations", [1] * len(k)))
    ceil = bool(node.attrs.get("ceil_mode", 0))
    pads = _auto_pads(node, x.shape[2:], k, st, dl)
    if len(node.outputs) > 1 and node.outputs[1]:
        raise UnsupportedModelError(f"MaxPool node {node.name!r}: the Indices output is not supported")
    ho = _pool_out(x.shape[2], k[0], st[0], pads[0], pads[2], dl[0], ceil)
    wo = _pool_out(x.shape[3], k[1], st[1], pads[1], pads[3], dl[1], ceil)
    out = ctx.alloc(node.outputs[0], (x.shape[0], x.shape[1], ho, wo), x.dtype)
    ia = opsnn.aclCreateIntArray
    call = _call(node, "aclnnMaxPool", x.tensor, ia(k), ia(st), 0, ia(pads), ia(dl), int(ceil), out.tensor)
    return [out], [call]


def lower_avgpool(ctx, node, ins):
    x = ins[0]
    k = list(node.attrs["kernel_shape"])
    st = list(node.attrs.get("strides", [1] * len(k)))
    ceil = bool(node.attrs.get("ceil_mode", 0))
    pads = _auto_pads(node, x.shape[2:], k, st, [1, 1])
    ho = _pool_out(x.shape[2], k[0], st[0], pads[0], pads[2], 1, ceil)
    wo = _pool_out(x.shape[3], k[1], st[1], pads[1], pads[3], 1, ceil)
    out = ctx.alloc(node.outputs[0], (x.shape[0], x.shape[1], ho, wo), x.dtype)
    ia = opsnn.aclCreateIntArray
    call = _call(node, "aclnnAvgPool2d", x.tensor, ia(k), ia(st), ia(pads), ceil,
                 bool(node.attrs.get("count_include_pad", 0)), 0, 0, out.tensor)
    return [out], [call]


def lower_global_avgpool(ctx, node, ins):
    x = ins[0]
    out = ctx.alloc(node.outputs[0], (x.shape[0], x.shape[1], 1, 1), x.dtype)
    return [out], [_call(node, "aclnnAdaptiveAvgPool2d", x.tensor, opsnn.aclCreateIntArray([1, 1]), out.tensor)]


def _transposed_view(ctx, t: DTensor, name: str) -> DTensor:
    r, c = t.shape
    return ctx.view(t, name, (c, r), strides=(1, c))


def lower_gemm(ctx, node, ins):
    a, b = ins[0], ins[1]
    c = ins[2] if len(ins) > 2 and ins[2] is not None else None
    if node.attrs.get("transA", 0):
        a = _transposed_view(ctx, a, a.name + "__T")
    if node.attrs.get("transB", 0):
        b = _transposed_view(ctx, b, b.name + "__T")
    m, n = a.shape[0], b.shape[1]
    out = ctx.alloc(node.outputs[0], (m, n), a.dtype)
    alpha, beta = float(node.attrs.get("alpha", 1.0)), float(node.attrs.get("beta", 1.0))
    if c is None:
        c = ctx.upload(node.outputs[0] + "__zero_bias", np.zeros((n,), a.dtype))
        beta = 0.0
    fl = opsnn.aclDataType.ACL_FLOAT
    call = _call(node, "aclnnAddmm", c.tensor, a.tensor, b.tensor, opsnn.aclCreateScalar(beta, fl),
                 opsnn.aclCreateScalar(alpha, fl), out.tensor, 0)
    return [out], [call]


def lower_matmul(ctx, node, ins):
    a, b = ins
    if len(a.shape) < 2 or len(b.shape) < 2:
        raise UnsupportedModelError(f"MatMul node {node.name!r}: 1-D operands are not supported")
    shape = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2])) + (a.shape[-2], b.shape[-1])
    out = ctx.alloc(node.outputs[0], shape, a.dtype)
    return [out], [_call(node, "aclnnMatmul", a.tensor, b.tensor, out.tensor, 0)]


def lower_softmax(ctx, node, ins, opset: int):
    x = ins[0]
    rank = len(x.shape)
    if opset < 13:
        axis = int(node.attrs.get("axis", 1)) % rank
        rows = int(np.prod(x.shape[:axis], dtype=np.int64))
        cols = int(np.prod(x.shape[axis:], dtype=np.int64))
        x2 = ctx.view(x, x.name + "__2d", (rows, cols))
        out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
        o2 = ctx.view(out, out.name + "__2d", (rows, cols))
        return [out], [_call(node, "aclnnSoftmax", x2.tensor, 1, o2.tensor)]
    axis = int(node.attrs.get("axis", -1))
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    return [out], [_call(node, "aclnnSoftmax", x.tensor, axis, out.tensor)]


def lower_lrn(ctx, node, ins):
    x = ins[0]
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    a = node.attrs
    return [out], [_call(node, "aclnnLrn", x.tensor, int(a["size"]), float(a.get("alpha", 1e-4)),
                         float(a.get("beta", 0.75)), float(a.get("bias", 1.0)), out.tensor)]


def lower_reshape(ctx, node, ins):
    x = ins[0]
    shape = ctx.const(node.inputs[1])
    if shape is None:
        raise UnsupportedModelError(f"Reshape node {node.name!r}: the target shape must be constant")
    shape = [int(s) for s in shape]
    allowzero = int(node.attrs.get("allowzero", 0))
    shape = [x.shape[i] if (s == 0 and not allowzero) else s for i, s in enumerate(shape)]
    if -1 in shape:
        known = int(np.prod([s for s in shape if s != -1], dtype=np.int64))
        shape[shape.index(-1)] = int(np.prod(x.shape, dtype=np.int64)) // max(known, 1)
    return [ctx.view(x, node.outputs[0], tuple(shape))], []


def lower_flatten(ctx, node, ins):
    x = ins[0]
    axis = int(node.attrs.get("axis", 1)) % (len(x.shape) + 1) if x.shape else 0
    rows = int(np.prod(x.shape[:axis], dtype=np.int64))
    return [ctx.view(x, node.outputs[0], (rows, int(np.prod(x.shape, dtype=np.int64)) // max(rows, 1)))], []


def lower_identity(ctx, node, ins):
    """Identity, and Dropout at inference (its optional mask output is not produced:
    a node that consumes it fails with "input ... is undefined")."""
    return [ctx.view(ins[0], node.outputs[0], ins[0].shape)], []


def lower_squeeze(ctx, node, ins):
    x = ins[0]
    axes = node.attrs.get("axes")
    if axes is None and len(node.inputs) > 1:
        axes = ctx.const(node.inputs[1])
    axes = [int(a) % len(x.shape) for a in axes] if axes is not None else [i for i, d in enumerate(x.shape) if d == 1]
    shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    return [ctx.view(x, node.outputs[0], shape)], []


def lower_unsqueeze(ctx, node, ins):
    x = ins[0]
    axes = node.attrs.get("axes")
    if axes is None and len(node.inputs) > 1:
        axes = ctx.const(node.inputs[1])
    rank = len(x.shape) + len(axes)
    axes = sorted(int(a) % rank for a in axes)
    shape = list(x.shape)
    for a in axes:
        shape.insert(a, 1)
    return [ctx.view(x, node.outputs[0], tuple(shape))], []


def lower_add(ctx, node, ins):
    return lower_sum(ctx, node, ins)


HANDLERS = {
    "Conv": lower_conv,
    "BatchNormalization": lower_batchnorm,
    "Relu": lower_relu,
    "Sum": lower_sum,
    "Add": lower_add,
    "MaxPool": lower_maxpool,
    "AveragePool": lower_avgpool,
    "GlobalAveragePool": lower_global_avgpool,
    "Gemm": lower_gemm,
    "MatMul": lower_matmul,
    "LRN": lower_lrn,
    "Reshape": lower_reshape,
    "Flatten": lower_flatten,
    "Dropout": lower_identity,
    "Identity": lower_identity,
    "Squeeze": lower_squeeze,
    "Unsqueeze": lower_unsqueeze,
}


from .lowering_ops import HANDLERS as _TRANSFORMER_HANDLERS  # noqa: E402  (handlers need the names above)

HANDLERS.update(_TRANSFORMER_HANDLERS)


def lower_node(ctx, node: Node, ins: list[DTensor], opset: int):
    """Lower one node; raises UnsupportedModelError naming the op and node."""
    if node.op_type == "Softmax":
        return lower_softmax(ctx, node, ins, opset)
    fn = HANDLERS.get(node.op_type)
    if fn is None:
        raise UnsupportedModelError(
            f"op {node.op_type!r} (node {node.name!r}) is not supported; supported: "
            f"{', '.join(sorted(list(HANDLERS) + ['Softmax']))}")
    try:
        return fn(ctx, node, ins)
    except ValueError as e:  # e.g. a dtype with no aclDataType, met while allocating an output
        raise UnsupportedModelError(f"{node.op_type} node {node.name!r}: {e}") from None


def acl_dtype(dtype) -> int:
    return int(from_numpy_dtype(dtype))
