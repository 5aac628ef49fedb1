"""Permute (AIV vector kernel). Layout: ``op_api`` (aclnn entry points), ``op_def``,
``infershape`` (+ axis merging), ``tiling`` + ``tiling_data`` (host), ``kernel`` (tile
program and numpy body). The golden is numpy's transpose (in the tests)."""
from .op_api import aclnnPermute, aclnnPermuteGetWorkspaceSize

__all__ = ["aclnnPermute", "aclnnPermuteGetWorkspaceSize"]
