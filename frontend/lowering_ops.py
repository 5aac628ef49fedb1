"""Lowering of the ops transformer exports use (issue #5) onto opsnn aclnn calls.

Handlers have the :mod:`frontend.lowering` signature ``fn(ctx, node, ins) -> (outs, calls)``:

==================  ==========================================================================
ONNX op             aclnn call(s) prepared (phase 1 runs here, once)
==================  ==========================================================================
Add, Sub            aclnnAdd / aclnnSub (alpha 1; broadcasting)
Mul, Div            aclnnMul / aclnnDiv; integer Div divides in float32 then aclnnCast
                    truncates toward zero (the onnx reference's ``astype``)
Erf, Sqrt, Gelu     aclnnErf / aclnnSqrt / aclnnGelu (approximate="tanh": aclnnGeluV2)
Pow                 aclnnPowTensorScalar for a constant scalar exponent, else
                    aclnnPowTensorTensor; an integer base computes in float32 + aclnnCast
Clip                aclnnClamp with constant bounds (aclScalar), else aclnnClampTensor
Cast                aclnnCast
Where, Equal        aclnnSWhere, aclnnEqTensor
LayerNormalization  aclnnLayerNorm (normalizedShape = X.shape[axis:]); Mean/InvStdDev
                    outputs come from meanOut/rstdOut (+ aclnnCast to float32 for 16-bit X)
ReduceSum/Mean      aclnnReduceSum / aclnnMean (axes from the input or the attribute)
Transpose           aclnnPermute
Concat              aclnnCat
Gather              aclnnEmbedding on ``data`` viewed as [D_axis, rest] (axis 0), with
                    aclnnPermute before/after for another axis; constant negative indices
                    are normalised at prepare time
Slice               a strided view of the input, copied by an aclnnCast to the same dtype
                    (the aclnn layer's Contiguous copy); negative steps gather reversed indices
Expand              aclnnMul by a ones constant shaped like the new dims (Mul broadcasts)
FlashAttentionScore the node frontend.fusion makes from the attention subgraph:
                    aclnnFlashAttentionScore (BSND or BNSD, boolean mask)
Shape, Size,        folded at load time (frontend.onnx_import); reaching lowering means the
ConstantOfShape     shape is dynamic, which is reported as unsupported
==================  ==========================================================================

Every unsupported attribute or dtype raises :class:`UnsupportedModelError` naming the
op and node; an aclnn entry point that this opsnn build lacks is reported the same way.
"""
from __future__ import annotations

import numpy as np

import opsnn
from opsnn.base.dtypes import from_numpy_dtype

from .lowering import DTensor, _call, attr_float, attr_int, attr_ints, axis_index, bad
from .errors import UnsupportedModelError
from .graph import Node
from .program import PreparedCall

ND = 2  # aclFormat ND


# ---------------------------------------------------------------------------------------- helpers
def _has(aclnn: str) -> bool:
    return hasattr(opsnn, aclnn + "GetWorkspaceSize")


def _prep(node: Node, aclnn: str, *args) -> PreparedCall:
    """``_call`` with a clear error when the entry point does not exist."""
    if not _has(aclnn):
        raise UnsupportedModelError(f"{node.op_type} node {node.name!r}: {aclnn} is not available in this opsnn")
    return _call(node, aclnn, *args)


def _acl(node: Node, dtype) -> int:
    try:
        return from_numpy_dtype(dtype)
    except ValueError:
        raise UnsupportedModelError(f"{node.op_type} node {node.name!r}: dtype {np.dtype(dtype)} is not "
                                    "supported") from None


def _scalar(node: Node, value, dtype) -> object:
    dt = np.dtype(dtype)
    v = dt.type(value).item() if dt.kind != "b" else bool(value)
    return opsnn.aclCreateScalar(v, _acl(node, dt))


def _const(ctx, name: str):
    return ctx.const(name) if name else None


def _numel(shape) -> int:
    return int(np.prod(shape, dtype=np.int64))


