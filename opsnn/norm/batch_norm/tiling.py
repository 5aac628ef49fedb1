"""BatchNorm tiling: pure functions of (chip, input shape, itemsize); inference below,
training (:func:`batch_norm_training_tiling`) at the end.

Units are elements of the flattened input, streamed through UB by the vector recipe
(:func:`~opsnn.base.vector_tiling.vector_tiling`), in and out ``itemsize`` bytes each.
The four per-channel parameter vectors (fp32, 16 B a channel, padded to 32 B) stay
resident in UB (``fixed_ub_bytes``, key 0) when they fit in a quarter of UB; otherwise
a quarter of UB is set aside as a window of them (key 1). One strategy: the key only
says where the parameters live.
"""
from __future__ import annotations

import math

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult, align_up
from ...base.vector_tiling import vector_tiling
from .tiling_data import (PARAM_BYTES_PER_CHANNEL, PARTIAL_BYTES_PER_CHANNEL, BatchNormTilingData,
                          BatchNormTrainingTilingData, BatchNormTrainingTilingKey)


def batch_norm_tiling(chip: ChipConfig, shape: tuple[int, ...], itemsize: int) -> TilingResult:
    """Tile an inference BatchNorm of an input of ``shape`` ([N, C, ...]) and
    ``itemsize`` bytes per element on ``chip``. Returns a :class:`TilingResult`
    (strategy "resident_params" or "streamed_params", workspace 0) whose ``data`` is
    a :class:`BatchNormTilingData`. Raises AclnnError(561002) if one element cannot
    fit UB (never on the presets)."""
    n = math.prod(int(d) for d in shape)
    c = shape[1]
    inner = math.prod(int(d) for d in shape[2:])
    param_bytes = align_up(PARAM_BYTES_PER_CHANNEL * c, 32)
    resident = param_bytes <= chip.ub_bytes // 4
    fixed = param_bytes if resident else align_up(chip.ub_bytes // 4, 32)
    vt = vector_tiling(chip, "BatchNorm", n, itemsize, itemsize, fixed_ub_bytes=fixed)
    td = BatchNormTilingData(c, max(inner, 1), itemsize, resident, vt)
    return TilingResult("resident_params" if resident else "streamed_params", int(td.tiling_key), vt.block_dim, 0, td)


def batch_norm_training_tiling(chip: ChipConfig, shape: tuple[int, ...], itemsize: int) -> TilingResult:
    """Tile a training-mode BatchNorm of an input of ``shape`` ([N, C, ...]) on
    ``chip``: two passes over the data, each streamed through UB by the vector recipe.

    Pass 1 (reduce): elements in (``itemsize`` B), nothing out per element; a block's
    per-channel fp32 partials (sum, sum of squares: 8 B a channel) stay in UB
    (``fixed_ub_bytes``) and go to the workspace at the end. Pass 2 (update): elements
    in and out; the partials of all reduce blocks plus the four parameter vectors are
    folded into per-channel scale and shift before the first tile (resident in UB).
    Returns a :class:`TilingResult` (strategy "two_pass", key TRAINING_REDUCE, the
    reduce pass's block_dim, workspace = the partials) whose ``data`` is a
    :class:`BatchNormTrainingTilingData`. Raises AclnnError(561002) when the
    per-channel buffers leave no UB for a tile.
    """
    n = math.prod(int(d) for d in shape)
    c = shape[1]
    inner = math.prod(int(d) for d in shape[2:])
    red = vector_tiling(chip, "BatchNorm", n, itemsize, 0,
                        fixed_ub_bytes=align_up(PARTIAL_BYTES_PER_CHANNEL * c, 32))
    upd_fixed = align_up(PARAM_BYTES_PER_CHANNEL * c, 32)
    upd = vector_tiling(chip, "BatchNorm", n, itemsize, itemsize, fixed_ub_bytes=upd_fixed)
    ws = align_up(red.block_dim * PARTIAL_BYTES_PER_CHANNEL * c, 32)
    td = BatchNormTrainingTilingData(c, max(inner, 1), int(shape[0]), itemsize, red, upd, ws)
    return TilingResult("two_pass", int(BatchNormTrainingTilingKey.TRAINING_REDUCE), red.block_dim, ws, td)
