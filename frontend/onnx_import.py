"""Load an ONNX model and fold what is constant.

The onnx package's light models build their weights with ConstantOfShape, so folding
happens before anything reaches the device: every node whose inputs are all known
on the host is evaluated here (ConstantOfShape, Constant, Shape, ... directly in
numpy; anything else through ``onnx.reference`` on a one-node model). What is left
is a list of :class:`Node` to lower onto opsnn operators.

Static shape propagation: runtime tensors whose shape is known (graph inputs with
static dims, or pinned by an override array) carry that shape forward through each
runtime node (``onnx.shape_inference.infer_node_outputs`` with the constant inputs
as data). So ``Shape``/``Size`` of a runtime tensor fold too, and the shape-only
subgraphs transformer exports build (Shape -> Gather -> Unsqueeze -> Concat ->
Reshape) become constants at prepare time. A graph output that folds to a constant
is produced by an ``Identity`` node reading the constant (stored as ``<name>__const``).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from npu_sim.host_gc import with_gc_paused

from .errors import UnsupportedModelError
from .fusion import fuse_attention as _fuse_attention
from .graph import Graph, Node
from .meta_const import DATA_SLOTS, is_placeholder, placeholder, share_fills, wants_placeholder
from .onnx_infer import InferMemo, elem_dtype, is_static, infer_node_shapes

__all__ = ["Graph", "Node", "UnsupportedModelError", "load_onnx"]

#: reference switch (issue 17): a big ConstantOfShape fill of a full load becomes a
#: read-only view of one buffer per (dtype, value) shared by all such fills
#: (:func:`frontend.meta_const.share_fills`); False: its own ``np.full`` array each, as before
SHARED_FILLS = True


#: element types whose little-endian ``raw_data`` bytes are the array as they are (one
#: fixed-size item per element: no 2/4/6-bit packing, no strings)
_RAW_DTYPES = {t: np.dtype(helper.tensor_dtype_to_np_dtype(t)) for t in (
    onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE, onnx.TensorProto.FLOAT16, onnx.TensorProto.INT64,
    onnx.TensorProto.INT32, onnx.TensorProto.INT16, onnx.TensorProto.INT8, onnx.TensorProto.UINT64,
    onnx.TensorProto.UINT32, onnx.TensorProto.UINT16, onnx.TensorProto.UINT8, onnx.TensorProto.BOOL)}
#: element types stored in a typed field of their own dtype: type -> (field, dtype)
_FIELD_DTYPES = {onnx.TensorProto.FLOAT: ("float_data", np.dtype(np.float32)),
                 onnx.TensorProto.DOUBLE: ("double_data", np.dtype(np.float64)),
                 onnx.TensorProto.INT64: ("int64_data", np.dtype(np.int64)),
                 onnx.TensorProto.INT32: ("int32_data", np.dtype(np.int32))}


def tensor_array(t: onnx.TensorProto) -> np.ndarray:
    """``numpy_helper.to_array(t)`` (same dtype, shape, values and writeability), built
    directly for the common cases: ``raw_data`` of a plain numeric type on a
    little-endian host (the read-only view of the bytes onnx returns too), or a
    float32/float64/int64/int32 typed field (a new array). onnx's function spends
    ~4 us a tensor on its checks and type tables, and the light models hold thousands
    of tiny shape and fill tensors. Anything else (external data, segments, strings,
    packed or narrow types in typed fields) goes through onnx.
    ``tests/perf/test_graphprep_load.py`` compares both."""
    if t.data_location == onnx.TensorProto.EXTERNAL or t.HasField("segment"):
        return numpy_helper.to_array(t)
    if t.HasField("raw_data"):
        dtype = _RAW_DTYPES.get(t.data_type)
        if dtype is None or sys.byteorder != "little":
            return numpy_helper.to_array(t)
        return np.frombuffer(t.raw_data, dtype=dtype).reshape(tuple(t.dims))
    field = _FIELD_DTYPES.get(t.data_type)
    if field is None:
        return numpy_helper.to_array(t)
    return np.array(getattr(t, field[0]), dtype=field[1]).reshape(tuple(t.dims))


def _attrs(node: onnx.NodeProto) -> dict[str, Any]:
    out = {}
    for a in node.attribute:
        v = helper.get_attribute_value(a)
        if isinstance(v, onnx.TensorProto):
            v = tensor_array(v)
        elif isinstance(v, bytes):
            v = v.decode()
        elif isinstance(v, list) and v and isinstance(v[0], bytes):
            v = [x.decode() for x in v]
        out[a.name] = v
    return out


def _fold_one(node: onnx.NodeProto, values: list[np.ndarray], opset: int, meta_only: bool = False) -> list[np.ndarray]:
    op = node.op_type
    at = _attrs(node)
    if op == "ConstantOfShape":
        value = at.get("value", np.zeros(1, np.float32))
        shape = tuple(int(d) for d in values[0])
        if (meta_only or SHARED_FILLS) and wants_placeholder(shape, value.dtype):
            # one value everywhere: exact as a broadcast (a full load makes it real: share_fills)
            return [placeholder(shape, value.dtype, value.reshape(-1)[0])]
        return [np.full(shape, value.reshape(-1)[0], dtype=value.dtype)]
    if op == "Constant":
        if "value" in at:
            return [np.asarray(at["value"])]
        for k in ("value_float", "value_int"):
            if k in at:
                return [np.asarray(at[k])]
        for k in ("value_floats", "value_ints"):
            if k in at:
                return [np.asarray(at[k])]
    if op == "Shape":
        return [_shape_slice(values[0].shape, at)]
    if op == "Size":
        return [np.asarray(int(np.prod(values[0].shape, dtype=np.int64)), dtype=np.int64)]
    if op == "Identity":
        return [values[0]]
    fast = _fold_numpy(op, at, values, opset) if all(node.input) else None   # inputs in their slots
    if fast is not None:
        return [fast]
    # generic: run the one node through the onnx reference evaluator
    from onnx.reference import ReferenceEvaluator
    ins = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
           for n, v in zip(node.input, values) if n]
    outs = [helper.make_tensor_value_info(n, onnx.TensorProto.UNDEFINED, None) for n in node.output]
    g = helper.make_graph([node], "fold", ins, outs)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    ev = ReferenceEvaluator(m)
    res = ev.run(None, {n: v for n, v in zip(node.input, values) if n})
    return [np.asarray(r) for r in res]


def _same_int(values) -> bool:
    """All arrays of one integer (or bool) dtype: where numpy's result is the reference's
    bit for bit (no float rounding, no promotion)."""
    return all(v.dtype == values[0].dtype for v in values) and values[0].dtype.kind in "iub"


def _fold_numpy(op: str, at: dict, values: list[np.ndarray], opset: int) -> np.ndarray | None:
    """The data-movement and integer ops of shape subgraphs (Unsqueeze, Reshape,
    Gather, Concat, Slice; Mul, Add, Sub, Equal, Where, Expand on one integer dtype)
    folded directly in numpy, as ``onnx.reference`` computes them (its op_*.py do the
    same numpy calls); None for anything else (the caller then runs the reference
    evaluator). Saves importing ``onnx.reference`` (~0.1-0.4 s) and one evaluator per
    node. ``tests/perf/test_fold_numpy.py`` compares each with the reference."""
    n = len(values)
    if op == "Unsqueeze":
        axes = values[1] if opset >= 13 and n == 2 else (at.get("axes") if opset < 13 else None)
        if axes is None or np.ndim(axes) != 1 or len(axes) == 0:
            return None
        return np.expand_dims(values[0], axis=tuple(int(a) for a in axes))
    if op == "Reshape" and n == 2 and values[1].ndim == 1 and values[1].dtype.kind == "i":
        data, new = values[0], [int(d) for d in values[1]]
        if not at.get("allowzero", 0):
            if any(d == 0 and i >= data.ndim for i, d in enumerate(new)):
                return None
            new = [data.shape[i] if d == 0 else d for i, d in enumerate(new)]
        return np.reshape(data, new)
    if op == "Gather" and n == 2 and values[1].dtype.kind == "i" and values[1].size:
        return np.take(values[0], values[1], axis=int(at.get("axis", 0)))
    if op == "Concat" and n >= 1 and all(v.ndim >= 1 for v in values) and \
            all(v.dtype == values[0].dtype for v in values):
        return np.concatenate(values, int(at["axis"]))
    if op == "Slice" and opset >= 10 and 3 <= n <= 5 and all(v.ndim == 1 and v.dtype.kind == "i" for v in values[1:]):
        data, starts, ends = values[0], values[1], values[2]
        axes = values[3] if n > 3 else range(len(starts))
        steps = values[4] if n > 4 else [1] * len(starts)
        if not (len(starts) == len(ends) == len(axes) == len(steps)) or any(int(d) == 0 for d in steps):
            return None
        sl = [slice(0, d) for d in data.shape]
        for s0, e0, a, d in zip(starts, ends, axes, steps):
            sl[int(a)] = slice(int(s0), int(e0), int(d))
        return data[tuple(sl)]
    if op in ("Mul", "Add", "Sub", "Equal") and n == 2 and _same_int(values):
        fn = {"Mul": np.multiply, "Add": np.add, "Sub": np.subtract, "Equal": np.equal}[op]
        return np.asarray(fn(values[0], values[1]))
    if op == "Where" and n == 3 and values[0].dtype == np.bool_ and _same_int(values[1:]):
        return np.where(values[0], values[1], values[2])
    if op == "Expand" and n == 2 and values[0].dtype.kind in "iu" and values[1].ndim == 1:
        shape = np.broadcast_shapes(values[0].shape, tuple(int(d) for d in values[1]))
        return np.broadcast_to(values[0], shape).copy()
    return None


def _shape_slice(shape, at: dict) -> np.ndarray:
    """Shape's output: dims [start:end] (opset 15 attributes; clamped like Python slices)."""
    dims = list(shape)
    start, end = int(at.get("start", 0)), at.get("end")
    return np.asarray(dims[start:] if end is None else dims[start:int(end)], dtype=np.int64)