def _strides(shape) -> tuple[int, ...]:
    out, acc = [], 1
    for d in reversed(shape):
        out.append(acc)
        acc *= max(int(d), 1)
    return tuple(reversed(out))


def _view(ctx, src: DTensor, name: str, shape, strides, offset: int = 0) -> DTensor:
    """A strided view (element strides, offset) over ``src``'s contiguous storage."""
    shape = tuple(int(d) for d in shape)
    t = opsnn.aclCreateTensor(shape, _acl(Node("view", name, [], []), src.dtype), [int(s) for s in strides],
                              int(offset), ND, (max(_numel(src.shape), 1),), src.ptr)
    if t is None:
        raise UnsupportedModelError(f"view {name!r}: {opsnn.aclGetRecentErrMsg()}")
    return DTensor(name, src.ptr, shape, src.dtype, t)


def _copy(ctx, node: Node, src: DTensor, out_name: str) -> tuple[DTensor, PreparedCall]:
    """Materialise a (strided / broadcast) view into a new contiguous tensor."""
    out = ctx.alloc(out_name, src.shape, src.dtype)
    return out, _prep(node, "aclnnCast", src.tensor, _acl(node, src.dtype), out.tensor)


def _cast_to(ctx, node: Node, src: DTensor, dtype, out_name: str) -> tuple[DTensor, PreparedCall]:
    out = ctx.alloc(out_name, src.shape, dtype)
    return out, _prep(node, "aclnnCast", src.tensor, _acl(node, dtype), out.tensor)


def _bshape(node: Node, *shapes) -> tuple[int, ...]:
    """numpy/ONNX broadcast of ``shapes``; UnsupportedModelError if they do not broadcast."""
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise bad(node, f"input shapes {[list(s) for s in shapes]} do not broadcast") from None


def _axes_arg(ctx, node: Node, rank: int, input_index: int = 1, attr: str = "axes") -> list[int] | None:
    """Axes from the optional constant input (newer opsets) or the attribute; None if absent."""
    axes = attr_ints(node, attr, None)
    if axes is None and len(node.inputs) > input_index and node.inputs[input_index]:
        axes = _const(ctx, node.inputs[input_index])
        if axes is None:
            raise UnsupportedModelError(f"{node.op_type} node {node.name!r}: runtime axes are not supported "
                                        "(they must be constant)")
    if axes is None:
        return None
    norm = [axis_index(node, int(a), rank, "axes value") for a in np.asarray(axes).reshape(-1)]
    if len(set(norm)) != len(norm):
        raise bad(node, f"axes {np.asarray(axes).reshape(-1).tolist()} repeat an axis")
    return norm


# ---------------------------------------------------------------------------------- elementwise
def lower_binary(ctx, node: Node, ins):
    """Add/Sub/Mul/Div (same-dtype operands, ONNX broadcasting)."""
    a, b = ins
    shape = _bshape(node, a.shape, b.shape)
    op = node.op_type
    if op == "Div" and a.dtype.kind in "iub":
        tmp = ctx.alloc(node.outputs[0] + "__f32", shape, np.float32)
        call = _prep(node, "aclnnDiv", a.tensor, b.tensor, tmp.tensor)
        out, cast = _cast_to(ctx, node, tmp, a.dtype, node.outputs[0])
        return [out], [call, cast]
    out = ctx.alloc(node.outputs[0], shape, a.dtype)
    if op in ("Add", "Sub"):
        one = _scalar(node, 1, a.dtype if a.dtype.kind in "iu" else np.float32)
        return [out], [_prep(node, f"aclnn{op}", a.tensor, b.tensor, one, out.tensor)]
    return [out], [_prep(node, f"aclnn{op}", a.tensor, b.tensor, out.tensor)]


def _unary(aclnn: str):
    def lower(ctx, node: Node, ins):
        x = ins[0]
        out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
        return [out], [_prep(node, aclnn, x.tensor, out.tensor)]
    lower.__doc__ = f"One {aclnn} call, output shape and dtype of the input."
    return lower


