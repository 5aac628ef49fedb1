"""QuantConvolution tiling keys, shared by host and kernel halves. The tiling struct is
the float convolution's :class:`~opsnn.conv.convolution.tiling_data.ConvolutionTilingData`
tiled for 1-byte operands at the int8 cube rate (``cube_dtype == "int8"``)."""
from __future__ import annotations

from enum import IntEnum

from ..convolution.tiling_data import ConvolutionTilingData, ConvolutionTilingKey

__all__ = ["ConvolutionTilingData", "QuantConvolutionTilingKey", "QuantMode"]


class QuantMode(IntEnum):
    """What FixPipe does with the int32 accumulator on the way out."""

    PER_TENSOR = 0    #: scale [1]
    PER_CHANNEL = 1   #: scale [Cout]
    ACCUMULATOR = 2   #: INT32 output: the accumulator (+ an INT32 bias), no scale


class QuantConvolutionTilingKey(IntEnum):
    """Key = the float convolution's key (+1 for a 1x1 kernel, +2 for a bias) plus
    8 x :class:`QuantMode`, so every (kernel, bias, mode) triple has its own value."""

    PER_TENSOR = 8
    PER_TENSOR_POINTWISE = 9
    PER_TENSOR_BIAS = 10
    PER_TENSOR_POINTWISE_BIAS = 11
    PER_CHANNEL = 16
    PER_CHANNEL_POINTWISE = 17
    PER_CHANNEL_BIAS = 18
    PER_CHANNEL_POINTWISE_BIAS = 19
    ACCUMULATOR = 24
    ACCUMULATOR_POINTWISE = 25
    ACCUMULATOR_BIAS = 26
    ACCUMULATOR_POINTWISE_BIAS = 27

    @classmethod
    def of(cls, kh: int, kw: int, has_bias: bool, mode: QuantMode) -> QuantConvolutionTilingKey:
        """The key of a kh x kw int8 convolution with or without a bias, in ``mode``."""
        return cls(int(ConvolutionTilingKey.of(kh, kw, has_bias)) + 8 * (int(mode) + 1))
