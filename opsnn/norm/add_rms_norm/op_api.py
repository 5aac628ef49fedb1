"""aclnnAddRmsNorm entry points: phase-1 checks in ops-nn's order, then tiling and kernels.

CANN prototype (aclnn_add_rms_norm.h; ops-nn ``norm/add_rms_norm``, CANN 8.0 aolapi
reference "aclnnAddRmsNorm"):
  aclnnAddRmsNormGetWorkspaceSize(x1, x2, gamma, epsilon, yOut, rstdOut, xOut, workspaceSize, executor)
  aclnnAddRmsNorm(workspace, workspaceSize, executor, stream)

x = x1 + x2 (xOut); yOut = RmsNorm(x) * gamma; rstdOut = 1 / sqrt(mean(x^2) + epsilon).

Parameters (CANN order):
  x1: FLOAT, FLOAT16, BF16; ND; 1-8 dims; not empty (the doc: "不支持空Tensor").
    Non-contiguous views (any tensor) go through the shared Contiguous copy / ViewCopy.
  x2: x1's dtype and shape.
  gamma: the trailing dims of x1 (its rank picks the normalised axes); x1's dtype or
    FLOAT (assumption: as aclnnRmsNorm here).
  epsilon: double, finite, >= 0 (default 1e-6 assumed, op_def).
  yOut, xOut: x1's dtype and shape. rstdOut: FLOAT, [A1..Ai, 1..1] or [A1..Ai].
Status: 161001 null x1/x2/gamma/yOut/rstdOut/xOut; 161002 not a tensor, dtype, rank,
shape, epsilon, empty x1; 561002 a forced fused strategy that does not fit.
Simulator extensions: ``originalOpNames`` (after CANN's parameters): the graph ops a
graph-mode fusion replaced, recorded as trace ``args["fused"]`` (default: Add, RmsNorm);
keyword-only ``strategy`` ("fused" / "multi_pass") forces a strategy.
"""
from __future__ import annotations

from ...base.checks import FLOAT_TYPES_BF16, check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.dtypes import aclDataType
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ...common.contiguous import WorkspacePlan
from ..common.host import MAX_RANK, check_eps, check_strategy, plan_refs
from .infershape import infer_shape
from .kernel import apply_body, fused_body, stats_body, tile_program
from .tiling import REGISTRY, add_rms_norm_tiling

OP = "aclnnAddRmsNorm"


def _build(chip, x1, x2, gamma, epsilon, yOut, rstdOut, xOut, names, strategy):  # noqa: N803
    # 1. null pointers and types
    check_not_null(OP, x1=x1, x2=x2, gamma=gamma, epsilon=epsilon, yOut=yOut, rstdOut=rstdOut, xOut=xOut)
    check_tensor_type(OP, x1=x1, x2=x2, gamma=gamma, yOut=yOut, rstdOut=rstdOut, xOut=xOut)
    # 2. dtypes
    check_dtype(OP, "x1", x1, FLOAT_TYPES_BF16)
    check_dtype(OP, "x2", x2, (x1.data_type,))
    check_dtype(OP, "gamma", gamma, tuple(dict.fromkeys((x1.data_type, aclDataType.ACL_FLOAT))))
    check_dtype(OP, "yOut", yOut, (x1.data_type,))
    check_dtype(OP, "rstdOut", rstdOut, (aclDataType.ACL_FLOAT,))
    check_dtype(OP, "xOut", xOut, (x1.data_type,))
    # 3. shapes and attributes
    shape = tuple(x1.view_shape)
    if not 1 <= len(shape) <= MAX_RANK:
        raise invalid(OP, f"x1 must be 1-D to {MAX_RANK}-D, got shape {list(shape)}")
    check_shape(OP, "x2", x2, shape)
    gshape = tuple(gamma.view_shape)
    j = len(gshape)
    if not 1 <= j <= len(shape) or shape[-j:] != gshape:
        raise invalid(OP, f"gamma shape {list(gshape)} does not match the trailing dims of x1 shape {list(shape)}")
    (y_shape, _), (r_shape, _), _ = infer_shape(shape, x1.data_type, gshape)
    check_shape(OP, "yOut", yOut, y_shape)
    if tuple(rstdOut.view_shape) != shape[:-j]:  # [A1..Ai] is accepted as well
        check_shape(OP, "rstdOut", rstdOut, r_shape)
    check_shape(OP, "xOut", xOut, y_shape)
    eps_f = check_eps(OP, "epsilon", epsilon)
    if eps_f < 0:
        raise invalid(OP, f"epsilon must be >= 0, got {epsilon!r}")
    check_strategy(OP, REGISTRY, strategy)
    if x1.numel == 0:
        raise invalid(OP, "x1 must not be empty")
    # 4. tiling (host) -> tile programs (kernel); contiguous copies and rstd share the workspace
    d = gamma.numel
    rows = x1.numel // d
    res = add_rms_norm_tiling(chip, rows, d, x1.itemsize, gamma.itemsize, strategy)
    td = res.data
    args = {"shapes": [list(shape), list(shape), list(gshape)], "dtype": x1.dtype_name, "epsilon": eps_f,
            "fused": list(names or ("Add", "RmsNorm"))}
    specs = tile_program(td, args)
    plan = WorkspacePlan(chip, OP)
    refs = plan_refs(plan, (("x1", x1), ("x2", x2), ("gamma", gamma)),
                     ((("y", "yOut"), yOut), (("rstd", "rstdOut"), rstdOut), (("x", "xOut"), xOut)))
    if td.strategy == "fused":
        main = [PreparedKernel(specs[0], fused_body(refs, rows, d, eps_f))]
    else:
        off = plan.alloc(td.workspace_bytes)
        main = [PreparedKernel(specs[0], stats_body(refs, rows, d, eps_f, off)),
                PreparedKernel(specs[1], apply_body(refs, rows, d, off))]
    kernels = plan.kernels(main)
    info = dict(td.info(), tiling_key=specs[0].tiling_key, tiling=[s.args["tiling"] for s in specs],
                workspace_bytes=plan.size, copies=[k.spec.name for k in kernels if all(k is not m for m in main)])
    return aclOpExecutor("AddRmsNorm", kernels, [x1, x2, gamma], [yOut, rstdOut, xOut], plan.size, info=info,
                         tiling=res)


def aclnnAddRmsNormGetWorkspaceSize(x1, x2, gamma, epsilon, yOut, rstdOut, xOut,  # noqa: N802,N803
                                    originalOpNames=None, *, strategy=None):
    """Phase 1 of AddRmsNorm (module doc: parameters, dtypes, errors). Returns
    ``(workspace_size, executor, status)``."""
    return prepare("AddRmsNorm", lambda chip: _build(chip, x1, x2, gamma, epsilon, yOut, rstdOut, xOut,
                                                     originalOpNames, strategy))


def aclnnAddRmsNorm(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of AddRmsNorm: bind addresses and enqueue the kernel(s) phase 1 chose."""
    return execute("AddRmsNorm", workspace, workspaceSize, executor, stream)
