"""BatchNorm (inference) kernel half: the tile program from the tiling data, and the body.

Formula: output = (input - runningMean) / sqrt(runningVar + eps) * weight + bias, per
channel (dim 1), in fp32 and rounded once.

Program: per UB tile MTE2 copies the elements in, VECTOR does two passes (x * scale,
+ shift; 2 * itemsize operand bytes an element), MTE3 copies the result out. Before
its first tile each block loads the parameters of the channels its elements span and
folds them into scale = weight / sqrt(var + eps) and shift = bias - mean * scale
(:meth:`BatchNormTilingData.param_load_bytes` on MTE2 and on VECTOR). Blocks differ
only in that load where the last block is shorter, so the builder is asked once per
distinct load (a one-off load is a builder parameter, never a program rewrite).
"""
from __future__ import annotations

from dataclasses import asdict

import numpy as np

from npu_sim.program import Buffer, CoreType, KernelSpec

from ...base.memview import tensor_view, write_out
from ...base.vector_tiling import vector_blocks
from .tiling_data import BatchNormTilingData


def tile_program(td: BatchNormTilingData, args: dict) -> KernelSpec:
    """The AIV kernel spec of a BatchNorm tiled as ``td``; ``args``: trace args (the
    tiling struct is added under "tiling")."""
    v, item = td.vector, td.itemsize

    def blocks(load: int):
        return vector_blocks(v, item, item, 2 * item, first_tile_mte2_bytes=load, first_tile_vector_bytes=load)

    last_units = v.total_units - v.per_block * (v.block_dim - 1)
    main, last = td.param_load_bytes(v.per_block), td.param_load_bytes(last_units)
    progs = blocks(main)
    if last != main:
        progs = progs[:-1] + blocks(last)[-1:]
    return KernelSpec("BatchNorm", CoreType.AIV, progs, v.buffer_num, {Buffer.UB: v.ub_bytes_used},
                      int(td.tiling_key), dict(args, tiling=asdict(v)))


def make_body(x_t, w_t, b_t, m_t, v_t, out_t, eps: float):
    """Body factory. Slots: input, [weight,] [bias,] runningMean, runningVar, output."""
    def make(addrs, ws):
        def body(mem):
            i = 1
            params = {}
            for key, t in (("w", w_t), ("b", b_t), ("m", m_t), ("v", v_t)):
                if t is not None:
                    params[key] = tensor_view(mem, addrs[i], t).astype(np.float32)
                    i += 1
            c = x_t.view_shape[1]
            scale = np.float32(1) / np.sqrt(params["v"] + np.float32(eps))
            if "w" in params:
                scale = scale * params["w"]
            shift = -params["m"] * scale
            if "b" in params:
                shift = shift + params["b"]
            bshape = (1, c) + (1,) * (len(x_t.view_shape) - 2)
            r = tensor_view(mem, addrs[0], x_t).astype(np.float32)  # a copy: output may alias input
            r *= scale.reshape(bshape)
            r += shift.reshape(bshape)
            write_out(mem, addrs[-1], out_t, r)
        return body
    return make