def _initializer(init: onnx.TensorProto, meta_only: bool) -> tuple[np.ndarray, bool]:
    """(array, data_lost): the initializer's values, or with ``meta_only`` a placeholder
    (:mod:`frontend.meta_const`) of its shape and dtype when it is big enough; then
    nothing is converted and ``data_lost`` is True (its values are still in ``init``)."""
    if meta_only and init.data_type not in (0, onnx.TensorProto.STRING) and not init.external_data:
        shape = tuple(int(d) for d in init.dims)
        dtype = elem_dtype(init.data_type)
        if wants_placeholder(shape, dtype):
            return placeholder(shape, dtype), True
    return tensor_array(init), False


def _materialise_non_data(nodes, consts: dict, lost: dict, outputs) -> None:
    """Give real values to the placeholders read outside :data:`DATA_SLOTS` (or that are
    graph outputs): a lost initializer is converted from its proto, a fill copied."""
    need = set(outputs)
    for node in nodes:
        need.update(i for k, i in enumerate(node.inputs) if i and (node.op_type, k) not in DATA_SLOTS)
    for name in need:
        if name in consts and is_placeholder(consts[name]):
            consts[name] = _real(name, consts, lost)


def _real(name: str, consts: dict, lost: dict) -> np.ndarray:
    """The true values of constant ``name`` (a lost placeholder's from its initializer)."""
    if name in lost:
        return tensor_array(lost.pop(name))
    return np.array(consts[name])


