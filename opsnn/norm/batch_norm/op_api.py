"""aclnnBatchNorm entry points (inference): phase-1 checks, then tiling and kernel.

CANN prototype (aclnn_batch_norm.h):
  aclnnBatchNormGetWorkspaceSize(input, weight, bias, runningMean, runningVar, training, momentum, eps,
                                 output, saveMean, saveInvstd, workspaceSize, executor)
  aclnnBatchNorm(workspace, workspaceSize, executor, stream)

This slice implements inference (training=False), per channel (dim 1):
  input/output: 2-D to 5-D ([N, C], [N, C, L], NCHW, NCDHW), FLOAT, FLOAT16 or BF16, same dtype
    and shape.
  weight, bias: [C] or None (then 1 and 0); runningMean, runningVar: [C], required
    (161001 if null); any of FLOAT, FLOAT16, BF16 (fp32 params with fp16 data is the usual mix).
  momentum is unused in inference; eps must be >= 0.
  saveMean / saveInvstd may be None; if given they are left untouched (PyTorch's eval-mode
    batch_norm returns empty save tensors too).
  training=True returns 161002 (not supported in this slice).
Check order: null (input, output, runningMean, runningVar: 161001), tensor types, dtypes,
training, then shapes and eps (161002). Workspace: 0.
"""
from __future__ import annotations

from ...base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_rank, check_same_dtype, check_shape,
                            check_tensor_type, invalid)
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from .infershape import infer_shape
from .kernel import make_body, tile_program
from .tiling import batch_norm_tiling
from .tiling_data import PARAM_BYTES_PER_CHANNEL

OP = "aclnnBatchNorm"


def _build(chip, input, weight, bias, runningMean, runningVar, training, momentum, eps,  # noqa: A002,N803
           output, saveMean, saveInvstd):  # noqa: N803
    # 1. null pointers
    check_not_null(OP, input=input, output=output)
    if not training:
        check_not_null(OP, runningMean=runningMean, runningVar=runningVar)
    opt = {k: t for k, t in (("weight", weight), ("bias", bias), ("saveMean", saveMean),
                             ("saveInvstd", saveInvstd)) if t is not None}
    check_not_null(OP, **opt)  # destroyed optional tensors
    # 2. tensor types
    check_tensor_type(OP, input=input, output=output, **opt)
    if runningMean is not None:
        check_tensor_type(OP, runningMean=runningMean)
    if runningVar is not None:
        check_tensor_type(OP, runningVar=runningVar)
    # 3. dtypes
    check_dtype(OP, "input", input, FLOAT_TYPES_BF16)
    check_dtype(OP, "output", output, FLOAT_TYPES_BF16)
    check_same_dtype(OP, input=input, output=output)
    params = {k: t for k, t in (("weight", weight), ("bias", bias), ("runningMean", runningMean),
                                ("runningVar", runningVar)) if t is not None}
    for name, t in params.items():
        check_dtype(OP, name, t, FLOAT_TYPES_BF16)
    if training:
        raise invalid(OP, "training=true is not supported in this slice (inference only)")
    # 4. shapes and attributes
    check_rank(OP, "input", input, (2, 3, 4, 5))
    (out_shape, _), = infer_shape(input.view_shape, input.data_type)
    check_shape(OP, "output", output, out_shape)
    c = input.view_shape[1]
    for name, t in params.items():
        check_shape(OP, name, t, (c,))
    try:
        eps_f = float(eps)
        float(momentum)
    except (TypeError, ValueError):
        raise invalid(OP, f"eps and momentum must be numbers, got eps={eps!r}, momentum={momentum!r}") from None
    if not eps_f >= 0:
        raise invalid(OP, f"eps must be >= 0, got {eps!r}")
    # 5. tiling (host) -> tile program (kernel)
    td = batch_norm_tiling(chip, tuple(input.view_shape), input.itemsize).data
    spec = tile_program(td, {"shapes": [list(input.view_shape)], "dtype": input.dtype_name, "channels": c,
                             "eps": eps_f, "training": False,
                             "bytes": 2 * input.nbytes + PARAM_BYTES_PER_CHANNEL * c})
    inputs = [input] + list(params.values())
    body = make_body(input, weight, bias, runningMean, runningVar, output, eps_f)
    return aclOpExecutor("BatchNorm", [PreparedKernel(spec, body)], inputs, [output], 0,
                         info={"tiling": spec.args["tiling"], "tiling_key": spec.tiling_key})


def aclnnBatchNormGetWorkspaceSize(input, weight, bias, runningMean, runningVar, training, momentum,  # noqa: N802,A002
                                   eps, output, saveMean=None, saveInvstd=None):  # noqa: N803
    """Phase 1 of inference batch norm (see the module doc). Returns (workspace_size,
    executor, status): 161001 null input/output/runningMean/runningVar; 161002 dtype,
    shape, eps, or training=True (not supported)."""
    return prepare("BatchNorm", lambda chip: _build(chip, input, weight, bias, runningMean, runningVar, training,
                                                    momentum, eps, output, saveMean, saveInvstd))


def aclnnBatchNorm(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of BatchNorm: bind addresses and enqueue on ``stream``. Returns a status."""
    return execute("BatchNorm", workspace, workspaceSize, executor, stream)
