"""Embedding (AIV vector kernel, DMA only). Layout: ``op_api`` (aclnn entry points),
``op_def``, ``infershape``, ``tiling`` + ``tiling_data`` (host), ``kernel`` (tile
program, numpy body and the device-side index check). The golden is numpy's fancy
indexing (in the tests)."""
from .op_api import aclnnEmbedding, aclnnEmbeddingGetWorkspaceSize

__all__ = ["aclnnEmbedding", "aclnnEmbeddingGetWorkspaceSize"]
