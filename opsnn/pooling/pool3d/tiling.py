"""3-D pooling tiling: a pure function of (chip, geometry, dtypes); no device.

Strategy ``separable``: a 3-D window (kd x kh x kw) is a (kh x kw) window over each
depth slice followed by a (kd x 1) window over depth, because both the max and the
sum of a box split over its axes, and torch's / ONNX's average divisor is the product
of per-axis window lengths (clipped per axis to the padded extent or to the input).
Each pass is tiled with the family's 2-D strategies (``row``, ``row_chunk``,
``kernel_row_chunk``; :mod:`opsnn.pooling.common.tiling`); the intermediate
[planes*D, Ho, Wo] goes through the workspace. [assumption: ops-nn's own 3-D kernels
tile the D axis inside one kernel; two launches cost one extra GM round trip of the
intermediate, which this models.] Key: pass_hw's key * 3 + pass_d's key.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ..common.geometry import Pool2dGeom
from ..common.separable import pass_tiling
from ..common.tiling import pool_registry
from .tiling_data import Pool3dTilingData

REGISTRIES = {name: pool_registry(name) for name in ("MaxPool3dWithArgmax", "AvgPool3d")}


def _pass(chip, name: str, g: Pool2dGeom, in_item: int, out_item: int, avg: bool, with_idx: bool):
    taps = g.planes * g.ho * g.wo * g.kh * g.kw
    if avg:   # fp32 add per tap, a divide per output
        vec, tmp = taps * 4 + g.planes * g.ho * g.wo * 4, 4
    else:     # compare + select per tap (+ select of the int32 running index)
        vec, tmp = (taps * (2 * in_item + 4), 4) if with_idx else (taps * in_item, 0)
    return pass_tiling(chip, REGISTRIES[name], name, g, in_item, out_item, tmp, vec)


def pool3d_tiling(chip: ChipConfig, name: str, g_hw: Pool2dGeom, g_d: Pool2dGeom, itemsize: int,
                  index_itemsize: int = 0) -> TilingResult:
    """Tile ``name`` ("MaxPool3dWithArgmax" or "AvgPool3d") as its two passes (module
    doc). ``itemsize``: bytes per input/output value; ``index_itemsize``: 0 or the
    indices' bytes (argmax). Returns a :class:`TilingResult` (strategy "separable",
    workspace = the intermediate) whose ``data`` is a :class:`Pool3dTilingData`.
    Raises AclnnError(561002) if one kernel row of a pass does not fit UB."""
    avg = name == "AvgPool3d"
    with_idx = index_itemsize > 0
    ws_item = 4 if avg else itemsize + (4 if with_idx else 0)
    r1 = _pass(chip, name, g_hw, itemsize, ws_item, avg, with_idx)
    r2 = _pass(chip, name, g_d, ws_item, itemsize + index_itemsize, avg, with_idx)
    ws = g_hw.planes * g_hw.ho * g_hw.wo * ws_item
    td = Pool3dTilingData(r1.data, r2.data, ws_item, ws)
    return TilingResult("separable", r1.tiling_key * 3 + r2.tiling_key, max(r1.block_dim, r2.block_dim), ws, td,
                        ("separable",))
