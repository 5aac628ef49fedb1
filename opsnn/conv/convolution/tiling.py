"""Convolution tiling: a pure function of (chip, shapes, attrs, dtypes); no device.

One strategy, ``implicit_gemm``: one GEMM per group, batch = groups, M = N*Ho*Wo
(im2col rows, which Load3D builds on the fly), N = Cout/groups, K = (C/groups)*kh*kw,
with the feature map's GM traffic divided by kh*kw/(sh*sw) (at least 1). The GEMM is
tiled by :func:`~opsnn.matmul.common.cube_tiling.cube_tiling`. Key
(:class:`ConvolutionTilingKey`): +1 for a 1x1 kernel, +2 for a bias. Workspace 0.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ...matmul.common.cube_tiling import cube_tiling
from .tiling_data import ConvolutionTilingData, ConvolutionTilingKey


def convolution_tiling(chip: ChipConfig, input_shape, weight_shape, out_hw: tuple[int, int], stride, groups: int,
                       in_itemsize: int, out_itemsize: int, cube_dtype_name: str, has_bias: bool) -> TilingResult:
    """Tile an NCHW convolution of ``input_shape`` [N, C, H, W] by ``weight_shape``
    [Cout, C/groups, kh, kw] with output spatial size ``out_hw`` (Ho, Wo) and
    ``stride`` (sh, sw) on ``chip``. Returns a :class:`TilingResult` (strategy
    "implicit_gemm", workspace 0) whose ``data`` is a :class:`ConvolutionTilingData`.
    Raises AclnnError(561002) if no cube tile fits."""
    n = input_shape[0]
    co, cg, kh, kw = weight_shape
    (ho, wo), (sh, sw), g = out_hw, stride, int(groups)
    m, nn, k = n * ho * wo, co // g, cg * kh * kw
    reuse = max(1.0, (kh * kw) / (sh * sw))
    cube = cube_tiling(chip, g, m, nn, k, in_itemsize, out_itemsize, cube_dtype_name, a_gm_reuse=reuse,
                       name="Convolution")
    td = ConvolutionTilingData(g, m, nn, k, reuse, in_itemsize, out_itemsize, cube_dtype_name, has_bias, cube)
    key = ConvolutionTilingKey.of(kh, kw, has_bias)
    return TilingResult("implicit_gemm", int(key), cube.block_dim, 0, td, ("implicit_gemm",))
