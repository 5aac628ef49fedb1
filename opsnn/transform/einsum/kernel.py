"""Einsum kernel half: the tile program (shared ``move_spec``) and the numpy body
(accumulated in float64 for floating operands, int64 for integers)."""
from __future__ import annotations

import numpy as np

from ..common.move_kernel import move_spec as tile_program  # noqa: F401 (the kernel's tile program)


def einsum_fn(terms, out: str):
    spec = ",".join(terms) + "->" + out

    def fn(*xs):
        acc = np.int64 if all(np.dtype(x.dtype).kind in "iu" for x in xs) else np.float64
        return [np.einsum(spec, *[x.astype(acc) for x in xs])]
    return fn
