"""Lower folded ONNX nodes onto opsnn operators (phase 1 happens here, once).

Each handler takes the node and its input :class:`DTensor` s, allocates its outputs
on the device, runs the op's ``aclnnXxxGetWorkspaceSize`` and returns the prepared
calls. View ops (Reshape, Flatten, Dropout at inference, Identity, Squeeze,
Unsqueeze) alias their input's device memory and cost no kernel. This module holds
the CNN handlers, the attribute helpers and the dispatcher; :mod:`frontend.lowering_ops`
the transformer ones (elementwise incl. Add/MatMul, norms, reductions, layout, gather,
slice); :mod:`frontend.fusion` rewrites the attention subgraph into one
FlashAttentionScore node before lowering.

1-D Conv, MaxPool and AveragePool ([N, C, L] inputs) run as the 2-D aclnn op over
the [N, C, 1, L] view of the same memory (kernel, strides and dilations get a
leading 1, pads [b, e] become [0, b, 0, e]); 3-D ones are refused. Training-mode
BatchNormalization and Dropout are refused. Every malformed attribute, missing
input or out-of-range axis is an :class:`UnsupportedModelError` naming op and node,
and :func:`lower_node` turns anything else a handler raises into one too.
"""
from __future__ import annotations

import traceback
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import opsnn
from opsnn.base.dtypes import from_numpy_dtype

from .errors import PrepareError, UnsupportedModelError
from .graph import Node
from .program import PreparedCall, prepare_call


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


class LoweringContext:
    """What handlers need: device allocation and tensor creation (see runner.py)."""

    def alloc(self, name: str, shape, dtype) -> DTensor:  # pragma: no cover - interface
        raise NotImplementedError

    def view(self, src: DTensor, name: str, shape, strides=None) -> DTensor:  # pragma: no cover
        raise NotImplementedError

    def const(self, name: str) -> np.ndarray | None:  # pragma: no cover
        raise NotImplementedError


def _call(node: Node, aclnn: str, *args) -> PreparedCall:
    """Phase 1 of ``aclnn`` for ``node``; UnsupportedModelError naming the node if it fails."""
    try:
        return prepare_call(node.name, node.op_type, aclnn, *args)
    except PrepareError as e:
        raise bad(node, str(e)) from None


# ------------------------------------------------------------------------- attribute access
def bad(node: Node, msg: str) -> UnsupportedModelError:
    """The error every handler raises: ``"<op> node '<name>': <msg>"``."""
    return UnsupportedModelError(f"{node.op_type} node {node.name!r}: {msg}")


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


_REQUIRED = object()


def attr_int(node: Node, name: str, default=_REQUIRED) -> int:
    """Integer attribute ``name`` (or ``default``); UnsupportedModelError when it is
    missing without a default or is not an int."""
    v = node.attrs.get(name, default)
    if v is _REQUIRED:
        raise bad(node, f"required attribute {name!r} is missing")
    if not _is_int(v):
        raise bad(node, f"attribute {name!r} must be an int, got {v!r:.60}")
    return int(v)


def attr_float(node: Node, name: str, default: float) -> float:
    v = node.attrs.get(name, default)
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise bad(node, f"attribute {name!r} must be a float, got {v!r:.60}")
    return float(v)


def attr_ints(node: Node, name: str, default=_REQUIRED, length: int | None = None) -> list[int] | None:
    """List-of-ints attribute ``name`` (or ``default``, which may be None); with
    ``length`` the list must have exactly that many entries."""
    v = node.attrs.get(name, default)
    if v is _REQUIRED:
        raise bad(node, f"required attribute {name!r} is missing")
    if v is None:
        return None
    if isinstance(v, np.ndarray):
        v = v.reshape(-1).tolist()
    if not isinstance(v, (list, tuple)) or not all(_is_int(a) for a in v):
        raise bad(node, f"attribute {name!r} must be a list of ints, got {v!r:.60}")
    if length is not None and len(v) != length:
        raise bad(node, f"attribute {name!r} has {len(v)} values, expected {length}: {list(v)}")
    return [int(a) for a in v]


