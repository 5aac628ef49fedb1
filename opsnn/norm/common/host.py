"""Phase-1 helpers the row-norm entry points share (LayerNorm, RmsNorm): attribute
checks with their status codes, and the workspace refs of the present tensors."""
from __future__ import annotations

import math

import numpy as np

from ...base.checks import invalid
from ...base.executor import PreparedKernel
from ...base.tiling_base import TilingRegistry

#: most dims of a row-norm input (CANN docs: "shape支持1-8维度")
MAX_RANK = 8


def int_list(op: str, name: str, value) -> list[int]:
    """An aclIntArray / int sequence as a list of ints; 161002 otherwise."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise invalid(op, f"{name} must be an aclIntArray, got {type(value).__name__}")
    out = []
    for v in value:
        if isinstance(v, (bool, np.bool_)) or not hasattr(v, "__index__"):
            raise invalid(op, f"{name} must hold integers, got {v!r}")
        out.append(int(v))
    return out


def check_eps(op: str, name: str, eps) -> float:
    """``eps`` as a float; 161002 unless it is a finite real number."""
    if isinstance(eps, (bool, np.bool_)):
        raise invalid(op, f"{name} must be a number, got {eps!r}")
    try:
        v = float(eps)
    except (TypeError, ValueError):
        raise invalid(op, f"{name} must be a number, got {eps!r}") from None
    if not math.isfinite(v):
        raise invalid(op, f"{name} must be finite, got {eps!r}")
    return v


def check_strategy(op: str, registry: TilingRegistry, strategy) -> None:
    """161002 unless ``strategy`` (the simulator's keyword-only extension) is None or a
    strategy registered for the op. Checked with the attributes, before the
    empty-tensor return, so a bad name fails whatever the input."""
    if strategy is not None and strategy not in registry.names:
        raise invalid(op, f"strategy must be one of {', '.join(registry.names)} or None, got {strategy!r}")


def plan_refs(plan, named_inputs, named_outputs) -> dict:
    """TensorRefs (name -> ref) for the present tensors, slots numbered inputs first
    then outputs; non-contiguous views get a Contiguous copy / a ViewCopy through
    ``plan`` (a :class:`~opsnn.common.contiguous.WorkspacePlan`). ``named_inputs``:
    (name, tensor or None) pairs; ``named_outputs``: ((name, CANN name), tensor or
    None) pairs."""
    refs = {}
    slot = 0
    for name, t in named_inputs:
        if t is not None:
            refs[name] = plan.input(t, slot)
            slot += 1
    for name, t in named_outputs:
        if t is not None:
            refs[name[0]] = plan.output(t, slot, name[1])
            slot += 1
    return refs


def row_norm_prepared(td, specs: list, plan, refs: dict, rows: int, d: int, eps: float, fused_body, stats_body,
                      apply_body) -> list:
    """The op's own kernels for its strategy, as ``PreparedKernel`` objects: ``fused``, one
    kernel (``fused_body(refs, rows, d, eps)``); ``multi_pass``, the statistics pass
    into ``td.workspace_bytes`` of workspace (``stats_body(refs, rows, d, chunk, eps,
    offset)``) then the apply pass (``apply_body(refs, rows, d, offset)``). ``specs``:
    the tile programs of ``norm.common.kernel.tile_programs``; ``plan``: the op's
    WorkspacePlan (the statistics' bytes are allocated in it)."""
    if td.strategy == "fused":
        return [PreparedKernel(specs[0], fused_body(refs, rows, d, eps))]
    off = plan.alloc(td.workspace_bytes)
    return [PreparedKernel(specs[0], stats_body(refs, rows, d, td.chunk_elems, eps, off)),
            PreparedKernel(specs[1], apply_body(refs, rows, d, off))]
