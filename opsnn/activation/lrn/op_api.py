"""aclnnLrn entry points: local response normalisation across channels (ONNX LRN).

No public CANN aclnn entry point for LRN was found (CANN has an LRN graph op, but no
``aclnnLrn`` in the aclnn API references); this name and signature are ours,
shaped like the other aclnn ops:
  aclnnLrnGetWorkspaceSize(self, size, alpha, beta, bias, out)
  aclnnLrn(workspace, workspaceSize, executor, stream)
dtypes: FLOAT, FLOAT16, BF16 (``out`` as ``self``); ``self`` is N x C x D1 x ... x Dk
(rank 2 to 8; NCHW for images), normalised across dim 1. ``size`` is an int >= 1;
``alpha``, ``beta``, ``bias`` are finite numbers (or aclScalar); ONNX defaults are
alpha=1e-4, beta=0.75, bias=1.0. Workspace: 0. The strategy (``tiling.py``) is in
``executor.info["strategy"]`` and the spec's ``args["strategy"]``.
"""
from __future__ import annotations

import math

import numpy as np

from ...base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_rank, check_shape, check_tensor_type,
                            invalid)
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ...base.tensor import aclScalar
from .infershape import infer_shape
from .kernel import make_body, tile_program
from .tiling import lrn_tiling

OP = "aclnnLrn"


def _number(op: str, name: str, v) -> float:
    if isinstance(v, aclScalar):
        v = v.to_python()
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise invalid(op, f"{name} must be a number, got {v!r}")
    if not math.isfinite(float(v)):
        raise invalid(op, f"{name} must be finite, got {v!r}")
    return float(v)


def _build(chip, self, size, alpha, beta, bias, out):
    # 1. null pointers and types
    check_not_null(OP, self=self, size=size, alpha=alpha, beta=beta, bias=bias, out=out)
    check_tensor_type(OP, self=self, out=out)
    # 2. dtypes
    check_dtype(OP, "self", self, FLOAT_TYPES_BF16)
    check_dtype(OP, "out", out, (self.data_type,))
    # 3. shapes and attributes
    check_rank(OP, "self", self, range(2, 9))
    if isinstance(size, bool) or not hasattr(size, "__index__") or int(size) < 1:
        raise invalid(OP, f"size must be an integer >= 1, got {size!r}")
    sz = int(size)
    a, b, k = _number(OP, "alpha", alpha), _number(OP, "beta", beta), _number(OP, "bias", bias)
    (out_shape, _), = infer_shape(self.view_shape, self.data_type)
    check_shape(OP, "out", out, out_shape)
    # 4. empty tensor: nothing to launch
    if self.numel == 0:
        return aclOpExecutor("Lrn", [], [self], [out], 0, info={"strategy": "empty"})
    # 5. tiling (host) -> tile program (kernel)
    shape = self.view_shape
    n, c = shape[0], shape[1]
    res = lrn_tiling(chip, n, c, self.numel // (n * c), sz, self.itemsize)
    td = res.data
    args = {"shapes": [list(shape)], "dtype": self.dtype_name, "size": sz, "alpha": a, "beta": b, "bias": k}
    spec = tile_program(td, args, res.tiling_key)
    info = {"strategy": td.strategy, "unit_channels": td.unit_channels, "tiling": spec.args["tiling"]}
    return aclOpExecutor("Lrn", [PreparedKernel(spec, make_body(self, out, sz, a, b, k))], [self], [out], 0,
                         info=info, tiling=res)


def aclnnLrnGetWorkspaceSize(self, size, alpha, beta, bias, out):  # noqa: N802
    """Phase 1 of ONNX LRN (see the module docstring; the name is this simulator's,
    no public CANN aclnnLrn exists). Parameters: self (FLOAT/FLOAT16/BF16, rank
    2..8, channels on dim 1), size (int >= 1), alpha, beta, bias (finite numbers),
    out (self's dtype and shape). Returns (workspace_size, executor, status):
    161001 null; 161002 not a tensor, dtype, rank, attribute or out shape."""
    return prepare("Lrn", lambda chip: _build(chip, self, size, alpha, beta, bias, out))


def aclnnLrn(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of LRN: bind addresses and enqueue the kernel phase 1 prepared."""
    return execute("Lrn", workspace, workspaceSize, executor, stream)
