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
