"""DepthToSpace / SpaceToDepth references (exact, element loops), tests only."""
from __future__ import annotations

import numpy as np


def depth_to_space_golden(x, b, mode="DCR"):
    n, c, h, w = x.shape
    co = c // (b * b)
    out = np.empty((n, co, h * b, w * b), x.dtype)
    for cc in range(co):
        for i in range(b):
            for j in range(b):
                src = (i * b + j) * co + cc if mode == "DCR" else cc * b * b + i * b + j
                out[:, cc, i::b, j::b] = x[:, src]
    return out


def space_to_depth_golden(x, b, mode="DCR"):
    n, c, h, w = x.shape
    out = np.empty((n, c * b * b, h // b, w // b), x.dtype)
    for cc in range(c):
        for i in range(b):
            for j in range(b):
                dst = (i * b + j) * c + cc if mode == "DCR" else cc * b * b + i * b + j
                out[:, dst] = x[:, cc, i::b, j::b]
    return out