def lower_gelu(ctx, node: Node, ins):
    x = ins[0]
    approx = node.attrs.get("approximate", "none") or "none"
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    if approx == "none":
        return [out], [_prep(node, "aclnnGelu", x.tensor, out.tensor)]
    if approx == "tanh":
        return [out], [_prep(node, "aclnnGeluV2", x.tensor, 1, out.tensor)]
    raise UnsupportedModelError(f"Gelu node {node.name!r}: approximate={approx!r} is not supported")


def lower_pow(ctx, node: Node, ins):
    x, e = ins
    shape = _bshape(node, x.shape, e.shape)
    ec = _const(ctx, node.inputs[1])
    via_float = x.dtype.kind in "iu"
    target = ctx.alloc(node.outputs[0] + ("__f32" if via_float else ""), shape,
                       np.float32 if via_float else x.dtype)
    if ec is not None and ec.size == 1 and shape == x.shape:
        call = _prep(node, "aclnnPowTensorScalar", x.tensor,
                     _scalar(node, ec.reshape(-1)[0], ec.dtype if ec.dtype.kind != "f" else np.float32),
                     target.tensor)
    else:
        call = _prep(node, "aclnnPowTensorTensor", x.tensor, e.tensor, target.tensor)
    if not via_float:
        return [target], [call]
    out, cast = _cast_to(ctx, node, target, x.dtype, node.outputs[0])
    return [out], [call, cast]


def lower_clip(ctx, node: Node, ins):
    x = ins[0]
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    if "min" in node.attrs or "max" in node.attrs:  # opset 6
        lo = attr_float(node, "min", 0.0) if "min" in node.attrs else None
        hi = attr_float(node, "max", 0.0) if "max" in node.attrs else None
        return [out], [_prep(node, "aclnnClamp", x.tensor, None if lo is None else _scalar(node, lo, np.float32),
                             None if hi is None else _scalar(node, hi, np.float32), out.tensor)]
    names = [node.inputs[i] if len(node.inputs) > i else "" for i in (1, 2)]
    consts = [_const(ctx, n) if n else None for n in names]
    if all((not n) or c is not None for n, c in zip(names, consts)):
        if any(c is not None and np.asarray(c).size != 1 for c in consts):
            raise bad(node, f"min and max must be scalars, got shapes {[list(np.shape(c)) for c in consts]}")
        sc = [None if c is None else _scalar(node, np.asarray(c).reshape(-1)[0], x.dtype) for c in consts]
        if sc[0] is None and sc[1] is None:
            return [out], [_prep(node, "aclnnCast", x.tensor, _acl(node, x.dtype), out.tensor)]
        return [out], [_prep(node, "aclnnClamp", x.tensor, sc[0], sc[1], out.tensor)]
    lo = ins[1] if names[0] else None
    hi = ins[2] if names[1] else None
    return [out], [_prep(node, "aclnnClampTensor", x.tensor, lo.tensor if lo else None,
                         hi.tensor if hi else None, out.tensor)]


def lower_cast(ctx, node: Node, ins):
    x = ins[0]
    from onnx import helper
    to = attr_int(node, "to")
    try:
        dt = np.dtype(helper.tensor_dtype_to_np_dtype(to))
    except Exception:  # noqa: BLE001
        raise UnsupportedModelError(f"Cast node {node.name!r}: target type {to} is not supported") from None
    out, call = _cast_to(ctx, node, x, dt, node.outputs[0])
    return [out], [call]


def lower_where(ctx, node: Node, ins):
    c, a, b = ins
    out = ctx.alloc(node.outputs[0], _bshape(node, c.shape, a.shape, b.shape), a.dtype)
    return [out], [_prep(node, "aclnnSWhere", c.tensor, a.tensor, b.tensor, out.tensor)]


def lower_equal(ctx, node: Node, ins):
    a, b = ins
    out = ctx.alloc(node.outputs[0], _bshape(node, a.shape, b.shape), np.bool_)
    return [out], [_prep(node, "aclnnEqTensor", a.tensor, b.tensor, out.tensor)]


