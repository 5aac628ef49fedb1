"""``l0op::TransData`` as other ops' phase 1 uses it (aclnnConvolution's executor:
TransData of the input to NC1HWC0 and of the weight to FRACTAL_Z before the Cube
kernel, and of the output back to NCHW after it), and the metadata of packed tensors.

A packed tensor keeps CANN's convention: its view shape is the logical NCHW (or
[Cout, Cin, kh, kw]) shape, its ``storage_format`` NC1HWC0 or FRACTAL_Z and its
``storage_shape`` the padded layout (``infershape.py``), stored row-major.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.dtypes import aclFormat
from ...base.executor import PreparedKernel
from ...base.tensor import aclTensor, contiguous_strides
from .infershape import NCHW_TO_FRACTAL_Z, fractal_z_shape, nc1hwc0_shape
from .kernel import tile_program, trans_data_body
from .tiling import trans_data_tiling

NC1HWC0 = aclFormat.ACL_FORMAT_NC1HWC0
FRACTAL_Z = aclFormat.ACL_FORMAT_FRACTAL_Z


def packed_meta(t: aclTensor, fmt: aclFormat, c0: int) -> aclTensor:
    """Metadata (address unset) of ``t``'s data laid out as ``fmt`` (NC1HWC0 or
    FRACTAL_Z) with ``c0`` channels per slice: view = t's logical shape."""
    shape = tuple(t.view_shape)
    packed = nc1hwc0_shape(shape, c0) if fmt == NC1HWC0 else fractal_z_shape(shape, c0)
    return aclTensor(shape, t.data_type, contiguous_strides(shape), 0, int(fmt), packed, 0)


def is_packed(t: aclTensor, fmt: aclFormat) -> bool:
    """True if ``t`` is stored as ``fmt`` (its storage_format says so)."""
    return t.storage_format == fmt


def prepare_trans_data(chip: ChipConfig, kind: str, logical_meta: aclTensor, src_ref, dst_ref, c0: int,
                       op: str = "") -> PreparedKernel:
    """Phase 1 of one ``l0op::TransData`` of ``kind`` for the tensor described by
    ``logical_meta`` (its view is the logical shape). ``src_ref`` / ``dst_ref``:
    TensorRefs (executor slot or workspace offset). ``op``: the calling aclnn op,
    recorded in the trace args. Needs a non-empty tensor."""
    res = trans_data_tiling(chip, kind, logical_meta.view_shape, logical_meta.itemsize, c0)
    args = {"op": op, "shapes": [list(logical_meta.view_shape)], "dtype": logical_meta.dtype_name,
            "weight": kind == NCHW_TO_FRACTAL_Z}
    spec = tile_program(res.data, args, res.tiling_key)
    return PreparedKernel(spec, trans_data_body(res.data, src_ref, dst_ref))
