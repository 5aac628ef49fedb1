"""Elementwise tiling: a pure function of (chip, operand shapes and dtypes, compute
dtypes, the kernel's cost row); no device, no tensor.

One unit is one output element (:func:`~opsnn.base.vector_tiling.vector_tiling`). Per
element: MTE2 copies each input in (a broadcast input is charged at its own size:
its data is read into UB once per tile at most), VECTOR streams ``(passes + casts +
broadcasts) * compute_itemsize`` bytes, MTE3 copies the result out. ``casts`` counts
the inputs whose dtype differs from their compute dtype plus one if ``out`` differs
from the result's (CANN inserts l0 Cast kernels instead; here they are fused into the
op's kernel: an assumption that saves a GM round trip per cast), ``broadcasts`` the
inputs smaller than the output (a Brcb/broadcast pass). UB per element: in + out
double-buffered, plus a compute-typed scratch per input and output when casting,
plus ``tmp`` scratch rows.

``passes`` is the number of Vector instructions per element the op decomposes into
with the Ascend C API (Add/Sub/Mul/Div/Relu/Sqrt/Select 1 each; axpy-style alpha +1;
Silu = Muls, Exp, Adds, Div; ...), listed in each family's ``tiling_data.py``. Every
pass count is an assumption.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

from npu_sim import ChipConfig

from ...base.dtypes import to_numpy_dtype
from ...base.tiling_base import TilingResult
from ...base.vector_tiling import vector_tiling
from .infershape import broadcast_shape, numel
from .tiling_data import EltwiseCost, EltwiseTilingData, EltwiseTilingKey

#: (shape, aclDataType) of one operand
Operand = tuple[Sequence[int], object]


def eltwise_tiling(chip: ChipConfig, name: str, ins: Sequence[Operand], in_cts: Sequence, out: Operand, out_ct,
                   cost: EltwiseCost, *, n: int | None = None, extra_passes: int = 0,
                   out_units: bool = True) -> TilingResult:
    """Tile one elementwise kernel named ``name`` on ``chip``.

    ``ins``: (shape, dtype) of each (contiguous) input; ``in_cts``: the dtype each is
    computed in; ``out``: (shape, dtype) of the output buffer; ``out_ct``: the result's
    compute dtype; ``n``: output elements (default: the broadcast of the inputs);
    ``extra_passes``: Vector passes on top of ``cost.passes`` (alpha, a missing clamp
    bound); ``out_units``: False when ``out`` holds one element, not ``n`` (Equal).
    Returns a :class:`TilingResult` (key STREAM, workspace 0) whose ``data`` is an
    :class:`EltwiseTilingData`. Raises AclnnError(561002) if one element does not fit UB.
    """
    if n is None:
        n = numel(broadcast_shape(*(s for s, _ in ins)))
    item = [to_numpy_dtype(dt).itemsize for _, dt in ins]
    sizes = [numel(s) for s, _ in ins]
    c_item = max([to_numpy_dtype(c).itemsize for c in list(in_cts) + [out_ct]])
    casts = sum(1 for (_, dt), c in zip(ins, in_cts) if dt != c) + (1 if out[1] != out_ct else 0)
    bcast = sum(1 for k in sizes if k < n)
    in_per = sum(k * i for k, i in zip(sizes, item)) / n
    out_item = to_numpy_dtype(out[1]).itemsize
    out_per = out_item if out_units else 0.0
    vec_per = (cost.passes + extra_passes + casts + bcast) * c_item
    tmp_per = ((len(ins) + 1) * c_item if casts else 0) + cost.tmp * c_item
    total = int(sum(k * i for k, i in zip(sizes, item)) + (numel(out[0]) * out_item if out_units else out_item))
    vt = vector_tiling(chip, name, n, in_per, out_per, tmp_bytes_per_unit=tmp_per)
    td = EltwiseTilingData(name, n, in_per, out_per, vec_per, tmp_per, casts, bcast, total, vt)
    return TilingResult("stream", int(EltwiseTilingKey.STREAM), vt.block_dim, 0, td)


def family_tiling(family: str, costs: Mapping[str, EltwiseCost]) -> Callable[..., TilingResult]:
    """The pure tiling function of one family whose kernels' cost rows are ``costs``:
    ``tiling(chip, kernel, ins, in_cts, out, out_ct, *, name=kernel, n=None,
    extra_passes=0, out_units=True)`` (arguments as :func:`eltwise_tiling`; ``kernel`` a
    key of ``costs``, ``name`` the trace label)."""
    def tiling(chip: ChipConfig, kernel: str, ins: Sequence[Operand], in_cts: Sequence, out: Operand, out_ct, *,
               name: str | None = None, n: int | None = None, extra_passes: int = 0,
               out_units: bool = True) -> TilingResult:
        return eltwise_tiling(chip, name or kernel, ins, in_cts, out, out_ct, costs[kernel], n=n,
                              extra_passes=extra_passes, out_units=out_units)
    tiling.__name__ = tiling.__qualname__ = f"{family}_tiling"
    tiling.__doc__ = (f"Tile one {family} kernel (a key of its cost table) on ``chip``; see "
                      ":func:`opsnn.math.common.tiling.eltwise_tiling`.")
    return tiling
