"""AddRmsNorm kernel half: the tile programs and the numpy bodies.

Formula (CANN aclnnAddRmsNorm): x = x1 + x2 (xOut, rounded to x1's dtype), rstd = 1 /
sqrt(mean(x^2 over gamma's axes) + epsilon) (rstdOut, fp32), yOut = x * rstd * gamma,
all in fp32 and rounded once per output. The norm reads the rounded x, so the result
equals an Add followed by aclnnRmsNorm (what the graph-mode fusion replaces).

Programs: fused, one kernel with gamma loaded once per block (``first_tile_*``);
multi_pass, a stats kernel (``args["pass"] = "stats"``: x1 + x2 -> xOut, rstd to the
workspace and rstdOut) then an apply kernel (``"apply"``: xOut * rstd * gamma).
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.tiling_base import ceil_div
from ...base.vector_tiling import vector_spec
from ..common.kernel import read_f32, write_ref
from .tiling_data import RSTD_BYTES, AddRmsNormTilingData, AddRmsNormTilingKey

NAME = "AddRmsNorm"


def tile_program(td: AddRmsNormTilingData, args: dict) -> list[KernelSpec]:
    """The AddRmsNorm kernel specs in launch order (fused: one; multi_pass: stats, apply)."""
    rows, d, item, gitem = td.rows, td.d, td.itemsize, td.gamma_itemsize
    gcast = 1 if gitem != 4 else 0
    if td.strategy == "fused":
        i, o, v, _, _ = td.unit_bytes("fused")
        return [vector_spec(NAME, td.vector[0], i, o, v, tiling_key=int(AddRmsNormTilingKey.FUSED),
                            args=dict(args, strategy="fused", row_elems=d, bytes=int(rows * (i + o) + d * gitem)),
                            first_tile_mte2_bytes=d * gitem, first_tile_vector_bytes=d * 4 * gcast)]
    c, cpr = td.chunk_elems, td.chunks_per_row
    common = dict(args, strategy="multi_pass", row_elems=d, chunk_elems=c, chunks_per_row=cpr)
    i, o, v, _, _ = td.unit_bytes("stats")
    stats = vector_spec(NAME, td.vector[0], i, o, v, tiling_key=int(AddRmsNormTilingKey.MULTI_PASS),
                        args=dict(common, **{"pass": "stats"}, bytes=rows * (3 * d * item + 2 * RSTD_BYTES)))
    i, o, v, _, _ = td.unit_bytes("apply")
    touched = min(cpr, ceil_div(td.vector[1].per_block, rows) + 1)  # gamma chunks a block spans, at most
    apply = vector_spec(NAME, td.vector[1], i, o, v, tiling_key=int(AddRmsNormTilingKey.MULTI_PASS),
                        args=dict(common, **{"pass": "apply"}, unit_order="chunk_major",
                                  bytes=rows * (2 * d * item + RSTD_BYTES) + d * gitem),
                        first_tile_mte2_bytes=touched * c * gitem, first_tile_vector_bytes=touched * c * 4 * gcast)
    return [stats, apply]


def _sum_rounded(mem, addrs, ws, refs, rows, d):
    """x1 + x2 in fp32, rounded to xOut's dtype and back (the value the norm reads)."""
    x = read_f32(mem, addrs, ws, refs["x1"], (rows, d)) + read_f32(mem, addrs, ws, refs["x2"], (rows, d))
    return x.astype(refs["x"].meta.np_dtype).astype(np.float32)


def _rstd(x, d, eps):
    return np.float32(1) / np.sqrt(np.einsum("ij,ij->i", x, x, dtype=np.float32) / np.float32(d) + np.float32(eps))


def fused_body(refs, rows, d, eps):
    """Body factory of the fused kernel (``refs``: name -> TensorRef for x1, x2, gamma, y, rstd, x)."""
    def make(addrs, ws):
        def body(mem):
            x = _sum_rounded(mem, addrs, ws, refs, rows, d)
            g = read_f32(mem, addrs, ws, refs["gamma"], d)
            rstd = _rstd(x, d, eps)
            write_ref(mem, addrs, ws, refs["x"], x)
            write_ref(mem, addrs, ws, refs["rstd"], rstd)
            write_ref(mem, addrs, ws, refs["y"], x * rstd[:, None] * g)
        return body
    return make


def stats_body(refs, rows, d, eps, off):
    """Body factory of pass 1: xOut, and rstd to rstdOut and the workspace at ``off``."""
    def make(addrs, ws):
        def body(mem):
            x = _sum_rounded(mem, addrs, ws, refs, rows, d)
            rstd = _rstd(x, d, eps)
            write_ref(mem, addrs, ws, refs["x"], x)
            write_ref(mem, addrs, ws, refs["rstd"], rstd)
            mem.array(ws + off, (rows,), np.float32)[...] = rstd
        return body
    return make


def apply_body(refs, rows, d, off):
    """Body factory of pass 2: yOut = xOut * rstd (from the workspace) * gamma."""
    def make(addrs, ws):
        def body(mem):
            x = read_f32(mem, addrs, ws, refs["x"], (rows, d))
            g = read_f32(mem, addrs, ws, refs["gamma"], d)
            rstd = np.array(mem.array(ws + off, (rows,), np.float32))
            write_ref(mem, addrs, ws, refs["y"], x * rstd[:, None] * g)
        return body
    return make
