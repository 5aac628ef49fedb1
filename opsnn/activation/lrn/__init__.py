"""LRN, ONNX semantics (AIV vector kernel; ``aclnnLrn`` is this simulator's name, CANN
has no public aclnn LRN). Layout: ``op_api`` (entry points), ``op_def``, ``infershape``,
``tiling`` + ``tiling_data`` (host), ``kernel`` (tile program and numpy body),
``golden`` (float64 reference, tests only)."""
from .op_api import aclnnLrn, aclnnLrnGetWorkspaceSize

__all__ = ["aclnnLrn", "aclnnLrnGetWorkspaceSize"]
