"""Kernel half of the pooling family: geometry, tiling and numpy functional bodies.

Geometry (:class:`Pool2dGeom`) is one 2-D window over the last two axes of every
plane (a plane is one (n, c) image; 3-D ``CHW`` inputs have C planes). Padding is
``[top, left, bottom, right]`` in input elements; max pooling pads with -inf, average
pooling with zeros (its divisor is computed separately, torch's rule).

Tiling (:func:`pool_tiling`), in ops-nn's order (chip facts, then sizes, then the
struct): a unit is one output row of one plane, ``Wo`` outputs, which needs
``min(H, eff_kh)`` input rows. If that does not fit UB double-buffered, a unit is a
chunk of ``wc`` outputs of a row (tiling key 1), and if even one output does not fit,
a chunk of ``r`` kernel rows of one output accumulated in UB (key 2). The unit
counts and bytes go to :func:`opsnn.base.tiling.vector_kernel`.

Bodies loop over the ``kh * kw`` kernel offsets, each a strided slice of the padded
planes (the same data ``numpy.lib.stride_tricks.sliding_window_view`` would give,
without materialising the windows), so ResNet/AlexNet-sized inputs take milliseconds.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..base.memview import tensor_view, write_out
from ..base.status import ACLNN_ERR_INNER_TILING_ERROR, AclnnError
from ..base.tiling import ceil_div, vector_kernel


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
    start inside the input or the leading pad, else it is dropped."""
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


# ---------------------------------------------------------------------------- tiling
def pool_tiling(chip, name: str, *, planes: int, ho: int, wo: int, rows_in: int,
                cols_in: Callable[[int], int], in_item: int, out_bytes_per_out: int, tmp_bytes_per_out: int,
                vec_bytes_total: float, tiling_args: dict, buffer_num: int = 2):
    """Pick the pooling unit (see module docstring) and build the vector KernelSpec.

    ``rows_in``: input rows one output row reads; ``cols_in(wc)``: input columns
    ``wc`` adjacent outputs read; ``out_bytes_per_out``: bytes written per output
    (value, plus index for MaxPool2dWithIndices); ``tmp_bytes_per_out``: UB scratch
    per output (accumulator / running index); ``vec_bytes_total``: operand bytes
    the whole kernel streams through the Vector unit.
    Returns ``(spec, info)``; raises AclnnError(561002) if no unit fits UB.
    """
    ub = chip.ub_bytes

    def slot(r: int, wc: int) -> int:
        return buffer_num * (r * cols_in(wc) * in_item + wc * out_bytes_per_out) + wc * tmp_bytes_per_out

    def largest(lo: int, hi: int, fits) -> int:
        """Largest v in [lo, hi] with fits(v) (fits is monotone decreasing); lo-1 if none."""
        if not fits(lo):
            return lo - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if fits(mid):
                lo = mid
            else:
                hi = mid - 1
        return lo

    r, wc, key = rows_in, wo, 0
    if slot(rows_in, wo) > ub:
        wc = largest(1, wo, lambda v: slot(rows_in, v) <= ub)
        key = 1
        if wc < 1:
            wc, key = 1, 2
            r = largest(1, rows_in, lambda v: slot(v, 1) <= ub)
            if r < 1:
                raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR,
                                 f"{name}: one kernel row of {cols_in(1)} input elements needs {slot(1, 1)} B "
                                 f"of UB but {chip.name} has {ub} B")
    n_wc, n_rc = ceil_div(wo, wc), ceil_div(rows_in, r)
    units = planes * ho * n_wc * n_rc
    # exact traffic: every chunk of every output row reads rows_in rows of its columns
    row_cols = (n_wc - 1) * cols_in(wc) + cols_in(wo - (n_wc - 1) * wc)
    in_total = planes * ho * rows_in * row_cols * in_item
    out_total = planes * ho * wo * out_bytes_per_out
    spec, td = vector_kernel(chip, name, units, in_total / units, out_total / units, vec_bytes_total / units,
                             tmp_bytes_per_unit=wc * tmp_bytes_per_out, buffer_num=buffer_num, tiling_key=key,
                             args=dict(tiling_args, bytes=int(in_total + out_total), unit_outputs=wc,
                                       unit_kernel_rows=r))
    strategy = ("row", "row_chunk", "kernel_row_chunk")[key]
    spec.args["strategy"] = strategy
    info = {"strategy": strategy, "unit_outputs": wc, "unit_kernel_rows": r, "tiling": spec.args["tiling"]}
    return spec, info


# ---------------------------------------------------------------------------- bodies
def _compute_dtype(dt: np.dtype) -> np.dtype:
    return np.dtype(np.float64) if dt == np.float64 else np.dtype(np.float32)


def _planes(x: np.ndarray, g: Pool2dGeom) -> np.ndarray:
    return x.reshape(g.planes, g.h, g.w)


def _padded(x: np.ndarray, g: Pool2dGeom, fill: float) -> np.ndarray:
    """Planes padded by the geometry's pads, plus any extra bottom/right the last
    (ceil-mode) window reaches, filled with ``fill``."""
    need_h = (g.ho - 1) * g.sh + g.eff_kh
    need_w = (g.wo - 1) * g.sw + g.eff_kw
    eb = max(g.pb, need_h - g.h - g.pt)
    er = max(g.pr, need_w - g.w - g.pl)
    return np.pad(x, ((0, 0), (g.pt, eb), (g.pl, er)), constant_values=fill)