# ------------------------------------------------------------------------------ norm / reduce
def lower_layer_norm(ctx, node: Node, ins):
    x, scale = ins[0], ins[1]
    bias = ins[2] if len(ins) > 2 and ins[2] is not None else None
    rank = len(x.shape)
    axis = attr_int(node, "axis", -1)
    if not -rank <= axis < rank:
        raise UnsupportedModelError(f"LayerNormalization node {node.name!r}: axis {axis} out of range")
    axis %= rank
    norm_shape = list(x.shape[axis:])
    stat_shape = tuple(x.shape[:axis]) + (1,) * (rank - axis)
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    want = [len(node.outputs) > i and bool(node.outputs[i]) for i in (1, 2)]
    stash = np.float32  # stash_type 1 (the default): statistics in float32
    stats, post = [], []
    for i, w in enumerate(want):
        if not w:
            stats.append(None)
            continue
        name = node.outputs[i + 1]
        if x.dtype == np.float32:
            t = ctx.alloc(name, stat_shape, x.dtype)
            stats.append(t)
        else:
            t = ctx.alloc(name + "__raw", stat_shape, x.dtype)
            stats.append(t)
            post.append((t, name))
    call = _prep(node, "aclnnLayerNorm", x.tensor, opsnn.aclCreateIntArray(norm_shape), scale.tensor,
                 bias.tensor if bias else None, attr_float(node, "epsilon", 1e-5), out.tensor,
                 stats[0].tensor if stats[0] else None, stats[1].tensor if stats[1] else None)
    calls = [call]
    outs = [out]
    final = {}
    for t, name in post:
        c, cc = _cast_to(ctx, node, t, stash, name)
        final[name] = c
        calls.append(cc)
    for i, w in enumerate(want):
        if w:
            name = node.outputs[i + 1]
            outs.append(final.get(name, stats[i]))
    return outs, calls


def lower_reduce(ctx, node: Node, ins):
    """ReduceSum (aclnnReduceSum) and ReduceMean (aclnnMean)."""
    x = ins[0]
    rank = len(x.shape)
    axes = _axes_arg(ctx, node, rank)
    keep = bool(attr_int(node, "keepdims", 1))
    if not axes:
        if attr_int(node, "noop_with_empty_axes", 0):
            return [ctx.view(x, node.outputs[0], x.shape)], []
        axes = list(range(rank))
    axes = sorted(set(axes))
    shape = tuple((1 if i in axes else d) for i, d in enumerate(x.shape) if keep or i not in axes)
    out = ctx.alloc(node.outputs[0], shape, x.dtype)
    aclnn = "aclnnReduceSum" if node.op_type == "ReduceSum" else "aclnnMean"
    return [out], [_prep(node, aclnn, x.tensor, opsnn.aclCreateIntArray(axes), keep, _acl(node, x.dtype),
                         out.tensor)]


# ------------------------------------------------------------------------------------ layout
def _permute(ctx, node: Node, x: DTensor, perm, name: str) -> tuple[DTensor, list]:
    perm = [int(p) for p in perm]
    if perm == list(range(len(perm))):
        return ctx.view(x, name, x.shape), []
    out = ctx.alloc(name, tuple(x.shape[p] for p in perm), x.dtype)
    return out, [_prep(node, "aclnnPermute", x.tensor, opsnn.aclCreateIntArray(perm), out.tensor)]


def lower_transpose(ctx, node: Node, ins):
    x = ins[0]
    rank = len(x.shape)
    perm = attr_ints(node, "perm", None)
    if perm is None:
        perm = list(range(rank))[::-1]
    elif sorted(p % max(rank, 1) if -rank <= p < rank else p for p in perm) != list(range(rank)):
        raise bad(node, f"perm {perm} is not a permutation of the {rank} axes")
    else:
        perm = [p % max(rank, 1) for p in perm]
    out, calls = _permute(ctx, node, x, perm, node.outputs[0])
    return [out], calls


