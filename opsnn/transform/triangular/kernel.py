"""Triu / Tril kernel half: the tile program (shared ``move_spec``) and the numpy body."""
from __future__ import annotations

import numpy as np

from ..common.move_kernel import move_spec as tile_program  # noqa: F401 (the kernel's tile program)


def triangular_fn(upper: bool, diagonal: int):
    """Zero the elements below (``upper``) or above the ``diagonal``-th diagonal of the last two axes."""
    def fn(x):
        return [np.triu(x, diagonal) if upper else np.tril(x, diagonal)]
    return fn
