"""aclnnSoftmax entry points: phase-1 checks in ops-nn's order, then tiling and kernel.

CANN prototype (aclnn_softmax.h):
  aclnnSoftmaxGetWorkspaceSize(self, dim, out, workspaceSize, executor)
  aclnnSoftmax(workspace, workspaceSize, executor, stream)
dtypes: FLOAT, FLOAT16, BF16 (``out`` as ``self``); any rank (a 0-D tensor is one
row of length 1); ``dim`` in [-rank, rank), negative counts from the end.
The strategy (``tiling.py``) is recorded in ``executor.info["strategy"]`` and the
spec's ``args["strategy"]``; tiling key 0 one_pass, 1 multi_pass.
"""
from __future__ import annotations

import numpy as np

from ...base.checks import FLOAT_TYPES_BF16, check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from .infershape import infer_shape, normalize_dim
from .kernel import make_body, tile_program
from .tiling import softmax_tiling

OP = "aclnnSoftmax"


def _build(chip, self, dim, out):
    # 1. null pointers and types
    check_not_null(OP, self=self, dim=dim, out=out)
    check_tensor_type(OP, self=self, out=out)
    # 2. dtypes
    check_dtype(OP, "self", self, FLOAT_TYPES_BF16)
    check_dtype(OP, "out", out, (self.data_type,))
    # 3. shapes and attributes
    shape = tuple(self.view_shape)
    if isinstance(dim, bool) or not hasattr(dim, "__index__"):
        raise invalid(OP, f"dim must be an integer, got {dim!r}")
    axis = normalize_dim(dim, shape)
    if axis is None:
        rank = max(len(shape), 1)
        raise invalid(OP, f"dim {int(dim)} out of range [{-rank}, {rank}) for self shape {list(shape)}")
    (out_shape, _), = infer_shape(shape, self.data_type, axis)
    check_shape(OP, "out", out, out_shape)
    # 4. empty tensor: nothing to launch
    if self.numel == 0:
        return aclOpExecutor("Softmax", [], [self], [out], 0, info={"strategy": "empty"})
    # 5. tiling (host) -> tile program (kernel)
    d = shape[axis] if shape else 1
    rows = self.numel // d
    res = softmax_tiling(chip, rows, d, self.itemsize)
    td = res.data
    args = {"shapes": [list(shape)], "dtype": self.dtype_name, "dim": axis,
            "row_stride_elems": int(np.prod(shape[axis + 1:], dtype=np.int64)) if shape else 1}
    spec = tile_program(td, args, res.tiling_key)
    info = {"strategy": td.strategy, "row_elems": d}
    if td.strategy == "multi_pass":
        info.update(chunk_elems=td.chunk_elems, chunks_per_row=td.chunks_per_row)
    info["tiling"] = spec.args["tiling"]
    return aclOpExecutor("Softmax", [PreparedKernel(spec, make_body(self, out, axis))], [self], [out], 0, info=info,
                         tiling=res)


def aclnnSoftmaxGetWorkspaceSize(self, dim, out):  # noqa: N802
    """Phase 1 of out = softmax(self, dim). Parameters (CANN order): self
    (FLOAT/FLOAT16/BF16, ND), dim (int64 in [-rank, rank)), out (self's dtype and
    shape). Returns (workspace_size, executor, status): 161001 null self/out/dim;
    161002 not a tensor, dtype, dim out of range or out shape."""
    return prepare("Softmax", lambda chip: _build(chip, self, dim, out))


def aclnnSoftmax(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Softmax: bind addresses and enqueue the kernel phase 1 prepared."""
    return execute("Softmax", workspace, workspaceSize, executor, stream)
