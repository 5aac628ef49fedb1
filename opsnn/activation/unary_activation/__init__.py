"""The unary activations (Sigmoid, Tanh, LeakyRelu, Elu, Selu, Celu, Softplus, Softsign,
Hardsigmoid(V2), Hardswish, Mish, Swish, Threshold, Hardshrink, Softshrink, Shrink), one
table-driven family on the elementwise AIV kernel (:mod:`opsnn.math.common`). Layout:
``op_api`` (the row table and generated entry points), ``op_def``, ``infershape``,
``tiling`` + ``tiling_data`` (cost table), ``kernel`` (numpy computes), ``golden``
(float64 references, tests only)."""
from .op_api import (aclnnCelu, aclnnCeluGetWorkspaceSize, aclnnElu, aclnnEluGetWorkspaceSize, aclnnHardshrink,
                     aclnnHardshrinkGetWorkspaceSize, aclnnHardsigmoid, aclnnHardsigmoidGetWorkspaceSize,
                     aclnnHardsigmoidV2, aclnnHardsigmoidV2GetWorkspaceSize, aclnnHardswish,
                     aclnnHardswishGetWorkspaceSize, aclnnLeakyRelu, aclnnLeakyReluGetWorkspaceSize, aclnnMish,
                     aclnnMishGetWorkspaceSize, aclnnSelu, aclnnSeluGetWorkspaceSize, aclnnShrink,
                     aclnnShrinkGetWorkspaceSize, aclnnSigmoid, aclnnSigmoidGetWorkspaceSize, aclnnSoftplus,
                     aclnnSoftplusGetWorkspaceSize, aclnnSoftshrink, aclnnSoftshrinkGetWorkspaceSize, aclnnSoftsign,
                     aclnnSoftsignGetWorkspaceSize, aclnnSwish, aclnnSwishGetWorkspaceSize, aclnnTanh,
                     aclnnTanhGetWorkspaceSize, aclnnThreshold, aclnnThresholdGetWorkspaceSize)

__all__ = [n for n in dir() if n.startswith("aclnn")]
