"""Contiguous / ViewCopy tiling: a pure function of (chip, view shape, strides,
itemsize); no device, no aclTensor.

Copy cost (one kernel, one unit per element, tiled by
:func:`~opsnn.base.vector_tiling.vector_tiling`). The view's dims are collapsed first:
size-1 and stride-0 dims dropped (a stride-0 dim is a broadcast, read once and
repeated by the Vector unit), and adjacent dims merged where ``stride[i] ==
stride[i+1] * size[i+1]``. With ``n`` and ``s`` the size and stride of the innermost
collapsed dim, ``runs`` the number of times it repeats, ``e`` the item size and ``B``
= :data:`DMA_BLOCK_BYTES`:

* gather (MTE2, GM -> UB, ``Contiguous``): ``runs * min(n * align(e, B),
  align(((n-1)*s + 1) * e, B))`` bytes: each run is either fetched element by
  element, one data block each, or as the covering span with the gaps discarded,
  whichever moves fewer blocks. A contiguous run (``s == 1``) costs ``align(n*e, B)``;
  a transpose (inner stride >= B / e) costs one whole block per element.
* scatter (MTE3, UB -> GM, ``ViewCopy``): ``runs * align(n*e, B)`` if ``s == 1`` else
  ``runs * n * align(e, B)`` (a write cannot cover the gaps).
* the contiguous side moves ``numel * e`` bytes; the Vector unit streams
  ``numel * e`` bytes when a broadcast (stride-0) dim is expanded, else nothing.

DMA moves whole 32-byte data blocks (Ascend C ``DataCopy`` counts ``blockLen`` in
32 B units); that granule is the only hardware figure here. Treating the per-run
cost as a byte count on the MTE2/MTE3 pipe (so HBM bandwidth and the DMA latency
apply per tile, not per run) is an assumption.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult, align_up
from ...base.vector_tiling import vector_tiling
from .tiling_data import DMA_BLOCK_BYTES, CopyTilingData, CopyTilingKey


def collapse_view(shape, strides) -> list[tuple[int, int]]:
    """``[(size, stride), ...]`` outermost first, size-1 and stride-0 dims dropped and
    mergeable neighbours merged (module docstring)."""
    dims = [(int(d), int(s)) for d, s in zip(shape, strides) if d != 1 and s != 0]
    out: list[tuple[int, int]] = []
    for d, s in dims:
        if out and out[-1][1] == s * d:
            out[-1] = (out[-1][0] * d, s)
        else:
            out.append((d, s))
    return out


def inner_runs(shape, strides) -> tuple[int, int, int]:
    """``(runs, n, s)`` of a view: the innermost collapsed dim's size ``n`` and stride
    ``s`` (elements), repeated ``runs`` times; ``(1, 1, 1)`` for a single element."""
    dims = collapse_view(shape, strides)
    if not dims:
        return 1, 1, 1
    n, s = dims[-1]
    runs = 1
    for d, _ in dims[:-1]:
        runs *= d
    return runs, n, s


def view_gather_bytes(shape, strides, itemsize: int) -> int:
    """MTE2 bytes to read a view into UB contiguously (module docstring formula)."""
    runs, n, s = inner_runs(shape, strides)
    e, b = itemsize, DMA_BLOCK_BYTES
    return runs * min(n * align_up(e, b), align_up(((n - 1) * s + 1) * e, b))


def view_scatter_bytes(shape, strides, itemsize: int) -> int:
    """MTE3 bytes to write a contiguous UB buffer into a view (module docstring)."""
    runs, n, s = inner_runs(shape, strides)
    e, b = itemsize, DMA_BLOCK_BYTES
    return runs * (align_up(n * e, b) if s == 1 else n * align_up(e, b))


def has_broadcast(shape, strides) -> bool:
    """True if the view repeats data along a dim (size > 1, stride 0)."""
    return any(d > 1 and s == 0 for d, s in zip(shape, strides))


def _numel(shape) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


def _copy_tiling(chip: ChipConfig, label: str, numel: int, itemsize: int, mte2: int, mte3: int,
                 broadcast: bool) -> TilingResult:
    vt = vector_tiling(chip, label, numel, mte2 / numel, mte3 / numel)
    td = CopyTilingData(label, numel, itemsize, mte2, mte3, broadcast, vt)
    return TilingResult("copy", int(CopyTilingKey.COPY), vt.block_dim, 0, td)


def contiguous_tiling(chip: ChipConfig, shape, strides, itemsize: int) -> TilingResult:
    """Tile ``l0op::Contiguous`` of a non-empty view (``shape``/``strides`` in
    elements, ``itemsize`` bytes): gather on MTE2, ``numel * itemsize`` out on MTE3.
    Returns a :class:`TilingResult` whose ``data`` is a :class:`CopyTilingData`
    (workspace 0 here: the caller reserves the destination buffer)."""
    n = _numel(shape)
    return _copy_tiling(chip, "Contiguous", n, itemsize, view_gather_bytes(shape, strides, itemsize),
                        n * itemsize, has_broadcast(shape, strides))


def view_copy_tiling(chip: ChipConfig, shape, strides, itemsize: int) -> TilingResult:
    """Tile ``l0op::ViewCopy`` into a non-empty view: ``numel * itemsize`` in on MTE2,
    the scatter on MTE3 (see :func:`contiguous_tiling`)."""
    n = _numel(shape)
    return _copy_tiling(chip, "ViewCopy", n, itemsize, n * itemsize, view_scatter_bytes(shape, strides, itemsize),
                        has_broadcast(shape, strides))
