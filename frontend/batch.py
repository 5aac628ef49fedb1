"""Change a model's batch, or pin its symbolic dims, before it is loaded
(``npu-sim run --batch N`` / ``--dim NAME=VALUE``).

:func:`rebatch` gives every runtime input (and graph output) whose leading dim is the
model's fixed batch ``B0`` the new batch ``N``, and rewrites the Reshape constants that
hold the batch: a Reshape whose target shape is a constant with ``B0`` as its first
entry and whose data is computed from the runtime inputs (not a weight). The rewrite
is then *proved* on the folded graphs (:func:`frontend.onnx_import.load_onnx`, whose
shape inference is the one ``npu-sim run`` uses): every tensor the two graphs share
must have the old shape with, at most, a leading ``B0`` replaced by ``N``, and every
Reshape must keep its element count; anything
else (a Reshape that folds the batch into another axis, a constant that hid it)
raises :class:`RebatchError` naming the tensor, and nothing is run.

:func:`pin_dims` sets ``dim_param`` dims of the runtime inputs by name (MiniLM's
``batch_size`` / ``sequence_length``), so a model with dynamic dims runs at a chosen
size without an ``--inputs`` file.
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx import numpy_helper


class RebatchError(ValueError):
    """A model whose batch cannot be changed safely (the message says why)."""


def _runtime_inputs(model: onnx.ModelProto) -> list:
    inits = {i.name for i in model.graph.initializer}
    return [vi for vi in model.graph.input if vi.name not in inits]


def _const_array(model: onnx.ModelProto, name: str):
    """The value of ``name`` if an initializer or a Constant node's ``value`` makes it."""
    for i in model.graph.initializer:
        if i.name == name:
            return numpy_helper.to_array(i)
    for n in model.graph.node:
        if n.op_type == "Constant" and n.output and n.output[0] == name:
            for a in n.attribute:
                if a.name == "value":
                    return numpy_helper.to_array(a.t)
    return None


def _runtime_values(model: onnx.ModelProto) -> set[str]:
    """Names computed (transitively) from a runtime input."""
    live = {vi.name for vi in _runtime_inputs(model)}
    for n in model.graph.node:   # ONNX nodes are in topological order
        if any(i in live for i in n.input if i):
            live.update(o for o in n.output if o)
    return live


def rebatch(model: onnx.ModelProto, batch: int) -> tuple[onnx.ModelProto, list[str]]:
    """A copy of ``model`` at batch ``batch`` (module doc) and the names of the Reshape
    nodes whose target shape was rewritten.

    Raises :class:`RebatchError`: ``batch`` < 1; no runtime input; a runtime input of
    rank 0 or whose leading dim is not fixed (use :func:`pin_dims`); inputs that
    disagree on the batch; a tensor whose shape does not follow the batch (the proof
    of the module doc).
    """
    if int(batch) != batch or batch < 1:
        raise RebatchError(f"--batch must be a positive integer, got {batch!r}")
    batch = int(batch)
    ins = _runtime_inputs(model)
    if not ins:
        raise RebatchError("the model has no runtime input to give a batch to")
    b0s = set()
    for vi in ins:
        dims = vi.type.tensor_type.shape.dim
        if not dims:
            raise RebatchError(f"input {vi.name!r} is a scalar: it has no batch dim")
        if not dims[0].HasField("dim_value"):
            free = [d.dim_param for d in dims if d.dim_param and not d.dim_value]
            more = "".join(f" --dim {d}=N" for d in free[1:])
            raise RebatchError(f"input {vi.name!r} has a dynamic leading dim {dims[0].dim_param!r}: "
                               f"pin it with --dim {dims[0].dim_param or 'NAME'}={batch}{more} instead "
                               f"(in a sweep: dims: {{{dims[0].dim_param or 'NAME'}: {batch}}})")
        b0s.add(dims[0].dim_value)
    if len(b0s) != 1:
        raise RebatchError(f"the runtime inputs disagree on the batch (leading dims {sorted(b0s)})")
    b0 = b0s.pop()
    new = onnx.ModelProto()
    new.CopyFrom(model)
    if batch == b0:
        return new, []
    g = new.graph
    for vi in _runtime_inputs(new):
        vi.type.tensor_type.shape.dim[0].dim_value = batch
    for vi in g.output:
        dims = vi.type.tensor_type.shape.dim
        if dims and dims[0].HasField("dim_value") and dims[0].dim_value == b0:
            dims[0].dim_value = batch
    del g.value_info[:]           # re-inferred at the new batch
    live = _runtime_values(new)
    taken = {i.name for i in g.initializer} | {o for n in g.node for o in n.output}
    rewritten = []
    for n in g.node:
        if n.op_type != "Reshape" or len(n.input) < 2 or n.input[0] not in live:
            continue
        target = _const_array(new, n.input[1])
        if target is None or target.ndim != 1 or not target.size or int(target[0]) != b0:
            continue
        t = target.astype(np.int64).copy()
        t[0] = batch
        name = f"{n.input[1]}__batch{batch}"
        k = 0
        while name in taken:
            k += 1
            name = f"{n.input[1]}__batch{batch}_{k}"
        taken.add(name)
        g.initializer.append(numpy_helper.from_array(t, name))
        n.input[1] = name
        rewritten.append(n.name or n.output[0])
    _prove(model, new, b0, batch)
    return new, rewritten


