"""Quantization family (ops-nn's ``quant/``): aclnnQuantize, aclnnDequantizeLinear and
aclnnDynamicQuantizeLinear, UB-streaming vector kernels sharing :mod:`.common.affine`.
The quantized GEMM (aclnnQuantMatmulV4) is in :mod:`opsnn.matmul.quant_matmul`."""
