"""aclnnMaxPool2dWithIndices, aclnnMaxPool, aclnnAvgPool2d, aclnnAdaptiveAvgPool2d:
phase 1 (checks in ops-nn order, shape inference, vector tiling) and phase 2.

CANN prototypes (aclnn_max_pool2d_with_indices.h, aclnn_max_pool.h, aclnn_avgpool2d.h,
aclnn_adaptive_avg_pool2d.h), ``workspaceSize, executor`` returned instead of passed:
  aclnnMaxPool2dWithIndicesGetWorkspaceSize(self, kernelSize, stride, padding, dilation, ceilMode, out, indices)
  aclnnMaxPoolGetWorkspaceSize(self, kernelShape, strides, autoPad, pads, dilations, ceilMode, out)
  aclnnAvgPool2dGetWorkspaceSize(self, kernelSize, strides, paddings, ceilMode, countIncludePad,
                                 divisorOverride, cubeMathType, out)
  aclnnAdaptiveAvgPool2dGetWorkspaceSize(self, outputSize, out)
dtypes: FLOAT, FLOAT16, BF16 (``out`` as ``self``; ``indices`` INT32 or INT64).
Formats: NCHW (4-D) or NCL/CHW (3-D); pooling runs over the last two axes.
Integer arrays are aclIntArray (any int sequence is accepted).

Padding conventions (all in input elements, never negative):
  * MaxPool2dWithIndices ``padding``: length 1 (p) or 2 ([pH, pW]), symmetric, as torch;
    each at most half the dilated kernel.
  * MaxPool ``pads`` (the ONNX-style op): length 0 (none), 1 (p everywhere), 2
    ([pH, pW], symmetric) or 4 = ONNX order ``[top, left, bottom, right]``
    (x1_begin, x2_begin, x1_end, x2_end); asymmetric allowed; each at most half the
    dilated kernel (CANN's constraint). ``autoPad`` must be 0 (NOTSET), as in CANN.
  * AvgPool2d ``paddings``: length 1 or 2 (symmetric, CANN), or length 4
    ``[top, left, bottom, right]`` (ONNX order) -- a simulator extension for the ONNX
    frontend's asymmetric pads. Each at most half the kernel (torch's constraint).
Padding contributes -inf to a max and 0 to an average; the average's divisor
follows torch (``countIncludePad``: window clipped to the padded extent; otherwise
to the input; a non-zero ``divisorOverride`` replaces both).
"""
from __future__ import annotations

from ..base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_rank, check_shape, check_tensor_type,
                           invalid)
from ..base.dtypes import aclDataType
from ..base.executor import PreparedKernel, aclOpExecutor
from ..base.op import execute, prepare
from .kernel import (Pool2dGeom, adaptive_avg_body, adaptive_bounds, avg_pool_body, max_pool_body, pool_out_size,
                     pool_tiling)

INDEX_TYPES = (aclDataType.ACL_INT32, aclDataType.ACL_INT64)


# ---------------------------------------------------------------------------- attribute parsing
def _ints(op: str, name: str, v, lengths: tuple[int, ...], minimum: int) -> tuple[int, ...]:
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


def _pair(vals: tuple[int, ...], default: tuple[int, int]) -> tuple[int, int]:
    if not vals:
        return default
    return (vals[0], vals[0]) if len(vals) == 1 else (vals[0], vals[1])


def _pads4(vals: tuple[int, ...]) -> tuple[int, int, int, int]:
    """[] -> 0s; [p] -> p everywhere; [pH, pW] -> symmetric; 4 -> [top, left, bottom, right]."""
    if not vals:
        return (0, 0, 0, 0)
    if len(vals) == 1:
        return (vals[0],) * 4
    if len(vals) == 2:
        return (vals[0], vals[1], vals[0], vals[1])
    return tuple(vals[:4])  # type: ignore[return-value]


def _check_pad_limit(op: str, name: str, pads4, eff_k: tuple[int, int]) -> None:
    """Each pad at most half the (dilated) kernel along its axis."""
    t, l, b, r = pads4
    for side, p, k in (("top", t, eff_k[0]), ("left", l, eff_k[1]), ("bottom", b, eff_k[0]),
                       ("right", r, eff_k[1])):
        if p > k // 2:
            raise invalid(op, f"{name}: {side} pad {p} must be at most half the kernel size {k}")


