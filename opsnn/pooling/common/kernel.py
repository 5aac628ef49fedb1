"""Kernel half shared by the pooling ops: the tile program from the tiling data, and
the window slicing the numpy bodies use.

Max pooling pads with -inf, average pooling with zeros (its divisor is computed
separately, torch's rule). Bodies loop over the ``kh * kw`` kernel offsets, each a
strided slice of the padded planes (the same data
``numpy.lib.stride_tricks.sliding_window_view`` would give, without materialising
the windows), so ResNet/AlexNet-sized inputs take milliseconds.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ...base.vector_tiling import vector_spec
from .geometry import Pool2dGeom
from .tiling_data import PoolTilingData


def tile_program(name: str, td: PoolTilingData, args: dict, tiling_key: int) -> KernelSpec:
    """The AIV spec (label ``name``) of a pooling kernel tiled as ``td``: per unit
    MTE2 in, VECTOR, MTE3 out (:meth:`PoolTilingData.unit_bytes`). ``args``: trace args
    (shapes, dtype, geometry); the useful GM bytes, the unit, the tiling struct and the
    strategy are added here, in that order."""
    i, o, v = td.unit_bytes()
    spec = vector_spec(name, td.vector, i, o, v, tiling_key=tiling_key,
                       args=dict(args, bytes=int(td.in_bytes + td.out_bytes), unit_outputs=td.unit_outputs,
                                 unit_kernel_rows=td.unit_kernel_rows))
    return replace(spec, args=dict(spec.args, strategy=td.strategy))


def executor_info(spec: KernelSpec, td: PoolTilingData) -> dict:
    """``executor.info`` of a pooling op: strategy, unit and the tiling struct."""
    return {"strategy": td.strategy, "unit_outputs": td.unit_outputs, "unit_kernel_rows": td.unit_kernel_rows,
            "tiling": spec.args["tiling"]}


def compute_dtype(dt: np.dtype) -> np.dtype:
    """fp64 stays fp64; everything else is computed in fp32."""
    return np.dtype(np.float64) if dt == np.float64 else np.dtype(np.float32)


def planes(x: np.ndarray, g: Pool2dGeom) -> np.ndarray:
    """``x`` as [planes, h, w]."""
    return x.reshape(g.planes, g.h, g.w)


def padded(x: np.ndarray, g: Pool2dGeom, fill: float) -> np.ndarray:
    """Planes padded by the geometry's pads, plus any extra bottom/right the last
    (ceil-mode) window reaches, filled with ``fill``."""
    need_h = (g.ho - 1) * g.sh + g.eff_kh
    need_w = (g.wo - 1) * g.sw + g.eff_kw
    eb = max(g.pb, need_h - g.h - g.pt)
    er = max(g.pr, need_w - g.w - g.pl)
    return np.pad(x, ((0, 0), (g.pt, eb), (g.pl, er)), constant_values=fill)


def window_slices(g: Pool2dGeom):
    """(i, j, slice rows, slice cols) for every kernel offset into the padded planes."""
    for i in range(g.kh):
        rs = slice(i * g.dh, i * g.dh + (g.ho - 1) * g.sh + 1, g.sh)
        for j in range(g.kw):
            yield i, j, rs, slice(j * g.dw, j * g.dw + (g.wo - 1) * g.sw + 1, g.sw)


def single_output_body(x_t, out_t, compute):
    """Body factory for a one-output pooling op: slot 0 self, slot 1 out;
    ``compute(x)`` gives the result (reshaped to out's view)."""
    def make(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            write_out(mem, addrs[1], out_t, compute(x).reshape(out_t.view_shape))
        return body
    return make
