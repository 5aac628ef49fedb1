"""Convolution tiling struct and keys: the one definition both halves read (ops-nn's
``op_kernel/*_tiling_data.h`` and ``*_tiling_key.h``)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...matmul.common.cube_tiling import MatmulTilingData

#: bytes per bias value in the BiasTable: the bias is loaded as fp32 whatever its dtype
#: [assumption: the Cube adds the bias in the fp32 accumulator]
BIAS_TABLE_ITEMSIZE = 4


class ConvolutionTilingKey(IntEnum):
    """Kernel variants: 1x1 kernels (no Load3D window expansion), a bias (BiasTable) and
    the transposed form (the Cube runs the zero-inserted input)."""

    GENERAL = 0          #: any kh x kw, no bias
    POINTWISE = 1        #: 1x1 kernel, no bias
    GENERAL_BIAS = 2     #: any kh x kw, bias
    POINTWISE_BIAS = 3   #: 1x1 kernel, bias
    TRANSPOSED = 4       #: transposed (zero-inserted input), no bias
    TRANSPOSED_POINTWISE = 5
    TRANSPOSED_BIAS = 6
    TRANSPOSED_POINTWISE_BIAS = 7

    @classmethod
    def of_nd(cls, kernel, has_bias: bool, transposed: bool) -> ConvolutionTilingKey:
        """The key of a 1-D/2-D/3-D kernel (pointwise = every extent 1), +4 when transposed."""
        return cls((1 if all(k == 1 for k in kernel) else 0) + (2 if has_bias else 0) + (4 if transposed else 0))

    @classmethod
    def of(cls, kh: int, kw: int, has_bias: bool) -> ConvolutionTilingKey:
        """The key of a kh x kw convolution with or without a bias."""
        return cls((1 if kh == kw == 1 else 0) + (2 if has_bias else 0))


@dataclass(frozen=True)
class ConvolutionTilingData:
    """How phase 1 tiled a 2-D convolution as an implicit GEMM, one GEMM per group.

    batch: groups. m: N*Ho*Wo (im2col rows). n: Cout/groups. k: (C/groups)*kh*kw.
    a_gm_reuse: kh*kw/(sh*sw), at least 1 (Load3D reads each input pixel once for the
    overlapping windows, so the feature map's GM bytes are divided by it).
    in_itemsize / out_itemsize: bytes per element of input, weight / output.
    cube_dtype: the cube-rate dtype name. has_bias: a bias goes into the BiasTable.
    cube: the GEMM's cube tiling struct (recorded in the trace as ``tiling``).
    """

    batch: int
    m: int
    n: int
    k: int
    a_gm_reuse: float
    in_itemsize: int
    out_itemsize: int
    cube_dtype: str
    has_bias: bool
    cube: MatmulTilingData

    @property
    def bias_itemsize(self) -> int:
        """Bytes per bias value in the BiasTable (0 without a bias)."""
        return BIAS_TABLE_ITEMSIZE if self.has_bias else 0
