"""aclnnAdaptiveAvgPool2d: phase-1 checks in ops-nn's order, then tiling and kernel;
phase 2 runs the executor.

CANN prototype (aclnn_adaptive_avg_pool2d.h), ``workspaceSize, executor`` returned:
  aclnnAdaptiveAvgPool2dGetWorkspaceSize(self, outputSize, out)
  aclnnAdaptiveAvgPool2d(workspace, workspaceSize, executor, stream)
dtypes: FLOAT, FLOAT16, BF16 (``out`` as ``self``). Formats: NCHW (4-D) or NCL/CHW
(3-D); pooling runs over the last two axes. ``outputSize`` [1, 1] is a global
average pool.
"""
from __future__ import annotations

from ...base.checks import FLOAT_TYPES_BF16, check_dtype, check_not_null, check_rank, check_shape, check_tensor_type
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ..common.checks import check_spatial, int_array
from ..common.geometry import planes_of
from ..common.kernel import executor_info, tile_program
from .infershape import output_size
from .kernel import adaptive_avg_body
from .tiling import adaptive_avg_pool_tiling, adaptive_windows

OP = "aclnnAdaptiveAvgPool2d"


def _build(chip, self, outputSize, out):  # noqa: N803
    # 1. null pointers and types
    check_not_null(OP, self=self, outputSize=outputSize, out=out)
    check_tensor_type(OP, self=self, out=out)
    # 2. dtypes
    check_dtype(OP, "self", self, FLOAT_TYPES_BF16)
    check_dtype(OP, "out", out, (self.data_type,))
    # 3. shapes and attributes
    check_rank(OP, "self", self, (3, 4))
    ho, wo = output_size(int_array(OP, "outputSize", outputSize, (1, 2), 1))
    shape = self.view_shape
    check_spatial(OP, shape)
    check_shape(OP, "out", out, tuple(shape[:-2]) + (ho, wo))
    h, w = shape[-2], shape[-1]
    planes = planes_of(shape)
    # 4. empty batch: nothing to launch
    if planes == 0:
        return aclOpExecutor("AdaptiveAvgPool2d", [], [self], [out], 0, info={"strategy": "empty"})
    # 5. tiling (host) -> tile program (kernel)
    res = adaptive_avg_pool_tiling(chip, planes, h, w, ho, wo, self.itemsize)
    kh_max, kw_max, _ = adaptive_windows(h, w, ho, wo)
    args = {"shapes": [list(shape)], "dtype": self.dtype_name, "outputSize": [ho, wo], "kernel_max": [kh_max, kw_max]}
    spec = tile_program("AdaptiveAvgPool2d", res.data, args, res.tiling_key)
    body = adaptive_avg_body(self, out, planes, h, w, ho, wo)
    return aclOpExecutor("AdaptiveAvgPool2d", [PreparedKernel(spec, body)], [self], [out], 0,
                         info=executor_info(spec, res.data), tiling=res)


def aclnnAdaptiveAvgPool2dGetWorkspaceSize(self, outputSize, out):  # noqa: N802,N803
    """Phase 1 of torch.nn.functional.adaptive_avg_pool2d: output cell (i, j)
    averages input rows floor(i*H/Ho) .. ceil((i+1)*H/Ho)-1 and likewise columns.
    Parameters (CANN order): self (FLOAT/FLOAT16/BF16, 3-D or 4-D); outputSize (1 or
    2 ints > 0); out (self's dtype, [.., Ho, Wo]). Returns (workspace_size, executor,
    status): 161001 null; 161002 type, dtype, rank, attribute or shape; 561002."""
    return prepare("AdaptiveAvgPool2d", lambda chip: _build(chip, self, outputSize, out))


def aclnnAdaptiveAvgPool2d(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of AdaptiveAvgPool2d: bind addresses and enqueue the kernel."""
    return execute("AdaptiveAvgPool2d", workspace, workspaceSize, executor, stream)
