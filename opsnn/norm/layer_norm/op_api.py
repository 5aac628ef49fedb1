"""aclnnLayerNorm entry points: phase-1 checks in ops-nn's order, then tiling and kernels.

CANN prototype (aclnn_layer_norm.h; ops-nn docs/aclnnLayerNorm):
  aclnnLayerNormGetWorkspaceSize(input, normalizedShape, weightOptional, biasOptional, eps, out,
                                 meanOutOptional, rstdOutOptional, workspaceSize, executor)
  aclnnLayerNorm(workspace, workspaceSize, executor, stream)

Parameters (CANN order, doc behaviour):
  input: FLOAT, FLOAT16, BF16; ND; 1-8 dims. Non-contiguous views (any tensor here)
    go through the shared Contiguous copy first (a ViewCopy after, for outputs), as
    CANN's L0 does (``opsnn.common.contiguous``); the copies share the workspace.
  normalizedShape: aclIntArray (or int sequence) [R1..Rj], 1 <= j <= rank, equal to the
    trailing dims of ``input``.
  weightOptional / biasOptional: shape [R1..Rj]; dtype = input's or FLOAT; when both are
    given they share a dtype. None means 1 / 0.
  eps: a real number (double).
  out: input's dtype and shape.
  meanOutOptional / rstdOutOptional: input's dtype (the CANN doc; not fp32), shape
    [A1..Ai, 1..1] (j ones). None: not written.
Status: 161001 null input/normalizedShape/out (or a destroyed tensor); 161002 not a
tensor, dtype, rank, normalizedShape, shape or eps invalid; 561002 a forced strategy
that does not fit the chip. An empty ``input`` prepares an executor with no kernel
(strategy "empty"); meanOut/rstdOut are then left untouched.

The strategy (``tiling.py``) is chosen in phase 1 and recorded in
``executor.info["strategy"]``, in each kernel's ``args["strategy"]`` and its tiling
key, so traces show it; phase 2 only runs the kernels it finds. Multi-pass places the
per-row statistics in the workspace after any contiguous copies.

Simulator extension (not in CANN): ``aclnnLayerNormGetWorkspaceSize(..., strategy=...)``
forces "fused" or "multi_pass" (benchmarks and tests); None (default) lets phase 1 choose.
"""
from __future__ import annotations

import numpy as np

from ...base.checks import FLOAT_TYPES_BF16, check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.dtypes import aclDataType
from ...base.executor import aclOpExecutor
from ...base.op import execute, prepare
from ...common.contiguous import WorkspacePlan
from ..common.host import MAX_RANK, check_eps, check_strategy, int_list, plan_refs, row_norm_prepared
from .infershape import infer_shape, stats_shape
from .kernel import apply_body, fused_body, stats_body, tile_program
from .tiling import REGISTRY, layer_norm_tiling

OP = "aclnnLayerNorm"


