"""MaxPool / MaxPool2dWithIndices tiling: a pure function of (chip, geometry, dtypes).

The three pooling strategies (``row``, ``row_chunk``, ``kernel_row_chunk``;
:mod:`opsnn.pooling.common.tiling`), one registry per op type. A unit reads
``min(H, dilated kh)`` input rows and, for ``wc`` outputs, ``min(W, (wc-1)*sw +
dilated kw)`` columns. Per output it writes the value (+ the index); per kernel tap
the Vector unit does a compare + select of the value (itemsize bytes each) and, with
indices, a select of the int32 running index in UB (4 B of UB scratch per output).
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ..common.geometry import Pool2dGeom
from ..common.tiling import PoolTilingContext, pool_registry

REGISTRIES = {name: pool_registry(name) for name in ("MaxPool", "MaxPool2dWithIndices")}


def max_pool_tiling(chip: ChipConfig, name: str, g: Pool2dGeom, itemsize: int, index_itemsize: int = 0,
                    strategy: str | None = None) -> TilingResult:
    """Tile ``name`` ("MaxPool" or "MaxPool2dWithIndices") of geometry ``g`` (planes >
    0) with ``itemsize``-byte values and ``index_itemsize``-byte indices (0: no
    indices). Returns a :class:`TilingResult` whose ``data`` is a
    :class:`~opsnn.pooling.common.tiling_data.PoolTilingData`; workspace 0. Raises
    AclnnError(561002) if one kernel row does not fit UB."""
    with_idx = index_itemsize > 0
    taps = g.planes * g.ho * g.wo * g.kh * g.kw
    # per tap: compare + select (value) [+ select (index), int32 in UB]
    vec = taps * (2 * itemsize + 4) if with_idx else taps * itemsize
    ctx = PoolTilingContext(chip, name, g.planes, g.ho, g.wo, min(g.h, g.eff_kh),
                            lambda wc: min(g.w, (wc - 1) * g.sw + g.eff_kw), itemsize, itemsize + index_itemsize,
                            4 if with_idx else 0, vec)
    return REGISTRIES[name].run(ctx, strategy)
