"""LpPool geometry and shape inference (no status codes): 1-D as a 2-D pass over
[N*C, 1, L], 2-D as one pass, 3-D as the two separable passes."""
from __future__ import annotations

from ..common.geometry import Pool2dGeom, make_geom
from ..common.separable import passes


def lp_geoms(shape, k, s, d, pads, ceil_mode: bool) -> list[Pool2dGeom]:
    """The pass geometries of pooling ``shape`` [N, C, *S] (1 to 3 spatial dims) with
    per-axis kernel ``k``, strides ``s``, dilations ``d`` and ONNX ``pads`` [b..., e...]."""
    nsp = len(shape) - 2
    planes = shape[0] * shape[1]
    if nsp == 1:
        return [make_geom((planes, 1, shape[2]), (1, k[0]), (1, s[0]), (1, d[0]), (0, pads[0], 0, pads[1]),
                          ceil_mode)]
    if nsp == 2:
        return [make_geom((planes,) + tuple(shape[2:]), k, s, d, (pads[0], pads[1], pads[2], pads[3]), ceil_mode)]
    return list(passes((planes,) + tuple(shape[2:]), k, s, d, pads, ceil_mode))


def out_shape(shape, geoms: list[Pool2dGeom]) -> tuple[int, ...]:
    """[N, C, *So]."""
    nsp = len(shape) - 2
    g = geoms[0]
    sp = {1: (g.wo,), 2: (g.ho, g.wo), 3: (geoms[-1].ho, g.ho, g.wo)}[nsp]
    return tuple(shape[:2]) + sp
