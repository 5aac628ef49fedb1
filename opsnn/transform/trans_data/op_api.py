"""aclnnTransData: convert a tensor between NCHW/ND and the Cube's private formats
(NC1HWC0 activations, FRACTAL_Z convolution weights).

Not a public CANN aclnn API: CANN's TransData is an l0 op (``l0op::TransData``,
``aclnn_kernels/transdata.h`` in ops-nn) that aclnn operators call inside their
executors (aclnnConvolution converts its input, weight and output with it); the
public entry points over it are ``aclnnNpuFormatCast`` (torch_npu's
``npu_format_cast``) and, on 310P only, ``aclnnTransConvolutionWeight``. npu-sim
exposes it under the l0 op's name so graph mode (``frontend.passes.formats``) can
place TransData kernels in a model explicitly.

Prototype (npu-sim, CANN style):
  aclnnTransDataGetWorkspaceSize(src, dstFormat, groups, dst, workspaceSize, executor)
  aclnnTransData(workspace, workspaceSize, executor, stream)
Parameters:
  src: FLOAT16, BF16 or FLOAT. For dstFormat NC1HWC0 or FRACTAL_Z: a 4-D NCHW/ND
    tensor ([N, C, H, W], or the weight [Cout, Cin, kh, kw]). For dstFormat NCHW/ND: the
    packed 5-D tensor, either with storage_format NC1HWC0 (view = logical NCHW,
    storage [N, C1, H, W, C0]) or a plain ND tensor of shape [N, C1, H, W, C0].
  dstFormat: aclFormat: ACL_FORMAT_NC1HWC0 (3), ACL_FORMAT_FRACTAL_Z (4),
    ACL_FORMAT_NCHW (0) or ACL_FORMAT_ND (2).
  groups: 1 (grouped FRACTAL_Z is not modelled).
  dst: src's dtype. Packed: storage_format = dstFormat and the padded storage shape,
    or a plain ND tensor of the padded shape. NCHW: the logical [N, C, H, W].
C0: 32 B of channels (fp16/bf16 16, fp32 8; ``infershape.py``); C is zero-padded
up to a multiple of C0 (and Cout to 16 for FRACTAL_Z).
Status: 161001 null src/dst; 161002 bad dtype, format, groups, rank or shape. An empty
tensor prepares no kernel. Non-contiguous plain views go through Contiguous /
ViewCopy. Cost model: ``tiling.py``.
"""
from __future__ import annotations

from ...base.checks import FLOAT_TYPES_BF16, check_dtype, check_not_null, check_tensor_type, invalid
from ...base.dtypes import aclFormat
from ...base.executor import aclOpExecutor
from ...base.op import execute, prepare
from ...common.contiguous import TensorRef, WorkspacePlan
from .infershape import (NC1HWC0_TO_NCHW, NCHW_TO_FRACTAL_Z, NCHW_TO_NC1HWC0, c0_for_itemsize, fractal_z_shape,
                         nc1hwc0_shape)
from .l0_op import prepare_trans_data

OP = "aclnnTransData"
_PLAIN = (aclFormat.ACL_FORMAT_NCHW, aclFormat.ACL_FORMAT_ND)
_PACKED = (aclFormat.ACL_FORMAT_NC1HWC0, aclFormat.ACL_FORMAT_FRACTAL_Z)


def _check_packed(name: str, t, fmt, packed, other: str, logical) -> None:
    """161002 unless ``t`` holds the ``fmt`` layout ``packed``: storage_format ``fmt``
    with that storage shape, or a contiguous plain tensor of that shape."""
    if t.storage_format == fmt:
        ok = tuple(t.storage_shape) == tuple(packed)
    else:
        ok = t.storage_format in _PLAIN and tuple(t.view_shape) == tuple(packed) and t.is_contiguous
    if not ok:
        raise invalid(OP, f"{name} must hold the {fmt.name} layout {list(packed)} of {other} {list(logical)}, got "
                          f"{t.storage_format.name} view {list(t.view_shape)} storage {list(t.storage_shape)}")


def _build(chip, src, dstFormat, groups, dst):  # noqa: N803
    check_not_null(OP, src=src, dst=dst)
    check_tensor_type(OP, src=src, dst=dst)
    check_dtype(OP, "src", src, FLOAT_TYPES_BF16)
    check_dtype(OP, "dst", dst, (src.data_type,))
    try:
        fmt = aclFormat(int(dstFormat))
    except (TypeError, ValueError):
        raise invalid(OP, f"dstFormat {dstFormat!r} is not an aclFormat") from None
    if fmt not in _PLAIN + _PACKED:
        raise invalid(OP, f"dstFormat {fmt.name} is not supported; expected NC1HWC0, FRACTAL_Z, NCHW or ND")
    if isinstance(groups, bool) or not hasattr(groups, "__index__") or int(groups) != 1:
        raise invalid(OP, f"groups must be 1 (grouped FRACTAL_Z is not modelled), got {groups!r}")
    c0 = c0_for_itemsize(src.itemsize)
    plan = WorkspacePlan(chip, OP)
    if fmt in _PACKED:
        if src.storage_format not in _PLAIN or len(src.view_shape) != 4:
            raise invalid(OP, f"src must be a 4-D NCHW/ND tensor for dstFormat {fmt.name}, got "
                              f"{src.storage_format.name} {list(src.view_shape)}")
        kind = NCHW_TO_NC1HWC0 if fmt == aclFormat.ACL_FORMAT_NC1HWC0 else NCHW_TO_FRACTAL_Z
        logical = tuple(src.view_shape)
        packed = nc1hwc0_shape(logical, c0) if kind == NCHW_TO_NC1HWC0 else fractal_z_shape(logical, c0)
        _check_packed("dst", dst, fmt, packed, "src", logical)
        meta = src
        src_ref, dst_ref = plan.input(src, 0), TensorRef(dst, 1)
    else:
        if len(dst.view_shape) != 4:
            raise invalid(OP, f"dst must be 4-D NCHW for dstFormat {fmt.name}, got {list(dst.view_shape)}")
        kind, logical = NC1HWC0_TO_NCHW, tuple(dst.view_shape)
        packed = nc1hwc0_shape(logical, c0)
        _check_packed("src", src, aclFormat.ACL_FORMAT_NC1HWC0, packed, "dst", logical)
        meta = dst
        src_ref, dst_ref = TensorRef(src, 0), plan.output(dst, 1, "dst")
    if meta.numel == 0:
        return aclOpExecutor("TransData", [], [src], [dst], 0, info={"conversion": kind})
    main = prepare_trans_data(chip, kind, meta, src_ref, dst_ref, c0, OP)
    kernels = plan.kernels([main])
    return aclOpExecutor("TransData", kernels, [src], [dst], plan.size,
                         info={"conversion": kind, "c0": c0, "packed": list(packed),
                               "tiling": main.spec.args["tiling"]})


def aclnnTransDataGetWorkspaceSize(src, dstFormat, groups, dst):  # noqa: N802,N803
    """Phase 1 of TransData (module doc). Returns (workspace_size, executor, status):
    161001 for a null src/dst, 161002 for a bad dtype, format, groups or shape."""
    return prepare("TransData", lambda chip: _build(chip, src, dstFormat, groups, dst))


def aclnnTransData(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of TransData: enqueue on ``stream``. Returns a status."""
    return execute("TransData", workspace, workspaceSize, executor, stream)
