"""More direct output-shape rules for :func:`frontend.onnx_infer.fast_output_shape`:
Softmax, LRN and one-input Dropout (the input's shape), Transpose, Flatten,
GlobalAveragePool/GlobalMaxPool, MaxPool/AveragePool with explicit pads and
``ceil_mode`` 0, Gemm and Reshape with a constant shape.

Why: a CNN's load ran onnx's shape inference for these few nodes only, and the first
``onnx.shape_inference`` call of a process builds onnx's whole schema registry
(14-25 ms; see :mod:`frontend.onnx_signatures`). Each rule computes what onnx's
inference computes (onnx/defs: convPoolShapeInference, the Gemm, Reshape, Transpose and
Flatten inference functions) for the valid nodes it accepts and returns None for
anything it is unsure of, which then goes to onnx; tests/perf/test_graphprep_infer.py
(whole models) and tests/perf/test_shape_rules.py (random nodes) compare both.

:func:`typed_shape` adds the ops a transformer's load met (:data:`TYPED_OPS`: Identity,
Cast, Unsqueeze, Gather, Expand, ReduceSum, Clip, LayerNormalization), whose inputs may
be of int64, bool or other numeric dtypes (each op's type constraints are checked);
tests/perf/test_prep2_rules.py compares them with onnx on random nodes.
"""
from __future__ import annotations

import math

import numpy as np
import onnx

from .onnx_signatures import signature

_INT = onnx.AttributeProto.INT
_INTS = onnx.AttributeProto.INTS

#: ops these rules know (onnx_infer.fast_output_shape dispatches on it)
OPS = frozenset({"Softmax", "LRN", "Dropout", "Transpose", "Flatten", "GlobalAveragePool", "GlobalMaxPool",
                 "MaxPool", "AveragePool", "Gemm", "Reshape"})


def _attrs(node: onnx.NodeProto) -> dict | None:
    """name -> int or list of ints for INT / INTS attributes; None when the node has an
    attribute of another type that a rule would read (the rules then defer to onnx)."""
    out = {}
    for a in node.attribute:
        if a.type == _INT:
            out[a.name] = a.i
        elif a.type == _INTS:
            out[a.name] = list(a.ints)
        elif a.name == "auto_pad":
            if a.s not in (b"", b"NOTSET"):
                return None
        elif a.name not in ("ratio", "alpha", "beta", "bias"):   # float attributes no rule reads
            return None
    return out


