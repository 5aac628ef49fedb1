"""The convolution family: ``convolution/`` (aclnnConvolution, 2-D implicit GEMM on the
Cube, sharing the cube tiling of ``opsnn/matmul/common/``)."""
