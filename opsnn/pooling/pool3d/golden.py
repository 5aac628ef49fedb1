"""float64 references for 3-D pooling (tests only): one window at a time over
(d, h, w), independent of the separable kernel. Pads are (d_b, h_b, w_b, d_e, h_e, w_e)."""
from __future__ import annotations

import itertools
import math

import numpy as np


def _out(size, k, s, d, p0, p1, ceil_mode):
    if size + p0 + p1 < d * (k - 1) + 1:
        return 0   # the window does not fit the padded input
    span = (size + p0 + p1 - d * (k - 1) - 1) / s
    n = (math.ceil(span) if ceil_mode else math.floor(span)) + 1
    if ceil_mode and (n - 1) * s >= size + p0:
        n -= 1
    return n


def _out_sizes(shape, k, s, d, p6, ceil_mode):
    sizes = shape[-3:]
    return [_out(sizes[i], k[i], s[i], d[i], p6[i], p6[i + 3], ceil_mode) for i in range(3)]


def _windows(shape, k, s, d, p6, ceil_mode):
    """(output position, its taps' input positions) for every output."""
    outs = _out_sizes(shape, k, s, d, p6, ceil_mode)
    for o in itertools.product(*[range(max(n, 0)) for n in outs]):
        yield o, [tuple(o[i] * s[i] - p6[i] + t[i] * d[i] for i in range(3))
                  for t in itertools.product(*[range(kk) for kk in k])]


def max_pool3d_golden(x, k, s, d, p6, ceil_mode=False):
    """(values, flat d*H*W + h*W + w indices): first strict maximum in (d, h, w) tap order;
    a window with nothing above -inf reports its first non-negative tap per axis."""
    x = np.asarray(x, dtype=np.float64)
    lead = x.shape[:-3]
    xs = x.reshape((-1,) + x.shape[-3:])
    D, H, W = x.shape[-3:]
    outs = [max(n, 0) for n in _out_sizes(x.shape, k, s, d, p6, ceil_mode)]
    res = {o: [t for t in taps if 0 <= t[0] < D and 0 <= t[1] < H and 0 <= t[2] < W]
           for o, taps in _windows(x.shape, k, s, d, p6, ceil_mode)}
    val = np.full((xs.shape[0],) + tuple(outs), -np.inf)
    idx = np.zeros(val.shape, np.int64)
    for o in res:   # torch's start index: the first non-negative tap along each axis
        first = [next(o[i] * s[i] - p6[i] + t * d[i] for t in range(k[i]) if o[i] * s[i] - p6[i] + t * d[i] >= 0)
                 for i in range(3)]
        idx[(slice(None),) + o] = first[0] * H * W + first[1] * W + first[2]
    for p in range(xs.shape[0]):
        for o, taps in res.items():
            for t in taps:
                v = xs[(p,) + t]
                if v > val[(p,) + o]:
                    val[(p,) + o], idx[(p,) + o] = v, t[0] * H * W + t[1] * W + t[2]
    return val.reshape(lead + tuple(outs)), idx.reshape(lead + tuple(outs))


def avg_pool3d_golden(x, k, s, p6, ceil_mode=False, count_include_pad=True, divisor_override=0):
    """Average over each window (padding adds 0); divisor: the override, else the
    window clipped to the padded extent (count_include_pad) or to the input."""
    x = np.asarray(x, dtype=np.float64)
    lead = x.shape[:-3]
    xs = x.reshape((-1,) + x.shape[-3:])
    sizes = x.shape[-3:]
    outs = [max(n, 0) for n in _out_sizes(x.shape, k, s, (1, 1, 1), p6, ceil_mode)]
    out = np.zeros((xs.shape[0],) + tuple(outs))
    for o, taps in _windows(x.shape, k, s, (1, 1, 1), p6, ceil_mode):
        inside = [t for t in taps if all(0 <= t[i] < sizes[i] for i in range(3))]
        padded = [t for t in taps if all(-p6[i] <= t[i] < sizes[i] + p6[i + 3] for i in range(3))]
        div = divisor_override or (len(padded) if count_include_pad else len(inside))
        for p in range(xs.shape[0]):
            out[(p,) + o] = sum(xs[(p,) + t] for t in inside) / div
    return out.reshape(lead + out.shape[1:])
