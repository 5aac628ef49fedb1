"""SwiGlu tiling: a pure function of (chip, x shape, dtype); no device.

The elementwise family's streaming tiling (:func:`opsnn.math.common.tiling.eltwise_tiling`)
with ``n`` = out's elements: each unit reads 2 input elements (MTE2 ``2 * itemsize``:
one from each half, the halves read as two strided runs per row), writes one (MTE3),
and runs :data:`.tiling_data.SWI_GLU_COST` passes (+ casts for 16-bit inputs, which
compute in float32).
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.dtypes import aclDataType as T
from ...base.tiling_base import TilingResult
from ...math.common.tiling import eltwise_tiling
from .infershape import infer_shape
from .tiling_data import SWI_GLU_COST


def swi_glu_tiling(chip: ChipConfig, x_shape, dtype, dim: int = -1) -> TilingResult:
    """Tile SwiGlu of ``x_shape`` (aclDataType ``dtype``) split along ``dim``. Returns a
    :class:`TilingResult` (key STREAM, workspace 0) whose ``data`` is an
    :class:`~opsnn.math.common.tiling_data.EltwiseTilingData`."""
    (out_shape, _), = infer_shape(x_shape, dtype, dim)
    n = 1
    for s in out_shape:
        n *= int(s)
    return eltwise_tiling(chip, "SwiGlu", [(tuple(x_shape), dtype)], [T.ACL_FLOAT], (out_shape, dtype), T.ACL_FLOAT,
                          SWI_GLU_COST, n=n)
