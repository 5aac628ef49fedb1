"""Helpers shared by the cube family (Matmul, Convolution, FlashAttentionScore): cube dtype, cube tiling."""
