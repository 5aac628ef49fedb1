"""Matmul-family shape inference: output shapes and dtypes only (the checks with status
codes are in ``op_api.py``)."""
from __future__ import annotations

import numpy as np


def gemm_dims(self_shape: tuple[int, ...], mat2_shape: tuple[int, ...]) -> tuple[tuple[int, ...], int, int, int, int]:
    """torch.matmul-style inference for >= 2-D operands whose batch dims broadcast and
    whose K agree: (out shape, batch = product of the broadcast batch dims, M, N, K)."""
    m, k = self_shape[-2], self_shape[-1]
    n = mat2_shape[-1]
    batch_shape = tuple(int(d) for d in np.broadcast_shapes(tuple(self_shape[:-2]), tuple(mat2_shape[:-2])))
    batch = 1
    for d in batch_shape:
        batch *= d
    return batch_shape + (m, n), batch, m, n, k


def infer_shape(self_shape: tuple[int, ...], self_dtype, mat2_shape: tuple[int, ...], mat2_dtype=None):
    """[(out shape, out dtype)] of out = self @ mat2: the broadcast batch dims + (M, N),
    in self's dtype (Matmul, Mm, BatchMatMul; Addmm with mat1 as ``self``)."""
    return [(gemm_dims(tuple(self_shape), tuple(mat2_shape))[0], self_dtype)]
