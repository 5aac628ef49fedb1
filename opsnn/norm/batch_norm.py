"""aclnnBatchNorm (inference): a UB-streaming vector kernel.

CANN prototype (aclnn_batch_norm.h):
  aclnnBatchNormGetWorkspaceSize(input, weight, bias, runningMean, runningVar, training, momentum, eps,
                                 output, saveMean, saveInvstd, workspaceSize, executor)
  aclnnBatchNorm(workspace, workspaceSize, executor, stream)

This slice implements inference (training=False):
  output = (input - runningMean) / sqrt(runningVar + eps) * weight + bias, per channel (dim 1).
  input/output: 2-D to 5-D ([N, C], [N, C, L], NCHW, NCDHW), FLOAT, FLOAT16 or BF16, same dtype
    and shape.
  weight, bias: [C] or None (then 1 and 0); runningMean, runningVar: [C], required
    (161001 if null); any of FLOAT, FLOAT16, BF16 (fp32 params with fp16 data is the usual mix).
  momentum is unused in inference; eps must be >= 0.
  saveMean / saveInvstd may be None; if given they are left untouched (PyTorch's eval-mode
    batch_norm returns empty save tensors too).
  training=True returns 161002 (not supported in this slice).
Check order: null (input, output, runningMean, runningVar: 161001), tensor types, dtypes,
training, then shapes and eps (161002).

Tile program: units are elements of the flattened input. Per UB tile MTE2 copies the
elements in (itemsize each), VECTOR does two passes (x * scale, + shift; 2 * itemsize
vector bytes per element), MTE3 copies the result out. Each block first loads the four
per-channel parameter vectors (fp32, 16 B per channel) for the channels its elements
span and folds them into scale = weight / sqrt(var + eps) and shift = bias - mean * scale
(charged on the block's first tile: 16 B per channel on MTE2 and on VECTOR). The
parameters stay resident in UB (``fixed_ub_bytes``) when they fit in a quarter of UB
(tiling key 0); otherwise the kernel keeps a quarter-UB window of them and reloads it
as it walks the channels (tiling key 1), each block then paying for every channel
it crosses.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from npu_sim.program import BlockProgram, Pipe, TileSpec

from ..base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_rank, check_same_dtype, check_shape,
                           check_tensor_type, invalid)
from ..base.executor import PreparedKernel, aclOpExecutor
from ..base.memview import tensor_view, write_out
from ..base.op import execute, prepare
from ..base.tiling import align_up, ceil_div, vector_kernel

OP = "aclnnBatchNorm"
PARAM_BYTES_PER_CHANNEL = 16  # weight, bias, mean, var as fp32 (folded in place into scale, shift)


def _bn_body(x_t, w_t, b_t, m_t, v_t, out_t, eps: float):
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


def _charge_params(spec, td, inner: int, c: int, resident: bool) -> None:
    """Add each block's parameter load and fold to its first tile (MTE2 and VECTOR)."""
    new: dict[tuple[int, int], BlockProgram] = {}
    blocks = []
    for bi, prog in enumerate(spec.blocks):
        units = td.per_block if bi < td.block_dim - 1 else td.total_units - td.per_block * (td.block_dim - 1)
        span = ceil_div(units, inner) + 1
        channels = min(c, span) if resident else span
        extra = PARAM_BYTES_PER_CHANNEL * channels
        key = (id(prog), extra)
        if key not in new:
            first, rest = prog.tiles[0], prog.tiles[1:]
            bumped = TileSpec(tuple(replace(s, nbytes=s.nbytes + extra) if s.pipe == Pipe.MTE2 else
                                    replace(s, vector_bytes=s.vector_bytes + extra) if s.pipe == Pipe.VECTOR else s
                                    for s in first.stages), 1)
            tiles = (bumped,) + ((TileSpec(first.stages, first.count - 1),) if first.count > 1 else ()) + rest
            new[key] = BlockProgram(tiles)
        blocks.append(new[key])
    spec.blocks = tuple(blocks)


