"""TransData (AIV vector kernel): NCHW/ND <-> NC1HWC0 activations and NCHW ->
FRACTAL_Z convolution weights, C padded to a multiple of C0. Layout: ``op_api``
(aclnnTransData, an npu-sim entry point named after CANN's l0 op TransData),
``op_def``, ``infershape`` (C0, packed shapes), ``tiling`` + ``tiling_data``,
``kernel`` (tile program, numpy transforms, body), ``l0_op`` (the call other ops'
executors make: aclnnConvolution), ``golden`` (tests only)."""
from .infershape import (NC1HWC0_TO_NCHW, NCHW_TO_FRACTAL_Z, NCHW_TO_NC1HWC0, c0_for_itemsize, fractal_z_shape,
                         nc1hwc0_shape)
from .kernel import fractal_z_to_oihw, nc1hwc0_to_nchw, nchw_to_nc1hwc0, oihw_to_fractal_z, packed_view
from .l0_op import FRACTAL_Z, NC1HWC0, is_packed, packed_meta, prepare_trans_data
from .op_api import aclnnTransData, aclnnTransDataGetWorkspaceSize

__all__ = ["FRACTAL_Z", "NC1HWC0", "NC1HWC0_TO_NCHW", "NCHW_TO_FRACTAL_Z", "NCHW_TO_NC1HWC0", "aclnnTransData",
           "aclnnTransDataGetWorkspaceSize", "c0_for_itemsize", "fractal_z_shape", "fractal_z_to_oihw",
           "is_packed", "nc1hwc0_shape", "nc1hwc0_to_nchw", "nchw_to_nc1hwc0", "oihw_to_fractal_z",
           "packed_meta", "packed_view", "prepare_trans_data"]
