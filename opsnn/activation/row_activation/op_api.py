"""LogSoftmax and Hardmax: row activations along one dim on the AIV.

CANN prototype (aclnn_logsoftmax.h): aclnnLogSoftmaxGetWorkspaceSize(self, dim, out,
workspaceSize, executor). ``aclnnHardmax(self, dim, out)`` is this simulator's name
(CANN has no aclnn Hardmax; ONNX Hardmax). dtypes: FLOAT, FLOAT16, BF16, DOUBLE;
``out`` as ``self`` (dtype and shape); ``dim`` an integer in [-rank, rank).
Errors: 161001 null self/out; 161002 not a tensor, dtype, out dtype or shape, dim.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import prepare
from ...base.promotion import FLOATS
from ...common.contiguous import WorkspacePlan
from ...math.common.host import check_rank, phase2_entry
from .infershape import normalize_dim
from .kernel import make_body, tile_program
from .tiling import row_tiling


def _build(chip, op_type: str, self, dim, out):
    api = f"aclnn{op_type}"
    check_not_null(api, self=self, out=out)
    check_tensor_type(api, self=self, out=out)
    check_dtype(api, "self", self, FLOATS)
    check_dtype(api, "out", out, (self.data_type,))
    check_rank(api, "self", self)
    check_shape(api, "out", out, self.view_shape)
    shape = tuple(self.view_shape)
    if isinstance(dim, bool) or not hasattr(dim, "__index__"):
        raise invalid(api, f"dim must be an integer, got {dim!r}")
    axis = normalize_dim(dim, shape)
    if axis is None:
        rank = max(len(shape), 1)
        raise invalid(api, f"dim {int(dim)} out of range [{-rank}, {rank}) for self shape {list(shape)}")
    if self.numel == 0:
        return aclOpExecutor(op_type, [], [self], [out], 0, info={"strategy": "empty"})
    d = shape[axis] if shape else 1
    res = row_tiling(chip, op_type, self.numel // d, d, self.itemsize)
    plan = WorkspacePlan(chip, api)
    body = make_body(op_type, plan.input(self, 0), plan.output(out, 1), axis)
    spec = tile_program(op_type, res.data, {"shapes": [list(shape)], "dtype": self.dtype_name, "dim": axis},
                        res.tiling_key)
    main = PreparedKernel(spec, body)
    kernels = plan.kernels([main])
    return aclOpExecutor(op_type, kernels, [self], [out], plan.size,
                         info={"strategy": res.strategy, "row_elems": d, "tiling": spec.args["tiling"],
                               "copies": [k.spec.name for k in kernels if k is not main]})


def aclnnLogSoftmaxGetWorkspaceSize(self, dim, out):  # noqa: N802
    """Phase 1 of out = log(softmax(self, dim)) (module docstring)."""
    return prepare("LogSoftmax", lambda chip: _build(chip, "LogSoftmax", self, dim, out))


def aclnnHardmaxGetWorkspaceSize(self, dim, out):  # noqa: N802
    """Phase 1 of out = one-hot of the first max of self along dim (not a CANN op)."""
    return prepare("Hardmax", lambda chip: _build(chip, "Hardmax", self, dim, out))


aclnnLogSoftmax = phase2_entry("LogSoftmax")
aclnnHardmax = phase2_entry("Hardmax")
