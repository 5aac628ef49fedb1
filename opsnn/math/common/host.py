"""Host half shared by the elementwise families: argument helpers and the one
phase-1 tail every elementwise entry point ends in.

Order (ops-nn): null checks, dtype checks and promotion, shapes (broadcast, at most
8 dims, ``out`` shape), empty early-out (an executor with no kernel and workspace 0),
``Contiguous`` for each non-contiguous input, the l0 kernel (family tiling ->
:func:`.kernel.tile_program`), ``ViewCopy`` into a non-contiguous ``out``
(:mod:`opsnn.common.contiguous`).
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

import numpy as np

from ...base.checks import invalid
from ...base.dtypes import aclDataType as T
from ...base.dtypes import to_numpy_dtype
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute
from ...base.promotion import ALL_TYPES
from ...base.tensor import aclScalar, aclTensor
from ...common.contiguous import WorkspacePlan
from .infershape import MAX_DIMS, broadcast_shape, scalar_dtype
from .kernel import make_body, tile_program

FLOAT16_32 = (T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BF16)
_PY = {T.ACL_BOOL: bool, T.ACL_INT64: int, T.ACL_FLOAT: float}


def scalar_of(op: str, name: str, v) -> tuple[float | int | bool, T]:
    """(python value, aclDataType) of an aclScalar or a plain Python number
    (bool -> BOOL, int -> INT64, float -> FLOAT). 161002 for anything else."""
    if isinstance(v, aclScalar):
        if v.data_type not in ALL_TYPES:
            raise invalid(op, f"{name} scalar dtype {v.data_type.name} not supported")
        return v.to_python(), v.data_type
    dt = scalar_dtype(v)
    if dt is None:
        raise invalid(op, f"{name} must be an aclScalar or a number, got {type(v).__name__}")
    return _PY[dt](v), dt


def as_compute(value, ct) -> np.generic:
    """A scalar attribute converted to the compute dtype ``ct`` (integers wrap, as a
    C cast of the aclScalar would)."""
    with np.errstate(all="ignore"):
        return np.asarray(value).astype(to_numpy_dtype(ct))[()]


def check_rank(op: str, name: str, t: aclTensor) -> None:
    """161002 if ``t`` has more than :data:`MAX_DIMS` dims."""
    if len(t.view_shape) > MAX_DIMS:
        raise invalid(op, f"{name} has {len(t.view_shape)} dims; at most {MAX_DIMS} are supported")


def broadcast_all(op: str, named: Sequence[tuple[str, aclTensor]]) -> tuple[int, ...]:
    """numpy broadcast of every operand's view shape. 161002 if an operand has more
    than :data:`MAX_DIMS` dims or the shapes do not broadcast."""
    for name, t in named:
        check_rank(op, name, t)
    shape = broadcast_shape(*(t.view_shape for _, t in named))
    if shape is None:
        shapes = ", ".join(f"{n} {list(t.view_shape)}" for n, t in named)
        raise invalid(op, f"shapes do not broadcast: {shapes}")
    return shape


def check_out_shape(op: str, name: str, out: aclTensor, shape: tuple[int, ...]) -> None:
    """161002 if ``out``'s view shape is not the broadcast shape ``shape``."""
    if tuple(out.view_shape) != tuple(shape):
        raise invalid(op, f"{name} shape {list(out.view_shape)} does not match the broadcast shape {list(shape)}")


def build_eltwise(chip, op_type: str, kernel: str, ins: Sequence[tuple[str, aclTensor]], in_cts: Sequence,
                  out: aclTensor, out_ct, *, tiling: Callable, computes: Mapping[str, Callable],
                  attrs: dict | None = None, extra_passes: int = 0, shape: tuple[int, ...] | None = None,
                  out_name: str = "out", label: str | None = None, info: dict | None = None) -> aclOpExecutor:
    """Phase-1 tail shared by every elementwise op (checks of dtypes/values done).

    ``ins``: (parameter name, tensor) in executor slot order; ``in_cts``: the dtype
    each input is computed in; ``out_ct``: the result's compute dtype; ``kernel``: the
    row of the family's tables (``tiling``: the family's pure tiling function,
    ``computes``: its numpy computes); ``attrs``: keyword attributes of the compute
    (scalars already in compute dtype). ``shape``: the result's element shape when it
    is not the broadcast of the inputs (``out`` is then not checked). Returns the
    executor (slots: inputs, then ``out``; workspace from the plan).
    """
    api = f"aclnn{op_type}"
    if shape is None:
        shape = broadcast_all(api, ins)
        check_rank(api, out_name, out)
        check_out_shape(api, out_name, out, shape)
    n = int(np.prod(shape, dtype=np.int64))
    tensors = [t for _, t in ins]
    name = label or op_type
    base_info = dict(info or {}, compute_dtype=T(out_ct).name)
    if n == 0:
        return aclOpExecutor(op_type, [], tensors, [out], 0, info=dict(base_info, strategy="empty"))
    plan = WorkspacePlan(chip, api)
    refs = [plan.input(t, i) for i, t in enumerate(tensors)]
    out_ref = plan.output(out, len(tensors), out_name)
    args = {"shapes": [list(t.view_shape) for t in tensors], "dtype": out.dtype_name,
            "compute_dtype": T(out_ct).name}
    args.update({k: (v.item() if isinstance(v, np.generic) else v) for k, v in (attrs or {}).items()
                 if v is None or isinstance(v, (int, float, bool, np.generic))})
    out_units = out.numel == n
    res = tiling(chip, kernel, [(tuple(r.meta.view_shape), r.meta.data_type) for r in refs], in_cts,
                 (tuple(out_ref.meta.view_shape), out_ref.meta.data_type), out_ct, name=name, n=n,
                 extra_passes=extra_passes, out_units=out_units)
    spec = tile_program(res.data, args, res.tiling_key)
    main = PreparedKernel(spec, make_body(computes[kernel], refs, in_cts, out_ref, attrs or {}))
    kernels = plan.kernels([main])
    base_info.update(tiling=spec.args["tiling"], copies=[k.spec.name for k in kernels if k is not main])
    return aclOpExecutor(op_type, kernels, tensors, [out], plan.size, info=base_info)


def phase2_entry(op_type: str):
    """The phase-2 entry point ``aclnn<op_type>(workspace, workspaceSize, executor, stream)``."""
    def run(workspace, workspaceSize, executor, stream):  # noqa: N803
        return execute(op_type, workspace, workspaceSize, executor, stream)
    run.__name__ = run.__qualname__ = f"aclnn{op_type}"
    run.__doc__ = (f"Phase 2 of aclnn{op_type}: run the executor from aclnn{op_type}GetWorkspaceSize on "
                   "``stream`` with ``workspace`` (device address, >= workspaceSize bytes). Status codes as "
                   ":func:`opsnn.base.op.execute`.")
    return run
