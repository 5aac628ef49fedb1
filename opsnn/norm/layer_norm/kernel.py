"""LayerNorm kernel half: the tile programs (shared row-norm builder) and the bodies.

Formula: with ``input`` [A1..Ai, R1..Rj] seen as [rows, d] (rows = prod(A), d =
prod(R)), mean = E[x], rstd = 1 / sqrt(Var[x] + eps) (biased variance) per row,
out = (x - mean) * rstd * weight + bias, computed in fp32 and rounded once per output.
The fused body takes one pass of row statistics; the multi-pass stats body merges
per-chunk mean and M2 (Chan et al.'s parallel variance), so both agree to fp32
rounding, not bit for bit.
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view
from ..common.kernel import chunked_moments, read_f32, read_stats, tile_programs, write_ref, write_stats
from .tiling_data import LayerNormTilingData


def tile_program(td: LayerNormTilingData, args: dict) -> list[KernelSpec]:
    """The LayerNorm kernel specs in launch order (fused: one; multi_pass: stats, apply)."""
    return tile_programs("LayerNorm", td, args)


# Each factory takes ``refs``: name -> TensorRef for "input", "out" and whichever of
# "weight", "bias", "mean", "rstd" exist, and (multi-pass) the byte offset of the
# per-row statistics in the workspace.
def _affine(mem, addrs, ws, refs, d):
    w = read_f32(mem, addrs, ws, refs["weight"], d) if "weight" in refs else None
    b = read_f32(mem, addrs, ws, refs["bias"], d) if "bias" in refs else None
    return w, b


def _normalise(x, mean, rstd, w, b, diff=None):
    """(x - mean) * rstd * w + b in fp32; ``diff``: ``x - mean[:, None]`` already
    computed (a fresh array, then overwritten: the same bits, one pass fewer)."""
    if diff is None:
        y = (x - mean[:, None]) * rstd[:, None]
    else:
        y = np.multiply(diff, rstd[:, None], out=diff)
    if w is not None:
        y *= w
    if b is not None:
        y += b
    return y


def _write_stats_out(mem, addrs, ws, refs, mean, rstd):
    if "mean" in refs:
        write_ref(mem, addrs, ws, refs["mean"], mean)
    if "rstd" in refs:
        write_ref(mem, addrs, ws, refs["rstd"], rstd)


def _out_rows(mem, addrs, ws, ref, rows, d, *reads) -> np.ndarray | None:
    """The output's device view as [rows, d] when the fused body may compute straight
    into it: float32, C-contiguous and sharing no memory with any of ``reads``; else None."""
    ov = tensor_view(mem, ref.addr(addrs, ws), ref.meta)
    if ov.dtype != np.float32 or not ov.flags.c_contiguous or ov.size != rows * d:
        return None
    if any(r is not None and np.may_share_memory(ov, r) for r in reads):
        return None
    return ov.reshape(rows, d)


def fused_body(refs, rows, d, eps):
    """Body factory of the fused kernel. A float32 input is read in place (read-only;
    other dtypes are widened to a float32 copy) and a float32 output that overlaps no
    operand receives ``x - mean`` and then the normalised rows in place (the same
    float32 ufuncs as into a fresh array, then stored: the same bytes)."""
    def make(addrs, ws):
        def body(mem):
            xv = tensor_view(mem, refs["input"].addr(addrs, ws), refs["input"].meta, writable=False)
            x = np.asarray(xv, np.float32).reshape(rows, d)
            w, b = _affine(mem, addrs, ws, refs, d)
            mean = x.sum(axis=1, dtype=np.float32) / np.float32(d)
            o2 = _out_rows(mem, addrs, ws, refs["out"], rows, d, xv, w, b)
            diff = x - mean[:, None] if o2 is None else np.subtract(x, mean[:, None], out=o2)
            var = np.einsum("ij,ij->i", diff, diff, dtype=np.float32) / np.float32(d)
            rstd = np.float32(1) / np.sqrt(var + np.float32(eps))
            y = _normalise(x, mean, rstd, w, b, diff)
            if o2 is None:
                write_ref(mem, addrs, ws, refs["out"], y)
            _write_stats_out(mem, addrs, ws, refs, mean, rstd)
        return body
    return make


def stats_body(refs, rows, d, c, eps, stats_off):
    """Body factory of multi-pass pass 1: per-row (mean, rstd) to the workspace."""
    def make(addrs, ws):
        def body(mem):
            x = read_f32(mem, addrs, ws, refs["input"], (rows, d))
            mean, m2 = chunked_moments(x, c, centre=True)
            rstd = np.float32(1) / np.sqrt(m2 / np.float32(d) + np.float32(eps))
            write_stats(mem, ws, stats_off, mean, rstd)
            _write_stats_out(mem, addrs, ws, refs, mean, rstd)
        return body
    return make


def apply_body(refs, rows, d, stats_off):
    """Body factory of multi-pass pass 2: normalise with the workspace statistics."""
    def make(addrs, ws):
        def body(mem):
            x = read_f32(mem, addrs, ws, refs["input"], (rows, d))
            w, b = _affine(mem, addrs, ws, refs, d)
            stats = read_stats(mem, ws, stats_off, rows)
            write_ref(mem, addrs, ws, refs["out"], _normalise(x, stats[:, 0], stats[:, 1], w, b))
        return body
    return make
