"""aclnnRmsNorm entry points: phase-1 checks in ops-nn's order, then tiling and kernels.

CANN prototype (aclnn_rms_norm.h):
  aclnnRmsNormGetWorkspaceSize(x, gamma, epsilon, yOut, rstdOut, workspaceSize, executor)
  aclnnRmsNorm(workspace, workspaceSize, executor, stream)

Parameters (CANN order):
  x: FLOAT, FLOAT16, BF16; ND; 1-8 dims. Non-contiguous views (any tensor) go through
    the shared Contiguous copy / ViewCopy, as in LayerNorm.
  gamma: shape equal to the trailing dims of x (its rank j picks the R axes,
    1 <= j <= rank(x)); dtype x's or FLOAT (assumption: the fp32-gamma mix that
    LayerNorm's weight allows).
  epsilon: a finite number >= 0 (double).
  yOut: x's dtype and shape.
  rstdOut: FLOAT (fp32 whatever x is, as the CANN doc says); shape [A1..Ai, 1..1]
    (j ones) or [A1..Ai]; required (161001 if null, following the doc's list of
    required outputs).
Status: 161001 null x/gamma/yOut/rstdOut; 161002 not a tensor, dtype, rank, shape or
epsilon invalid; 561002 a forced fused strategy that does not fit. An empty x prepares
an executor with no kernel. fp16/bf16 are computed in fp32 and rounded once.

Strategies (``tiling.py``; ``executor.info["strategy"]``, kernel args and tiling key,
as LayerNorm). Simulator extension: keyword-only ``strategy`` ("fused" /
"multi_pass") forces one.
"""
from __future__ import annotations

from ...base.checks import FLOAT_TYPES_BF16, check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.dtypes import aclDataType
from ...base.executor import aclOpExecutor
from ...base.op import execute, prepare
from ...common.contiguous import WorkspacePlan
from ..common.host import MAX_RANK, check_eps, check_strategy, plan_refs, row_norm_prepared
from .infershape import infer_shape
from .kernel import apply_body, fused_body, stats_body, tile_program
from .tiling import REGISTRY, rms_norm_tiling

OP = "aclnnRmsNorm"


def _build(chip, x, gamma, epsilon, yOut, rstdOut, strategy):  # noqa: N803
    # 1. null pointers and types
    check_not_null(OP, x=x, gamma=gamma, epsilon=epsilon, yOut=yOut, rstdOut=rstdOut)
    check_tensor_type(OP, x=x, gamma=gamma, yOut=yOut, rstdOut=rstdOut)
    # 2. dtypes
    check_dtype(OP, "x", x, FLOAT_TYPES_BF16)
    check_dtype(OP, "gamma", gamma, tuple(dict.fromkeys((x.data_type, aclDataType.ACL_FLOAT))))
    check_dtype(OP, "yOut", yOut, (x.data_type,))
    check_dtype(OP, "rstdOut", rstdOut, (aclDataType.ACL_FLOAT,))
    # 3. shapes and attributes
    shape = tuple(x.view_shape)
    if not 1 <= len(shape) <= MAX_RANK:
        raise invalid(OP, f"x must be 1-D to {MAX_RANK}-D, got shape {list(shape)}")
    gshape = tuple(gamma.view_shape)
    j = len(gshape)
    if not 1 <= j <= len(shape) or shape[-j:] != gshape:
        raise invalid(OP, f"gamma shape {list(gshape)} does not match the trailing dims of x shape {list(shape)}")
    (y_shape, _), (r_shape, _) = infer_shape(shape, x.data_type, gshape)
    check_shape(OP, "yOut", yOut, y_shape)
    if tuple(rstdOut.view_shape) != shape[:-j]:  # [A1..Ai] is accepted as well
        check_shape(OP, "rstdOut", rstdOut, r_shape)
    eps_f = check_eps(OP, "epsilon", epsilon)
    if eps_f < 0:
        raise invalid(OP, f"epsilon must be >= 0, got {epsilon!r}")
    check_strategy(OP, REGISTRY, strategy)
    # 4. empty tensor: nothing to launch
    if x.numel == 0:
        return aclOpExecutor("RmsNorm", [], [x, gamma], [yOut, rstdOut], 0, info={"strategy": "empty"})
    # 5. tiling (host) -> tile programs (kernel); contiguous copies and statistics share the workspace
    d = gamma.numel
    rows = x.numel // d
    res = rms_norm_tiling(chip, rows, d, x.itemsize, gamma.itemsize, strategy)
    td = res.data
    args = {"shapes": [list(shape), list(gshape)], "dtype": x.dtype_name, "epsilon": eps_f, "affine": "fused"}
    specs = tile_program(td, args)
    plan = WorkspacePlan(chip, OP)
    refs = plan_refs(plan, (("x", x), ("gamma", gamma)), ((("y", "yOut"), yOut), (("rstd", "rstdOut"), rstdOut)))
    main = row_norm_prepared(td, specs, plan, refs, rows, d, eps_f, fused_body, stats_body, apply_body)
    kernels = plan.kernels(main)
    info = dict(td.info(), tiling_key=specs[0].tiling_key, tiling=[s.args["tiling"] for s in specs],
                workspace_bytes=plan.size, copies=[k.spec.name for k in kernels if all(k is not m for m in main)])
    return aclOpExecutor("RmsNorm", kernels, [x, gamma], [yOut, rstdOut], plan.size, info=info,
                         tiling=res)


def aclnnRmsNormGetWorkspaceSize(x, gamma, epsilon, yOut, rstdOut, *, strategy=None):  # noqa: N802,N803
    """Phase 1 of RmsNorm (module doc: parameters, dtypes, errors). Returns
    ``(workspace_size, executor, status)``. ``strategy`` (keyword-only simulator
    extension): None, "fused" or "multi_pass"."""
    return prepare("RmsNorm", lambda chip: _build(chip, x, gamma, epsilon, yOut, rstdOut, strategy))


def aclnnRmsNorm(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of RmsNorm: bind addresses and enqueue the kernel(s) phase 1 chose."""
    return execute("RmsNorm", workspace, workspaceSize, executor, stream)
