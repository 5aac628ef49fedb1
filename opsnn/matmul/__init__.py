"""The matmul family (cube GEMMs): ``matmul/`` (aclnnMatmul, aclnnMm, aclnnBatchMatMul,
aclnnAddmm) and ``common/`` (the cube tiling and tile program that Convolution and
FlashAttentionScore share)."""
