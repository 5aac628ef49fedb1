"""The lowering dispatcher: one folded node -> its handler from the registry.

:func:`lower_node` checks the node against its ONNX schema, calls the registered
handler and turns anything unexpected a handler raises into an
:class:`~frontend.errors.UnsupportedModelError` naming the op and node.
"""
from __future__ import annotations

import traceback
from pathlib import Path

from ..errors import UnsupportedModelError
from ..graph import Node
from ..onnx_signatures import OPTIONAL, latest_signature, signature
from .attrs import bad
from .registry import handler, supported_ops
from .tensors import DTensor


def _check_arity(node: Node, ins: list, opset: int) -> None:
    """Input/output counts and required inputs against the ONNX schema at ``opset``
    (skipped for internal op types such as FlashAttentionScore), read from
    :mod:`frontend.onnx_signatures` (onnx's schemas without building its registry)."""
    # newer than the model's opset: its first schema; no schema at all: an internal fused node
    schema = signature(node.op_type, opset) or latest_signature(node.op_type)
    if schema is None:
        return
    if not schema.min_input <= len(ins) <= schema.max_input:
        raise bad(node, f"has {len(ins)} inputs; the opset-{opset} schema takes {schema.min_input}.."
                        f"{schema.max_input}")
    n_out = len(node.outputs)
    if not schema.min_output <= n_out <= schema.max_output or not n_out or not node.outputs[0]:
        raise bad(node, f"has outputs {node.outputs}; the opset-{opset} schema takes {schema.min_output}.."
                        f"{schema.max_output} with the first one named")
    formals = schema.inputs
    for i, t in enumerate(ins):
        name, option = formals[min(i, len(formals) - 1)]  # the last formal may be variadic
        if t is None and option != OPTIONAL:
            raise bad(node, f"required input {i} ({name}) is missing")


def lower_node(ctx, node: Node, ins: list[DTensor], opset: int):
    """Lower one node; raises UnsupportedModelError naming the op and node.

    Any other exception a handler raises (a malformed model it did not foresee, or
    a bug) is converted to UnsupportedModelError("<op> node '<name>': <reason>")
    whose reason keeps the exception type and the file:line it came from."""
    found = handler(node.op_type)
    if found is None:
        raise UnsupportedModelError(
            f"op {node.op_type!r} (node {node.name!r}) is not supported; supported: "
            f"{', '.join(sorted(supported_ops()))}")
    fn, takes_opset = found
    try:
        _check_arity(node, ins, opset)
        if takes_opset:
            return fn(ctx, node, ins, opset)
        return fn(ctx, node, ins)
    except UnsupportedModelError as e:
        if repr(node.name) in str(e):
            raise
        raise bad(node, str(e)) from None  # e.g. a view or tensor that could not be made
    except Exception as e:  # noqa: BLE001 - the last line of defence, see the docstring
        frame = traceback.extract_tb(e.__traceback__)[-1]
        where = f"{type(e).__name__} in {frame.name} at {Path(frame.filename).name}:{frame.lineno}"
        raise UnsupportedModelError(f"{node.op_type} node {node.name!r}: {e} ({where})") from e
