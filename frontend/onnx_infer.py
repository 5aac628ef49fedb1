"""ONNX operator schemas, looked up once per (op type, opset, domain), and the
per-node shape inference of :func:`frontend.onnx_import.load_onnx`.

``onnx.defs.get_schema`` builds a new Python ``OpSchema`` on every call, and for some
ops that is slow: about 0.25-1 ms for ``Conv`` (measured with onnx 1.17 on the 2-core
benchmark machine; 2-5 us for Relu or Add), paid once per node by shape inference at
load (:mod:`frontend.onnx_import`) and again by the arity check at lowering
(:mod:`frontend.lowering.dispatch`). A schema is read-only for both, so one object per
key serves every node. Likewise the ``TypeProto`` of an input (5-60 us to build) is
made once per (element type, shape) and the ``TensorProto`` of a small constant once
per load (:class:`InferMemo`): the protos handed to ``infer_node_outputs`` are equal
to freshly built ones, so every inferred shape is the same.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import onnx
from onnx import helper, numpy_helper

from . import onnx_shape_rules as _rules
from .onnx_signatures import signature


@lru_cache(maxsize=None)
def schema_at(op_type: str, opset: int, domain: str = "") -> onnx.defs.OpSchema | None:
    """The schema of ``op_type`` in ``domain`` that opset ``opset`` uses, or None when
    onnx has none (an unknown or internal op, or one newer than ``opset``)."""
    try:
        return onnx.defs.get_schema(op_type, opset, domain)
    except Exception:  # noqa: BLE001 - onnx raises SchemaError (not exported under one name in every version)
        return None


@lru_cache(maxsize=None)
def latest_schema(op_type: str, domain: str = "") -> onnx.defs.OpSchema | None:
    """The newest schema of ``op_type`` in ``domain``, or None when onnx has none."""
    try:
        return onnx.defs.get_schema(op_type, domain)
    except Exception:  # noqa: BLE001 - as schema_at
        return None


@lru_cache(maxsize=4096)
def _type_proto(elem_type: int, shape: tuple | None) -> onnx.TypeProto:
    """A tensor TypeProto of ``elem_type`` and ``shape`` (None: unknown rank). Shared:
    callers only read it (``infer_node_outputs`` serialises it)."""
    return helper.make_tensor_type_proto(elem_type, shape)


@lru_cache(maxsize=64)
def _tensor_elem(dtype: np.dtype) -> int:
    return helper.np_dtype_to_tensor_dtype(dtype)


def elem_dtype(elem_type: int) -> np.dtype:
    """The numpy dtype of an ONNX TensorProto element type."""
    return np.dtype(helper.tensor_dtype_to_np_dtype(elem_type))


def is_static(shape) -> bool:
    """True for a known shape whose dims are all known (ints >= 0)."""
    return shape is not None and all(isinstance(d, int) and d >= 0 for d in shape)


#: largest constant (elements) whose values are handed to shape inference (a shape
#: tensor, Slice starts, Resize scales...; larger ones only by type)
MAX_DATA_ELEMENTS = 4096


class InferMemo:
    """Per-load memo of the constants' protos: name -> (TypeProto, TensorProto or None).
    A constant's name is bound once in a graph (SSA), so its protos never change;
    placeholders (:mod:`frontend.meta_const`) are far above :data:`MAX_DATA_ELEMENTS`,
    so materialising one later changes no memoised value."""

    def __init__(self):
        self.consts: dict[str, tuple] = {}

    def const(self, name: str, value) -> tuple:
        hit = self.consts.get(name)
        if hit is None:
            arr = np.asarray(value)
            data = numpy_helper.from_array(arr, name) if arr.size <= MAX_DATA_ELEMENTS else None
            hit = self.consts[name] = (_type_proto(_tensor_elem(arr.dtype), arr.shape), data)
        return hit


def infer_node_shapes(node: onnx.NodeProto, shapes: dict, dtypes: dict, consts: dict, opset: int,
                      memo: InferMemo) -> None:
    """Record the static output shapes (and dtypes) of a runtime node in ``shapes`` /
    ``dtypes`` when onnx's shape inference can tell them; leave them unknown otherwise
    (an input of unknown dtype, an op onnx has no schema for, or a failed inference)."""
    fast = fast_output_shape(node, shapes, dtypes, consts, opset)
    if fast is not None:
        shapes[node.output[0]], dtypes[node.output[0]] = fast
        return
    if node.op_type == "Dropout" and len(node.output) == 2 and node.output[1]:
        both = dropout_with_mask(node, shapes, dtypes, consts, opset)
        if both is not None:
            (shapes[node.output[0]], dtypes[node.output[0]]), (mask_shape, dtypes[node.output[1]]) = both
            if mask_shape is not None:
                shapes[node.output[1]] = mask_shape
            return
    types, data = {}, {}
    for name in node.input:
        if not name:
            continue
        if name in consts:
            types[name], d = memo.const(name, consts[name])
            if d is not None:
                data[name] = d
        elif name in dtypes:
            types[name] = _type_proto(_tensor_elem(dtypes[name]), shapes.get(name))
        else:
            return
    schema = schema_at(node.op_type, opset, node.domain or "")
    if schema is None:
        return
    try:
        out = onnx.shape_inference.infer_node_outputs(schema, node, types, data, opset_imports=_opsets(opset))
    except Exception:  # noqa: BLE001 - inference failure: shapes stay unknown
        return
    for name, tp in out.items():
        tt = tp.tensor_type
        if tt.elem_type:
            dtypes[name] = elem_dtype(tt.elem_type)
        if tt.HasField("shape"):
            dims = tuple(d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim)
            if is_static(dims):
                shapes[name] = dims


@lru_cache(maxsize=64)
def _opsets(opset: int) -> list:
    return [helper.make_opsetid("", opset)]


# ----------------------------------------------------------------------------- fast path
#: dtypes every op of :func:`fast_output_shape` accepts in every opset it is used for
_FLOATS = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64))
_SAME_SHAPE = frozenset({"Relu", "LeakyRelu", "Sigmoid", "Tanh", "Erf", "Sqrt"})
_BROADCAST = frozenset({"Add", "Sub", "Mul", "Div"})


def _known(name: str, shapes: dict, dtypes: dict, consts: dict) -> tuple | None:
    """(shape, dtype) of tensor ``name``: a constant's own, else the recorded ones; None
    when either is unknown."""
    if name in consts:
        a = consts[name]
        return tuple(a.shape), a.dtype
    if name in shapes and name in dtypes:
        return shapes[name], dtypes[name]
    return None


def _static_inputs(node: onnx.NodeProto, shapes: dict, dtypes: dict, consts: dict) -> list | None:
    """(shape, dtype) of each input slot (None for an empty one) when every given input
    has a static shape and one float dtype (:data:`_FLOATS`) shared by all, else None."""
    out, dtype = [], None
    for name in node.input:
        if not name:
            out.append(None)
            continue
        sd = _known(name, shapes, dtypes, consts)
        if sd is None or sd[1] not in _FLOATS or (dtype is not None and sd[1] != dtype):
            return None
        dtype = sd[1]
        out.append(sd)
    return out if dtype is not None else None


_MISSING = object()


def _attr(node: onnx.NodeProto, name: str, default=_MISSING):
    """Attribute ``name`` of ``node`` as an int (INT) or a list of ints (INTS);
    ``default`` when absent; :data:`_MISSING` when of another type (or absent with no
    default), which the rules treat as "leave the node to onnx"."""
    for a in node.attribute:
        if a.name == name:
            if a.type == onnx.AttributeProto.INT:
                return a.i
            return list(a.ints) if a.type == onnx.AttributeProto.INTS else _MISSING
    return default


def _conv_shape(node: onnx.NodeProto, x: tuple, w: tuple) -> tuple | None:
    """Conv's output shape for explicit padding (no ``auto_pad``), as onnx's
    convPoolShapeInference computes it, or None when the node is outside that case."""
    sp = len(x) - 2
    if sp < 1 or len(w) != len(x) or any(a.name == "auto_pad" and a.s not in (b"", b"NOTSET")
                                         for a in node.attribute):
        return None
    kernel = list(w[2:])
    group, ks = _attr(node, "group", 1), _attr(node, "kernel_shape", kernel)
    strides, dilations = _attr(node, "strides", [1] * sp), _attr(node, "dilations", [1] * sp)
    pads = _attr(node, "pads", [0] * (2 * sp))
    if not isinstance(group, int) or any(not isinstance(v, list) for v in (ks, strides, dilations, pads)):
        return None
    if ks != kernel or group < 1 or x[1] != w[1] * group or w[0] % group or len(strides) != sp or \
            len(dilations) != sp or len(pads) != 2 * sp or min(strides) < 1 or min(dilations) < 1 or min(pads) < 0:
        return None
    out = [x[0], w[0]]
    for i in range(sp):
        size, eff = x[2 + i] + pads[i] + pads[sp + i], (kernel[i] - 1) * dilations[i] + 1
        if size < eff:   # onnx truncates a negative quotient toward 0: left to it
            return None
        out.append(1 + (size - eff) // strides[i])
    return tuple(out)


def fast_output_shape(node: onnx.NodeProto, shapes: dict, dtypes: dict, consts: dict,
                      opset: int) -> tuple[tuple, np.dtype] | None:
    """(output shape, dtype) of a one-output node of a common op whose inputs all have
    static shapes and one float dtype (float16/32/64: every opset of these ops
    accepts them) in an opset onnx has a schema for, computed directly instead of
    through ``onnx.shape_inference`` (serialising protos costs ~30-60 us a node,
    most of a CNN's load), from opset 7 on: pointwise ops (same shape),
    Add/Sub/Mul/Div/Sum (numpy broadcasting; Sum from opset 8), inference
    BatchNormalization with 1-D statistics of C values, Concat, MatMul of ranks >= 2
    and Conv with explicit pads, and the ops of :mod:`frontend.onnx_shape_rules`. None for
    anything else (the caller runs onnx's inference then), so every shape recorded is
    onnx's; ``tests/perf/test_graphprep_infer.py`` compares both on every light model
    and on random nodes."""
    if len(node.output) != 1 or node.domain not in ("", "ai.onnx") or opset < 7:
        return None
    op = node.op_type
    if op in _rules.OPS:
        return _more(node, op, shapes, dtypes, consts, opset)
    if op in _rules.TYPED_OPS:
        return _rules.typed_output(node, op, shapes, dtypes, consts, opset, MAX_DATA_ELEMENTS)
    if op not in _SAME_SHAPE and op not in _BROADCAST and op not in ("Sum", "BatchNormalization", "Concat",
                                                                      "MatMul", "Conv"):
        return None
    ins = _static_inputs(node, shapes, dtypes, consts)
    if ins is None or any(i is None for i in ins) or signature(op, opset) is None:
        return None
    dtype, dims = ins[0][1], [i[0] for i in ins]
    if op in _SAME_SHAPE and len(dims) == 1:
        return dims[0], dtype
    if (op in _BROADCAST and len(dims) == 2) or (op == "Sum" and dims and opset >= 8):
        try:
            return tuple(np.broadcast_shapes(*dims)), dtype
        except ValueError:
            return None
    if op == "BatchNormalization" and len(dims) == 5 and len(dims[0]) >= 2 and \
            all(d == (dims[0][1],) for d in dims[1:]) and _attr(node, "training_mode", 0) == 0:
        return dims[0], dtype
    if op == "Concat" and dims:
        axis, r = _attr(node, "axis"), len(dims[0])
        lowest = -r if opset >= 11 else 0   # negative axes from opset 11
        if not isinstance(axis, int) or not lowest <= axis < r or any(len(d) != r for d in dims):
            return None
        axis %= r
        if any(d[:axis] + d[axis + 1:] != dims[0][:axis] + dims[0][axis + 1:] for d in dims):
            return None
        return dims[0][:axis] + (sum(d[axis] for d in dims),) + dims[0][axis + 1:], dtype
    if op == "MatMul" and len(dims) == 2 and min(len(dims[0]), len(dims[1])) >= 2:
        a, b = dims
        if a[-1] != b[-2]:
            return None
        try:
            batch = np.broadcast_shapes(a[:-2], b[:-2])
        except ValueError:
            return None
        return tuple(batch) + (a[-2], b[-1]), dtype
    if op == "Conv" and len(dims) in (2, 3):
        out = _conv_shape(node, dims[0], dims[1])
        return None if out is None else (out, dtype)
    return None


def _more(node: onnx.NodeProto, op: str, shapes: dict, dtypes: dict, consts: dict,
          opset: int) -> tuple[tuple, np.dtype] | None:
    """:func:`fast_output_shape` for :data:`frontend.onnx_shape_rules.OPS`: Reshape's data
    input of any known dtype with a constant int64 shape (opset >= 5), the others with
    float inputs as :func:`_static_inputs` takes them; only nodes whose attributes the
    schema at ``opset`` accepts (onnx rejects the others)."""
    sig = signature(op, opset)
    if sig is None or not sig.attributes_ok(node):
        return None
    if op == "Reshape":
        if opset < 5 or len(node.input) != 2 or node.input[1] not in consts:
            return None
        sd = _known(node.input[0], shapes, dtypes, consts)
        if sd is None:
            return None
        zero = _attr(node, "allowzero", 0) if opset >= 14 else 0
        if not isinstance(zero, int):
            return None
        out = _rules.reshape_shape(sd[0], consts[node.input[1]], zero)
        return None if out is None else (out, sd[1])
    ins = _static_inputs(node, shapes, dtypes, consts)
    if ins is None:
        return None
    out = _rules.rule_shape(node, op, ins, opset)
    return None if out is None else (out, ins[0][1])


def dropout_with_mask(node: onnx.NodeProto, shapes: dict, dtypes: dict, consts: dict, opset: int) -> tuple | None:
    """((shape, dtype) of the output, (shape, dtype) of the mask) of a one-input Dropout
    that asks for its mask, as onnx infers them: the output has the input's shape and
    dtype; before opset 10 the mask has the input's dtype and no inferred shape (None),
    from 10 on the input's shape and bool. None when outside that case."""
    if node.domain not in ("", "ai.onnx") or opset < 7 or len(node.input) != 1:
        return None
    one = onnx.NodeProto()
    one.CopyFrom(node)
    del one.output[1:]
    out = fast_output_shape(one, shapes, dtypes, consts, opset)
    if out is None:
        return None
    return out, ((None, out[1]) if opset < 10 else (out[0], np.dtype(np.bool_)))
