"""Lower folded ONNX nodes onto opsnn operators (phase 1 happens here, once).

Each handler takes the node and its input :class:`DTensor` s, allocates its outputs
on the device, runs the op's ``aclnnXxxGetWorkspaceSize`` and returns the prepared
calls. Handlers register themselves in :mod:`.registry` by op type; importing this
package imports every handler module once:

=================  ======================================================================
module             ops
=================  ======================================================================
``cnn``            Conv, BatchNormalization, MaxPool, AveragePool, GlobalAveragePool, LRN
``elementwise``    Relu, Sum, Add, Sub, Mul, Div, Erf, Sqrt, Gelu, Pow, Clip, Cast, Where,
                   Equal
``linear``         Gemm, MatMul, Softmax, LayerNormalization, ReduceSum, ReduceMean,
                   FlashAttentionScore
``norm``           GroupNormalization, InstanceNormalization (aclnnGroupNorm),
                   RMSNormalization (aclnnRmsNorm)
``attention``      RotaryEmbedding (aclnnApplyRotaryPosEmb), Attention (FlashAttentionScore
                   or decomposed; the bias in ``attention_bias``)
``layout``         Transpose, Concat, Gather, Slice
``shape``          Reshape, Flatten, Identity, Dropout, Squeeze, Unsqueeze, Expand
                   (and Shape, Size, ConstantOfShape: refused as dynamic)
``fused``          FusedConv, FusedMatMul, FusedElementwise, FusedAddRmsNorm, FusedSwiGlu,
                   FusedRotaryPosEmb (graph mode, :mod:`frontend.passes`)
``activation``     Sigmoid, Tanh, LeakyRelu, Elu, Selu, Celu, Softplus, Softsign, HardSigmoid,
                   HardSwish, Mish, Swish, ThresholdedRelu, Shrink
``math_ext``       unary math, comparisons, logic and bitwise ops, Max, Min, Mean, Mod
``reduce_ext``     ReduceMax, ReduceMin, ReduceProd, ReduceSumSquare, ReduceL1, ReduceL2,
                   ReduceLogSum, ReduceLogSumExp
``quant``          QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger,
                   QLinearMatMul (opsnn/quant, aclnnQuantMatmulV4)
``quant_conv``     ConvInteger, QLinearConv (aclnnQuantConvolution, the int8 Cube convolution)
=================  ======================================================================

Shared pieces: :mod:`.attrs` (attribute and axis access), :mod:`.tensors` (DTensor,
LoweringContext, one aclnn phase 1, views, casts), :mod:`.dispatch`
(:func:`lower_node`). :mod:`frontend.fusion` rewrites the attention subgraph into one
FlashAttentionScore node before lowering. Every malformed attribute, missing input
or out-of-range axis is an :class:`~frontend.errors.UnsupportedModelError` naming op
and node, and :func:`lower_node` turns anything else a handler raises into one too.
"""
from __future__ import annotations

from . import cnn, elementwise, fused, layout, linear, norm, shape  # noqa: F401  (each registers its handlers)
from . import activation, math_ext, reduce_ext  # noqa: F401,E402  (issue 10: activations, math, logic, reductions)
from . import index, pad  # noqa: F401,E402  (shapeops: padding, resampling, shape and index ops)
from . import attention  # noqa: F401,E402  (issue 10: RotaryEmbedding, Attention)
from . import quant  # noqa: F401,E402  (issue 10: QuantizeLinear, DequantizeLinear, MatMulInteger, QLinearMatMul)
from . import quant_conv  # noqa: F401,E402  (issue 10: ConvInteger, QLinearConv on aclnnQuantConvolution)
from .attrs import attr_float, attr_int, attr_ints, axis_index, bad
from .cnn import lower_conv
from .dispatch import lower_node
from .elementwise import lower_sum
from .registry import HANDLERS, OPSET_HANDLERS, register, supported_ops
from .shape import lower_dynamic
from .tensors import DTensor, LoweringContext, acl_dtype, alpha_one

__all__ = ["DTensor", "LoweringContext", "HANDLERS", "OPSET_HANDLERS", "register", "supported_ops", "lower_node",
           "acl_dtype", "alpha_one", "bad", "attr_int", "attr_float", "attr_ints", "axis_index", "lower_conv",
           "lower_sum", "lower_dynamic"]
