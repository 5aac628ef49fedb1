"""The lowering registry: ONNX op type -> handler.

A handler module registers each handler with :func:`register` when it is imported
(:mod:`frontend.lowering` imports them all); :func:`frontend.lowering.lower_node`
looks handlers up here. Signatures:

* ``fn(ctx, node, ins) -> (outs, calls)`` for most ops (:data:`HANDLERS`);
* ``fn(ctx, node, ins, opset) -> (outs, calls)`` for ops whose meaning depends on the
  opset (:data:`OPSET_HANDLERS`; registered with ``opset=True``).

``ctx`` is a :class:`frontend.lowering.tensors.LoweringContext`, ``ins`` the input
DTensors (None for an omitted optional input), ``outs`` one DTensor per node output
and ``calls`` the :class:`frontend.program.PreparedCall` s in launch order.
"""
from __future__ import annotations

from typing import Callable

#: op type -> ``fn(ctx, node, ins)``
HANDLERS: dict[str, Callable] = {}

#: op type -> ``fn(ctx, node, ins, opset)``; looked up before :data:`HANDLERS`
OPSET_HANDLERS: dict[str, Callable] = {}


def register(*op_types: str, opset: bool = False) -> Callable[[Callable], Callable]:
    """Decorator: register the handler for ``op_types``. ``opset=True`` when it takes
    the model's default-domain opset as a fourth argument. Raises ValueError when an
    op type already has a handler (two modules would silently race otherwise)."""
    table = OPSET_HANDLERS if opset else HANDLERS

    def deco(fn: Callable) -> Callable:
        for op in op_types:
            if op in HANDLERS or op in OPSET_HANDLERS:
                raise ValueError(f"lowering handler for {op!r} registered twice")
            table[op] = fn
        return fn
    return deco


def handler(op_type: str) -> tuple[Callable, bool] | None:
    """(handler, takes_opset) for ``op_type``, or None when nothing lowers it."""
    fn = OPSET_HANDLERS.get(op_type)
    if fn is not None:
        return fn, True
    fn = HANDLERS.get(op_type)
    return (fn, False) if fn is not None else None


def supported_ops() -> set[str]:
    """Every op type a handler is registered for."""
    return set(HANDLERS) | set(OPSET_HANDLERS)
