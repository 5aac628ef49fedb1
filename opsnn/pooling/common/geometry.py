"""Pooling window geometry: pure functions of shapes and attributes (no status codes).

A problem is one 2-D window over the last two axes of every plane (a plane is one
(n, c) image; 3-D ``CHW`` inputs have C planes). Padding is ``[top, left, bottom,
right]`` in input elements.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Pool2dGeom:
    """One pooling problem. ``planes`` images of ``h x w``; kernel ``kh x kw``;
    strides ``sh, sw``; dilations ``dh, dw``; pads top/left/bottom/right; output ``ho x wo``."""

    planes: int
    h: int
    w: int
    kh: int
    kw: int
    sh: int
    sw: int
    dh: int
    dw: int
    pt: int
    pl: int
    pb: int
    pr: int
    ho: int
    wo: int

    @property
    def eff_kh(self) -> int:
        return (self.kh - 1) * self.dh + 1

    @property
    def eff_kw(self) -> int:
        return (self.kw - 1) * self.dw + 1


def pool_out_size(size: int, k: int, s: int, d: int, pad_begin: int, pad_end: int, ceil_mode: bool) -> int:
    """Output length of one spatial axis (torch / CANN / ONNX rule): floor or ceil of
    ``(size + pads - d*(k-1) - 1) / s`` plus one; in ceil mode the last window must
    start inside the input or the leading pad, else it is dropped (CANN aclnnMaxPool
    docs: a window whose top-left lies in the bottom/right pad is discarded)."""
    num = size + pad_begin + pad_end - d * (k - 1) - 1
    if num < 0:
        return 0
    out = (-(-num // s) if ceil_mode else num // s) + 1
    if ceil_mode and (out - 1) * s >= size + pad_begin:
        out -= 1
    return out


def adaptive_bounds(size: int, out: int) -> tuple[np.ndarray, np.ndarray]:
    """torch's adaptive windows: start = floor(o*size/out), end = ceil((o+1)*size/out)."""
    o = np.arange(out, dtype=np.int64)
    return (o * size) // out, -((-(o + 1) * size) // out)


def pair(vals: tuple[int, ...], default: tuple[int, int]) -> tuple[int, int]:
    """An int array of 0, 1 or 2 values as (H, W): empty -> ``default``; one value -> both."""
    if not vals:
        return default
    return (vals[0], vals[0]) if len(vals) == 1 else (vals[0], vals[1])


def pads4(vals: tuple[int, ...]) -> tuple[int, int, int, int]:
    """[] -> 0s; [p] -> p everywhere; [pH, pW] -> symmetric; 4 -> [top, left, bottom, right]."""
    if not vals:
        return (0, 0, 0, 0)
    if len(vals) == 1:
        return (vals[0],) * 4
    if len(vals) == 2:
        return (vals[0], vals[1], vals[0], vals[1])
    return tuple(vals[:4])  # type: ignore[return-value]


def planes_of(shape) -> int:
    """Number of 2-D planes of a [..., H, W] shape (product of the leading dims)."""
    planes = 1
    for x in shape[:-2]:
        planes *= x
    return planes


def make_geom(shape, k, s, d, p4, ceil_mode: bool) -> Pool2dGeom:
    """The geometry of pooling ``shape`` ([..., H, W]) with kernel ``k``, stride ``s``,
    dilation ``d`` (each an (H, W) pair) and pads ``p4`` (top, left, bottom, right).
    The output size may be < 1 (the caller rejects it)."""
    h, w = shape[-2], shape[-1]
    ho = pool_out_size(h, k[0], s[0], d[0], p4[0], p4[2], ceil_mode)
    wo = pool_out_size(w, k[1], s[1], d[1], p4[1], p4[3], ceil_mode)
    return Pool2dGeom(planes_of(shape), h, w, k[0], k[1], s[0], s[1], d[0], d[1], *p4, ho, wo)
