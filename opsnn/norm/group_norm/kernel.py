"""GroupNorm kernel half: the tile programs (shared row-norm builder) and the bodies.

Formula (CANN aclnnGroupNorm; ONNX GroupNormalization-21): x [N, C, HxW] seen as
[N * group, (C / group) * HxW]; per row mean = E[x], rstd = 1 / sqrt(Var[x] + eps)
with the biased variance (1/n: as PyTorch's group_norm and ONNX compute it; the CANN
doc's formula writes 1/(n-1) [A: the biased form is assumed to be what the kernel
computes]), out = (x - mean) * rstd * gamma[c] + beta[c]; meanOut / rstdOut are
[N, group]. fp16/bf16 are computed in fp32 and rounded once per output.
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ..common.kernel import chunked_moments, read_f32, read_stats, tile_programs, write_ref, write_stats
from .tiling_data import GroupNormTilingData


def tile_program(td: GroupNormTilingData, args: dict) -> list[KernelSpec]:
    """The GroupNorm kernel specs in launch order (fused: one; multi_pass: stats, apply)."""
    return tile_programs("GroupNorm", td, args)


def _affine(mem, addrs, ws, refs, shape):
    """gamma and beta as [1, group, C/group, 1] (1 and 0 where not given): ``shape`` =
    (N, group, C/group, HxW)."""
    n, g, cg, hw = shape
    gam = read_f32(mem, addrs, ws, refs["gamma"]).reshape(1, g, cg, 1) if "gamma" in refs else np.float32(1)
    bet = read_f32(mem, addrs, ws, refs["beta"]).reshape(1, g, cg, 1) if "beta" in refs else np.float32(0)
    return gam, bet


def _finish(mem, addrs, ws, refs, x, mean, rstd, shape):
    n, g, cg, hw = shape
    gam, bet = _affine(mem, addrs, ws, refs, shape)
    y = ((x - mean[:, None]) * rstd[:, None]).reshape(shape) * gam + bet
    write_ref(mem, addrs, ws, refs["out"], y)


# ``refs``: name -> TensorRef for "self", "gamma", "beta", "out", "mean", "rstd".
def fused_body(refs, shape, eps):
    """Body factory of the fused kernel (``shape`` = (N, group, C/group, HxW))."""
    rows, d = shape[0] * shape[1], shape[2] * shape[3]

    def make(addrs, ws):
        def body(mem):
            x = read_f32(mem, addrs, ws, refs["self"], (rows, d))
            mean = x.mean(axis=1, dtype=np.float32)
            var = np.square(x - mean[:, None]).mean(axis=1, dtype=np.float32)
            rstd = np.float32(1) / np.sqrt(var + np.float32(eps))
            _finish(mem, addrs, ws, refs, x, mean, rstd, shape)
            write_ref(mem, addrs, ws, refs["mean"], mean)
            write_ref(mem, addrs, ws, refs["rstd"], rstd)
        return body
    return make


def stats_body(refs, shape, c, eps, stats_off):
    """Body factory of multi-pass pass 1: per-row fp32 (mean, rstd) to the workspace
    and to meanOut / rstdOut."""
    rows, d = shape[0] * shape[1], shape[2] * shape[3]

    def make(addrs, ws):
        def body(mem):
            x = read_f32(mem, addrs, ws, refs["self"], (rows, d))
            mean, m2 = chunked_moments(x, c, centre=True)
            rstd = np.float32(1) / np.sqrt(m2 / np.float32(d) + np.float32(eps))
            write_stats(mem, ws, stats_off, mean, rstd)
            write_ref(mem, addrs, ws, refs["mean"], mean)
            write_ref(mem, addrs, ws, refs["rstd"], rstd)
        return body
    return make


def apply_body(refs, shape, stats_off):
    """Body factory of multi-pass pass 2: out from x and the workspace statistics."""
    rows, d = shape[0] * shape[1], shape[2] * shape[3]

    def make(addrs, ws):
        def body(mem):
            x = read_f32(mem, addrs, ws, refs["self"], (rows, d))
            st = read_stats(mem, ws, stats_off, rows)
            _finish(mem, addrs, ws, refs, x, st[:, 0], st[:, 1], shape)
        return body
    return make
