"""Resize definitions. ``scales`` (CANN: an aclFloatArray) and ``roi`` are plain float
sequences here, passed through as attributes."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnResize, aclnnResizeGetWorkspaceSize, aclnnResizeV2, aclnnResizeV2GetWorkspaceSize

RESIZE = OpDef(
    "Resize", (Param("self", INPUT), Param("scales", ATTRIBUTE, ATTR), Param("mode", ATTRIBUTE, ATTR, default="nearest"),
               Param("out", OUTPUT)),
    infer=infer_shape, get_workspace_size=aclnnResizeGetWorkspaceSize, launch=aclnnResize,
    doc="``self`` resized by ``scales`` (4-D, nearest or bilinear)",
)
RESIZE_V2 = OpDef(
    "ResizeV2", (Param("self", INPUT), Param("scales", ATTRIBUTE, ATTR), Param("roi", ATTRIBUTE, ATTR, optional=True),
                 Param("mode", ATTRIBUTE, ATTR, default="nearest"),
                 Param("coordinateTransformationMode", ATTRIBUTE, ATTR, default="half_pixel"),
                 Param("nearestMode", ATTRIBUTE, ATTR, default="round_prefer_floor"),
                 Param("cubicCoeffA", ATTRIBUTE, ATTR, default=-0.75),
                 Param("excludeOutside", ATTRIBUTE, ATTR, default=False),
                 Param("extrapolationValue", ATTRIBUTE, ATTR, default=0.0),
                 Param("antialias", ATTRIBUTE, ATTR, default=False), Param("out", OUTPUT)),
    infer=infer_shape, get_workspace_size=aclnnResizeV2GetWorkspaceSize, launch=aclnnResizeV2,
    doc="``self`` resized by ``scales`` with the ONNX Resize attributes",
)

OP_DEFS = (RESIZE, RESIZE_V2)
