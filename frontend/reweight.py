"""Give a model random weights, so that its outputs are a strong numerical check.

The light models that onnx ships have constant weights (0.02 everywhere), which
makes every output uniform and hides indexing bugs. This replaces every constant
produced by ConstantOfShape and every float initializer with seeded random values:
conv/gemm weights He-scaled (std sqrt(2/fan_in)), BatchNorm variances in [0.5, 1.5],
scales in [0.3, 0.6] (BatchNorm at inference divides by its running variance, not the
activation's, so residual networks grow by about 2x a block without this; with it the
light ResNet-50's logits stay O(1) and its softmax is not saturated), biases and means
small.
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx import numpy_helper

from .onnx_import import load_onnx


def _value(name: str, arr: np.ndarray, rng: np.random.Generator, role: str) -> np.ndarray:
    shape = arr.shape
    if role == "var":
        return rng.uniform(0.5, 1.5, shape).astype(arr.dtype)
    if role == "scale":
        return rng.uniform(0.3, 0.6, shape).astype(arr.dtype)
    if arr.ndim >= 2:
        fan_in = int(np.prod(shape[1:])) if arr.ndim > 2 else shape[-1] if role == "gemm_b_T" else shape[0]
        if role == "gemm_b_T":
            fan_in = shape[1]
        return (rng.standard_normal(shape) * np.sqrt(2.0 / max(fan_in, 1))).astype(arr.dtype)
    return (rng.standard_normal(shape) * 0.1).astype(arr.dtype)


def reweight_model(model: onnx.ModelProto, seed: int = 0) -> onnx.ModelProto:
    """A copy of ``model`` with folded constant weights turned into random initializers."""
    rng = np.random.default_rng(seed)
    graph = load_onnx(model)
    roles: dict[str, str] = {}
    for n in model.graph.node:
        if n.op_type == "BatchNormalization" and len(n.input) >= 5:
            roles[n.input[1]] = "scale"
            roles[n.input[4]] = "var"
        if n.op_type == "Gemm":
            tb = any(a.name == "transB" and a.i for a in n.attribute)
            roles[n.input[1]] = "gemm_b_T" if tb else "gemm_b"
    produced = {}
    for n in model.graph.node:
        if n.op_type == "ConstantOfShape":
            produced[n.output[0]] = n
    m = onnx.ModelProto()
    m.CopyFrom(model)
    keep = [n for n in m.graph.node if n.output[0] not in produced]
    del m.graph.node[:]
    m.graph.node.extend(keep)
    new_inits = []
    for name in sorted(produced):
        arr = graph.constants[name]
        if arr.dtype.kind != "f":
            new_inits.append(numpy_helper.from_array(arr, name))
            continue
        new_inits.append(numpy_helper.from_array(_value(name, arr, rng, roles.get(name, "")), name))
    for init in m.graph.initializer:
        arr = numpy_helper.to_array(init)
        if arr.dtype.kind == "f" and arr.size > 1:
            init.CopyFrom(numpy_helper.from_array(_value(init.name, arr, rng, roles.get(init.name, "")), init.name))
    m.graph.initializer.extend(new_inits)
    if m.ir_version < 4:  # before IR 4 every initializer must also be a graph input
        listed = {i.name for i in m.graph.input}
        for init in new_inits:
            if init.name not in listed:
                m.graph.input.append(onnx.helper.make_tensor_value_info(init.name, init.data_type, list(init.dims)))
    return m


def save_model(model, path) -> None:
    """Save ``model`` at ``path`` atomically (a temporary file in the same folder, then
    a rename: ``acl_runtime.atomic_io``), so an interrupt or a full disk keeps the old
    file. Raises OSError."""
    import onnx

    from acl_runtime.atomic_io import atomic_write_path
    atomic_write_path(path, lambda tmp: onnx.save(model, str(tmp)))
