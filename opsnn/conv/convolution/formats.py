"""The formats of aclnnConvolution's Cube kernel: NC1HWC0 activations and FRACTAL_Z
weights, and the TransData kernels its executor adds around it.

On Atlas A2 the 2-D convolution kernel reads its feature map as NC1HWC0 and its
weight as FRACTAL_Z and writes NC1HWC0; ops-nn's ``aclnn_convolution.cpp`` converts
NCHW tensors with ``l0op::TransData`` inside the executor (input to NC1HWC0, weight
to FRACTAL_Z, then the result back to NCHW), so an eager call launches up to four
kernels: TransData(input), TransData(weight), Convolution, TransData(output). A
tensor whose ``storage_format`` is already NC1HWC0 (FRACTAL_Z for the weight) is
used as it is: graph mode (``frontend.passes.formats``) passes packed tensors and
pays no TransData here.

The weight is converted on every call: CANN's aclnnConvolution does not cache it
(the executor is rebuilt per call; the one-off conversion API,
``aclnnTransConvolutionWeight``, is documented for Ascend 310P only), which is what
PyTorch eager with torch_npu pays unless the user calls ``npu_format_cast`` first.

Applies to the 2-D forward convolution with groups = 1 and a non-empty output.
Grouped and depthwise convolutions (CANN: FRACTAL_Z with groups, DepthwiseConv2D),
1-D / 3-D (NDC1HWC0, FRACTAL_Z_3D) and transposed convolutions keep the plain NCHW
kernel of earlier releases [not modelled].

Cost: the Cube's GEMM K is (C1*C0)*kh*kw, the channels padded to whole C0 slices, as
Load3D expands NC1HWC0 rows (``tiling.py`` receives the padded C); for ResNet's first
conv (C = 3, fp16) K grows from 147 to 784 (CANN's C04 small-channel format is not
modelled). TransData cost: ``opsnn/transform/trans_data/tiling.py``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ...base.checks import check_same_dtype, check_tensor_type, invalid
from ...base.memview import tensor_view
from ...base.tiling_base import align_up
from ...common.contiguous import WS_ALIGN_BYTES, TensorRef
from ...matmul.common.cube_program import apply_epilogue
from ...transform.trans_data import (FRACTAL_Z, NC1HWC0, NC1HWC0_TO_NCHW, NCHW_TO_FRACTAL_Z, NCHW_TO_NC1HWC0,
                                     c0_for_itemsize, is_packed, nc1hwc0_to_nchw, packed_meta, packed_view,
                                     prepare_trans_data)
from ...transform.trans_data.constants import unpack_weight
from .kernel import conv2d_nchw


@dataclass
class FormatPlan:
    """Where the Cube kernel finds its packed operands and the TransData kernels
    around it. ``c0``: channels per slice; ``c_pad``: C1*C0; ``x`` / ``w`` / ``out``:
    TensorRefs to the packed input, weight and output (slot or workspace);
    ``before`` / ``after``: TransData kernels; ``workspace``: bytes;
    ``formats``: the storage format of each operand as the caller passed it."""

    c0: int
    c_pad: int
    x: TensorRef
    w: TensorRef
    out: TensorRef
    before: list = field(default_factory=list)
    after: list = field(default_factory=list)
    workspace: int = 0
    formats: dict = field(default_factory=dict)


def plan_formats(chip, op: str, input, weight, bias, output, groups: int,  # noqa: A002
                 residual=None) -> FormatPlan | None:
    """The packed operands of a 2-D convolution (module doc), or None where the plain
    NCHW kernel runs (groups > 1, an empty tensor). ``residual`` (graph mode's
    residual add) only shifts the output's slot: the kernel reads it as it is."""
    if groups != 1 or input.numel == 0 or output.numel == 0 or weight.numel == 0:
        return None
    c0 = c0_for_itemsize(input.itemsize)
    c = input.view_shape[1]
    slots = {"input": 0, "weight": 1, "output": 2 + (bias is not None) + (residual is not None)}
    ws = 0
    before, after = [], []

    def buffer(t, fmt):
        nonlocal ws
        meta = packed_meta(t, fmt, c0)
        off = ws
        ws += align_up(math.prod(meta.storage_shape) * meta.itemsize, WS_ALIGN_BYTES)
        return TensorRef(meta, None, off)

    refs = {}
    for name, t, fmt, kind in (("input", input, NC1HWC0, NCHW_TO_NC1HWC0),
                               ("weight", weight, FRACTAL_Z, NCHW_TO_FRACTAL_Z)):
        if is_packed(t, fmt):
            refs[name] = TensorRef(t, slots[name])
        else:
            refs[name] = buffer(t, fmt)
            before.append(prepare_trans_data(chip, kind, t, TensorRef(t, slots[name]), refs[name], c0, op))
    if is_packed(output, NC1HWC0):
        refs["output"] = TensorRef(output, slots["output"])
    else:
        refs["output"] = buffer(output, NC1HWC0)
        after.append(prepare_trans_data(chip, NC1HWC0_TO_NCHW, output, refs["output"],
                                        TensorRef(output, slots["output"]), c0, op))
    fmts = {n: t.storage_format.name.replace("ACL_FORMAT_", "") for n, t in
            (("input", input), ("weight", weight), ("output", output))}
    return FormatPlan(c0, -(-c // c0) * c0, refs["input"], refs["weight"], refs["output"], before, after, ws, fmts)


def packed_conv_body(fp: FormatPlan, bias_t, stride, pads, dilation, compute=None, act=None, res_t=None):
    """Body factory of the Cube kernel on packed operands: unpack (exact; a weight
    packed at build time is not unpacked, :func:`_weight_oihw`), the NCHW convolution
    of ``kernel.conv2d_nchw``, the residual ``res_t`` added (slot before the output;
    read through its packed view if its storage is NC1HWC0), the FixPipe ``act``, the
    cast to the output dtype, and the NC1HWC0 pack of the result (pad channels 0)."""
    xm, wm, om = fp.x.meta, fp.w.meta, fp.out.meta
    c, oihw = xm.view_shape[1], wm.view_shape

    def make(addrs, ws):
        xa, wa, oa = fp.x.addr(addrs, ws), fp.w.addr(addrs, ws), fp.out.addr(addrs, ws)

        def body(mem):
            # read-only views: a FRACTAL_Z weight shared with its host constant stays shared
            x = nc1hwc0_to_nchw(packed_view(mem, xa, xm.storage_shape, xm.np_dtype, writable=False), c)
            w = _weight_oihw(mem, wa, wm, oihw)
            b = tensor_view(mem, addrs[2], bias_t, writable=False) if bias_t is not None else None
            r = conv2d_nchw(x, w, stride, pads, dilation, 1, b, compute)   # a fresh float32 array
            if res_t is not None:   # in place: the same float32 adds, no temporary
                _add_residual(r, mem, addrs[-2], res_t, fp.c0)
            if act is not None:
                if act[0] == "relu":   # EPILOGUES["relu"] in place (the same np.maximum)
                    np.maximum(r, np.float32(0), out=r)
                else:
                    r = apply_epilogue(r, *act)
            r = np.asarray(r).astype(om.np_dtype, copy=False)
            _pack_into(packed_view(mem, oa, om.storage_shape, om.np_dtype), r, fp.c0)
        return body
    return make


def _weight_oihw(mem, addr: int, wm, oihw) -> np.ndarray:
    """The FRACTAL_Z weight at ``addr`` unpacked to OIHW for the GEMM (exact). Where the
    accessor offers ``derived`` (``npu_sim.device_memory.DeviceMemory.derived``) the
    unpacked form is kept on the device buffer while its bytes are immutable (a graph
    constant shared with the host), so repeated runs unpack it once; any write to the
    buffer drops it. Otherwise (or once the buffer was written) it is unpacked per call.
    A weight packed at build time (``trans_data.constants.pack_constant_weight``) whose
    bytes the device shares is not unpacked at all: its kept OIHW source is the value."""
    shape = tuple(int(d) for d in wm.storage_shape)
    derived = getattr(mem, "derived", None)
    if derived is None:
        return unpack_weight(packed_view(mem, addr, shape, wm.np_dtype, writable=False), oihw)
    return derived(addr, shape, wm.np_dtype, ("oihw", tuple(int(d) for d in oihw)),
                   lambda v: unpack_weight(v, oihw))


def _pack_into(pv: np.ndarray, r: np.ndarray, c0: int) -> None:
    """Write NCHW ``r`` into the NC1HWC0 view ``pv`` [N, C1, H, W, C0] (same dtype):
    the bytes of ``trans_data``'s ``nchw_to_nc1hwc0(r, c0)`` (pad channels 0), stored
    through a transposed view of ``pv`` instead of three temporary arrays."""
    n, c, h, w = r.shape
    t = pv.transpose(0, 1, 4, 2, 3)  # [N, C1, C0, H, W], a view of the device memory
    full = c // c0
    if full:
        t[:, :full] = r[:, :full * c0].reshape(n, full, c0, h, w)
    if full < t.shape[1]:
        tail = c - full * c0
        t[:, full, :tail] = r[:, full * c0:]
        t[:, full, tail:] = 0
        t[:, full + 1:] = 0


def _add_residual(r: np.ndarray, mem, addr: int, res_t, c0: int) -> None:
    """``r += residual`` in place (float32 adds) for the residual operand ``res_t`` at
    ``addr``, ``r`` the float32 NCHW result [N, C, H, W]. A float32 / float16 NC1HWC0
    residual is added straight from its packed view into [N, C1, C0, H, W] views of a
    C-contiguous ``r`` (float16 widened exactly in the add): the same adds as with the
    unpacked float32 copy of :func:`_residual_nchw`, which every other case takes."""
    dtype = np.dtype(res_t.np_dtype)
    if not (is_packed(res_t, NC1HWC0) and r.flags.c_contiguous and dtype in (np.float32, np.float16)):
        np.add(r, _residual_nchw(mem, addr, res_t, c0), out=r)
        return
    meta = packed_meta(res_t, NC1HWC0, c0)
    x5 = packed_view(mem, addr, meta.storage_shape, meta.np_dtype, writable=False)   # [N, C1, H, W, C0]
    n, c, h, w = r.shape
    full, rem = divmod(c, c0)
    if full:
        r5 = r[:, :full * c0].reshape(n, full, c0, h, w)   # splits the channel axis: a view of r
        np.add(r5, x5[:, :full].transpose(0, 1, 4, 2, 3), out=r5)
    if rem:
        tail = r[:, full * c0:]
        np.add(tail, x5[:, full, :, :, :rem].transpose(0, 3, 1, 2), out=tail)


def _residual_nchw(mem, addr: int, res_t, c0: int) -> np.ndarray:
    """The residual operand at ``addr`` as a float32 NCHW array (unpacked if NC1HWC0)."""
    if is_packed(res_t, NC1HWC0):
        meta = packed_meta(res_t, NC1HWC0, c0)
        v = nc1hwc0_to_nchw(packed_view(mem, addr, meta.storage_shape, meta.np_dtype, writable=False),
                            res_t.view_shape[1])
    else:
        v = tensor_view(mem, addr, res_t, writable=False)
    return np.asarray(v, np.float32)


def check_residual(output, residual) -> None:
    """aclnnFusedConvolution's residual operand against its output: a tensor, same
    view shape and dtype, NC1HWC0 storage exactly when the output's is. Raises
    AclnnError(161002) otherwise."""
    op = "aclnnFusedConvolution"
    check_tensor_type(op, residual=residual)
    check_same_dtype(op, output=output, residual=residual)
    if tuple(residual.view_shape) != tuple(output.view_shape):
        raise invalid(op, f"residual shape {list(residual.view_shape)} must equal the output's "
                          f"{list(output.view_shape)} (no broadcast)")
    if is_packed(residual, NC1HWC0) != is_packed(output, NC1HWC0):
        raise invalid(op, "residual must have the output's storage format (NC1HWC0 when the output is packed)")