def _build(chip, input, weight, bias, runningMean, runningVar, training, momentum, eps,  # noqa: A002,N803
           output, saveMean, saveInvstd):  # noqa: N803
    # 1. null pointers
    check_not_null(OP, input=input, output=output)
    if not training:
        check_not_null(OP, runningMean=runningMean, runningVar=runningVar)
    opt = {k: t for k, t in (("weight", weight), ("bias", bias), ("saveMean", saveMean),
                             ("saveInvstd", saveInvstd)) if t is not None}
    check_not_null(OP, **opt)  # destroyed optional tensors
    # 2. tensor types
    check_tensor_type(OP, input=input, output=output, **opt)
    if runningMean is not None:
        check_tensor_type(OP, runningMean=runningMean)
    if runningVar is not None:
        check_tensor_type(OP, runningVar=runningVar)
    # 3. dtypes
    check_dtype(OP, "input", input, FLOAT_TYPES_BF16)
    check_dtype(OP, "output", output, FLOAT_TYPES_BF16)
    check_same_dtype(OP, input=input, output=output)
    params = {k: t for k, t in (("weight", weight), ("bias", bias), ("runningMean", runningMean),
                                ("runningVar", runningVar)) if t is not None}
    for name, t in params.items():
        check_dtype(OP, name, t, FLOAT_TYPES_BF16)
    if training:
        raise invalid(OP, "training=true is not supported in this slice (inference only)")
    # 4. shapes and attributes
    check_rank(OP, "input", input, (2, 3, 4, 5))
    check_shape(OP, "output", output, input.view_shape)
    c = input.view_shape[1]
    for name, t in params.items():
        check_shape(OP, name, t, (c,))
    try:
        eps_f = float(eps)
        float(momentum)
    except (TypeError, ValueError):
        raise invalid(OP, f"eps and momentum must be numbers, got eps={eps!r}, momentum={momentum!r}") from None
    if not eps_f >= 0:
        raise invalid(OP, f"eps must be >= 0, got {eps!r}")

    # tiling
    n = input.numel
    inner = int(np.prod(input.view_shape[2:], dtype=np.int64)) if len(input.view_shape) > 2 else 1
    item = input.itemsize
    param_bytes = align_up(PARAM_BYTES_PER_CHANNEL * c, 32)
    resident = param_bytes <= chip.ub_bytes // 4
    fixed = param_bytes if resident else align_up(chip.ub_bytes // 4, 32)
    spec, td = vector_kernel(chip, "BatchNorm", n, item, item, 2 * item, fixed_ub_bytes=fixed,
                             tiling_key=0 if resident else 1,
                             args={"shapes": [list(input.view_shape)], "dtype": input.dtype_name,
                                   "channels": c, "eps": eps_f, "training": False,
                                   "bytes": 2 * input.nbytes + PARAM_BYTES_PER_CHANNEL * c})
    _charge_params(spec, td, max(inner, 1), c, resident)
    inputs = [input] + list(params.values())
    body = _bn_body(input, weight, bias, runningMean, runningVar, output, eps_f)
    return aclOpExecutor("BatchNorm", [PreparedKernel(spec, body)], inputs, [output], 0,
                         info={"tiling": spec.args["tiling"], "tiling_key": spec.tiling_key})


def aclnnBatchNormGetWorkspaceSize(input, weight, bias, runningMean, runningVar, training, momentum,  # noqa: N802,A002
                                   eps, output, saveMean=None, saveInvstd=None):  # noqa: N803
    """Phase 1 of inference batch norm (see the module doc). Returns (workspace_size,
    executor, status): 161001 null input/output/runningMean/runningVar; 161002 dtype,
    shape, eps, or training=True (not supported)."""
    return prepare("BatchNorm", lambda chip: _build(chip, input, weight, bias, runningMean, runningVar, training,
                                                    momentum, eps, output, saveMean, saveInvstd))


def aclnnBatchNorm(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of BatchNorm: bind addresses and enqueue on ``stream``. Returns a status."""
    return execute("BatchNorm", workspace, workspaceSize, executor, stream)