def _window_slices(g: Pool2dGeom):
    """(i, j, slice rows, slice cols) for every kernel offset into the padded planes."""
    for i in range(g.kh):
        rs = slice(i * g.dh, i * g.dh + (g.ho - 1) * g.sh + 1, g.sh)
        for j in range(g.kw):
            yield i, j, rs, slice(j * g.dw, j * g.dw + (g.wo - 1) * g.sw + 1, g.sw)


def max_pool_compute(x: np.ndarray, g: Pool2dGeom, with_indices: bool):
    """Max over each window (padding is -inf) and, optionally, torch's index: the
    flat ``h * W + w`` of the first maximum in kernel row-major order within the
    plane; a NaN wins over any number (torch propagates NaN). A window with no
    value above -inf reports its first non-negative tap, as torch does (with a dilated
    kernel a window may lie wholly in the padding: -inf there)."""
    ct = _compute_dtype(x.dtype)
    xp = _padded(_planes(x, g).astype(ct, copy=False), g, -np.inf)
    best = np.full((g.planes, g.ho, g.wo), -np.inf, ct)
    idx = None
    if with_indices:
        oh = np.arange(g.ho, dtype=np.int64) * g.sh - g.pt
        ow = np.arange(g.wo, dtype=np.int64) * g.sw - g.pl
        # first non-negative dilated tap of each window (torch: while (hstart < 0) hstart += dilation)
        h0 = np.where(oh < 0, oh % g.dh, oh)
        w0 = np.where(ow < 0, ow % g.dw, ow)
        idx = np.broadcast_to(h0[:, None] * g.w + w0[None, :], best.shape).copy()
    for i, j, rs, cs in _window_slices(g):
        v = xp[:, rs, cs]
        if idx is None:
            np.maximum(best, v, out=best)  # propagates NaN
        else:
            m = (v > best) | np.isnan(v)
            np.copyto(best, v, where=m)
            tap = (oh[:, None] + i * g.dh) * g.w + (ow[None, :] + j * g.dw)
            np.copyto(idx, np.broadcast_to(tap, idx.shape), where=m)
    return best, idx


def avg_divisor(g: Pool2dGeom, count_include_pad: bool, divisor_override: int) -> np.ndarray:
    """torch's avg_pool2d divisor per output (ho, wo): the override if non-zero;
    else the window clipped to the padded extent (countIncludePad) or to the input."""
    if divisor_override:
        return np.full((g.ho, g.wo), float(divisor_override))

    def axis(n_out, s, k, pb, pe, size):
        start = np.arange(n_out, dtype=np.int64) * s - pb
        end = np.minimum(start + k, size + pe)
        full = end - start
        valid = np.minimum(end, size) - np.maximum(start, 0)
        return full, valid

    fh, vh = axis(g.ho, g.sh, g.kh, g.pt, g.pb, g.h)
    fw, vw = axis(g.wo, g.sw, g.kw, g.pl, g.pr, g.w)
    d = (fh[:, None] * fw[None, :]) if count_include_pad else (vh[:, None] * vw[None, :])
    return d.astype(np.float64)


def avg_pool_compute(x: np.ndarray, g: Pool2dGeom, count_include_pad: bool, divisor_override: int) -> np.ndarray:
    ct = _compute_dtype(x.dtype)
    xp = _padded(_planes(x, g).astype(ct, copy=False), g, 0.0)
    acc = np.zeros((g.planes, g.ho, g.wo), ct)
    for _, _, rs, cs in _window_slices(g):
        acc += xp[:, rs, cs]
    div = avg_divisor(g, count_include_pad, divisor_override).astype(ct)
    return acc / div


def adaptive_avg_compute(x: np.ndarray, planes: int, h: int, w: int, ho: int, wo: int) -> np.ndarray:
    """torch adaptive_avg_pool2d via an integral image (float64, so exact enough
    for any window size)."""
    xs = x.reshape(planes, h, w)
    if ho == 1 and wo == 1:
        return xs.mean(axis=(1, 2), dtype=np.float64).reshape(planes, 1, 1)
    s = np.zeros((planes, h + 1, w + 1), np.float64)
    np.cumsum(xs, axis=1, dtype=np.float64, out=s[:, 1:, 1:])
    np.cumsum(s[:, 1:, 1:], axis=2, out=s[:, 1:, 1:])
    hs, he = adaptive_bounds(h, ho)
    ws, we = adaptive_bounds(w, wo)
    tot = (s[:, he[:, None], we[None, :]] - s[:, hs[:, None], we[None, :]]
           - s[:, he[:, None], ws[None, :]] + s[:, hs[:, None], ws[None, :]])
    cnt = (he - hs)[:, None] * (we - ws)[None, :]
    return tot / cnt


# ---------------------------------------------------------------------------- factories
def max_pool_body(x_t, out_t, idx_t, g: Pool2dGeom):
    """Slots: self, out[, indices]."""
    def make(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            val, idx = max_pool_compute(x, g, idx_t is not None)
            write_out(mem, addrs[1], out_t, val.reshape(out_t.view_shape))
            if idx_t is not None:
                write_out(mem, addrs[2], idx_t, idx.reshape(idx_t.view_shape))
        return body
    return make


def avg_pool_body(x_t, out_t, g: Pool2dGeom, count_include_pad: bool, divisor_override: int):
    def make(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            r = avg_pool_compute(x, g, count_include_pad, divisor_override)
            write_out(mem, addrs[1], out_t, r.reshape(out_t.view_shape))
        return body
    return make


def adaptive_avg_body(x_t, out_t, planes: int, h: int, w: int, ho: int, wo: int):
    def make(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            r = adaptive_avg_compute(x, planes, h, w, ho, wo)
            write_out(mem, addrs[1], out_t, r.reshape(out_t.view_shape))
        return body
    return make
