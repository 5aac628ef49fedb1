"""Lowering of the graph-mode format nodes (:mod:`frontend.passes.formats`):
``TransData`` and convolutions whose operands are packed (``attrs["formats"] =
"NC1HWC0"``).

A packed value is a device buffer holding the padded layout (DTensor shape = the
storage shape, e.g. [N, C1, H, W, C0]); the aclTensor handed to aclnnConvolution /
aclnnTransData over it keeps CANN's convention: view = the logical NCHW shape,
storage_format NC1HWC0 (FRACTAL_Z for a weight), storage shape = the padded layout.
"""
from __future__ import annotations

import opsnn
from opsnn.transform.trans_data import FRACTAL_Z, NC1HWC0, c0_for_itemsize, fractal_z_shape, nc1hwc0_shape

from ..graph import Node
from .attrs import bad
from .cnn_common import _geometry, _pool_out, conv_weight
from .registry import register
from .tensors import DTensor, acl_dtype, prepare

NCHW = 0  # aclFormat NCHW


def _c0(node: Node, t: DTensor) -> int:
    c0 = c0_for_itemsize(t.dtype.itemsize)
    if int(node.attrs.get("c0", c0)) != c0:
        raise bad(node, f"C0 {node.attrs.get('c0')} chosen by the formats pass does not match {t.dtype} data "
                        f"(C0 {c0})")
    return c0


def _packed(node: Node, t: DTensor, logical, fmt: int, c0: int):
    """The aclTensor of packed buffer ``t`` whose logical shape is ``logical``."""
    want = nc1hwc0_shape(logical, c0) if fmt == NC1HWC0 else fractal_z_shape(logical, c0)
    if tuple(t.shape) != tuple(want):
        raise bad(node, f"packed value {t.name!r} has shape {list(t.shape)}, expected {list(want)}")
    tensor = opsnn.aclCreateTensor(tuple(logical), acl_dtype(t.dtype), None, 0, int(fmt), tuple(t.shape), t.ptr)
    if tensor is None:
        raise bad(node, opsnn.aclGetRecentErrMsg())
    return tensor


@register("TransData")
def lower_trans_data(ctx, node: Node, ins: list[DTensor]):
    """TransData to NC1HWC0 (from an NCHW value) or to NCHW (from a packed one) ->
    aclnnTransData. attrs: ``dst_format``, ``shape`` (logical NCHW), ``c0``."""
    x, logical = ins[0], tuple(int(d) for d in node.attrs["shape"])
    c0 = _c0(node, x)
    if node.attrs.get("dst_format") == "NC1HWC0":
        out = ctx.alloc(node.outputs[0], nc1hwc0_shape(logical, c0), x.dtype)
        return [out], [prepare(node, "aclnnTransData", x.tensor, int(NC1HWC0), 1,
                               _packed(node, out, logical, NC1HWC0, c0))]
    out = ctx.alloc(node.outputs[0], logical, x.dtype)
    return [out], [prepare(node, "aclnnTransData", _packed(node, x, logical, NC1HWC0, c0), NCHW, 1, out.tensor)]


def lower_conv_packed(ctx, node: Node, ins: list[DTensor], fused: tuple | None = None,
                      residual: DTensor | None = None):
    """A 2-D Conv / FusedConv on a packed input (``attrs["in_shape"]`` its logical
    shape) and FRACTAL_Z weight (``attrs["weight_shape"]``), writing a packed output
    -> aclnnConvolution / aclnnFusedConvolution with no TransData of its own.
    ``residual``: a packed value of the output's logical shape, added before the
    activation (FusedConv only)."""
    x5, wz = ins[0], ins[1]
    b = ins[2] if len(ins) > 2 else None
    c0 = _c0(node, x5)
    in_shape = tuple(int(d) for d in node.attrs["in_shape"])
    w_shape = tuple(int(d) for d in node.attrs["weight_shape"])
    # the logical views, for the geometry checks (DTensor built directly: dataclasses.replace
    # introspects the fields on every call, a few us each, twice per conv)
    xl = DTensor(x5.name, x5.ptr, in_shape, x5.dtype, x5.tensor)
    wl = DTensor(wz.name, wz.ptr, w_shape, wz.dtype, wz.tensor)
    nsp, kernel, g = conv_weight(node, xl, wl)
    if nsp != 2 or g != 1:
        raise bad(node, "only 2-D convolutions with group 1 run on NC1HWC0")
    st, dl, pads = _geometry(node, xl, kernel)
    out_sp = [_pool_out(in_shape[2 + i], kernel[i], st[i], pads[i], pads[i + 2], dl[i]) for i in range(2)]
    logical_out = (in_shape[0], w_shape[0], *out_sp)
    out = ctx.alloc(node.outputs[0], nc1hwc0_shape(logical_out, c0), x5.dtype)
    xt, wt = _packed(node, x5, in_shape, NC1HWC0, c0), _packed(node, wz, w_shape, FRACTAL_Z, c0)
    ot = _packed(node, out, logical_out, NC1HWC0, c0)
    padding = [p for i in range(2) for p in (pads[i], pads[i + 2])]  # [top, bottom, left, right]
    ia = opsnn.aclCreateIntArray
    if fused is not None:
        extra = (_packed(node, residual, logical_out, NC1HWC0, c0),) if residual is not None else ()
        call = prepare(node, "aclnnFusedConvolution", xt, wt, b.tensor if b else None, ia(st), ia(padding), ia(dl),
                       False, ia([0, 0]), 1, *fused, ot, 0, *extra)
    else:
        call = prepare(node, "aclnnConvolution", xt, wt, b.tensor if b else None, ia(st), ia(padding), ia(dl),
                       False, ia([0, 0]), 1, ot, 0)
    return [out], [call]
