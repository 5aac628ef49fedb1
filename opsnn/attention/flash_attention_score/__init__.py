"""FlashAttentionScore (CANN ops-transformer ``attention/flash_attention_score``)."""
from .op_api import aclnnFlashAttentionScore, aclnnFlashAttentionScoreGetWorkspaceSize  # noqa: F401
from .tiling import FlashAttentionScoreTilingData, FlashAttentionScoreTilingKey  # noqa: F401
