"""FlashAttentionScore (CANN ops-transformer ``attention/flash_attention_score``; MIX
kernel: cube + vector). Layout: ``op_api`` (aclnn entry points), ``op_def``,
``infershape``, ``tiling`` + ``tiling_data`` (host), ``kernel`` (tile program and numpy
body), ``golden`` (float64 reference, tests only), ``README.md``."""
from .op_api import aclnnFlashAttentionScore, aclnnFlashAttentionScoreGetWorkspaceSize
from .tiling_data import FlashAttentionScoreTilingData, FlashAttentionScoreTilingKey

__all__ = ["aclnnFlashAttentionScore", "aclnnFlashAttentionScoreGetWorkspaceSize", "FlashAttentionScoreTilingData",
           "FlashAttentionScoreTilingKey"]