def _geom(op: str, self, k, s, d, pads4, ceil_mode: bool) -> Pool2dGeom:
    shape = self.view_shape
    h, w = shape[-2], shape[-1]
    if any(x == 0 for x in shape[-3:]):
        raise invalid(op, f"self shape {list(shape)} has an empty C/H/W dimension")
    planes = 1
    for x in shape[:-2]:
        planes *= x
    ho = pool_out_size(h, k[0], s[0], d[0], pads4[0], pads4[2], ceil_mode)
    wo = pool_out_size(w, k[1], s[1], d[1], pads4[1], pads4[3], ceil_mode)
    if ho < 1 or wo < 1:
        raise invalid(op, f"output size [{ho}, {wo}] is too small for input {list(shape)} with kernel {list(k)}, "
                          f"stride {list(s)}, dilation {list(d)}, pads {list(pads4)}")
    return Pool2dGeom(planes, h, w, k[0], k[1], s[0], s[1], d[0], d[1], *pads4, ho, wo)


def _executor(name: str, spec_info, body, inputs, outputs) -> aclOpExecutor:
    spec, info = spec_info
    return aclOpExecutor(name, [PreparedKernel(spec, body)], inputs, outputs, 0, info=info)


def _args(self, g: Pool2dGeom, **extra) -> dict:
    return dict({"shapes": [list(self.view_shape)], "dtype": self.dtype_name, "kernel": [g.kh, g.kw],
                 "stride": [g.sh, g.sw], "dilation": [g.dh, g.dw], "pads": [g.pt, g.pl, g.pb, g.pr],
                 "out": [g.ho, g.wo]}, **extra)


# ---------------------------------------------------------------------------- max pool
def _build_max(chip, op: str, name: str, self, g: Pool2dGeom, out, indices):
    check_shape(op, "out", out, tuple(self.view_shape[:-2]) + (g.ho, g.wo))
    if indices is not None:
        check_shape(op, "indices", indices, tuple(self.view_shape[:-2]) + (g.ho, g.wo))
    inputs, outputs = [self], [out] + ([indices] if indices is not None else [])
    if g.planes == 0:  # empty batch: nothing to launch
        return aclOpExecutor(name, [], inputs, outputs, 0, info={"strategy": "empty"})
    item = self.itemsize
    idx_item = indices.itemsize if indices is not None else 0
    taps = g.planes * g.ho * g.wo * g.kh * g.kw
    # per tap: compare + select (value) [+ select (index), int32 in UB]
    vec = taps * (2 * item + 4) if indices is not None else taps * item
    spec_info = pool_tiling(chip, name, planes=g.planes, ho=g.ho, wo=g.wo, rows_in=min(g.h, g.eff_kh),
                            cols_in=lambda wc: min(g.w, (wc - 1) * g.sw + g.eff_kw), in_item=item,
                            out_bytes_per_out=item + idx_item, tmp_bytes_per_out=4 if indices is not None else 0,
                            vec_bytes_total=vec, tiling_args=_args(self, g))
    return _executor(name, spec_info, max_pool_body(self, out, indices, g), inputs, outputs)


def aclnnMaxPool2dWithIndicesGetWorkspaceSize(self, kernelSize, stride, padding, dilation, ceilMode, out,  # noqa: N802,N803
                                              indices):
    """Phase 1 of torch.nn.functional.max_pool2d(..., return_indices=True).

    Parameters (CANN order): self (FLOAT/FLOAT16/BF16, 3-D CHW or 4-D NCHW);
    kernelSize (1 or 2 ints > 0); stride (0, 1 or 2 ints > 0; empty = kernelSize);
    padding (1 or 2 ints >= 0, symmetric, each <= dilated kernel // 2); dilation
    (1 or 2 ints > 0); ceilMode (bool); out (self's dtype, [.., Ho, Wo]); indices
    (INT32/INT64, out's shape): flat ``h * W + w`` of the maximum within its plane.
    Returns (workspace_size, executor, status): 161001 null; 161002 type, dtype,
    rank, attribute or shape invalid; 561002 a unit does not fit UB.
    """
    def build(chip):
        op = "aclnnMaxPool2dWithIndices"
        check_not_null(op, self=self, kernelSize=kernelSize, stride=stride, padding=padding, dilation=dilation,
                       out=out, indices=indices)
        check_tensor_type(op, self=self, out=out, indices=indices)
        check_dtype(op, "self", self, FLOAT_TYPES_BF16)
        check_dtype(op, "out", out, (self.data_type,))
        check_dtype(op, "indices", indices, INDEX_TYPES)
        check_rank(op, "self", self, (3, 4))
        k = _pair(_ints(op, "kernelSize", kernelSize, (1, 2), 1), (1, 1))
        s = _pair(_ints(op, "stride", stride, (0, 1, 2), 1), k)
        p = _pair(_ints(op, "padding", padding, (1, 2), 0), (0, 0))
        d = _pair(_ints(op, "dilation", dilation, (1, 2), 1), (1, 1))
        pads4 = (p[0], p[1], p[0], p[1])
        _check_pad_limit(op, "padding", pads4, ((k[0] - 1) * d[0] + 1, (k[1] - 1) * d[1] + 1))
        g = _geom(op, self, k, s, d, pads4, bool(ceilMode))
        return _build_max(chip, op, "MaxPool2dWithIndices", self, g, out, indices)
    return prepare("MaxPool2dWithIndices", build)


