"""DepthToSpace / SpaceToDepth kernel half: the tile program (shared ``move_spec``) and
the numpy bodies (reshape / transpose / reshape)."""
from __future__ import annotations

import numpy as np

from ..common.move_kernel import move_spec as tile_program  # noqa: F401 (the kernel's tile program)


def depth_to_space_fn(b: int, mode: str):
    """DCR: channel = (i*b + j)*C' + c; CRD: channel = c*b*b + i*b + j."""
    def fn(x):
        n, c, h, w = x.shape
        if mode == "DCR":
            t = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
        else:
            t = x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
        return [t.reshape(n, c // (b * b), h * b, w * b)]
    return fn


def space_to_depth_fn(b: int, mode: str = "DCR"):
    """out[n, ch, y, x] = self[n, c, y*b + i, x*b + j] with ch = (i*b + j)*C + c (DCR)
    or c*b*b + i*b + j (CRD)."""
    def fn(x):
        n, c, h, w = x.shape
        t = x.reshape(n, c, h // b, b, w // b, b)
        t = t.transpose(0, 3, 5, 1, 2, 4) if mode == "DCR" else t.transpose(0, 1, 3, 5, 2, 4)
        return [np.ascontiguousarray(t).reshape(n, c * b * b, h // b, w // b)]
    return fn