def lower_concat(ctx, node: Node, ins):
    xs = [t for t in ins if t is not None]
    if not xs:
        raise bad(node, "has no inputs")
    rank = len(xs[0].shape)
    axis = axis_index(node, attr_int(node, "axis"), rank)
    for t in xs[1:]:
        if len(t.shape) != rank or any(a != b for i, (a, b) in enumerate(zip(t.shape, xs[0].shape)) if i != axis):
            raise bad(node, f"input shapes {[list(t.shape) for t in xs]} differ outside axis {axis}")
    shape = list(xs[0].shape)
    shape[axis] = sum(t.shape[axis] for t in xs)
    out = ctx.alloc(node.outputs[0], shape, xs[0].dtype)
    if len(xs) == 1:
        return [out], [_prep(node, "aclnnCast", xs[0].tensor, _acl(node, xs[0].dtype), out.tensor)]
    make_list = getattr(opsnn, "aclCreateTensorList", None)
    tl = make_list([t.tensor for t in xs]) if make_list else [t.tensor for t in xs]
    return [out], [_prep(node, "aclnnCat", tl, axis, out.tensor)]


def lower_gather(ctx, node: Node, ins):
    data, idx = ins
    rank = len(data.shape)
    axis = axis_index(node, attr_int(node, "axis", 0), rank)
    calls: list = []
    ic = _const(ctx, node.inputs[1])
    if ic is not None and ((ic < -data.shape[axis]) | (ic >= data.shape[axis])).any():
        raise bad(node, f"constant indices {np.asarray(ic).reshape(-1)[:8].tolist()} leave the range "
                        f"[-{data.shape[axis]}, {data.shape[axis]}) of axis {axis}")
    if ic is not None and (ic < 0).any():
        idx = ctx.upload(node.outputs[0] + "__indices", np.where(ic < 0, ic + data.shape[axis], ic).astype(ic.dtype))
    base = node.outputs[0]
    if axis != 0:
        perm = [axis] + [i for i in range(rank) if i != axis]
        data, c = _permute(ctx, node, data, perm, base + "__data_t")
        calls += c
    rest = data.shape[1:]
    weight = ctx.view(data, base + "__weight", (data.shape[0], _numel(rest)))
    idx_shape = idx.shape
    idx_v = idx if idx_shape else ctx.view(idx, base + "__idx1", (1,))
    emb_shape = tuple(idx_v.shape) + (_numel(rest),)
    emb = ctx.alloc(base + ("__emb" if axis else ""), emb_shape, data.dtype)
    calls.append(_prep(node, "aclnnEmbedding", weight.tensor, idx_v.tensor, emb.tensor))
    if axis == 0:
        return [ctx.view(emb, base, tuple(idx_shape) + tuple(rest))], calls
    # emb holds [idx..., pre..., post...] (pre = the ``axis`` data dims before it): move idx after pre
    k = len(idx_shape)
    e_full = ctx.view(emb, base + "__emb_full", tuple(idx_shape) + tuple(rest))
    perm = list(range(k, k + axis)) + list(range(k)) + list(range(k + axis, k + rank - 1))
    out, c = _permute(ctx, node, e_full, perm, base)
    return [out], calls + c


def _slice_params(ctx, node: Node, shape):
    rank = len(shape)
    if "starts" in node.attrs:  # opset < 10
        starts, ends = attr_ints(node, "starts"), attr_ints(node, "ends")
        axes = attr_ints(node, "axes", list(range(len(starts))))
        steps = [1] * len(starts)
    else:
        vals = []
        for i in range(1, 5):
            name = node.inputs[i] if len(node.inputs) > i else ""
            v = _const(ctx, name) if name else None
            if name and v is None:
                raise UnsupportedModelError(f"Slice node {node.name!r}: runtime starts/ends/axes/steps are not "
                                            "supported (they must be constant)")
            vals.append(None if v is None else [int(a) for a in np.asarray(v).reshape(-1)])
        starts, ends, axes, steps = vals
        if starts is None or ends is None:
            raise bad(node, "starts and ends are required")
        axes = list(range(len(starts))) if axes is None else axes
        steps = [1] * len(starts) if steps is None else steps
    if not len(starts) == len(ends) == len(axes) == len(steps):
        raise bad(node, f"starts {starts}, ends {ends}, axes {axes} and steps {steps} differ in length")
    if 0 in steps:
        raise bad(node, f"steps {steps} must not be 0")
    norm = [axis_index(node, int(a), rank, "axes value") for a in axes]
    if len(set(norm)) != len(norm):
        raise bad(node, f"axes {axes} repeat an axis")
    out = [(0, d, 1) for d in shape]
    for s, e, a, st in zip(starts, ends, norm, steps):
        rng = slice(int(s), int(e), int(st)).indices(shape[a])
        out[a] = rng
    return out


