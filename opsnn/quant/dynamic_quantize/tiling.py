"""DynamicQuantizeLinear tiling: a min/max pass (x in, nothing out per element, 2 fp32
Vector passes per element: Min and Max [A]) and the quantize pass of
:func:`opsnn.quant.common.affine.affine_tiling` (x in, 1 B out). Pure; no device."""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ...base.vector_tiling import vector_tiling
from ..common.affine import affine_tiling
from .tiling_data import PARTIAL_BYTES, DynamicQuantizeTilingData, DynamicQuantizeTilingKey


def dynamic_quantize_tiling(chip: ChipConfig, numel: int, in_itemsize: int) -> TilingResult:
    """Both passes over ``numel`` elements of ``in_itemsize`` B; the workspace holds
    the min/max partials. Raises AclnnError(561002) if a unit does not fit in UB."""
    red = vector_tiling(chip, "DynamicQuantizeLinearMinMax", numel, in_itemsize, 0, tmp_bytes_per_unit=4)
    quant = affine_tiling(chip, "DynamicQuantizeLinear", numel, in_itemsize, 1, PARTIAL_BYTES * red.block_dim).data
    td = DynamicQuantizeTilingData(red, quant)
    return TilingResult("two_pass", int(DynamicQuantizeTilingKey.PER_TENSOR_UINT8), max(red.block_dim, quant.block_dim),
                        td.workspace_bytes, td, ("two_pass",))
