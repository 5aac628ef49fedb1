"""Topk kernel half: the tile program (shared ``move_spec``) and the numpy body."""
from __future__ import annotations

import numpy as np

from ..common.move_kernel import move_spec as tile_program  # noqa: F401 (the kernel's tile program)


def topk_fn(k: int, axis: int, largest: bool):
    """The k largest (smallest) values along ``axis``, sorted, ties to the lower index
    (a stable sort of the negated values for ``largest``); their INT64 indices."""
    def fn(x):
        key = x.astype(np.float64)
        order = np.argsort(-key if largest else key, axis=axis, kind="stable")
        idx = np.take(order, np.arange(k), axis=axis)
        return [np.take_along_axis(x, idx, axis=axis), idx.astype(np.int64)]
    return fn
