"""Shape inference of the extra reductions: the reduced shape, ``self``'s dtype."""
from __future__ import annotations

from ..common.infershape import out_shape, reduced_axes


def infer_reduce(self, dim, keep_dim):
    """[(out shape, dtype)] for ``self`` = (shape, dtype)."""
    return [(out_shape(tuple(self[0]), reduced_axes(dim, len(self[0])), bool(keep_dim)), self[1])]
