"""Row-norm kernel half (LayerNorm, RmsNorm): tile programs from the tiling data, and
the numpy helpers both ops' bodies use.

Programs (:func:`tile_programs`), per unit as :meth:`RowNormTilingData.unit_bytes`
states: MTE2 in, VECTOR passes, MTE3 out, double-buffered.

* fused: one kernel. Each block loads weight/bias once (``n_affine * d`` elements of
  weight itemsize on MTE2, their fp32 cast on VECTOR for 16-bit weights), charged on
  its first tile through the builder's ``first_tile_*`` parameters.
* multi_pass: stats kernel (``args["pass"] = "stats"``) then apply kernel
  (``"apply"``). The apply kernel walks units chunk-major (chunk j of every row, then
  chunk j + 1), so a block loads a weight/bias chunk once per chunk index it spans
  (at most ``ceil(per_block / rows) + 1``; an upper bound charged on its first tile).

Bodies compute in fp32 and round once per output (fp16/bf16); the multi-pass bodies
really pass the statistics through the workspace (pass 2 reads what pass 1 wrote).
"""
from __future__ import annotations

import numpy as np

from npu_sim import ChipConfig
from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ...base.tiling_base import TilingRegistry, ceil_div
from ...base.vector_tiling import vector_spec
from .tiling import RowNormTilingContext
from .tiling_data import STATS_BYTES_PER_ROW, RowNormTilingData, RowNormTilingKey


def tile_programs(name: str, td: RowNormTilingData, args: dict) -> list[KernelSpec]:
    """The AIV kernel specs of a row norm tiled as ``td``, in launch order. ``name``:
    the op type ("LayerNorm" / "RmsNorm"); ``args``: trace args (shapes, dtype, attrs);
    the strategy, chunking and useful GM bytes are added here."""
    rows, d, item, witem, n_aff = td.rows, td.row_elems, td.itemsize, td.weight_itemsize, td.n_affine
    wcast = 1 if (witem and witem != 4) else 0
    if td.strategy == "fused":
        i, o, v, _, _ = td.unit_bytes("fused")
        return [vector_spec(name, td.vector[0], i, o, v, tiling_key=int(RowNormTilingKey.FUSED),
                            args=dict(args, strategy="fused", row_elems=d,
                                      bytes=rows * (i + o) + n_aff * d * witem),
                            first_tile_mte2_bytes=n_aff * d * witem, first_tile_vector_bytes=n_aff * d * 4 * wcast)]
    c, cpr = td.chunk_elems, td.chunks_per_row
    stats_out = td.stats_out_bytes_per_row
    common = dict(args, strategy="multi_pass", row_elems=d, chunk_elems=c, chunks_per_row=cpr)
    i, o, v, _, _ = td.unit_bytes("stats")
    stats = vector_spec(name, td.vector[0], i, o, v, tiling_key=int(RowNormTilingKey.MULTI_PASS),
                        args=dict(common, **{"pass": "stats"},
                                  bytes=rows * (d * item + STATS_BYTES_PER_ROW + stats_out)))
    i, o, v, _, _ = td.unit_bytes("apply")
    touched = min(cpr, ceil_div(td.vector[1].per_block, rows) + 1)  # chunk indices a block spans, at most
    apply = vector_spec(name, td.vector[1], i, o, v, tiling_key=int(RowNormTilingKey.MULTI_PASS),
                        args=dict(common, **{"pass": "apply"}, unit_order="chunk_major",
                                  bytes=rows * (2 * d * item + STATS_BYTES_PER_ROW) + n_aff * d * witem),
                        first_tile_mte2_bytes=touched * n_aff * c * witem,
                        first_tile_vector_bytes=touched * n_aff * c * 4 * wcast)
    return [stats, apply]


def row_norm_kernels(registry: TilingRegistry, chip: ChipConfig, rows: int, d: int, item: int, witem: int,
                     n_affine: int, stats_out_bytes_per_row: int, centre: bool, strategy: str | None = None,
                     args: dict | None = None) -> tuple[list[KernelSpec], RowNormTilingData]:
    """Tiling then programs in one call, ``(specs, tiling data)``, for tests and
    benchmarks (an op's ``op_api`` calls its ``tiling.py`` and ``kernel.py`` apart).
    ``registry``: the op's strategy registry (its op type names the kernels)."""
    ctx = RowNormTilingContext(chip, registry.op_type, rows, d, item, witem, n_affine, stats_out_bytes_per_row, centre)
    td = registry.run(ctx, strategy).data
    return tile_programs(registry.op_type, td, args or {}), td


def chunked_moments(x: np.ndarray, c: int, centre: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per-row statistics of fp32 ``x`` [rows, d] streamed in chunks of ``c`` columns,
    as the multi-pass stats kernel computes them (fp32 throughout).

    centre=True: returns (mean, M2) merged chunk by chunk (Chan, Golub, LeVeque's
    pairwise update). centre=False: returns (zeros, sum of squares)."""
    rows, d = x.shape
    n = 0
    mean = np.zeros(rows, np.float32)
    acc = np.zeros(rows, np.float32)
    for j in range(0, d, c):
        xc = x[:, j:j + c]
        nb = xc.shape[1]
        if not centre:
            acc += np.einsum("ij,ij->i", xc, xc, dtype=np.float32)
            continue
        mb = xc.sum(axis=1, dtype=np.float32) / np.float32(nb)
        diff = xc - mb[:, None]
        m2b = np.einsum("ij,ij->i", diff, diff, dtype=np.float32)
        tot = n + nb
        delta = mb - mean
        mean = mean + delta * np.float32(nb / tot)
        acc = acc + m2b + delta * delta * np.float32(n * nb / tot)
        n = tot
    return mean, acc


# Body helpers. ``ref`` is a TensorRef (opsnn.common.contiguous): the caller's tensor in
# its slot, or a contiguous copy / staging buffer in the workspace.
def read_f32(mem, addrs, ws, ref, shape=None) -> np.ndarray:
    """The tensor behind ``ref`` as fp32 (reshaped to ``shape`` if given)."""
    a = tensor_view(mem, ref.addr(addrs, ws), ref.meta).astype(np.float32)
    return a if shape is None else a.reshape(shape)


def write_ref(mem, addrs, ws, ref, value) -> None:
    """Write ``value`` (rounded to the tensor's dtype) through ``ref``."""
    write_out(mem, ref.addr(addrs, ws), ref.meta, value.reshape(ref.meta.view_shape))


def read_stats(mem, ws: int, stats_off: int, rows: int) -> np.ndarray:
    """The fp32 [rows, 2] (mean, rstd) pass 1 left at ``stats_off`` in the workspace."""
    return np.array(mem.array(ws + stats_off, (rows, 2), np.float32))


def write_stats(mem, ws: int, stats_off: int, mean: np.ndarray, rstd: np.ndarray) -> None:
    """Store per-row fp32 (mean, rstd) at ``stats_off`` in the workspace (pass 1)."""
    mem.array(ws + stats_off, (len(rstd), 2), np.float32)[...] = np.stack([mean, rstd], axis=1)