def read_onnx(path_or_model) -> onnx.ModelProto:
    """``path_or_model`` itself if it is a ModelProto, else the model parsed from the
    file. Raises :class:`UnsupportedModelError` for an unreadable file."""
    if isinstance(path_or_model, onnx.ModelProto):
        return path_or_model
    try:
        return onnx.load(str(path_or_model))
    except Exception as e:  # noqa: BLE001 - protobuf raises many kinds
        raise UnsupportedModelError(f"cannot read ONNX model {path_or_model}: {e}") from None


@with_gc_paused   # builds thousands of nodes, attrs and arrays (npu_sim/host_gc.py)
def load_onnx(path_or_model: str | Path | onnx.ModelProto, overrides: dict[str, np.ndarray] | None = None,
              fuse_attention: bool = True, meta_only: bool = False) -> Graph:
    """Load and fold a model. ``overrides`` replace initializers (e.g. weights fed
    through ``--inputs``; cast to the initializer's dtype; a shape mismatch raises
    UnsupportedModelError); for a runtime input they
    pin its shape (dynamic dims take the array's), not its values. With
    ``fuse_attention`` the attention subgraphs become FlashAttentionScore nodes
    (:mod:`frontend.fusion`). With ``meta_only`` (timing-only runs) the big float
    weights are metadata-only placeholders (:mod:`frontend.meta_const`): the graph can be
    simulated on a timing-only device only. Raises :class:`UnsupportedModelError` for an
    unreadable model."""
    model = read_onnx(path_or_model)
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 13)
    g = model.graph
    overrides = overrides or {}
    consts: dict[str, np.ndarray] = {}
    lost: dict[str, onnx.TensorProto] = {}   # placeholder name -> the initializer holding its values
    for init in g.initializer:
        consts[init.name], data_lost = _initializer(init, meta_only and init.name not in overrides)
        if data_lost:
            lost[init.name] = init
    for name, value in overrides.items():
        if name in consts:
            value = np.asarray(value)
            if value.shape != consts[name].shape:
                raise UnsupportedModelError(f"override for initializer {name!r} has shape {list(value.shape)}, "
                                            f"the model's is {list(consts[name].shape)}")
            consts[name] = value.astype(consts[name].dtype)
    inputs: dict[str, tuple[tuple[int, ...], np.dtype]] = {}
    shapes: dict[str, tuple[int, ...]] = {}
    dtypes: dict[str, np.dtype] = {}
    for vi in g.input:
        if vi.name in consts:
            continue
        tt = vi.type.tensor_type
        shape = tuple(d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim)
        if vi.name in overrides:  # a runtime input's array pins its (possibly dynamic) shape, not its values
            given = tuple(np.shape(overrides[vi.name]))
            if len(given) == len(shape) and all(d < 0 or d == e for d, e in zip(shape, given)):
                shape = given
        inputs[vi.name] = (shape, elem_dtype(tt.elem_type))
        dtypes[vi.name] = inputs[vi.name][1]
        if is_static(shape):
            shapes[vi.name] = shape
    nodes: list[Node] = []
    memo = InferMemo()
    for n in g.node:
        if n.domain not in ("", "ai.onnx"):
            raise UnsupportedModelError(f"op {n.domain}::{n.op_type} (node {n.name or n.output[0]!r}) "
                                        "is from a custom domain")
        if n.op_type in ("Shape", "Size") and n.input[0] in shapes and n.input[0] not in consts:
            consts[n.output[0]] = _fold_one(n, [np.empty(shapes[n.input[0]], np.uint8)], opset)[0]
            continue
        if all((not i) or i in consts for i in n.input):
            if n.op_type == "Identity" and n.input[0] in lost:
                lost[n.output[0]] = lost[n.input[0]]
            for i in n.input:   # folding needs the values: a lost placeholder input becomes real first
                if i in lost and n.op_type != "Identity":
                    consts[i] = _real(i, consts, lost)
            try:
                res = _fold_one(n, [consts[i] for i in n.input if i], opset, meta_only)
            except Exception as e:  # noqa: BLE001
                raise UnsupportedModelError(f"cannot fold constant {n.op_type} node {n.name or n.output[0]!r}: {e}") \
                    from None
            for name, v in zip(n.output, res):
                consts[name] = v
            continue
        nodes.append(Node(n.op_type, n.name or n.output[0], list(n.input), list(n.output), _attrs(n)))
        infer_node_shapes(n, shapes, dtypes, consts, opset, memo)
    outputs = [o.name for o in g.output]
    if meta_only:
        _materialise_non_data(nodes, consts, lost, outputs)
    elif SHARED_FILLS:
        share_fills(consts)
    for name in outputs:
        if name in consts and name not in inputs:
            consts[name + "__const"] = consts.pop(name)
            nodes.append(Node("Identity", name, [name + "__const"], [name]))
    graph = Graph(g.name or "model", inputs, consts, nodes, outputs, opset, model, shapes)
    if fuse_attention:
        _fuse_attention(graph)
    return graph
