"""Gather / GatherNd kernel half: the tile program (shared ``move_spec``) and the numpy
bodies, which check every index on the device (:class:`DeviceIndexError`)."""
from __future__ import annotations

import numpy as np

from ..common.move_kernel import DeviceIndexError
from ..common.move_kernel import move_spec as tile_program  # noqa: F401 (the kernel's tile program)


def _checked(op: str, idx, n, negative: bool):
    idx = idx.astype(np.int64)
    lo = -n if negative else 0
    bad = (idx < lo) | (idx >= n)
    if bad.any():
        pos = tuple(int(p) for p in np.argwhere(bad)[0])
        raise DeviceIndexError(f"{op}: index{list(pos)} = {int(idx[pos])} is out of range [{lo}, "
                               f"{int(np.broadcast_to(n, idx.shape)[pos])})")
    return np.where(idx < 0, idx + n, idx)


def gather_fn(axis: int):
    """out[i][j][k] = self[index[i][j][k]][j][k] (axis 0; likewise for the others)."""
    def fn(x, index):
        idx = _checked("Gather", index, x.shape[axis], True)
        # index may be shorter than self outside ``axis``: only that corner is read
        sub = x[tuple(slice(None) if a == axis else slice(0, d) for a, d in enumerate(idx.shape))]
        return [np.take_along_axis(sub, idx, axis=axis) if idx.size else np.zeros(idx.shape, x.dtype)]
    return fn


def gather_nd_fn(negative: bool):
    """out[i...] = self[indices[i..., 0], ..., indices[i..., k-1]] (a slice when k < rank)."""
    def fn(x, indices):
        k = indices.shape[-1]
        dims = np.array(x.shape[:k], np.int64)
        idx = _checked("GatherNd", indices, dims, negative).reshape(-1, k)
        flat = x[tuple(idx.T)] if k else np.broadcast_to(x, (idx.shape[0],) + x.shape)
        return [flat.reshape(indices.shape[:-1] + x.shape[k:])]
    return fn
