"""QuantConvolution tiling: a pure function of (chip, shapes, attrs, out dtype size,
quant mode); no device.

One strategy, ``implicit_gemm_int8``: the float convolution's implicit GEMM
(:func:`~opsnn.conv.convolution.tiling.convolution_tiling`: one GEMM per group,
M = N*Ho*Wo, N = Cout/groups, K = (C/groups)*kh*kw, the feature map's GM bytes divided
by kh*kw/(sh*sw)) with 1-byte operands and the int8 cube rate: ``cube_dtype "int8"``
selects ``ChipConfig.cube_int8_macs_per_cycle`` (16x32x16 on 910B, the CANN platform
config's ``[DtypeMKN] DT_INT8=16,32,16``, as aclnnQuantMatmulV4 uses it) and the int8
K fractal of 32. L0C holds the int32 accumulator (4 B per element, as fp32). The key
is :class:`QuantConvolutionTilingKey`. Workspace 0.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ..convolution.tiling import convolution_tiling
from .tiling_data import QuantConvolutionTilingKey, QuantMode

#: bytes per int8 operand element (input and weight)
INT8_ITEMSIZE = 1


def quant_convolution_tiling(chip: ChipConfig, input_shape, weight_shape, out_hw: tuple[int, int], stride,
                             groups: int, out_itemsize: int, has_bias: bool,
                             mode: QuantMode = QuantMode.PER_TENSOR) -> TilingResult:
    """Tile an int8 NCHW convolution of ``input_shape`` [N, C, H, W] by ``weight_shape``
    [Cout, C/groups, kh, kw] with output size ``out_hw`` (Ho, Wo) and ``stride`` on
    ``chip``, writing ``out_itemsize`` bytes per output element (2 fp16/bf16, 1 int8 /
    uint8, 4 int32). Returns a :class:`TilingResult` (strategy "implicit_gemm_int8",
    workspace 0) whose ``data`` is a ``ConvolutionTilingData`` with ``cube_dtype ==
    "int8"``. Raises AclnnError(561002) if no cube tile fits."""
    res = convolution_tiling(chip, input_shape, weight_shape, out_hw, stride, groups, INT8_ITEMSIZE, out_itemsize,
                             "int8", has_bias)
    _, _, kh, kw = weight_shape
    key = QuantConvolutionTilingKey.of(kh, kw, has_bias, mode)
    return TilingResult("implicit_gemm_int8", int(key), res.block_dim, 0, res.data, ("implicit_gemm_int8",))
