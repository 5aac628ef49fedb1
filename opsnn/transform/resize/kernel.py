"""Resize kernel half: the tile program (shared ``move_spec``), the per-axis
interpolation matrices (ONNX Resize semantics) and the numpy body.

Per resized axis of ``n_in -> n_out`` a dense [n_out, n_in] matrix W maps the input
line to the output line; the body applies them axis by axis in float64.
Coordinates (x: output index, s: scale, ONNX Resize ``coordinate_transformation_mode``):
half_pixel (x + 0.5)/s - 0.5; half_pixel_symmetric; pytorch_half_pixel (0 when
n_out == 1); align_corners x (n_in - 1)/(s n_in - 1); asymmetric x / s;
tf_crop_and_resize over the ROI (outside it: ``extrapolation_value``).
"""
from __future__ import annotations

import math

import numpy as np

from ..common.move_kernel import move_spec as tile_program  # noqa: F401 (the kernel's tile program)


def source_coord(x: int, n_in: int, n_out: int, s: float, coord: str, roi=(0.0, 1.0)) -> float:
    """The input coordinate of output index ``x``."""
    if coord == "half_pixel":
        return (x + 0.5) / s - 0.5
    if coord == "half_pixel_symmetric":
        adj = n_out / (s * n_in)
        center = n_in / 2
        return center * (1 - adj) + (x + 0.5) / s - 0.5
    if coord == "pytorch_half_pixel":
        return (x + 0.5) / s - 0.5 if n_out > 1 else 0.0
    length = s * n_in   # ONNX uses the unrounded output length here
    if coord == "align_corners":
        return x * (n_in - 1) / (length - 1) if length != 1 else 0.0
    if coord == "asymmetric":
        return x / s
    if coord == "tf_crop_and_resize":
        a, b = roi
        return a * (n_in - 1) + x * (b - a) * (n_in - 1) / (length - 1) if length != 1 else 0.5 * (a + b) * (n_in - 1)
    raise ValueError(f"coordinate transformation mode {coord!r}")


def _cubic(t: float, a: float) -> float:
    t = abs(t)
    if t <= 1:
        return (a + 2) * t ** 3 - (a + 3) * t ** 2 + 1
    if t < 2:
        return a * t ** 3 - 5 * a * t ** 2 + 8 * a * t - 4 * a
    return 0.0


def _antialias_coeffs(mode: str, ratio: float, s: float, a: float) -> list[float]:
    """A downscaling filter stretched by 1 / s (ONNX Resize ``antialias``), normalised."""
    s = min(s, 1.0)
    support = 1 if mode == "linear" else 2
    start = int(math.floor(-support / s) + 1)
    ts = [(i - ratio) * s for i in range(start, 2 - start)]
    c = [max(0.0, 1 - abs(t)) for t in ts] if mode == "linear" else [_cubic(t, a) for t in ts]
    tot = sum(c)
    return [v / tot for v in c]


def _coeffs(mode: str, ratio: float, nearest: str, a: float) -> list[float]:
    if mode == "nearest":
        if ratio == 1.0:
            return [0.0, 1.0]
        up = {"round_prefer_floor": ratio > 0.5, "round_prefer_ceil": ratio >= 0.5, "floor": False,
              "ceil": True}[nearest]
        return [0.0, 1.0] if up else [1.0, 0.0]
    if mode == "linear":
        return [1 - ratio, ratio]

    return [_cubic(ratio + 1, a), _cubic(ratio, a), _cubic(1 - ratio, a), _cubic(2 - ratio, a)]


def axis_matrix(n_in: int, n_out: int, s: float, mode: str, coord: str, nearest: str = "round_prefer_floor",
                a: float = -0.75, exclude_outside: bool = False, roi=(0.0, 1.0), antialias: bool = False):
    """(W [n_out, n_in] float64, outside [n_out] bool): outside marks the
    tf_crop_and_resize outputs that take the extrapolation value."""
    w = np.zeros((n_out, n_in))
    outside = np.zeros(n_out, bool)
    wide = antialias and mode != "nearest" and s < 1
    for x in range(n_out):
        xo = source_coord(x, n_in, n_out, s, coord, roi)
        if coord == "tf_crop_and_resize" and (xo < 0 or xo > n_in - 1):
            outside[x] = True
            continue
        f = math.floor(xo)
        ratio = 1.0 if xo == f else xo - f
        c = _antialias_coeffs(mode, ratio, s, a) if wide else _coeffs(mode, ratio, nearest, a)
        taps = len(c)
        first = (f - 1 if xo == f else f) - (taps // 2 - 1)
        idx = [first + t for t in range(taps)]
        if exclude_outside:
            c = [v if 0 <= i < n_in else 0.0 for v, i in zip(c, idx)]
            tot = sum(c)
            c = [v / tot for v in c] if tot else c
        for v, i in zip(c, idx):
            w[x, min(max(i, 0), n_in - 1)] += v
    return w, outside


def resize_fn(in_shape, out_shape, scales, mode, coord, nearest, a, exclude_outside, rois, extrapolation,
              antialias=False):
    """``fn(x) -> [out]``: the axis matrices applied to every resized axis."""
    mats = [None if i == o and coord != "tf_crop_and_resize" else
            axis_matrix(i, o, s, mode, coord, nearest, a, exclude_outside, r, antialias)
            for i, o, s, r in zip(in_shape, out_shape, scales, rois)]

    def fn(x):
        y = x.astype(np.float64)
        mask = np.zeros(out_shape, bool)
        for ax, m in enumerate(mats):
            if m is None:
                continue
            w, outside = m
            y = np.moveaxis(np.tensordot(w, np.moveaxis(y, ax, 0), axes=(1, 0)), 0, ax)
            shp = [1] * len(out_shape)
            shp[ax] = len(outside)
            mask = mask | outside.reshape(shp)
        if mask.any():
            y = np.where(mask, extrapolation, y)
        return [y]
    return fn