def aclnnMaxPool2dWithIndices(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    return execute("MaxPool2dWithIndices", workspace, workspaceSize, executor, stream)


def aclnnMaxPoolGetWorkspaceSize(self, kernelShape, strides, autoPad, pads, dilations, ceilMode, out):  # noqa: N802,N803
    """Phase 1 of ONNX MaxPool (values only).

    Parameters (CANN order): self (FLOAT/FLOAT16/BF16, 3-D or 4-D); kernelShape (1 or
    2 ints > 0); strides (0, 1 or 2 ints > 0; empty = kernelShape); autoPad (int,
    only 0 = NOTSET); pads (0, 1, 2 or 4 ints >= 0; 4 = [top, left, bottom, right]);
    dilations (0, 1 or 2 ints > 0); ceilMode (int, non-zero = ceil); out.
    """
    def build(chip):
        op = "aclnnMaxPool"
        check_not_null(op, self=self, kernelShape=kernelShape, strides=strides, pads=pads, dilations=dilations,
                       out=out)
        check_tensor_type(op, self=self, out=out)
        check_dtype(op, "self", self, FLOAT_TYPES_BF16)
        check_dtype(op, "out", out, (self.data_type,))
        check_rank(op, "self", self, (3, 4))
        if isinstance(autoPad, bool) or not isinstance(autoPad, int) or autoPad != 0:
            raise invalid(op, f"autoPad must be 0 (NOTSET), got {autoPad!r}")
        k = _pair(_ints(op, "kernelShape", kernelShape, (1, 2), 1), (1, 1))
        s = _pair(_ints(op, "strides", strides, (0, 1, 2), 1), k)
        pads4 = _pads4(_ints(op, "pads", pads, (0, 1, 2, 4), 0))
        d = _pair(_ints(op, "dilations", dilations, (0, 1, 2), 1), (1, 1))
        _check_pad_limit(op, "pads", pads4, ((k[0] - 1) * d[0] + 1, (k[1] - 1) * d[1] + 1))
        g = _geom(op, self, k, s, d, pads4, bool(ceilMode))
        return _build_max(chip, op, "MaxPool", self, g, out, None)
    return prepare("MaxPool", build)


def aclnnMaxPool(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    return execute("MaxPool", workspace, workspaceSize, executor, stream)


# ---------------------------------------------------------------------------- average pools
def aclnnAvgPool2dGetWorkspaceSize(self, kernelSize, strides, paddings, ceilMode, countIncludePad,  # noqa: N802,N803
                                   divisorOverride, cubeMathType, out):
    """Phase 1 of torch.nn.functional.avg_pool2d.

    Parameters (CANN order): self (FLOAT/FLOAT16/BF16, 3-D or 4-D); kernelSize (1
    or 2 ints > 0); strides (0, 1 or 2 ints > 0; empty = kernelSize); paddings (1 or
    2 ints >= 0, symmetric; or 4 = [top, left, bottom, right], a simulator extension);
    ceilMode (bool); countIncludePad (bool); divisorOverride (int, 0 = none, else > 0);
    cubeMathType (0..3: validated and recorded; this vector kernel accumulates in
    fp32 whatever it says); out. Each pad at most kernel // 2.
    """
    def build(chip):
        op = "aclnnAvgPool2d"
        check_not_null(op, self=self, kernelSize=kernelSize, strides=strides, paddings=paddings, out=out)
        check_tensor_type(op, self=self, out=out)
        check_dtype(op, "self", self, FLOAT_TYPES_BF16)
        check_dtype(op, "out", out, (self.data_type,))
        check_rank(op, "self", self, (3, 4))
        k = _pair(_ints(op, "kernelSize", kernelSize, (1, 2), 1), (1, 1))
        s = _pair(_ints(op, "strides", strides, (0, 1, 2), 1), k)
        pads4 = _pads4(_ints(op, "paddings", paddings, (1, 2, 4), 0))
        if isinstance(divisorOverride, bool) or not isinstance(divisorOverride, int) or divisorOverride < 0:
            raise invalid(op, f"divisorOverride must be an int >= 0 (0 = none), got {divisorOverride!r}")
        if cubeMathType not in (0, 1, 2, 3) or isinstance(cubeMathType, bool):
            raise invalid(op, f"cubeMathType must be 0..3, got {cubeMathType!r}")
        _check_pad_limit(op, "paddings", pads4, k)
        g = _geom(op, self, k, s, (1, 1), pads4, bool(ceilMode))
        check_shape(op, "out", out, tuple(self.view_shape[:-2]) + (g.ho, g.wo))
        if g.planes == 0:
            return aclOpExecutor("AvgPool2d", [], [self], [out], 0, info={"strategy": "empty"})
        item = self.itemsize
        outs = g.planes * g.ho * g.wo
        vec = outs * g.kh * g.kw * 4 + outs * 4 * (2 if item < 4 else 1)  # fp32 adds, divide (+ casts)
        spec_info = pool_tiling(chip, "AvgPool2d", planes=g.planes, ho=g.ho, wo=g.wo, rows_in=min(g.h, g.kh),
                                cols_in=lambda wc: min(g.w, (wc - 1) * g.sw + g.kw), in_item=item,
                                out_bytes_per_out=item, tmp_bytes_per_out=4, vec_bytes_total=vec,
                                tiling_args=_args(self, g, countIncludePad=bool(countIncludePad),
                                                  divisorOverride=divisorOverride, cubeMathType=cubeMathType))
        return _executor("AvgPool2d", spec_info,
                         avg_pool_body(self, out, g, bool(countIncludePad), divisorOverride), [self], [out])
    return prepare("AvgPool2d", build)


def aclnnAvgPool2d(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    return execute("AvgPool2d", workspace, workspaceSize, executor, stream)


def aclnnAdaptiveAvgPool2dGetWorkspaceSize(self, outputSize, out):  # noqa: N802,N803
    """Phase 1 of torch.nn.functional.adaptive_avg_pool2d: output cell (i, j)
    averages input rows floor(i*H/Ho) .. ceil((i+1)*H/Ho)-1 and likewise columns.
    outputSize (1 or 2 ints > 0) = [1, 1] is a global average pool.
    self FLOAT/FLOAT16/BF16, 3-D or 4-D; out self's dtype, [.., Ho, Wo]."""
    def build(chip):
        op = "aclnnAdaptiveAvgPool2d"
        check_not_null(op, self=self, outputSize=outputSize, out=out)
        check_tensor_type(op, self=self, out=out)
        check_dtype(op, "self", self, FLOAT_TYPES_BF16)
        check_dtype(op, "out", out, (self.data_type,))
        check_rank(op, "self", self, (3, 4))
        ho, wo = _pair(_ints(op, "outputSize", outputSize, (1, 2), 1), (1, 1))
        shape = self.view_shape
        if any(x == 0 for x in shape[-3:]):
            raise invalid(op, f"self shape {list(shape)} has an empty C/H/W dimension")
        check_shape(op, "out", out, tuple(shape[:-2]) + (ho, wo))
        h, w = shape[-2], shape[-1]
        planes = 1
        for x in shape[:-2]:
            planes *= x
        if planes == 0:
            return aclOpExecutor("AdaptiveAvgPool2d", [], [self], [out], 0, info={"strategy": "empty"})
        hs, he = adaptive_bounds(h, ho)
        ws, we = adaptive_bounds(w, wo)
        kh_max, kw_max = int((he - hs).max()), int((we - ws).max())
        taps = planes * int((he - hs).sum()) * int((we - ws).sum())
        item = self.itemsize
        vec = taps * 4 + planes * ho * wo * 4 * (2 if item < 4 else 1)
        spec_info = pool_tiling(chip, "AdaptiveAvgPool2d", planes=planes, ho=ho, wo=wo, rows_in=kh_max,
                                cols_in=lambda wc: min(w, -(-wc * w // wo) + kw_max - 1), in_item=item,
                                out_bytes_per_out=item, tmp_bytes_per_out=4, vec_bytes_total=vec,
                                tiling_args={"shapes": [list(shape)], "dtype": self.dtype_name,
                                             "outputSize": [ho, wo], "kernel_max": [kh_max, kw_max]})
        return _executor("AdaptiveAvgPool2d", spec_info, adaptive_avg_body(self, out, planes, h, w, ho, wo),
                         [self], [out])
    return prepare("AdaptiveAvgPool2d", build)


def aclnnAdaptiveAvgPool2d(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    return execute("AdaptiveAvgPool2d", workspace, workspaceSize, executor, stream)
