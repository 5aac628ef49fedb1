"""Convolution tiling: a pure function of (chip, shapes, attrs, dtypes); no device.

2-D forward: ``implicit_gemm`` (:func:`convolution_tiling`): one GEMM per group, batch = groups, M = N*Ho*Wo
(im2col rows, which Load3D builds on the fly), N = Cout/groups, K = (C/groups)*kh*kw,
with the feature map's GM traffic divided by kh*kw/(sh*sw) (at least 1). The GEMM is
tiled by :func:`~opsnn.matmul.common.cube_tiling.cube_tiling`. Key
(:class:`ConvolutionTilingKey`): +1 for a 1x1 kernel, +2 for a bias. Workspace 0.
1-D / 3-D and transposed: :func:`convolution_nd_tiling` (``implicit_gemm`` or
``zero_insert_gemm``, key +4 when transposed).
"""
from __future__ import annotations

import math

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


def convolution_nd_tiling(chip: ChipConfig, n: int, cin: int, cout: int, kernel, out_sp, stride, groups: int,
                          in_itemsize: int, out_itemsize: int, cube_dtype_name: str, has_bias: bool,
                          transposed: bool = False) -> TilingResult:
    """Tile a 1-D/2-D/3-D convolution, forward or transposed, as one GEMM per group.

    Forward (strategy ``implicit_gemm``, as :func:`convolution_tiling` for any rank):
    M = N*prod(out_sp), N = cout/groups, K = (cin/groups)*prod(kernel); the feature
    map's GM bytes divided by prod(kernel)/prod(stride), at least 1.

    Transposed (strategy ``zero_insert_gemm``): the stride-1 convolution of the
    zero-inserted input (``kernel_nd.py``), so M = N*prod(out_sp), K =
    (cin/groups)*prod(kernel) with the inserted zeros multiplied too (the Cube does not
    skip them: prod(stride) times the useful MACs). The zeros are made in L1 from the
    original input, so the GM bytes of A are M*K/(prod(kernel)*prod(stride)): the reuse
    factor is prod(kernel)*prod(stride). [assumption: CANN's Conv2DBackpropInput /
    ConvTranspose kernels expand dy on chip this way; the choice over col2im (a GEMM
    of Cin x Cout*prod(k) per pixel and a scatter-add) is that it stays one Cube
    program with no Vector scatter and no workspace.]

    Key: :meth:`ConvolutionTilingKey.of_nd`. Workspace 0. Raises AclnnError(561002) if
    no cube tile fits."""
    g = int(groups)
    m = n * math.prod(out_sp)
    k = (cin // g) * math.prod(kernel)
    pk, ps = math.prod(kernel), math.prod(stride)
    reuse = max(1.0, float(pk * ps) if transposed else pk / ps)
    strategy = "zero_insert_gemm" if transposed else "implicit_gemm"
    cube = cube_tiling(chip, g, m, cout // g, k, in_itemsize, out_itemsize, cube_dtype_name, a_gm_reuse=reuse,
                       name="Convolution")
    td = ConvolutionTilingData(g, m, cout // g, k, reuse, in_itemsize, out_itemsize, cube_dtype_name, has_bias, cube)
    key = ConvolutionTilingKey.of_nd(kernel, has_bias, transposed)
    return TilingResult(strategy, int(key), cube.block_dim, 0, td, (strategy,))
