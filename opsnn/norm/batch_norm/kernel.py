"""BatchNorm kernel half: the tile programs from the tiling data, and the bodies
(inference first; training mode, two passes, at the end).

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
from .tiling_data import BatchNormTilingData, BatchNormTrainingTilingData, BatchNormTrainingTilingKey


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
            x = tensor_view(mem, addrs[0], x_t, writable=False)
            if x.dtype == np.float32 and np.dtype(out_t.np_dtype) == np.float32 and out_t.view_shape == x.shape:
                # fp32 in and out: the same two fp32 ufuncs, straight into the output (numpy's
                # ufuncs give the elementwise result even when the output aliases the input)
                o = tensor_view(mem, addrs[-1], out_t)
                np.multiply(x, scale.reshape(bshape), out=o)
                np.add(o, shift.reshape(bshape), out=o)
                return
            r = x.astype(np.float32)  # a copy: output may alias input
            r *= scale.reshape(bshape)
            r += shift.reshape(bshape)
            write_out(mem, addrs[-1], out_t, r)
        return body
    return make


# ---- training mode -----------------------------------------------------------------
# Formula (per channel c over the N * prod(spatial) elements of x[:, c]): mean = E[x],
# var = E[(x - mean)^2] (biased), output = (x - mean) / sqrt(var + eps) * weight + bias;
# saveMean = mean, saveInvstd = var (the CANN doc: on Atlas A2/A3 saveInvstd holds the
# input's variance, only Ascend 950 stores 1/sqrt(var + eps)); runningMean and
# runningVar, when given, are updated in place as PyTorch's batch_norm does (the
# framework aclnnBatchNorm serves; the aclnn doc only names momentum the update
# coefficient): running = (1 - momentum) * running + momentum * batch, with the
# unbiased variance var * n / (n - 1) for runningVar. fp32 arithmetic throughout.

#: fp32 operand bytes VECTOR moves per element in pass 1 (sum and sum of squares)
REDUCE_VEC_BYTES = 8


def training_tile_programs(td: BatchNormTrainingTilingData, args: dict) -> list[KernelSpec]:
    """The two AIV kernel specs of a training BatchNorm tiled as ``td``, in launch order.

    Pass 1 (key TRAINING_REDUCE): per UB tile MTE2 copies elements in and VECTOR
    accumulates sum and sum of squares (8 fp32 operand bytes an element); nothing is
    written per element (the few bytes of partials each block flushes at its end are
    not timed). Pass 2 (key TRAINING_UPDATE): before its first tile every block loads
    all reduce blocks' partials and the four parameter vectors and folds them into
    scale and shift (:meth:`BatchNormTrainingTilingData.partial_load_bytes` on MTE2 and
    on VECTOR); then per tile MTE2 in, VECTOR x * scale + shift (2 * itemsize bytes an
    element), MTE3 out.
    """
    item = td.itemsize
    tiling = {"reduce": asdict(td.reduce), "update": asdict(td.update), "workspace_bytes": td.workspace_bytes}
    red = vector_blocks(td.reduce, item, 0, REDUCE_VEC_BYTES)
    load = td.partial_load_bytes()
    upd = vector_blocks(td.update, item, item, 2 * item, first_tile_mte2_bytes=load, first_tile_vector_bytes=load)
    return [KernelSpec("BatchNorm", CoreType.AIV, red, td.reduce.buffer_num, {Buffer.UB: td.reduce.ub_bytes_used},
                       int(BatchNormTrainingTilingKey.TRAINING_REDUCE), dict(args, stage="reduce", tiling=tiling)),
            KernelSpec("BatchNorm", CoreType.AIV, upd, td.update.buffer_num, {Buffer.UB: td.update.ub_bytes_used},
                       int(BatchNormTrainingTilingKey.TRAINING_UPDATE), dict(args, stage="update", tiling=tiling))]


def _per_channel(x: np.ndarray) -> np.ndarray:
    """x [N, C, ...] as fp32 [C, N * prod(spatial)]."""
    c = x.shape[1]
    return np.moveaxis(x.astype(np.float32), 1, 0).reshape(c, -1)


def training_reduce_body(x_t):
    """Body factory of pass 1: per-channel fp32 (mean, biased var) into the workspace
    ([C, 2] at offset 0). Slots: input first."""
    def make(addrs, ws):
        def body(mem):
            xc = _per_channel(tensor_view(mem, addrs[0], x_t))
            mean = xc.mean(axis=1, dtype=np.float32)
            var = np.square(xc - mean[:, None]).mean(axis=1, dtype=np.float32)
            mem.array(ws, (len(mean), 2), np.float32)[...] = np.stack([mean, var], axis=1)
        return body
    return make


def training_update_body(x_t, w_t, b_t, rm_t, rv_t, out_t, mean_t, var_t, eps: float, momentum: float):
    """Body factory of pass 2. Slots: input, [weight,] [bias,] [runningMean,]
    [runningVar,] then output, saveMean, saveInvstd, [runningMean,] [runningVar]."""
    n_in = 1 + sum(t is not None for t in (w_t, b_t, rm_t, rv_t))

    def make(addrs, ws):
        def body(mem):
            c = x_t.view_shape[1]
            st = np.array(mem.array(ws, (c, 2), np.float32))
            mean, var = st[:, 0], st[:, 1]
            i, p = 1, {}
            for key, t in (("w", w_t), ("b", b_t), ("rm", rm_t), ("rv", rv_t)):
                if t is not None:
                    p[key] = tensor_view(mem, addrs[i], t).astype(np.float32)
                    i += 1
            scale = np.float32(1) / np.sqrt(var + np.float32(eps))
            if "w" in p:
                scale = scale * p["w"]
            shift = -mean * scale + (p["b"] if "b" in p else np.float32(0))
            bshape = (1, c) + (1,) * (len(x_t.view_shape) - 2)
            y = tensor_view(mem, addrs[0], x_t).astype(np.float32)
            y = y * scale.reshape(bshape) + shift.reshape(bshape)
            j = n_in
            write_out(mem, addrs[j], out_t, y)
            write_out(mem, addrs[j + 1], mean_t, mean)
            write_out(mem, addrs[j + 2], var_t, var)
            j += 3
            n = int(np.prod(x_t.view_shape, dtype=np.int64)) // max(c, 1)
            mom = np.float32(momentum)
            if rm_t is not None:
                write_out(mem, addrs[j], rm_t, (np.float32(1) - mom) * p["rm"] + mom * mean)
                j += 1
            if rv_t is not None:
                unbiased = var * np.float32(n / (n - 1)) if n > 1 else var
                write_out(mem, addrs[j], rv_t, (np.float32(1) - mom) * p["rv"] + mom * unbiased)
        return body
    return make
