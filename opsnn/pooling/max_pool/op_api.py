"""aclnnMaxPool2dWithIndices and aclnnMaxPool (ONNX-style): phase-1 checks in ops-nn's
order, then tiling and kernel; phase 2 runs the executor.

CANN prototypes (aclnn_max_pool2d_with_indices.h, aclnn_max_pool.h), ``workspaceSize,
executor`` returned instead of passed:
  aclnnMaxPool2dWithIndicesGetWorkspaceSize(self, kernelSize, stride, padding, dilation, ceilMode, out, indices)
  aclnnMaxPoolGetWorkspaceSize(self, kernelShape, strides, autoPad, pads, dilations, ceilMode, out)
dtypes: FLOAT, FLOAT16, BF16 (``out`` as ``self``; ``indices`` INT32 or INT64).
Formats: NCHW (4-D) or NCL/CHW (3-D); pooling runs over the last two axes.
Integer arrays are aclIntArray (any int sequence is accepted).

Padding conventions (all in input elements, never negative):
  * MaxPool2dWithIndices ``padding``: length 1 (p) or 2 ([pH, pW]), symmetric, as torch;
    each at most half the dilated kernel.
  * MaxPool ``pads`` (the ONNX-style op): length 0 (none), 1 (p everywhere), 2
    ([pH, pW], symmetric) or 4 = ONNX order ``[top, left, bottom, right]``
    (x1_begin, x2_begin, x1_end, x2_end); asymmetric allowed; each at most half the
    dilated kernel (CANN's constraint). ``autoPad`` must be 0 (NOTSET), as in CANN.
Padding contributes -inf to the max. The strategy (``tiling.py``) is recorded in
``executor.info["strategy"]`` and the spec's ``args["strategy"]``.
"""
from __future__ import annotations

from ...base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_rank, check_shape, check_tensor_type,
                            invalid)
from ...base.dtypes import aclDataType
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ..common.checks import check_pad_limit, checked_geom, int_array, trace_args
from ..common.kernel import executor_info, tile_program
from .infershape import onnx_attrs, out_shape, with_indices_attrs
from .kernel import max_pool_body
from .tiling import max_pool_tiling

INDEX_TYPES = (aclDataType.ACL_INT32, aclDataType.ACL_INT64)


def _build(chip, op: str, name: str, self, attrs, pads_name: str, ceil_mode, out, indices):
    k, s, d, p4 = attrs
    check_pad_limit(op, pads_name, p4, ((k[0] - 1) * d[0] + 1, (k[1] - 1) * d[1] + 1))
    g = checked_geom(op, self, k, s, d, p4, bool(ceil_mode))
    shape = out_shape(self.view_shape, g)
    check_shape(op, "out", out, shape)
    if indices is not None:
        check_shape(op, "indices", indices, shape)
    inputs, outputs = [self], [out] + ([indices] if indices is not None else [])
    if g.planes == 0:  # empty batch: nothing to launch
        return aclOpExecutor(name, [], inputs, outputs, 0, info={"strategy": "empty"})
    res = max_pool_tiling(chip, name, g, self.itemsize, indices.itemsize if indices is not None else 0)
    spec = tile_program(name, res.data, trace_args(self, g), res.tiling_key)
    return aclOpExecutor(name, [PreparedKernel(spec, max_pool_body(self, out, indices, g))], inputs, outputs, 0,
                         info=executor_info(spec, res.data), tiling=res)


def _check_tensors(op: str, self, out) -> None:
    check_dtype(op, "self", self, FLOAT_TYPES_BF16)
    check_dtype(op, "out", out, (self.data_type,))


def aclnnMaxPool2dWithIndicesGetWorkspaceSize(self, kernelSize, stride, padding, dilation,  # noqa: N802,N803
                                              ceilMode, out, indices):
    """Phase 1 of torch.nn.functional.max_pool2d(..., return_indices=True).

    Parameters (CANN order): self (FLOAT/FLOAT16/BF16, 3-D CHW or 4-D NCHW);
    kernelSize (1 or 2 ints > 0); stride (0, 1 or 2 ints > 0; empty = kernelSize);
    padding (1 or 2 ints >= 0, symmetric, each <= dilated kernel // 2); dilation
    (1 or 2 ints > 0); ceilMode (bool); out (self's dtype, [.., Ho, Wo]); indices
    (INT32/INT64, out's shape): flat ``h * W + w`` of the maximum within its plane.
    Returns (workspace_size, executor, status): 161001 null; 161002 type, dtype,
    rank, attribute or shape invalid; 561002 a unit does not fit UB.
    """
    def build(chip):
        op = "aclnnMaxPool2dWithIndices"
        check_not_null(op, self=self, kernelSize=kernelSize, stride=stride, padding=padding, dilation=dilation,
                       out=out, indices=indices)
        check_tensor_type(op, self=self, out=out, indices=indices)
        _check_tensors(op, self, out)
        check_dtype(op, "indices", indices, INDEX_TYPES)
        check_rank(op, "self", self, (3, 4))
        attrs = with_indices_attrs(int_array(op, "kernelSize", kernelSize, (1, 2), 1),
                                   int_array(op, "stride", stride, (0, 1, 2), 1),
                                   int_array(op, "padding", padding, (1, 2), 0),
                                   int_array(op, "dilation", dilation, (1, 2), 1))
        return _build(chip, op, "MaxPool2dWithIndices", self, attrs, "padding", ceilMode, out, indices)
    return prepare("MaxPool2dWithIndices", build)


def aclnnMaxPool2dWithIndices(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of MaxPool2dWithIndices: bind addresses and enqueue the kernel."""
    return execute("MaxPool2dWithIndices", workspace, workspaceSize, executor, stream)


def aclnnMaxPoolGetWorkspaceSize(self, kernelShape, strides, autoPad, pads, dilations, ceilMode,  # noqa: N802,N803
                                 out):
    """Phase 1 of ONNX MaxPool (values only).

    Parameters (CANN order): self (FLOAT/FLOAT16/BF16, 3-D or 4-D); kernelShape (1 or
    2 ints > 0); strides (0, 1 or 2 ints > 0; empty = kernelShape); autoPad (int,
    only 0 = NOTSET); pads (0, 1, 2 or 4 ints >= 0; 4 = [top, left, bottom, right]);
    dilations (0, 1 or 2 ints > 0); ceilMode (int, non-zero = ceil); out.
    Returns (workspace_size, executor, status): 161001 null; 161002 invalid; 561002.
    """
    def build(chip):
        op = "aclnnMaxPool"
        check_not_null(op, self=self, kernelShape=kernelShape, strides=strides, pads=pads, dilations=dilations,
                       out=out)
        check_tensor_type(op, self=self, out=out)
        _check_tensors(op, self, out)
        check_rank(op, "self", self, (3, 4))
        if isinstance(autoPad, bool) or not isinstance(autoPad, int) or autoPad != 0:
            raise invalid(op, f"autoPad must be 0 (NOTSET), got {autoPad!r}")
        attrs = onnx_attrs(int_array(op, "kernelShape", kernelShape, (1, 2), 1),
                           int_array(op, "strides", strides, (0, 1, 2), 1),
                           int_array(op, "pads", pads, (0, 1, 2, 4), 0),
                           int_array(op, "dilations", dilations, (0, 1, 2), 1))
        return _build(chip, op, "MaxPool", self, attrs, "pads", ceilMode, out, None)
    return prepare("MaxPool", build)


def aclnnMaxPool(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of MaxPool: bind addresses and enqueue the kernel."""
    return execute("MaxPool", workspace, workspaceSize, executor, stream)
