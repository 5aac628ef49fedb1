"""QuantMatmul shape inference: output shape and dtype only (checks with status codes
are in ``op_api.py``)."""
from __future__ import annotations

import numpy as np


def quant_gemm_dims(x1_shape, x2_shape, transpose_x1: bool = False, transpose_x2: bool = False):
    """(out shape, batch, M, N, K, K of x2) of out = op(x1) @ op(x2), op = a swap of the
    last two dims when the transpose flag is set (x1 is then [..., K, M], x2 [..., N, K]).
    Batch dims broadcast (numpy rules; ValueError if they do not)."""
    x1_shape, x2_shape = tuple(x1_shape), tuple(x2_shape)
    m, k = (x1_shape[-1], x1_shape[-2]) if transpose_x1 else (x1_shape[-2], x1_shape[-1])
    k2, n = (x2_shape[-1], x2_shape[-2]) if transpose_x2 else (x2_shape[-2], x2_shape[-1])
    batch_shape = tuple(int(d) for d in np.broadcast_shapes(x1_shape[:-2], x2_shape[:-2]))
    batch = int(np.prod(batch_shape, dtype=np.int64)) if batch_shape else 1
    return batch_shape + (m, n), batch, m, n, k, k2


def infer_shape(x1_shape, x2_shape, out_dtype, transpose_x1: bool = False, transpose_x2: bool = False):
    """[(out shape, out dtype)]: the broadcast batch dims + (M, N) in ``out_dtype`` (the
    caller's out tensor decides fp16 / bf16 / int8)."""
    return [(quant_gemm_dims(x1_shape, x2_shape, transpose_x1, transpose_x2)[0], out_dtype)]
