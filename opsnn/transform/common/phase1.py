"""Phase-1 helpers shared by the transform ops: integer attribute parsing with the
CANN status codes (161001 null, 161002 invalid), the out check, and the executor build
(Contiguous copies of non-contiguous inputs, the op's kernel, ViewCopy of
non-contiguous outputs; ``opsnn.common.contiguous``)."""
from __future__ import annotations

import numpy as np

from ...base.checks import check_dtype, invalid
from ...base.dtypes import aclDataType as T
from ...base.executor import PreparedKernel, aclOpExecutor
from ...common.contiguous import WorkspacePlan
from .move_kernel import array_body, move_spec

#: every dtype this simulator has (data movement does not look at values)
ALL_TYPES = (T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BF16, T.ACL_INT8, T.ACL_UINT8, T.ACL_INT16, T.ACL_INT32,
             T.ACL_INT64, T.ACL_DOUBLE, T.ACL_BOOL)


def int_arg(op: str, name: str, v) -> int:
    """``v`` as a Python int; 161002 for a bool, float or non-number."""
    if isinstance(v, (bool, np.bool_)) or not hasattr(v, "__index__"):
        raise invalid(op, f"{name} must be an integer, got {v!r}")
    return int(v)


def int_list(op: str, name: str, v) -> list[int]:
    """``v`` (aclIntArray or int sequence) as a list of ints; 161002 otherwise."""
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
        raise invalid(op, f"{name} must be an aclIntArray, got {type(v).__name__}")
    return [int_arg(op, f"{name} entry", x) for x in v]


def norm_dim(op: str, dim, rank: int, name: str = "dim") -> int:
    """``dim`` in [-rank, rank) (a 0-D tensor counts as rank 1) normalised; 161002 otherwise."""
    d = int_arg(op, name, dim)
    r = max(rank, 1)
    if not -r <= d < r:
        raise invalid(op, f"{name} {d} out of range [{-r}, {r})")
    return d % r


def check_out(op: str, name: str, out, shape, dtype) -> None:
    """161002 unless ``out`` has ``dtype`` and exactly ``shape``."""
    check_dtype(op, name, out, (dtype,))
    if tuple(out.view_shape) != tuple(shape):
        raise invalid(op, f"{name} shape {list(out.view_shape)} does not match expected {list(shape)}")


def nd_indices(op: str, shape, ishape, name: str = "indices") -> tuple[int, int]:
    """GatherNd / ScatterNd index tuples: ``(k, slice_elems)`` with k = ishape[-1] in
    [1, rank] (161002 otherwise) and slice_elems the elements of ``shape[k:]``."""
    if not ishape or not 1 <= ishape[-1] <= len(shape):
        raise invalid(op, f"{name} shape {list(ishape)}: the last axis must be in [1, {len(shape)}]")
    k = int(ishape[-1])
    n = 1
    for d in shape[k:]:
        n *= int(d)
    return k, n


def build_executor(chip, op: str, name: str, inputs: list, outputs: list, res, fn, args: dict,
                   info: dict | None = None) -> aclOpExecutor:
    """The executor of a transform op: ``res`` (a TilingResult of ``move_tiling``)
    gives the kernel, ``fn(*input arrays) -> output arrays`` its numpy body. Inputs
    (None entries allowed: optional, not read) take executor slots first, then
    outputs. An op whose outputs are all empty gets no kernel."""
    info = dict(info or {})
    ins = [t for t in inputs if t is not None]
    if all(o.numel == 0 for o in outputs):
        return aclOpExecutor(name, [], ins, outputs, 0, info=dict(info, strategy="empty"))
    spec = move_spec(res.data, args, res.tiling_key)
    plan = WorkspacePlan(chip, op)
    in_refs, slot = [], 0
    for t in inputs:
        if t is None:
            in_refs.append(None)
        else:
            in_refs.append(plan.input(t, slot))
            slot += 1
    out_refs = [plan.output(o, slot + j, f"out[{j}]" if len(outputs) > 1 else "out") for j, o in enumerate(outputs)]
    main = PreparedKernel(spec, array_body(in_refs, out_refs, fn))
    kernels = plan.kernels([main])
    return aclOpExecutor(name, kernels, ins, outputs, plan.size,
                         info=dict(info, strategy=res.strategy, tiling=spec.args["tiling"],
                                   copies=[k.spec.name for k in kernels if k is not main]))