def _build(chip, input, normalizedShape, weight, bias, eps, out, meanOut, rstdOut, strategy):  # noqa: A002,N803
    # 1. null pointers (required: input, normalizedShape, out); destroyed optional tensors
    check_not_null(OP, input=input, normalizedShape=normalizedShape, out=out)
    opt = {k: t for k, t in (("weightOptional", weight), ("biasOptional", bias), ("meanOutOptional", meanOut),
                             ("rstdOutOptional", rstdOut)) if t is not None}
    check_not_null(OP, **opt)
    check_tensor_type(OP, input=input, out=out, **opt)
    # 2. dtypes
    check_dtype(OP, "input", input, FLOAT_TYPES_BF16)
    check_dtype(OP, "out", out, (input.data_type,))
    for name in ("weightOptional", "biasOptional"):
        if name in opt:
            check_dtype(OP, name, opt[name], tuple(dict.fromkeys((input.data_type, aclDataType.ACL_FLOAT))))
    if weight is not None and bias is not None and weight.data_type != bias.data_type:
        raise invalid(OP, f"biasOptional dtype {bias.data_type.name} differs from weightOptional "
                          f"{weight.data_type.name}")
    for name in ("meanOutOptional", "rstdOutOptional"):
        if name in opt:
            check_dtype(OP, name, opt[name], (input.data_type,))
    # 3. shapes and attributes
    shape = tuple(input.view_shape)
    if not 1 <= len(shape) <= MAX_RANK:
        raise invalid(OP, f"input must be 1-D to {MAX_RANK}-D, got shape {list(shape)}")
    ns = int_list(OP, "normalizedShape", normalizedShape)
    if not ns:
        raise invalid(OP, "normalizedShape must not be empty")
    if len(ns) > len(shape):
        raise invalid(OP, f"normalizedShape {ns} has more dims than input shape {list(shape)}")
    if list(shape[-len(ns):]) != ns:
        raise invalid(OP, f"normalizedShape {ns} does not match the trailing dims of input shape {list(shape)}")
    for name in ("weightOptional", "biasOptional"):
        if name in opt:
            check_shape(OP, name, opt[name], tuple(ns))
    (out_shape, _), = infer_shape(shape, input.data_type, ns)
    check_shape(OP, "out", out, out_shape)
    for name in ("meanOutOptional", "rstdOutOptional"):
        if name in opt:
            check_shape(OP, name, opt[name], stats_shape(shape, ns))
    eps_f = check_eps(OP, "eps", eps)
    check_strategy(OP, REGISTRY, strategy)
    # 4. empty tensor: nothing to launch
    inputs = [input] + [t for t in (weight, bias) if t is not None]
    outputs = [out] + [t for t in (meanOut, rstdOut) if t is not None]
    if input.numel == 0:
        return aclOpExecutor("LayerNorm", [], inputs, outputs, 0, info={"strategy": "empty"})
    # 5. tiling (host) -> tile programs (kernel); contiguous copies and statistics share the workspace
    d = int(np.prod(ns, dtype=np.int64))
    rows = input.numel // d
    n_affine = (weight is not None) + (bias is not None)
    witem = (weight if weight is not None else bias).itemsize if n_affine else 0
    n_stats = (meanOut is not None) + (rstdOut is not None)
    res = layer_norm_tiling(chip, rows, d, input.itemsize, witem, n_affine, n_stats, strategy)
    td = res.data
    args = {"shapes": [list(shape)], "dtype": input.dtype_name, "normalizedShape": ns, "eps": eps_f,
            "affine": "fused" if n_affine else "none"}
    specs = tile_program(td, args)
    plan = WorkspacePlan(chip, OP)
    refs = plan_refs(plan, (("input", input), ("weight", weight), ("bias", bias)),
                     ((("out", "out"), out), (("mean", "meanOutOptional"), meanOut),
                      (("rstd", "rstdOutOptional"), rstdOut)))
    main = row_norm_prepared(td, specs, plan, refs, rows, d, eps_f, fused_body, stats_body, apply_body)
    kernels = plan.kernels(main)
    info = dict(td.info(), affine=args["affine"], tiling_key=specs[0].tiling_key,
                tiling=[s.args["tiling"] for s in specs], workspace_bytes=plan.size,
                copies=[k.spec.name for k in kernels if all(k is not m for m in main)])
    return aclOpExecutor("LayerNorm", kernels, inputs, outputs, plan.size, info=info, tiling=res)


def aclnnLayerNormGetWorkspaceSize(input, normalizedShape, weightOptional, biasOptional, eps, out,  # noqa: N802,A002
                                   meanOutOptional=None, rstdOutOptional=None, *, strategy=None):  # noqa: N803
    """Phase 1 of LayerNorm (see the module doc for parameters, dtypes and errors).

    Returns ``(workspace_size, executor, status)``; the workspace is 0 for the fused
    strategy and ``rows * 8`` B (rounded to 32 B) for the multi-pass one, plus any
    contiguous copies. ``strategy`` (keyword-only, a simulator extension): None,
    "fused" or "multi_pass".
    """
    return prepare("LayerNorm", lambda chip: _build(chip, input, normalizedShape, weightOptional, biasOptional, eps,
                                                    out, meanOutOptional, rstdOutOptional, strategy))


def aclnnLayerNorm(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of LayerNorm: bind addresses and enqueue the kernel(s) phase 1 chose."""
    return execute("LayerNorm", workspace, workspaceSize, executor, stream)