def _prove(old: onnx.ModelProto, new: onnx.ModelProto, b0: int, batch: int) -> None:
    """Raise :class:`RebatchError` unless every tensor shape of ``new``'s folded graph
    is ``old``'s with at most the leading ``b0`` replaced by ``batch``."""
    from .onnx_import import UnsupportedModelError, load_onnx
    try:
        # shapes only: big weights as metadata placeholders (frontend.meta_const), which
        # keep every value a shape depends on real
        g_old = load_onnx(old, fuse_attention=False, meta_only=True)
        g_new = load_onnx(new, fuse_attention=False, meta_only=True)
    except (UnsupportedModelError, ValueError) as e:
        raise RebatchError(f"the model does not load at batch {batch}: {e}") from None
    for n in g_new.nodes:   # a Reshape must keep its element count (shape inference takes the target as given)
        if n.op_type == "Reshape" and n.inputs and n.outputs:
            si, so = g_new.shapes.get(n.inputs[0]), g_new.shapes.get(n.outputs[0])
            if si is not None and so is not None and int(np.prod(si)) != int(np.prod(so)):
                raise RebatchError(f"Reshape {n.name or n.outputs[0]!r} turns {list(si)} into {list(so)} at batch "
                                   f"{batch}: its target shape holds the batch in a way that cannot be rewritten")
    for name, s_old in g_old.shapes.items():
        s_new = g_new.shapes.get(name)
        if s_new is None or tuple(s_new) == tuple(s_old):
            continue
        follows = (len(s_new) == len(s_old) and len(s_old) > 0 and s_old[0] == b0 and s_new[0] == batch
                   and tuple(s_new[1:]) == tuple(s_old[1:]))
        if not follows:
            raise RebatchError(f"tensor {name!r} has shape {list(s_old)} at batch {b0} but {list(s_new)} at "
                               f"batch {batch}: its batch is not only the leading dim, so the batch cannot be "
                               f"changed safely")


def pin_dims(model: onnx.ModelProto, dims: dict[str, int]) -> onnx.ModelProto:
    """A copy of ``model`` whose runtime inputs have each symbolic dim named in ``dims``
    fixed to its value. Raises :class:`RebatchError` for a value < 1 or a name no
    runtime input uses (the message lists the names there are)."""
    names = {d.dim_param for vi in _runtime_inputs(model) for d in vi.type.tensor_type.shape.dim if d.dim_param}
    for k, v in dims.items():
        if int(v) != v or v < 1:
            raise RebatchError(f"--dim {k}={v}: the value must be a positive integer")
        if k not in names:
            raise RebatchError(f"--dim {k}: no input has a dim named {k!r}; the model's are "
                               f"{', '.join(sorted(names)) or 'none (all fixed: see --batch)'}")
    new = onnx.ModelProto()
    new.CopyFrom(model)
    for vi in _runtime_inputs(new):
        for d in vi.type.tensor_type.shape.dim:
            if d.dim_param in dims:
                d.dim_value = int(dims[d.dim_param])   # setting dim_value clears the dim_param (oneof)
    return new


def batch_dim_conflict(model, batch: int, dims: dict[str, int]) -> tuple[str, str] | None:
    """``(input, dim name)`` of the first runtime input of ``model`` (an onnx ModelProto)
    whose leading dim is the symbolic dim ``name`` that ``dims`` pins to a value other
    than ``batch``: the batch change would silently override that pin. None when the
    two agree."""
    inits = {i.name for i in model.graph.initializer}
    for vi in model.graph.input:
        lead = vi.type.tensor_type.shape.dim[:1]
        name = lead[0].dim_param if lead and not lead[0].dim_value else ""
        if vi.name not in inits and name in dims and dims[name] != batch:
            return vi.name, name
    return None


def shape_model(path, batch: int | None = None, dims: dict[str, int] | None = None):
    """``path`` unchanged when neither is given, else the model read from ``path`` (or
    ``path`` itself if it is a ModelProto) with ``dims`` pinned (:func:`pin_dims`) then
    its batch changed (:func:`rebatch`): returns ``(model or path, rewritten Reshape
    names)``. Raises :class:`RebatchError` (also for an unreadable model, and for a
    ``batch`` and a ``dims`` pin that set one input's leading dim to different values:
    :func:`batch_dim_conflict`)."""
    if not batch and not dims:
        return path, []
    from .onnx_import import UnsupportedModelError, read_onnx
    try:
        model = read_onnx(path)
    except UnsupportedModelError as e:
        raise RebatchError(str(e)) from None
    rewritten: list[str] = []
    if batch and dims and (clash := batch_dim_conflict(model, batch, dims)):
        raise RebatchError(f"batch {batch} and dim {clash[1]}={dims[clash[1]]} both set the leading dim of "
                           f"input {clash[0]!r}: give one of them")
    if dims:
        model = pin_dims(model, dims)
    if batch:
        model, rewritten = rebatch(model, batch)
    return model, rewritten


__all__ = ["RebatchError", "batch_dim_conflict", "pin_dims", "rebatch", "shape_model"]
