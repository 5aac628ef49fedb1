"""Attribute and axis access for the lowering handlers.

Every malformed attribute is an :class:`~frontend.errors.UnsupportedModelError`
whose message is ``"<op> node '<name>': <reason>"`` (:func:`bad`).
"""
from __future__ import annotations

import numpy as np

from ..errors import UnsupportedModelError
from ..graph import Node


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


def axes_arg(ctx, node: Node, rank: int, input_index: int = 1, attr: str = "axes") -> list[int] | None:
    """Axes from the attribute (older opsets) or the constant input ``input_index``
    (newer ones), each normalised into [0, rank); None if absent. Runtime axes and a
    repeated axis are refused."""
    axes = attr_ints(node, attr, None)
    if axes is None and len(node.inputs) > input_index and node.inputs[input_index]:
        axes = ctx.const(node.inputs[input_index])
        if axes is None:
            raise bad(node, "runtime axes are not supported (they must be constant)")
    if axes is None:
        return None
    flat = [int(a) for a in np.asarray(axes).reshape(-1)]
    norm = [axis_index(node, a, rank, "axes value") for a in flat]
    if len(set(norm)) != len(norm):
        raise bad(node, f"axes {flat} repeat an axis")
    return norm


def reduce_plan(ctx, node, x):
    """The ONNX reduction attributes of ``node`` over ``x``: ``(axes, keepdims, out
    shape)`` with ``axes`` sorted and unique (all axes when none are given), or None
    when ``noop_with_empty_axes`` asks for the input unchanged (no axes given)."""
    rank = len(x.shape)
    axes = axes_arg(ctx, node, rank)
    keep = bool(attr_int(node, "keepdims", 1))
    if not axes:
        if attr_int(node, "noop_with_empty_axes", 0):
            return None
        axes = list(range(rank))
    axes = sorted(set(axes))
    shape = tuple((1 if i in axes else d) for i, d in enumerate(x.shape) if keep or i not in axes)
    return axes, keep, shape
