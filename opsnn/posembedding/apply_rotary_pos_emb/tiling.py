"""ApplyRotaryPosEmb tiling: a pure function of (chip, shapes, itemsizes); no device.

Units are head rows (D elements) of query then key, streamed through UB by
:func:`~opsnn.base.vector_tiling.vector_tiling`. Per row: MTE2 reads the row
(``D * itemsize``) plus its share of the token's cos and sin rows (``2 * D *
cos_itemsize * cos_rows / rows``: one cos/sin row serves every head of its token),
VECTOR runs :data:`.tiling_data.VEC_PASSES` passes (+2 casts for 16-bit) over D
compute-typed (float32) elements, MTE3 writes the row back in place. UB scratch:
:data:`.tiling_data.TMP_ROWS` float32 rows.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ...base.vector_tiling import vector_tiling
from .tiling_data import TMP_ROWS, VEC_PASSES, ApplyRotaryPosEmbTilingData, ApplyRotaryPosEmbTilingKey

COMPUTE_ITEMSIZE = 4  # float32: 16-bit inputs are computed in float32 and rounded once


def apply_rotary_pos_emb_tiling(chip: ChipConfig, d: int, rows_q: int, rows_k: int, cos_rows: int, itemsize: int,
                                cos_itemsize: int, interleaved: bool = False) -> TilingResult:
    """Tile the in-place rotation of ``rows_q + rows_k`` head rows of ``d`` elements
    (``itemsize`` bytes each; cos/sin ``cos_itemsize``, ``cos_rows`` rows each).
    Returns a :class:`TilingResult` (strategy "stream", key HALF or INTERLEAVE,
    workspace 0) whose ``data`` is an :class:`ApplyRotaryPosEmbTilingData`. Raises
    AclnnError(561002) if one row does not fit UB."""
    rows = rows_q + rows_k
    casts = 2 if itemsize != COMPUTE_ITEMSIZE else 0
    in_b = d * itemsize + 2 * d * cos_itemsize * cos_rows / rows
    out_b = d * itemsize
    vec_b = (VEC_PASSES + casts) * d * COMPUTE_ITEMSIZE
    tmp_b = (TMP_ROWS + (2 if casts else 0)) * d * COMPUTE_ITEMSIZE
    vt = vector_tiling(chip, "ApplyRotaryPosEmb", rows, in_b, out_b, tmp_bytes_per_unit=tmp_b)
    gm = rows * d * itemsize * 2 + 2 * cos_rows * d * cos_itemsize
    td = ApplyRotaryPosEmbTilingData(d, rows_q, rows_k, cos_rows, in_b, out_b, vec_b, tmp_b, casts, gm, vt)
    key = ApplyRotaryPosEmbTilingKey.INTERLEAVE if interleaved else ApplyRotaryPosEmbTilingKey.HALF
    return TilingResult("stream", int(key), vt.block_dim, 0, td)