def _pool(op: str, x: tuple, at: dict, opset: int) -> tuple | None:
    sp = len(x) - 2
    ks = at.get("kernel_shape")
    if sp < 1 or not isinstance(ks, list) or len(ks) != sp or min(ks) < 1:
        return None
    if at.get("ceil_mode", 0) != 0:
        return None
    if "dilations" in at and opset < (10 if op == "MaxPool" else 19):
        return None
    strides, dil, pads = at.get("strides", [1] * sp), at.get("dilations", [1] * sp), at.get("pads", [0] * (2 * sp))
    if any(not isinstance(v, list) for v in (strides, dil, pads)) or len(strides) != sp or len(dil) != sp \
            or len(pads) != 2 * sp or min(strides) < 1 or min(dil) < 1 or min(pads) < 0:
        return None
    out = list(x[:2])
    for i in range(sp):
        eff = (ks[i] - 1) * dil[i] + 1
        if pads[i] >= eff or pads[sp + i] >= eff:
            return None
        size = x[2 + i] + pads[i] + pads[sp + i]
        if size < eff:
            return None
        out.append((size - eff) // strides[i] + 1)
    return tuple(out)


def _gemm(ins: list, at: dict, opset: int) -> tuple | None:
    if len(ins) < 2 or len(ins) > 3 or ins[0] is None or ins[1] is None:
        return None
    a, b = ins[0][0], ins[1][0]
    if len(a) != 2 or len(b) != 2:
        return None
    ta, tb = at.get("transA", 0), at.get("transB", 0)
    if ta not in (0, 1) or tb not in (0, 1):
        return None
    m, k = (a[1], a[0]) if ta else (a[0], a[1])
    kb, n = (b[1], b[0]) if tb else (b[0], b[1])
    if k != kb:
        return None
    c = ins[2][0] if len(ins) == 3 and ins[2] is not None else None
    if c is None and opset < 11:   # C is optional from opset 11
        return None
    if c is not None and (len(c) > 2 or any(cd not in (1, od) for cd, od in zip(reversed(c), (n, m)))):
        return None
    return (m, n)


def reshape_shape(x: tuple, target, allowzero: int) -> tuple | None:
    """Reshape's output for input shape ``x`` and a constant 1-D int64 ``target``, or
    None when the node is invalid or outside the common case."""
    t = np.asarray(target)
    if t.dtype != np.int64 or t.ndim != 1:
        return None
    vals = [int(v) for v in t]
    if allowzero not in (0, 1) or min(vals, default=0) < -1 or vals.count(-1) > 1:
        return None
    if allowzero and 0 in vals and -1 in vals:
        return None
    out = []
    for i, v in enumerate(vals):
        if v == 0 and not allowzero:
            if i >= len(x):
                return None
            v = x[i]
        out.append(v)
    total = math.prod(x)
    if -1 in out:
        rest = math.prod(v for v in out if v != -1)
        if rest == 0 or total % rest:
            return None
        out[out.index(-1)] = total // rest
    elif math.prod(out) != total:
        return None
    return tuple(out)


def rule_shape(node: onnx.NodeProto, op: str, ins: list, opset: int) -> tuple | None:
    """The output shape of a one-output ``op`` node (:data:`OPS` but Reshape) whose
    inputs ``ins`` are (static shape, float dtype) or None for an empty slot, or None."""
    at = _attrs(node)
    if at is None or any(i is None for i in ins[:1]) or not ins:
        return None
    x = ins[0][0]
    r = len(x)
    if op in ("Softmax", "LRN", "Dropout"):
        if len(ins) != 1:
            return None
        if op == "Softmax":
            axis = at.get("axis", 1 if opset < 13 else -1)
            return x if isinstance(axis, int) and -r <= axis < r else None
        if op == "LRN":
            return x if isinstance(at.get("size"), int) and r >= 3 else None
        return x
    if op == "Transpose":
        perm = at.get("perm", list(range(r - 1, -1, -1)))
        if len(ins) != 1 or not isinstance(perm, list) or sorted(perm) != list(range(r)):
            return None
        return tuple(x[p] for p in perm)
    if op == "Flatten":
        axis = at.get("axis", 1)
        if len(ins) != 1 or not isinstance(axis, int) or not (-r if opset >= 11 else 0) <= axis <= r:
            return None
        if axis < 0:
            axis += r
        return (math.prod(x[:axis]), math.prod(x[axis:]))
    if op in ("GlobalAveragePool", "GlobalMaxPool"):
        return x[:2] + (1,) * (r - 2) if len(ins) == 1 and r >= 3 else None
    if op in ("MaxPool", "AveragePool"):
        return _pool(op, x, at, opset) if len(ins) == 1 else None
    if op == "Gemm":
        return _gemm(ins, at, opset)
    return None


# ----------------------------------------------------------------------------- typed ops
#: ops of :func:`typed_shape` (inputs of any numeric dtype the op allows)
TYPED_OPS = frozenset({"Identity", "Cast", "Unsqueeze", "Gather", "Expand", "ReduceSum", "Clip",
                       "LayerNormalization"})

_F = tuple(np.dtype(t) for t in (np.float16, np.float32, np.float64))
_SINT = tuple(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
_UINT = tuple(np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
#: numeric tensor types every opset of Identity, Cast (from 6), Unsqueeze, Gather, Expand allows
_ALL = frozenset(_F + _SINT + _UINT + (np.dtype(np.bool_),))
_REDUCE = frozenset(_F + (np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.uint32), np.dtype(np.uint64)))
_I64 = np.dtype(np.int64)
#: TensorProto element type -> numpy dtype, for Cast's ``to`` (the types of :data:`_ALL`)
_ELEM = {onnx.TensorProto.FLOAT: np.float32, onnx.TensorProto.DOUBLE: np.float64,
         onnx.TensorProto.FLOAT16: np.float16, onnx.TensorProto.INT8: np.int8, onnx.TensorProto.INT16: np.int16,
         onnx.TensorProto.INT32: np.int32, onnx.TensorProto.INT64: np.int64, onnx.TensorProto.UINT8: np.uint8,
         onnx.TensorProto.UINT16: np.uint16, onnx.TensorProto.UINT32: np.uint32,
         onnx.TensorProto.UINT64: np.uint64, onnx.TensorProto.BOOL: np.bool_}


def _int_attr(node: onnx.NodeProto, name: str, default: int) -> int:
    for a in node.attribute:
        if a.name == name:
            return a.i
    return default


def _axes(vals, r: int) -> list | None:
    """A constant 1-D int64 axes tensor normalised to [0, r), or None (not constant, out
    of range, repeated)."""
    if vals is None or vals.dtype != _I64 or vals.ndim != 1:
        return None
    axes = [int(v) + r if v < 0 else int(v) for v in vals]
    return axes if all(0 <= a < r for a in axes) and len(set(axes)) == len(axes) else None


def typed_shape(node: onnx.NodeProto, op: str, ins: list, vals: list, opset: int) -> tuple | None:
    """(output shape, numpy dtype) of a one-output :data:`TYPED_OPS` node whose attributes
    the schema at ``opset`` accepts, or None when unsure. ``ins``: (static shape, numpy
    dtype) per input slot, None for an empty one; ``vals``: the constant value (ndarray)
    of a slot or None."""
    if not ins or ins[0] is None:
        return None
    x, dt = ins[0]
    r, n = len(x), len(ins)
    if op == "Identity":
        return (x, dt) if n == 1 and dt in _ALL else None
    if op == "Cast":
        to = _ELEM.get(_int_attr(node, "to", -1))
        return (x, np.dtype(to)) if n == 1 and opset >= 6 and dt in _ALL and to is not None else None
    if op == "Unsqueeze":
        if n != 2 or opset < 13 or dt not in _ALL or ins[1] is None or ins[1][1] != _I64:
            return None
        axes = _axes(vals[1], r + len(vals[1]) if vals[1] is not None and vals[1].ndim == 1 else -1)
        if axes is None:
            return None
        it = iter(x)
        return tuple(1 if i in axes else next(it) for i in range(r + len(axes))), dt
    if op == "Gather":
        if n != 2 or ins[1] is None or dt not in _ALL or ins[1][1] not in (np.dtype(np.int32), _I64) or r < 1:
            return None
        axis = _int_attr(node, "axis", 0)
        if not (-r if opset >= 11 else 0) <= axis < r:
            return None
        axis %= r
        return x[:axis] + tuple(ins[1][0]) + x[axis + 1:], dt
    if op == "Expand":
        if n != 2 or ins[1] is None or dt not in _ALL or ins[1][1] != _I64 or vals[1] is None or vals[1].ndim != 1:
            return None
        want = [int(v) for v in vals[1]]
        if min(want, default=1) < 1 or min(x, default=1) < 1:
            return None
        try:
            return tuple(np.broadcast_shapes(x, tuple(want))), dt
        except ValueError:
            return None
    if op == "ReduceSum":
        if opset < 13 or n > 2 or dt not in _REDUCE or r < 1:
            return None
        keep, noop = _int_attr(node, "keepdims", 1), _int_attr(node, "noop_with_empty_axes", 0)
        if keep not in (0, 1) or noop not in (0, 1):
            return None
        if n == 1 or ins[1] is None:
            axes = []
        else:
            if ins[1][1] != _I64 or vals[1] is None:
                return None
            axes = _axes(vals[1], r)
            if axes is None:
                return None
        if not axes:
            if noop:
                return x, dt
            axes = list(range(r))
        return tuple(1 if i in axes else d for i, d in enumerate(x) if keep or i not in axes), dt
    if op == "Clip":
        allowed = _F if opset < 12 else _F + _SINT + _UINT
        if opset < 11 or n > 3 or dt not in allowed or any(i is not None and i[1] != dt for i in ins[1:]):
            return None
        return x, dt
    if op == "LayerNormalization":
        if n not in (2, 3) or ins[1] is None or dt not in _F or any(i is not None and i[1] != dt for i in ins[1:]):
            return None
        axis = _int_attr(node, "axis", -1)
        return (x, dt) if -r <= axis < r else None
    return None


def typed_output(node: onnx.NodeProto, op: str, shapes: dict, dtypes: dict, consts: dict, opset: int,
                 max_elements: int) -> tuple[tuple, np.dtype] | None:
    """``onnx_infer.fast_output_shape`` for :data:`TYPED_OPS`: inputs of any dtype with
    static shapes (the values of constants of at most ``max_elements`` handed on),
    attributes as the schema at ``opset`` accepts them; then :func:`typed_shape`."""
    sig = signature(op, opset)
    if sig is None or not sig.attributes_ok(node) or len(node.input) > sig.max_input:
        return None
    ins, vals = [], []
    for name in node.input:
        if not name:
            ins.append(None)
            vals.append(None)
        elif name in consts:
            a = np.asarray(consts[name])
            ins.append((tuple(a.shape), a.dtype))
            vals.append(a if a.size <= max_elements else None)
        elif name in dtypes and shapes.get(name) is not None and all(isinstance(d, int) and d >= 0
                                                                     for d in shapes[name]):
            ins.append((shapes[name], dtypes[name]))
            vals.append(None)
        else:
            return None
    return typed_shape(node, op, ins, vals, opset)
