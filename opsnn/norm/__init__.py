"""Normalisation operators (aclnnBatchNorm, inference)."""
