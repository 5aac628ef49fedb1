"""The folded graph the frontend passes between loading, fusion and lowering (data only).

:func:`frontend.onnx_import.load_onnx` builds a :class:`Graph`; :mod:`frontend.fusion`
rewrites its nodes; :mod:`frontend.runner` lowers them in order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx


@dataclass
class Node:
    """One ONNX node left after folding. ``attrs`` are plain Python values."""

    op_type: str
    name: str
    inputs: list[str]
    outputs: list[str]
    attrs: dict[str, Any] = field(default_factory=dict)


@dataclass
class Graph:
    """A folded graph: runtime inputs (name -> (shape, dtype)), constants (name ->
    array), nodes in topological order, output names and the default-domain opset."""

    name: str
    inputs: dict[str, tuple[tuple[int, ...], np.dtype]]
    constants: dict[str, np.ndarray]
    nodes: list[Node]
    outputs: list[str]
    opset: int
    model: onnx.ModelProto
    #: static shapes of runtime tensors (inputs and node outputs) where known
    shapes: dict[str, tuple[int, ...]] = field(default_factory=dict)
