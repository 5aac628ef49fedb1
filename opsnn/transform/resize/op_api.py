"""aclnnResize (CANN) and aclnnResizeV2 (ONNX Resize in full; not in CANN).

CANN prototype (aclnn_resize.h; CANN aclnnResize doc):
  aclnnResizeGetWorkspaceSize(self, scales, mode, out, workspaceSize, executor)
  aclnnResize(workspace, workspaceSize, executor, stream)
  self: 4-D NCHW FLOAT16 / FLOAT. scales: aclFloatArray (a float sequence here: the
  simulator has no aclFloatArray type), one per axis, the first two 1. mode:
  "nearest" (here: asymmetric coordinates, floor, as ONNX Upsample; assumption) or
  "bilinear" (half_pixel linear; assumption). out: floor(in * scale) per axis.
aclnnResizeV2 has no CANN counterpart (CANN's aclnnResize covers 4-D nearest /
bilinear only); it carries every ONNX Resize attribute, in CANN style:
  aclnnResizeV2GetWorkspaceSize(self, scales, roi, mode, coordinateTransformationMode,
      nearestMode, cubicCoeffA, excludeOutside, extrapolationValue, antialias, out, workspaceSize,
      executor)
  self: FLOAT, FLOAT16, BF16 or DOUBLE; 1-8 dims. scales: one per axis, > 0. roi: None
  or 2 * rank floats (starts then ends; tf_crop_and_resize). mode: nearest, linear,
  cubic. coordinateTransformationMode: half_pixel, half_pixel_symmetric,
  pytorch_half_pixel, align_corners, asymmetric, tf_crop_and_resize. nearestMode:
  round_prefer_floor, round_prefer_ceil, floor, ceil. antialias: when downscaling
  (scale < 1), linear / cubic filters stretched by 1 / scale. out: self's dtype; each axis
  within 1 of in * scale (floor or ONNX's rounding for keep_aspect_ratio_policy).
Status: 161001 null; 161002 not a tensor, dtype, rank, scales, roi, a mode, or shape.

Cost model: ``tiling.py``; interpolation: ``kernel.py``.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import execute, prepare
from ..common.phase1 import build_executor, check_out
from .infershape import resized_shape
from .kernel import resize_fn
from .tiling import resize_tiling

MODES = ("nearest", "linear", "cubic")
COORDS = ("half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric",
          "tf_crop_and_resize")
NEAREST = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
V2_TYPES = (T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BF16, T.ACL_DOUBLE)


def _floats(op, name, v, n):
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
        raise invalid(op, f"{name} must be a float array, got {type(v).__name__}")
    vals = [float(x) for x in v]
    if len(vals) != n:
        raise invalid(op, f"{name} {vals} must have {n} entries")
    return vals


def _run(chip, name, self, scales, roi, mode, coord, nearest, a, exclude, extrap, out, exact_shape,
         antialias=False):
    op = f"aclnn{name}"
    shape = tuple(self.view_shape)
    s = _floats(op, "scales", scales, len(shape))
    if any(v <= 0 for v in s):
        raise invalid(op, f"scales {s} must be positive")
    rois = [(0.0, 1.0)] * len(shape)
    if roi is not None and len(roi):
        r = _floats(op, "roi", roi, 2 * len(shape))
        rois = list(zip(r[:len(shape)], r[len(shape):]))
    oshape = tuple(out.view_shape)
    if exact_shape:
        check_out(op, "out", out, resized_shape(shape, s), self.data_type)
    else:
        check_dtype(op, "out", out, (self.data_type,))
        if len(oshape) != len(shape) or any(abs(o - i * v) >= 1 for o, i, v in zip(oshape, shape, s)):
            raise invalid(op, f"out shape {list(oshape)} does not match self {list(shape)} times scales {s}")
    res = resize_tiling(chip, shape, oshape, mode, self.itemsize) if out.numel and self.numel else None
    fn = resize_fn(shape, oshape, s, mode, coord, nearest, float(a), bool(exclude), rois, float(extrap),
                   bool(antialias))
    return build_executor(chip, op, name, [self], [out], res, fn,
                          {"shapes": [list(shape)], "dtype": self.dtype_name, "mode": mode, "coord": coord},
                          {"mode": mode, "coord": coord, "scales": s})


def _resize(chip, self, scales, mode, out):
    op = "aclnnResize"
    check_not_null(op, self=self, scales=scales, mode=mode, out=out)
    check_tensor_type(op, self=self, out=out)
    check_dtype(op, "self", self, (T.ACL_FLOAT16, T.ACL_FLOAT))
    if len(self.view_shape) != 4:
        raise invalid(op, f"self must be 4-D NCHW, got shape {list(self.view_shape)}")
    if mode not in ("nearest", "bilinear"):
        raise invalid(op, f"mode {mode!r} must be 'nearest' or 'bilinear'")
    s = _floats(op, "scales", scales, 4)
    if s[0] != 1 or s[1] != 1:
        raise invalid(op, f"scales {s}: only H and W may be resized (the first two must be 1)")
    if mode == "nearest":
        return _run(chip, "Resize", self, s, None, "nearest", "asymmetric", "floor", -0.75, False, 0.0, out, True)
    return _run(chip, "Resize", self, s, None, "linear", "half_pixel", "floor", -0.75, False, 0.0, out, True)


def _resize_v2(chip, self, scales, roi, mode, coord, nearest, a, exclude, extrap, antialias, out):
    op = "aclnnResizeV2"
    check_not_null(op, self=self, scales=scales, mode=mode, coordinateTransformationMode=coord,
                   nearestMode=nearest, cubicCoeffA=a, excludeOutside=exclude, extrapolationValue=extrap,
                   antialias=antialias, out=out)
    check_tensor_type(op, self=self, out=out)
    check_dtype(op, "self", self, V2_TYPES)
    if not 1 <= len(self.view_shape) <= 8:
        raise invalid(op, f"self must be 1-D to 8-D, got shape {list(self.view_shape)}")
    for what, v, allowed in (("mode", mode, MODES), ("coordinateTransformationMode", coord, COORDS),
                             ("nearestMode", nearest, NEAREST)):
        if v not in allowed:
            raise invalid(op, f"{what} {v!r} must be one of {', '.join(allowed)}")
    return _run(chip, "ResizeV2", self, scales, roi, mode, coord, nearest, a, exclude, extrap, out, False,
                antialias)


def aclnnResizeGetWorkspaceSize(self, scales, mode, out):  # noqa: N802
    """Phase 1 of CANN's aclnnResize (module doc)."""
    return prepare("Resize", lambda chip: _resize(chip, self, scales, mode, out))


def aclnnResize(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Resize."""
    return execute("Resize", workspace, workspaceSize, executor, stream)


def aclnnResizeV2GetWorkspaceSize(self, scales, roi, mode, coordinateTransformationMode, nearestMode,  # noqa: N802
                                  cubicCoeffA, excludeOutside, extrapolationValue, antialias, out):  # noqa: N803
    """Phase 1 of the full ONNX Resize (module doc; not a CANN entry point)."""
    return prepare("ResizeV2", lambda chip: _resize_v2(chip, self, scales, roi, mode, coordinateTransformationMode,
                                                       nearestMode, cubicCoeffA, excludeOutside,
                                                       extrapolationValue, antialias, out))


def aclnnResizeV2(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of ResizeV2."""
    return execute("ResizeV2", workspace, workspaceSize, executor, stream)