def lower_slice(ctx, node: Node, ins):
    x = ins[0]
    params = _slice_params(ctx, node, x.shape)
    if any(st < 0 for _, _, st in params):
        return _slice_with_flip(ctx, node, x, params)
    base = _strides(x.shape)
    shape = tuple(len(range(s, e, st)) for s, e, st in params)
    offset = sum(s * b for (s, _, _), b in zip(params, base)) if all(shape) else 0
    strides = tuple(b * st for (_, _, st), b in zip(params, base))
    if shape == x.shape:
        return [ctx.view(x, node.outputs[0], x.shape)], []
    v = _view(ctx, x, node.outputs[0] + "__view", shape, strides, offset)
    out, call = _copy(ctx, node, v, node.outputs[0])
    return [out], [call]


def _slice_with_flip(ctx, node: Node, x, params):
    """Negative steps: gather the selected indices (reversed order) axis by axis."""
    calls: list = []
    cur = x
    for a, (s, e, st) in enumerate(params):
        idx = np.arange(s, e, st, dtype=np.int64)
        if st == 1 and s == 0 and e == x.shape[a]:
            continue
        idx_t = ctx.upload(f"{node.outputs[0]}__idx{a}", idx)
        sub = Node("Gather", node.name, [cur.name, idx_t.name], [f"{node.outputs[0]}__ax{a}"], {"axis": a})
        (cur,), c = lower_gather(ctx, sub, [cur, idx_t])
        calls += c
    return [ctx.view(cur, node.outputs[0], cur.shape)], calls


def lower_expand(ctx, node: Node, ins):
    """Expand: ``x * ones(b)`` with ``b`` 1 where ``x`` already has the target's extent
    and the target's extent elsewhere, so aclnnMul's own broadcasting does the copy
    (exact for every dtype; the ones constant is only as large as the new dims)."""
    x = ins[0]
    shape_c = _const(ctx, node.inputs[1])
    if shape_c is None:
        raise UnsupportedModelError(f"Expand node {node.name!r}: the target shape must be constant")
    shape_c = np.asarray(shape_c)
    if shape_c.ndim != 1 or shape_c.dtype.kind not in "iu" or (shape_c < 0).any():
        raise bad(node, f"the target shape must be a 1-D list of dims >= 0, got {shape_c.tolist()}")
    shape = _bshape(node, x.shape, tuple(int(d) for d in shape_c))
    if shape == x.shape:
        return [ctx.view(x, node.outputs[0], x.shape)], []
    xs = (1,) * (len(shape) - len(x.shape)) + tuple(x.shape)
    ones_shape = tuple(1 if xd == d else d for xd, d in zip(xs, shape))
    ones = ctx.upload(node.outputs[0] + "__ones", np.ones(ones_shape, x.dtype))
    out = ctx.alloc(node.outputs[0], shape, x.dtype)
    return [out], [_prep(node, "aclnnMul", x.tensor, ones.tensor, out.tensor)]


