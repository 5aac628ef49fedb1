"""Pooling family (AIV vector kernels): MaxPool2dWithIndices and MaxPool (ONNX-style)
in ``max_pool/``, ``avg_pool2d/``, ``adaptive_avg_pool2d/``; window geometry, the
tiling strategies and struct, the tile program and shared checks in ``common/``.
Pad conventions are documented in each op's ``op_api``."""
