"""aclnnBatchNorm entry points: phase-1 checks, then tiling and kernel(s).

CANN prototype (aclnn_batch_norm.h; hicann/ops-nn norm/batch_norm_v3/docs/aclnnBatchNorm.md):
  aclnnBatchNormGetWorkspaceSize(input, weight, bias, runningMean, runningVar, training, momentum, eps,
                                 output, saveMean, saveInvstd, workspaceSize, executor)
  aclnnBatchNorm(workspace, workspaceSize, executor, stream)

Per channel (dim 1):
  input/output: 2-D to 5-D ([N, C], [N, C, L], NCHW, NCDHW), FLOAT, FLOAT16 or BF16, same dtype
    and shape.
  weight, bias: [C] or None (then 1 and 0); any of FLOAT, FLOAT16, BF16 (fp32 params with fp16
    data is the usual mix).
  training=False (inference): runningMean, runningVar [C] required here (161001 if null);
    momentum unused; saveMean / saveInvstd may be None and are left untouched (PyTorch's
    eval-mode batch_norm returns empty save tensors too).
  training=True: batch statistics (kernel.py); saveMean and saveInvstd [C] are required (the
    ops-nn op_api returns 161001 when either is null in training); on Atlas A2/A3 (the chips
    npu-sim models) saveInvstd receives the biased batch variance, as the doc states.
    runningMean / runningVar are optional; when given they are updated in place with
    momentum (kernel.py: PyTorch's convention, unbiased variance). Two launches, as ops-nn's
    BNTrainingReduce + BNTrainingUpdate: statistics, then normalise; workspace = the partial
    sums of the reduce blocks.
  eps must be >= 0; momentum a number.
Check order: null (input, output; runningMean, runningVar at inference; saveMean, saveInvstd
in training: 161001), tensor types, dtypes, then shapes and eps (161002). Workspace: 0 at
inference.
"""
from __future__ import annotations

import numpy as np

from ...base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_rank, check_same_dtype, check_shape,
                            check_tensor_type, invalid)
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from .infershape import infer_shape
from .kernel import make_body, tile_program, training_reduce_body, training_tile_programs, training_update_body
from .tiling import batch_norm_tiling, batch_norm_training_tiling
from .tiling_data import PARAM_BYTES_PER_CHANNEL

OP = "aclnnBatchNorm"


def _build(chip, input, weight, bias, runningMean, runningVar, training, momentum, eps,  # noqa: A002,N803
           output, saveMean, saveInvstd):  # noqa: N803
    # 1. null pointers
    check_not_null(OP, input=input, output=output)
    if not training:
        check_not_null(OP, runningMean=runningMean, runningVar=runningVar)
    else:
        check_not_null(OP, saveMean=saveMean, saveInvstd=saveInvstd)
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
        for name, t in (("saveMean", saveMean), ("saveInvstd", saveInvstd)):
            check_dtype(OP, name, t, FLOAT_TYPES_BF16)
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
    if not 0 <= eps_f < float("inf"):
        raise invalid(OP, f"eps must be >= 0 and finite, got {eps!r}")
    if not isinstance(training, (bool, np.bool_)):
        raise invalid(OP, f"training must be a bool, got {training!r}")
    if training and not 0 <= float(momentum) <= 1:
        raise invalid(OP, f"momentum must be in [0, 1] in training, got {momentum!r}")

    if training:
        for name, t in (("saveMean", saveMean), ("saveInvstd", saveInvstd)):
            check_shape(OP, name, t, (c,))
        return _training_executor(chip, input, weight, bias, runningMean, runningVar, float(momentum), eps_f,
                                  output, saveMean, saveInvstd)
    # 5. tiling (host) -> tile program (kernel)
    td = batch_norm_tiling(chip, tuple(input.view_shape), input.itemsize).data
    spec = tile_program(td, {"shapes": [list(input.view_shape)], "dtype": input.dtype_name, "channels": c,
                             "eps": eps_f, "training": False,
                             "bytes": 2 * input.nbytes + PARAM_BYTES_PER_CHANNEL * c})
    inputs = [input] + list(params.values())
    body = make_body(input, weight, bias, runningMean, runningVar, output, eps_f)
    return aclOpExecutor("BatchNorm", [PreparedKernel(spec, body)], inputs, [output], 0,
                         info={"tiling": spec.args["tiling"], "tiling_key": spec.tiling_key})


def _training_executor(chip, x, weight, bias, rmean, rvar, momentum, eps, output, save_mean, save_var):
    """Tiling -> the two training kernels -> executor (checks done)."""
    tr = batch_norm_training_tiling(chip, tuple(x.view_shape), x.itemsize)
    td = tr.data
    c = x.view_shape[1]
    specs = training_tile_programs(td, {"shapes": [list(x.view_shape)], "dtype": x.dtype_name, "channels": c,
                                        "eps": eps, "momentum": momentum, "training": True,
                                        "bytes": 3 * x.nbytes + 2 * PARAM_BYTES_PER_CHANNEL * c})
    ins = [t for t in (x, weight, bias, rmean, rvar) if t is not None]
    outs = [t for t in (output, save_mean, save_var, rmean, rvar) if t is not None]
    kernels = [PreparedKernel(specs[0], training_reduce_body(x)),
               PreparedKernel(specs[1], training_update_body(x, weight, bias, rmean, rvar, output, save_mean,
                                                             save_var, eps, momentum))]
    return aclOpExecutor("BatchNorm", kernels, ins, outs, tr.workspace_bytes,
                         info={"tiling": specs[0].args["tiling"], "tiling_key": specs[0].tiling_key,
                               "strategy": tr.strategy})


def aclnnBatchNormGetWorkspaceSize(input, weight, bias, runningMean, runningVar, training, momentum,  # noqa: N802,A002
                                   eps, output, saveMean=None, saveInvstd=None):  # noqa: N803
    """Phase 1 of batch norm (see the module doc). Returns (workspace_size, executor,
    status): 161001 null input/output, null runningMean/runningVar at inference, null
    saveMean/saveInvstd in training; 161002 dtype, shape (a [C] tensor of another
    length, rank outside 2-5), eps < 0 or a non-number eps/momentum."""
    return prepare("BatchNorm", lambda chip: _build(chip, input, weight, bias, runningMean, runningVar, training,
                                                    momentum, eps, output, saveMean, saveInvstd))


def aclnnBatchNorm(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of BatchNorm: bind addresses and enqueue on ``stream``. Returns a status."""
    return execute("BatchNorm", workspace, workspaceSize, executor, stream)
