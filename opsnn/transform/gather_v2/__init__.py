"""GatherV2 (AIV vector kernel, DMA only): ONNX Gather with runtime indices, which may
be negative. Layout: ``op_api`` (aclnn entry points), ``op_def``, ``infershape``,
``kernel`` (tile program and numpy body); the tiling is Embedding's
(:mod:`opsnn.transform.embedding.tiling`: the same row gather). The golden is numpy's
``np.take`` (in the tests)."""
from .op_api import aclnnGatherV2, aclnnGatherV2GetWorkspaceSize

__all__ = ["aclnnGatherV2", "aclnnGatherV2GetWorkspaceSize"]
