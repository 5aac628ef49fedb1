"""Scatter / ScatterNd kernel half: the tile program (shared ``move_spec``) and the numpy
bodies (updates applied in index order; indices checked on the device)."""
from __future__ import annotations

import numpy as np

from ..common.move_kernel import DeviceIndexError
from ..common.move_kernel import move_spec as tile_program  # noqa: F401 (the kernel's tile program)

#: reduce code -> name (0-2: CANN aclnnScatter; 3-4: simulator extension for ONNX max/min)
REDUCE = {0: "none", 1: "add", 2: "mul", 3: "max", 4: "min"}
_UFUNC = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}


def _norm(op, idx, n):
    idx = idx.astype(np.int64)
    bad = (idx < -n) | (idx >= n)
    if bad.any():
        pos = tuple(int(p) for p in np.argwhere(bad)[0])
        lim = int(np.broadcast_to(n, idx.shape)[pos])
        raise DeviceIndexError(f"{op}: index{list(pos)} = {int(idx[pos])} is out of range [{-lim}, {lim})")
    return np.where(idx < 0, idx + n, idx)


def scatter_fn(axis: int, reduce: str):
    """out = self; out[index[i][j]][j] (op)= src[i][j] (axis 0; likewise others)."""
    def fn(x, index, src):
        out = x.copy()
        idx = _norm("Scatter", index, x.shape[axis])
        grid = list(np.indices(idx.shape, sparse=True))
        grid[axis] = idx
        vals = src[tuple(slice(0, d) for d in idx.shape)]
        if reduce == "none":
            out[tuple(grid)] = vals
        else:
            _UFUNC[reduce].at(out, tuple(np.broadcast_arrays(*grid)), vals)
        return [out]
    return fn


def scatter_nd_fn(reduce: str = "none"):
    """out = data; out[indices[i...]] (op)= updates[i...] (a slice when k < rank), in
    index order."""
    def fn(data, indices, updates):
        out = data.copy()
        k = indices.shape[-1]
        idx = _norm("ScatterNd", indices, np.array(data.shape[:k], np.int64)).reshape(-1, k)
        upd = updates.reshape((idx.shape[0],) + data.shape[k:])
        for row, u in zip(idx, upd):
            if reduce == "none":
                out[tuple(row)] = u
            else:
                out[tuple(row)] = _UFUNC[reduce](out[tuple(row)], u)
        return [out]
    return fn
