"""Helpers shared by the cube operators (Matmul family, Convolution, FlashAttentionScore)."""
