"""2-D convolution (aclnnConvolution): implicit GEMM on the Cube."""
