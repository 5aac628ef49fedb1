"""Phase-1 attribute checks shared by the pooling ``op_api`` modules (status 161002), and
their common trace args."""
from __future__ import annotations

from ...base.checks import invalid
from .geometry import Pool2dGeom, make_geom


def int_array(op: str, name: str, v, lengths: tuple[int, ...], minimum: int) -> tuple[int, ...]:
    """An int array attribute: 161002 unless a sequence of ints of an allowed length,
    each >= ``minimum``."""
    if isinstance(v, (str, bytes)) or not hasattr(v, "__len__"):
        raise invalid(op, f"{name} must be an aclIntArray, got {type(v).__name__}")
    vals = tuple(v)
    if len(vals) not in lengths:
        raise invalid(op, f"{name} must have {' or '.join(map(str, lengths))} elements, got {len(vals)}")
    for x in vals:
        if isinstance(x, bool) or not isinstance(x, (int,)) and not hasattr(x, "__index__"):
            raise invalid(op, f"{name} elements must be integers, got {list(vals)}")
        if int(x) < minimum:
            raise invalid(op, f"{name} elements must be >= {minimum}, got {list(vals)}")
    return tuple(int(x) for x in vals)


def check_pad_limit(op: str, name: str, p4, eff_k: tuple[int, int]) -> None:
    """Each pad at most half the (dilated) kernel along its axis (161002)."""
    t, l, b, r = p4
    for side, p, k in (("top", t, eff_k[0]), ("left", l, eff_k[1]), ("bottom", b, eff_k[0]),
                       ("right", r, eff_k[1])):
        if p > k // 2:
            raise invalid(op, f"{name}: {side} pad {p} must be at most half the kernel size {k}")


def check_spatial(op: str, shape) -> None:
    """161002 if any of the C/H/W dims of ``shape`` is 0."""
    if any(x == 0 for x in shape[-3:]):
        raise invalid(op, f"self shape {list(shape)} has an empty C/H/W dimension")


def checked_geom(op: str, self, k, s, d, p4, ceil_mode: bool) -> Pool2dGeom:
    """The geometry of pooling ``self``; 161002 for an empty C/H/W dim or an output
    smaller than 1 x 1."""
    shape = self.view_shape
    check_spatial(op, shape)
    g = make_geom(shape, k, s, d, p4, ceil_mode)
    if g.ho < 1 or g.wo < 1:
        raise invalid(op, f"output size [{g.ho}, {g.wo}] is too small for input {list(shape)} with kernel "
                          f"{list(k)}, stride {list(s)}, dilation {list(d)}, pads {list(p4)}")
    return g


def trace_args(self, g: Pool2dGeom, **extra) -> dict:
    """The pooling kernels' trace args: shapes, dtype and the window geometry."""
    return dict({"shapes": [list(self.view_shape)], "dtype": self.dtype_name, "kernel": [g.kh, g.kw],
                 "stride": [g.sh, g.sw], "dilation": [g.dh, g.dw], "pads": [g.pt, g.pl, g.pb, g.pr],
                 "out": [g.ho, g.wo]}, **extra)