def axis_index(node: Node, axis: int, rank: int, what: str = "axis") -> int:
    """``axis`` normalised into [0, rank); UnsupportedModelError outside [-rank, rank)."""
    if not -rank <= axis < max(rank, 1):
        raise bad(node, f"{what} {axis} is out of range for a {rank}-D input")
    return axis % max(rank, 1)


# ---------------------------------------------------------------------------- conv / pool
def _pool_out(size: int, k: int, s: int, p0: int, p1: int, d: int = 1, ceil: bool = False) -> int:
    eff = d * (k - 1) + 1
    num = size + p0 + p1 - eff
    out = (-(-num // s) if ceil else num // s) + 1
    if ceil and (out - 1) * s >= size + p0:
        out -= 1
    return out


def _auto_pads(node: Node, in_hw, kernel, strides, dilations) -> list[int]:
    """ONNX pads [x1_begin, x2_begin, ..., x1_end, x2_end, ...] from explicit pads or auto_pad."""
    n = len(kernel)
    ap = node.attrs.get("auto_pad", "NOTSET") or "NOTSET"
    if ap not in ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"):
        raise bad(node, f"auto_pad {ap!r} is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER")
    if ap == "VALID":
        return [0] * (2 * n)
    if ap == "NOTSET":
        pads = attr_ints(node, "pads", [0] * (2 * n), 2 * n)
        if min(pads, default=0) < 0:
            raise bad(node, f"pads {pads} must be >= 0")
        return pads
    begin, end = [], []
    for size, k, s, d in zip(in_hw, kernel, strides, dilations):
        out = -(-size // s)
        total = max(0, (out - 1) * s + d * (k - 1) + 1 - size)
        small, big = total // 2, total - total // 2
        begin.append(small if ap == "SAME_UPPER" else big)
        end.append(big if ap == "SAME_UPPER" else small)
    return begin + end


def _spatial_rank(node: Node, x: DTensor) -> int:
    """1 or 2 spatial dims (input [N, C, L] or [N, C, H, W]); else UnsupportedModelError."""
    nsp = len(x.shape) - 2
    if nsp in (1, 2):
        return nsp
    if nsp >= 3:
        raise UnsupportedModelError(f"unsupported: {nsp}-D {node.op_type} (node {node.name!r}); only 1-D and 2-D "
                                    "are supported")
    raise bad(node, f"input shape {list(x.shape)} needs at least 3 dims [N, C, spatial...]")


def _geometry(node: Node, x: DTensor, kernel: list[int], dilations: bool = True):
    """(strides, dilations, pads) for ``kernel`` over x's spatial dims, validated."""
    nsp = len(kernel)
    st = attr_ints(node, "strides", [1] * nsp, nsp)
    dl = attr_ints(node, "dilations", [1] * nsp, nsp) if dilations else [1] * nsp
    if min(kernel) < 1 or min(st) < 1 or min(dl) < 1:
        raise bad(node, f"kernel {kernel}, strides {st} and dilations {dl} must be >= 1")
    return st, dl, _auto_pads(node, x.shape[2:], kernel, st, dl)


def _lift(ctx, node: Node, t: DTensor, suffix: str) -> DTensor:
    """A [N, C, L] tensor viewed as [N, C, 1, L] (1-D ops run as 2-D ops with H = 1)."""
    return ctx.view(t, f"{node.outputs[0]}__{suffix}_4d", t.shape[:2] + (1,) + t.shape[2:])


def _to_2d(kernel, st, dl, pads):
    """1-D geometry as 2-D (H = 1): kernel/strides/dilations get a leading 1, pads
    [begin, end] become [0, begin, 0, end]."""
    return [1] + kernel, [1] + st, [1] + dl, [0, pads[0], 0, pads[1]]


def lower_conv(ctx, node: Node, ins: list[DTensor]):
    """Conv over [N, C, H, W], or [N, C, L] as a 2-D Conv over the [N, C, 1, L] view."""
    x, w = ins[0], ins[1]
    b = ins[2] if len(ins) > 2 else None
    nsp = _spatial_rank(node, x)
    if len(w.shape) != nsp + 2:
        raise bad(node, f"weight shape {list(w.shape)} does not match a {nsp}-D input {list(x.shape)}")
    kernel = list(w.shape[2:])
    ks = attr_ints(node, "kernel_shape", None, nsp)
    if ks is not None and ks != kernel:
        raise bad(node, f"kernel_shape {ks} does not match the weight's {kernel}")
    g = attr_int(node, "group", 1)
    st, dl, pads = _geometry(node, x, kernel)
    out_sp = [_pool_out(x.shape[2 + i], kernel[i], st[i], pads[i], pads[i + nsp], dl[i]) for i in range(nsp)]
    out = ctx.alloc(node.outputs[0], (x.shape[0], w.shape[0], *out_sp), x.dtype)
    x4, w4, o4 = x, w, out
    if nsp == 1:
        x4, w4, o4 = _lift(ctx, node, x, "x"), _lift(ctx, node, w, "w"), _lift(ctx, node, out, "y")
        kernel, st, dl, pads = _to_2d(kernel, st, dl, pads)
    padding = [pads[0], pads[2], pads[1], pads[3]]  # opsnn: [top, bottom, left, right]
    ia = opsnn.aclCreateIntArray
    call = _call(node, "aclnnConvolution", x4.tensor, w4.tensor, b.tensor if b else None, ia(st), ia(padding),
                 ia(dl), False, ia([0, 0]), g, o4.tensor, 0)
    return [out], [call]


def _training_reason(node: Node, opset: int) -> str | None:
    """Why a BatchNormalization node runs in training mode (operator text), or None."""
    outs = [o for o in node.outputs if o]
    if opset >= 14:
        return "training_mode=1" if attr_int(node, "training_mode", 0) else None
    if opset >= 7:
        return f"{len(outs)} outputs (opsets 7-13: more than Y means training)" if len(outs) > 1 else None
    return None if attr_int(node, "is_test", 0) else "is_test=0 (opset < 7)"


def lower_batchnorm(ctx, node: Node, ins, opset: int = 15):
    """BatchNormalization at inference (running statistics) -> aclnnBatchNorm.
    Training mode (see :func:`_training_reason`) and statistics that are not
    per-channel [C] (spatial=0) are refused."""
    why = _training_reason(node, opset)
    if why:
        raise bad(node, f"training-mode BatchNormalization is not supported ({why})")
    x, scale, bias, mean, var = ins[:5]
    if len(x.shape) < 2:
        raise bad(node, f"input shape {list(x.shape)} needs at least 2 dims [N, C, ...]")
    c = x.shape[1]
    for name, t in (("scale", scale), ("B", bias), ("mean", mean), ("var", var)):
        if tuple(t.shape) != (c,):
            raise bad(node, f"{name} has shape {list(t.shape)}; only per-channel statistics of shape [{c}] are "
                            "supported")
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    call = _call(node, "aclnnBatchNorm", x.tensor, scale.tensor, bias.tensor, mean.tensor, var.tensor, False,
                 attr_float(node, "momentum", 0.9), attr_float(node, "epsilon", 1e-5), out.tensor, None, None)
    return [out], [call]


def lower_relu(ctx, node, ins):
    out = ctx.alloc(node.outputs[0], ins[0].shape, ins[0].dtype)
    return [out], [_call(node, "aclnnRelu", ins[0].tensor, out.tensor)]


def _bshape(node, a, b):
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        raise bad(node, f"shapes {list(a)} and {list(b)} do not broadcast") from None


def alpha_one(dtype) -> object:
    """aclnnAdd/Sub's alpha = 1 in a dtype the operands accept: INT64 for integer
    tensors (aclnnAdd refuses a FLOAT alpha for them), BOOL for bool, FLOAT otherwise."""
    kind = np.dtype(dtype).kind
    T = opsnn.aclDataType
    if kind in "iu":
        return opsnn.aclCreateScalar(1, T.ACL_INT64)
    if kind == "b":
        return opsnn.aclCreateScalar(True, T.ACL_BOOL)
    return opsnn.aclCreateScalar(1.0, T.ACL_FLOAT)


def lower_sum(ctx, node, ins):
    """Sum (variadic, broadcasting): a chain of aclnnAdd with alpha 1."""
    if len(ins) == 1:
        return [ctx.view(ins[0], node.outputs[0], ins[0].shape)], []
    one = alpha_one(ins[0].dtype)
    calls = []
    acc = ins[0]
    for i, nxt in enumerate(ins[1:]):
        last = i == len(ins) - 2
        name = node.outputs[0] if last else f"{node.outputs[0]}__partial{i}"
        out = ctx.alloc(name, _bshape(node, acc.shape, nxt.shape), acc.dtype)
        calls.append(_call(node, "aclnnAdd", acc.tensor, nxt.tensor, one, out.tensor))
        acc = out
    return [acc], calls


def _pool_setup(ctx, node: Node, x: DTensor, dilations: bool):
    """Shared MaxPool/AveragePool geometry: (x4, out, o4, kernel, strides, dilations,
    pads, ceil) with 1-D pools lifted to 2-D over an H = 1 view."""
    nsp = _spatial_rank(node, x)
    kernel = attr_ints(node, "kernel_shape", length=nsp)
    ceil = bool(attr_int(node, "ceil_mode", 0))
    st, dl, pads = _geometry(node, x, kernel, dilations)
    out_sp = [_pool_out(x.shape[2 + i], kernel[i], st[i], pads[i], pads[i + nsp], dl[i], ceil) for i in range(nsp)]
    out = ctx.alloc(node.outputs[0], (x.shape[0], x.shape[1], *out_sp), x.dtype)
    if nsp == 1:
        kernel, st, dl, pads = _to_2d(kernel, st, dl, pads)
        return _lift(ctx, node, x, "x"), out, _lift(ctx, node, out, "y"), kernel, st, dl, pads, ceil
    return x, out, out, kernel, st, dl, pads, ceil


def lower_maxpool(ctx, node, ins):
    """MaxPool over [N, C, H, W] or [N, C, L] (as H = 1) -> aclnnMaxPool; the Indices
    output is refused."""
    if len(node.outputs) > 1 and node.outputs[1]:
        raise bad(node, "the Indices output is not supported")
    x4, out, o4, k, st, dl, pads, ceil = _pool_setup(ctx, node, ins[0], True)
    ia = opsnn.aclCreateIntArray
    call = _call(node, "aclnnMaxPool", x4.tensor, ia(k), ia(st), 0, ia(pads), ia(dl), int(ceil), o4.tensor)
    return [out], [call]


def lower_avgpool(ctx, node, ins):
    """AveragePool over [N, C, H, W] or [N, C, L] (as H = 1) -> aclnnAvgPool2d;
    dilations other than 1 are refused."""
    dl = node.attrs.get("dilations")
    if dl is not None and any(d != 1 for d in attr_ints(node, "dilations")):
        raise bad(node, f"dilations {dl} are not supported (aclnnAvgPool2d has none)")
    x4, out, o4, k, st, _, pads, ceil = _pool_setup(ctx, node, ins[0], False)
    ia = opsnn.aclCreateIntArray
    call = _call(node, "aclnnAvgPool2d", x4.tensor, ia(k), ia(st), ia(pads), ceil,
                 bool(attr_int(node, "count_include_pad", 0)), 0, 0, o4.tensor)
    return [out], [call]


def lower_global_avgpool(ctx, node, ins):
    """GlobalAveragePool over any number of spatial dims: [N, C, *S] viewed as
    [N, C, 1, prod(S)] -> aclnnAdaptiveAvgPool2d to [N, C, 1, 1]; output [N, C, 1, ...]."""
    x = ins[0]
    if len(x.shape) < 3:
        raise bad(node, f"input shape {list(x.shape)} needs at least 3 dims [N, C, spatial...]")
    n, c = x.shape[:2]
    out = ctx.alloc(node.outputs[0], (n, c) + (1,) * (len(x.shape) - 2), x.dtype)
    x4, o4 = x, out
    if len(x.shape) != 4:
        x4 = ctx.view(x, f"{node.outputs[0]}__x_4d", (n, c, 1, int(np.prod(x.shape[2:], dtype=np.int64))))
        o4 = ctx.view(out, f"{node.outputs[0]}__y_4d", (n, c, 1, 1))
    return [out], [_call(node, "aclnnAdaptiveAvgPool2d", x4.tensor, opsnn.aclCreateIntArray([1, 1]), o4.tensor)]


def _transposed_view(ctx, t: DTensor, name: str) -> DTensor:
    r, c = t.shape
    return ctx.view(t, name, (c, r), strides=(1, c))


def lower_gemm(ctx, node, ins):
    a, b = ins[0], ins[1]
    c = ins[2] if len(ins) > 2 and ins[2] is not None else None
    if len(a.shape) != 2 or len(b.shape) != 2:
        raise bad(node, f"A {list(a.shape)} and B {list(b.shape)} must be 2-D")
    if attr_int(node, "transA", 0):
        a = _transposed_view(ctx, a, node.outputs[0] + "__A_T")
    if attr_int(node, "transB", 0):
        b = _transposed_view(ctx, b, node.outputs[0] + "__B_T")
    m, n = a.shape[0], b.shape[1]
    out = ctx.alloc(node.outputs[0], (m, n), a.dtype)
    alpha, beta = attr_float(node, "alpha", 1.0), attr_float(node, "beta", 1.0)
    if c is None:
        c = ctx.upload(node.outputs[0] + "__zero_bias", np.zeros((n,), a.dtype))
        beta = 0.0
    fl = opsnn.aclDataType.ACL_FLOAT
    call = _call(node, "aclnnAddmm", c.tensor, a.tensor, b.tensor, opsnn.aclCreateScalar(beta, fl),
                 opsnn.aclCreateScalar(alpha, fl), out.tensor, 0)
    return [out], [call]


def lower_softmax(ctx, node, ins, opset: int):
    x = ins[0]
    rank = len(x.shape)
    if opset < 13:
        axis = axis_index(node, attr_int(node, "axis", 1), rank)
        rows = int(np.prod(x.shape[:axis], dtype=np.int64))
        cols = int(np.prod(x.shape[axis:], dtype=np.int64))
        x2 = ctx.view(x, node.outputs[0] + "__x_2d", (rows, cols))
        out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
        o2 = ctx.view(out, out.name + "__2d", (rows, cols))
        return [out], [_call(node, "aclnnSoftmax", x2.tensor, 1, o2.tensor)]
    axis = attr_int(node, "axis", -1)
    axis_index(node, axis, rank)
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    return [out], [_call(node, "aclnnSoftmax", x.tensor, axis, out.tensor)]


def lower_lrn(ctx, node, ins):
    x = ins[0]
    size = attr_int(node, "size")
    if size < 1:
        raise bad(node, f"size {size} must be >= 1")
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    return [out], [_call(node, "aclnnLrn", x.tensor, size, attr_float(node, "alpha", 1e-4),
                         attr_float(node, "beta", 0.75), attr_float(node, "bias", 1.0), out.tensor)]


def lower_reshape(ctx, node, ins):
    x = ins[0]
    shape = ctx.const(node.inputs[1])
    if shape is None:
        raise bad(node, "the target shape must be constant")
    shape = [int(s) for s in np.asarray(shape).reshape(-1)]
    allowzero = attr_int(node, "allowzero", 0)
    if not allowzero and any(s == 0 and i >= len(x.shape) for i, s in enumerate(shape)):
        raise bad(node, f"target shape {shape} copies (0) a dim beyond the input's {len(x.shape)}")
    given = list(shape)
    shape = [x.shape[i] if (s == 0 and not allowzero) else s for i, s in enumerate(shape)]
    if shape.count(-1) > 1 or any(s < -1 for s in shape):
        raise bad(node, f"target shape {given}: at most one -1 and no other negative dims")
    total = int(np.prod(x.shape, dtype=np.int64))
    if -1 in shape:
        known = int(np.prod([s for s in shape if s != -1], dtype=np.int64))
        if known == 0 or total % known:
            raise bad(node, f"cannot reshape {list(x.shape)} to {given}")
        shape[shape.index(-1)] = total // known
    if int(np.prod(shape, dtype=np.int64)) != total:
        raise bad(node, f"cannot reshape {list(x.shape)} ({total} elements) to {given}")
    return [ctx.view(x, node.outputs[0], tuple(shape))], []


def lower_flatten(ctx, node, ins):
    x = ins[0]
    rank = len(x.shape)
    axis = attr_int(node, "axis", 1)
    if not -rank <= axis <= rank:
        raise bad(node, f"axis {axis} is out of range [-{rank}, {rank}]")
    axis %= rank + 1
    rows = int(np.prod(x.shape[:axis], dtype=np.int64))
    cols = int(np.prod(x.shape[axis:], dtype=np.int64))
    return [ctx.view(x, node.outputs[0], (rows, cols))], []


def lower_identity(ctx, node, ins):
    """Identity, and Dropout at inference (its optional mask output is not produced:
    a node that consumes it fails with "input ... is undefined")."""
    return [ctx.view(ins[0], node.outputs[0], ins[0].shape)], []


def lower_dropout(ctx, node, ins, opset: int = 13):
    """Dropout at inference is Identity. Training mode is refused: a constant true
    ``training_mode`` input (opset >= 12), a runtime one, or is_test=0 (opset < 7)."""
    if opset >= 12 and len(node.inputs) > 2 and node.inputs[2]:
        t = ctx.const(node.inputs[2])
        if t is None:
            raise bad(node, "a runtime training_mode input is not supported (it must be a constant false)")
        if bool(np.asarray(t).reshape(-1)[0]):
            raise bad(node, "training-mode Dropout is not supported (training_mode is true)")
    if opset < 7 and not attr_int(node, "is_test", 0):
        raise bad(node, "training-mode Dropout is not supported (is_test=0, opset < 7)")
    return lower_identity(ctx, node, ins)


def _axes(ctx, node: Node, rank: int) -> list[int] | None:
    """Axes from the attribute (older opsets) or the constant second input."""
    axes = attr_ints(node, "axes", None)
    if axes is None and len(node.inputs) > 1 and node.inputs[1]:
        c = ctx.const(node.inputs[1])
        if c is None:
            raise bad(node, "runtime axes are not supported (they must be constant)")
        axes = [int(a) for a in np.asarray(c).reshape(-1)]
    if axes is None:
        return None
    norm = [axis_index(node, a, rank, "axes value") for a in axes]
    if len(set(norm)) != len(norm):
        raise bad(node, f"axes {axes} repeat an axis")
    return norm


def lower_squeeze(ctx, node, ins):
    x = ins[0]
    axes = _axes(ctx, node, len(x.shape))
    if axes is None:
        axes = [i for i, d in enumerate(x.shape) if d == 1]
    elif any(x.shape[a] != 1 for a in axes):
        raise bad(node, f"cannot squeeze axes {axes} of shape {list(x.shape)}: not all of size 1")
    shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    return [ctx.view(x, node.outputs[0], shape)], []


def lower_unsqueeze(ctx, node, ins):
    x = ins[0]
    n_axes = len(attr_ints(node, "axes", None) or [])
    if not n_axes and len(node.inputs) > 1 and node.inputs[1] and ctx.const(node.inputs[1]) is not None:
        n_axes = int(np.asarray(ctx.const(node.inputs[1])).size)
    axes = _axes(ctx, node, len(x.shape) + n_axes)
    if not axes:
        raise bad(node, "axes are required (attribute before opset 13, a constant input from opset 13)")
    shape = list(x.shape)
    for a in sorted(axes):
        shape.insert(a, 1)
    return [ctx.view(x, node.outputs[0], tuple(shape))], []


HANDLERS = {
    "Conv": lower_conv,
    "BatchNormalization": lower_batchnorm,
    "Relu": lower_relu,
    "Sum": lower_sum,
    "MaxPool": lower_maxpool,
    "AveragePool": lower_avgpool,
    "GlobalAveragePool": lower_global_avgpool,
    "Gemm": lower_gemm,
    "LRN": lower_lrn,
    "Reshape": lower_reshape,
    "Flatten": lower_flatten,
    "Dropout": lower_dropout,
    "Identity": lower_identity,
    "Squeeze": lower_squeeze,
    "Unsqueeze": lower_unsqueeze,
}

#: handlers whose meaning depends on the opset: called as ``fn(ctx, node, ins, opset)``
OPSET_HANDLERS = {"Softmax": lower_softmax, "BatchNormalization": lower_batchnorm, "Dropout": lower_dropout}


from .lowering_ops import HANDLERS as _TRANSFORMER_HANDLERS  # noqa: E402  (handlers need the names above)

HANDLERS.update(_TRANSFORMER_HANDLERS)


def _check_arity(node: Node, ins: list, opset: int) -> None:
    """Input/output counts and required inputs against the ONNX schema at ``opset``
    (skipped for internal op types such as FlashAttentionScore)."""
    import onnx
    try:
        schema = onnx.defs.get_schema(node.op_type, opset, "")
    except Exception:  # noqa: BLE001 - newer than the model's opset (then its first schema), or internal
        try:
            schema = onnx.defs.get_schema(node.op_type, "")
        except Exception:  # noqa: BLE001 - not an ONNX op (an internal fused node)
            return
    if not schema.min_input <= len(ins) <= schema.max_input:
        raise bad(node, f"has {len(ins)} inputs; the opset-{opset} schema takes {schema.min_input}.."
                        f"{schema.max_input}")
    n_out = len(node.outputs)
    if not schema.min_output <= n_out <= schema.max_output or not n_out or not node.outputs[0]:
        raise bad(node, f"has outputs {node.outputs}; the opset-{opset} schema takes {schema.min_output}.."
                        f"{schema.max_output} with the first one named")
    optional = onnx.defs.OpSchema.FormalParameterOption.Optional
    formals = list(schema.inputs)
    for i, t in enumerate(ins):
        formal = formals[min(i, len(formals) - 1)]  # the last formal may be variadic
        if t is None and formal.option != optional:
            raise bad(node, f"required input {i} ({formal.name}) is missing")


def lower_node(ctx, node: Node, ins: list[DTensor], opset: int):
    """Lower one node; raises UnsupportedModelError naming the op and node.

    Any other exception a handler raises (a malformed model it did not foresee, or
    a bug) is converted to UnsupportedModelError("<op> node '<name>': <reason>")
    whose reason keeps the exception type and the file:line it came from."""
    fn = OPSET_HANDLERS.get(node.op_type) or HANDLERS.get(node.op_type)
    if fn is None:
        raise UnsupportedModelError(
            f"op {node.op_type!r} (node {node.name!r}) is not supported; supported: "
            f"{', '.join(sorted(set(HANDLERS) | set(OPSET_HANDLERS)))}")
    try:
        _check_arity(node, ins, opset)
        if node.op_type in OPSET_HANDLERS:
            return fn(ctx, node, ins, opset)
        return fn(ctx, node, ins)
    except UnsupportedModelError as e:
        if repr(node.name) in str(e):
            raise
        raise bad(node, str(e)) from None  # e.g. a view or tensor that could not be made
    except Exception as e:  # noqa: BLE001 - the last line of defence, see the docstring
        frame = traceback.extract_tb(e.__traceback__)[-1]
        where = f"{type(e).__name__} in {frame.name} at {Path(frame.filename).name}:{frame.lineno}"
        raise UnsupportedModelError(f"{node.op_type} node {node.name!r}: {e} ({where})") from e


def acl_dtype(dtype) -> int:
    return int(from_numpy_dtype(dtype))
