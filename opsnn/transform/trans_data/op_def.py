"""TransData definition: parameters in CANN order (npu-sim entry point named after
CANN's l0 op; see ``op_api``), dtypes, shape inference."""
from __future__ import annotations

from ...base.dtypes import aclFormat
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import c0_for_itemsize, fractal_z_shape, nc1hwc0_shape
from .op_api import aclnnTransData, aclnnTransDataGetWorkspaceSize


def _infer(src, dstFormat, groups=1):  # noqa: N803
    """The dst (shape, dtype) as a plain tensor: the packed layout for NC1HWC0 /
    FRACTAL_Z, [N, C1*C0, H, W] for NCHW/ND from a plain 5-D src (C is not known
    from the padded layout)."""
    from ...base.dtypes import to_numpy_dtype
    shape, dt = src
    c0 = c0_for_itemsize(to_numpy_dtype(dt).itemsize)
    try:
        fmt = aclFormat(int(dstFormat))
    except (TypeError, ValueError):
        raise ValueError(f"dstFormat {dstFormat!r} is not an aclFormat (e.g. aclFormat.ACL_FORMAT_NC1HWC0)") from None
    if fmt in (aclFormat.ACL_FORMAT_NC1HWC0, aclFormat.ACL_FORMAT_FRACTAL_Z):
        if len(shape) != 4:
            raise ValueError(f"src must be 4-D (NCHW) for {fmt.name}, got shape {list(shape)}")
        packed = nc1hwc0_shape(shape, c0) if fmt == aclFormat.ACL_FORMAT_NC1HWC0 else fractal_z_shape(shape, c0)
        return [(packed, dt)]
    if len(shape) != 5:
        raise ValueError(f"src must be 5-D (NC1HWC0) for {fmt.name}, got shape {list(shape)}")
    n, c1, h, w, k = shape
    return [((n, c1 * k, h, w), dt)]


TRANS_DATA = OpDef(
    "TransData",
    (Param("src", INPUT), Param("dstFormat", ATTRIBUTE, ATTR), Param("groups", ATTRIBUTE, ATTR, default=1),
     Param("dst", OUTPUT)),
    infer=_infer, get_workspace_size=aclnnTransDataGetWorkspaceSize, launch=aclnnTransData,
    doc="``src`` converted between NCHW/ND and NC1HWC0 / FRACTAL_Z (channels padded to C0)",
)

OP_DEFS = (TRANS_DATA,)