def lower_matmul(ctx, node: Node, ins):
    """MatMul with numpy semantics, 1-D operands included (promoted to 2-D views); an
    N-D activation times a 2-D weight runs as one 2-D GEMM over the folded rows."""
    a, b = ins
    squeeze = []
    if len(a.shape) == 1:
        a = ctx.view(a, a.name + "__row", (1, a.shape[0]))
        squeeze.append(-2)
    if len(b.shape) == 1:
        b = ctx.view(b, b.name + "__col", (b.shape[0], 1))
        squeeze.append(-1)
    shape = _bshape(node, a.shape[:-2], b.shape[:-2]) + (a.shape[-2], b.shape[-1])
    name = node.outputs[0] + ("__2d" if squeeze else "")
    out = ctx.alloc(name, shape, a.dtype)
    if len(a.shape) > 2 and len(b.shape) == 2:
        # [..., M, K] @ [K, N]: fold the batch dims into M (one GEMM, as torch does)
        rows = _numel(a.shape[:-1])
        a2 = ctx.view(a, a.name + "__rows", (rows, a.shape[-1]))
        o2 = ctx.view(out, name + "__rows", (rows, b.shape[-1]))
        call = _prep(node, "aclnnMatmul", a2.tensor, b.tensor, o2.tensor, 0)
    else:
        call = _prep(node, "aclnnMatmul", a.tensor, b.tensor, out.tensor, 0)
    if squeeze:
        final = tuple(d for i, d in enumerate(shape) if i - len(shape) not in squeeze)
        out = ctx.view(out, node.outputs[0], final)
    return [out], [call]


def lower_flash_attention(ctx, node: Node, ins):
    """The ``FlashAttentionScore`` node :mod:`frontend.fusion` makes: one
    aclnnFlashAttentionScore call (softmaxMax/softmaxSum go to internal buffers)."""
    q, k, v = ins[:3]
    mask = ins[3] if len(ins) > 3 and ins[3] is not None else None
    layout = node.attrs.get("input_layout")
    if layout not in ("BSND", "BNSD"):
        raise bad(node, f"input_layout {layout!r} is not BSND or BNSD")
    heads = attr_int(node, "head_num")
    if layout == "BSND":
        b, s_q, n, _ = q.shape
        out_shape = (b, s_q, n, v.shape[3])
    else:
        b, n, s_q, _ = q.shape
        out_shape = (b, n, s_q, v.shape[3])
    out = ctx.alloc(node.outputs[0], out_shape, q.dtype)
    smax = ctx.alloc(node.outputs[0] + "__softmax_max", (b, n, s_q, 8), np.float32)
    ssum = ctx.alloc(node.outputs[0] + "__softmax_sum", (b, n, s_q, 8), np.float32)
    call = _prep(node, "aclnnFlashAttentionScore", q.tensor, k.tensor, v.tensor, None, None, None,
                 mask.tensor if mask is not None else None, None, attr_float(node, "scale", 1.0), 1.0, 2147483647,
                 2147483647, heads, layout, 0, 0, smax.tensor, ssum.tensor, None, out.tensor)
    return [out], [call]


def lower_dynamic(ctx, node: Node, ins):
    raise UnsupportedModelError(f"{node.op_type} node {node.name!r}: its input has a dynamic shape, so it cannot be "
                                "folded at prepare time (give static input shapes, e.g. with --inputs)")


HANDLERS = {
    "Add": lower_binary, "Sub": lower_binary, "Mul": lower_binary, "Div": lower_binary,
    "Erf": _unary("aclnnErf"), "Sqrt": _unary("aclnnSqrt"), "Gelu": lower_gelu, "Pow": lower_pow,
    "Clip": lower_clip, "Cast": lower_cast, "Where": lower_where, "Equal": lower_equal,
    "LayerNormalization": lower_layer_norm, "ReduceSum": lower_reduce, "ReduceMean": lower_reduce,
    "Transpose": lower_transpose, "Concat": lower_concat, "Gather": lower_gather, "Slice": lower_slice,
    "Expand": lower_expand, "MatMul": lower_matmul, "FlashAttentionScore": lower_flash_attention,
    "Shape": lower_dynamic, "Size": lower_dynamic, "ConstantOfShape": lower_dynamic,
}
