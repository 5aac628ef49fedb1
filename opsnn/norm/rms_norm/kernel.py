"""RmsNorm kernel half: the tile programs (shared row-norm builder) and the bodies.

Formula: with x [A1..Ai, R1..Rj] seen as [rows, d] and gamma [R1..Rj],
rstd = 1 / sqrt(mean(x^2 over the row) + epsilon), yOut = x * rstd * gamma, computed
in fp32 and rounded once. Multi-pass: pass 1 accumulates the sum of squares chunk by
chunk and writes fp32 (0, rstd) per row to the workspace (LayerNorm's layout) and
rstdOut; pass 2 reads rstd back and writes yOut.
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ..common.kernel import chunked_moments, read_f32, read_stats, tile_programs, write_ref, write_stats
from .tiling_data import RmsNormTilingData


def tile_program(td: RmsNormTilingData, args: dict) -> list[KernelSpec]:
    """The RmsNorm kernel specs in launch order (fused: one; multi_pass: stats, apply)."""
    return tile_programs("RmsNorm", td, args)


# ``refs``: name -> TensorRef for "x", "gamma", "y", "rstd" (opsnn.common.contiguous).
def fused_body(refs, rows, d, eps):
    """Body factory of the fused kernel."""
    def make(addrs, ws):
        def body(mem):
            x = read_f32(mem, addrs, ws, refs["x"], (rows, d))
            g = read_f32(mem, addrs, ws, refs["gamma"], d)
            ms = np.einsum("ij,ij->i", x, x, dtype=np.float32) / np.float32(d)
            rstd = np.float32(1) / np.sqrt(ms + np.float32(eps))
            write_ref(mem, addrs, ws, refs["y"], x * rstd[:, None] * g)
            write_ref(mem, addrs, ws, refs["rstd"], rstd)
        return body
    return make


def stats_body(refs, rows, d, c, eps, stats_off):
    """Body factory of multi-pass pass 1: per-row (0, rstd) to the workspace."""
    def make(addrs, ws):
        def body(mem):
            x = read_f32(mem, addrs, ws, refs["x"], (rows, d))
            _, sumsq = chunked_moments(x, c, centre=False)
            rstd = np.float32(1) / np.sqrt(sumsq / np.float32(d) + np.float32(eps))
            write_stats(mem, ws, stats_off, np.zeros_like(rstd), rstd)
            write_ref(mem, addrs, ws, refs["rstd"], rstd)
        return body
    return make


def apply_body(refs, rows, d, stats_off):
    """Body factory of multi-pass pass 2: y = x * rstd (from the workspace) * gamma."""
    def make(addrs, ws):
        def body(mem):
            x = read_f32(mem, addrs, ws, refs["x"], (rows, d))
            g = read_f32(mem, addrs, ws, refs["gamma"], d)
            rstd = read_stats(mem, ws, stats_off, rows)[:, 1]
            write_ref(mem, addrs, ws, refs["y"], x * rstd[:, None] * g)
        return body
    return make
